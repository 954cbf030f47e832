// RUN: not xpu-opt %s --split-input-file 2>&1 >/dev/null | FileCheck %s
// What Intel's verifiers reject, rejected here with a located error in Intel's words
// (cases written for this project after the constructs of Intel's dialect tests).

// CHECK: ttig-invalid.mlir:6:18: error: threadsPerWarp could not be smaller than the execution size. got threadsPerWarp:8, executionSize:16
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 8, warpsPerCTA = [1, 1], repCluster = [1, 1]}>
module {
}
// -----

// CHECK: ttig-invalid.mlir:12:18: error: repeatCount must be in the range [1, 8], but was:16
#mma = #ttig.dpas<{repeatCount = 16, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1]}>
module {
}

// -----

// CHECK: ttig-invalid.mlir:20:17: error: ttg.dot_op kWidth parameter must match the parent's opsPerChannel
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1]}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module {
}

// -----
// CHECK: ttig-invalid.mlir:32:5: error: 'tt.dot' op Operand 2 (<block argument> of type {{.*}} at index: 2) has an invalid layout: #ttig.dpas<{{.*}}>.
// CHECK-NEXT: Layout has opsPerChannel = 2 but tensor element type is 'f32'. Expected 16 bit type.
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @dot(%a: tensor<8x16xf32, #a>, %b: tensor<16x16xf32, #b>, %c: tensor<8x16xf32, #mma>) {
    %0 = tt.dot %a, %b, %c : tensor<8x16xf32, #a> * tensor<16x16xf32, #b> -> tensor<8x16xf32, #mma>
    tt.return
  }
}

// -----

// CHECK: ttig-invalid.mlir:42:5: error: 'ttig.sub_group_transpose' op can only be used on tensors of shape <sub_group_size x sub_group_size> with no encoding
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @transpose(%buf: !tt.ptr<f32, 3>, %x: tensor<8x8xf32>) {
    %0 = ttig.sub_group_transpose %buf, %x : tensor<8x8xf32>
    tt.return
  }
}

// -----

// CHECK: ttig-invalid.mlir:52:5: error: 'ttig.2d_block_load' op result tensor must have rank >= 2, got 1
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @load(%p: !tt.ptr<f16>, %w: i32) {
    %0 = ttig.2d_block_load %p, %w, %w, %w[%w, %w] {row_major} : !tt.ptr<f16> -> tensor<16xf16>
    tt.return
  }
}

// -----

// CHECK: ttig-invalid.mlir:62:5: error: 'ttig.2d_block_load_from_ptr' op 'other' must be present when 'mask' is present
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @load_ptr(%p: tensor<8x16x!tt.ptr<f16>>, %m: tensor<8x16xi1>, %pitch: i32) {
    %0 = "ttig.2d_block_load_from_ptr"(%p, %pitch, %m) <{base_height = 8 : i32, base_width = 32 : i32, memory_layout = 0 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (tensor<8x16x!tt.ptr<f16>>, i32, tensor<8x16xi1>) -> tensor<8x16xf16>
    tt.return
  }
}

// -----

// CHECK: ttig-invalid.mlir:71:3: error: 'ttig.descriptor_prefetch' op expected 3 indices, but got 2
tt.func @prefetch(%d: !tt.tensordesc<4x8x16xf16>, %i: i32) {
  ttig.descriptor_prefetch %d[%i, %i] : !tt.tensordesc<4x8x16xf16>
  tt.return
}

// -----

// CHECK: ttig-invalid.mlir:79:3: error: 'ttig.descriptor_gather' op must have at least 16 columns for bf16, but got 8
tt.func @gather_narrow(%d: !tt.tensordesc<1x8xbf16>, %x: tensor<16xi32>, %y: i32) {
  %0 = ttig.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x8xbf16>, tensor<16xi32>, i32) -> tensor<16x8xbf16>
  tt.return
}

// -----

// CHECK: ttig-invalid.mlir:87:3: error: 'ttig.descriptor_gather' op descriptor block must have exactly 1 row, but got 4
tt.func @gather_rows(%d: !tt.tensordesc<4x64xbf16>, %x: tensor<16xi32>, %y: i32) {
  %0 = ttig.descriptor_gather %d[%x, %y] : (!tt.tensordesc<4x64xbf16>, tensor<16xi32>, i32) -> tensor<16x64xbf16>
  tt.return
}

// -----

// CHECK: ttig-invalid.mlir:95:3: error: 'tt.make_tensor_descriptor' op expected 2 shape and 2 stride operands for a rank-2 descriptor
tt.func @make(%p: !tt.ptr<f16>, %s: i32, %t: i64) {
  %0 = tt.make_tensor_descriptor %p, [%s], [%t] : <f16>, <16x16xf16>
  tt.return
}

// -----

// Shared-memory descriptors (Triton's MemDescType::verify): the pipelining dimension
// (3 buffers) may be any size, the layout's dimensions must be powers of 2.
// CHECK: ttig-invalid.mlir:106:34: error: shape must have power-of-2 and non-zero dimensions; got 3, 48, 32
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @memdesc(%m: !ttg.memdesc<3x48x32xf16, #shared, #smem, mutable>) {
  tt.return
}

// -----

// CHECK: ttig-invalid.mlir:115:39: error: rank must be equal to or one less than the shape size. Got 2 and 4
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @memdesc_rank(%m: !ttg.memdesc<2x2x16x16xf16, #shared, #smem>) {
  tt.return
}

// -----

// A valid chunk after the invalid ones is still printed: nothing more is reported.
// CHECK-NOT: error:
tt.func @fine(%d: !tt.tensordesc<1x64xbf16>, %x: tensor<16xi32>, %y: i32) {
  %0 = ttig.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x64xbf16>, tensor<16xi32>, i32) -> tensor<16x64xbf16>
  tt.return
}
