// RUN: xpu-opt %s --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --tritonintelgpu-remove-layout-conversions --tritonintelgpu-legalize-block-io-encoding | %python -m xpu_passes.integration.oracle verify | FileCheck %s --check-prefix=ORACLE %}
// (triton-xpu 3.3 reads the result once the 2D block layout is legalized.)
// ORACLE: tt.func public @block_io_anchor

// The Subgroup2DBlock assignment's anchors stay: a block-pointer load in the
// layout of its 2D block reads keeps it, and so does its one conversion to the
// dot operand (legalization folds it later when the layouts are provably equal).
// The epilogue store still takes the DPAS layout.
// CHECK-LABEL: tt.func public @block_io_anchor
// CHECK: %[[A:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<64x32xbf16, #block_io>>
// CHECK-NEXT: ttg.convert_layout %[[A]] : tensor<64x32xbf16, #block_io> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #mma>>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward: a load in the layout of its 2D block reads is an anchor; forward: a user 'tt.dot' cannot take the source layout
#block_io = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [32, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @block_io_anchor(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %b: tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%n, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xbf16, #block_io>>
    %x = tt.load %pa {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xbf16, #block_io>>
    %xa = ttg.convert_layout %x : tensor<64x32xbf16, #block_io> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d = tt.dot %xa, %b, %acc, inputPrecision = tf32 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%n, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #blocked>>
    %out = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.store %pc, %out {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #blocked>>
    tt.return
  }
}
