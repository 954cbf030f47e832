// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle lower --split-input-file | FileCheck %s --check-prefix=LOWER %}

// What triton-xpu 3.3's lowering takes (layouts/lowering.py): each chunk's output is also
// lowered to LLVM IR for PVC, which aborts on a load it cannot lower.
// LOWER: lowered: dpas 16
// LOWER: lowered: dpas 16

// A tf32 GEMM step whose B operand is read through a block pointer in f32: the pointer is
// anchored to the dot-operand layout its load is converted to (a 2D block read of 32-bit
// DPAS operands), and the conversion goes.
// CHECK-LABEL: tt.func public @load_in_dot_operand_same_width
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 1], A = [16, 8], B = [8, 16], C = [16, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @load_in_dot_operand_same_width(%pa: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c16 = arith.constant 16 : i64
    %c64 = arith.constant 64 : i64
    %z = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #mma>
    %a = tt.make_tensor_ptr %pa, [%c16, %c16], [%c16, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %b = tt.make_tensor_ptr %pb, [%c16, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #blocked>>
    %va = tt.load %a {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %vb = tt.load %b {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x64xf32, #blocked>>
    %cb = ttg.convert_layout %vb : tensor<16x64xf32, #blocked> -> tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %d = tt.dot %va, %cb, %z, inputPrecision = tf32 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x64xf32, #mma>
    %c = tt.make_tensor_ptr %pc, [%c16, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #mma>>
    tt.store %c, %d {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #mma>>
    tt.return
  }
}

// -----

// Negative: the B operand read in bf16 and widened to f32 for the tf32 DPAS (a gated
// linear attention's exp-weighted keys). A bf16 load in the B layout of a DPAS for 32-bit
// operands verifies, but triton-xpu 3.3's 2D block read aborts on it ("Fell off the end
// of a type-switch"): the load keeps its layout and the conversion stays, with the reason.
// CHECK-LABEL: tt.func public @load_in_dot_operand_other_width
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16x64xbf16, #blocked>>
// CHECK: ttg.convert_layout %{{.*}} -> tensor<16x64x{{(bf16|f32)}}, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
// CHECK: tt.dot
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}a load of 16-bit elements in the dot-operand layout of a DPAS for 32-bit operands (triton-xpu 3.3 cannot lower its 2D block read)
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 1], A = [16, 8], B = [8, 16], C = [16, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @load_in_dot_operand_other_width(%pa: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c16 = arith.constant 16 : i64
    %c64 = arith.constant 64 : i64
    %z = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #mma>
    %a = tt.make_tensor_ptr %pa, [%c16, %c16], [%c16, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %b = tt.make_tensor_ptr %pb, [%c16, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xbf16, #blocked>>
    %va = tt.load %a {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %vb = tt.load %b {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x64xbf16, #blocked>>
    %eb = arith.extf %vb : tensor<16x64xbf16, #blocked> to tensor<16x64xf32, #blocked>
    %cb = ttg.convert_layout %eb : tensor<16x64xf32, #blocked> -> tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %d = tt.dot %va, %cb, %z, inputPrecision = tf32 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x64xf32, #mma>
    %c = tt.make_tensor_ptr %pc, [%c16, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #mma>>
    tt.store %c, %d {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #mma>>
    tt.return
  }
}
