// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s

// A block-pointer load before MaterializeBlockPointer keeps its layout unless the target sends
// strictly fewer messages (coalesced.block_pointer_keeps_layout, as a tensor-of-pointer load).
// Here a 16x16 bf16 tile read row by row (lanes along its unit-stride dim 1) is transposed for a
// dot's A operand. Recomputing the load in the transposed lanes would make the tt.trans free but
// sends as many messages; triton-xpu then gave the dot operand's SLM copy the transposed order
// (chunk_dplr_bwd_kernel_dAu: 9 SLM messages instead of 2, +13% instructions at the ISA).
// CHECK: #[[ROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @trans_operand(
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16x16xbf16, #[[ROW]]>>
// CHECK: tt.trans %{{.*}} : tensor<16x16xbf16, #[[ROW]]> ->
#row = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#tr = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#fma = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @trans_operand(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c16 = arith.constant 16 : i64
    %c32 = arith.constant 32 : i64
    %pa = tt.make_tensor_ptr %a, [%n, %c16], [%c32, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xbf16, #row>>
    %va = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xbf16, #row>>
    %t = tt.trans %va {order = array<i32: 1, 0>} : tensor<16x16xbf16, #row> -> tensor<16x16xbf16, #tr>
    %tc = ttg.convert_layout %t : tensor<16x16xbf16, #tr> -> tensor<16x16xbf16, #row>
    %ta = ttg.convert_layout %tc : tensor<16x16xbf16, #row> -> tensor<16x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #fma}>>
    %pb = tt.make_tensor_ptr %b, [%c16, %n], [%c32, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xbf16, #row>>
    %vb = tt.load %pb {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xbf16, #row>>
    %tb = ttg.convert_layout %vb : tensor<16x64xbf16, #row> -> tensor<16x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #fma}>>
    %z = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #fma>
    %d = tt.dot %ta, %tb, %z, inputPrecision = tf32 : tensor<16x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #fma}>> * tensor<16x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #fma}>> -> tensor<16x64xf32, #fma>
    %po = tt.make_tensor_ptr %o, [%n, %c16], [%c32, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #fma>>
    tt.store %po, %d {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #fma>>
    tt.return
  }
}

// -----

// The same transposed operand from a 16x64 tile whose transposed use wants 4 adjacent elements a
// lane along the unit-stride dim: 4 elements a message instead of 1 (strictly fewer), so the load
// is recomputed in the [1, 4] layout and the conversion after tt.trans goes.
// CHECK: #[[VEC:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @trans_operand_vectors(
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16x64xbf16, #[[VEC]]>>
// CHECK-NEXT: tt.trans
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<64x16xbf16, #{{blocked[0-9]*}}> -> tensor<64x16xbf16, #{{blocked[0-9]*}}>
// CHECK: tt.return
#row = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#trrow = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#trv = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#fma = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @trans_operand_vectors(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: tensor<16x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #fma}>>, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %pa = tt.make_tensor_ptr %a, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xbf16, #row>>
    %va = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xbf16, #row>>
    %t = tt.trans %va {order = array<i32: 1, 0>} : tensor<16x64xbf16, #row> -> tensor<64x16xbf16, #trrow>
    %tc = ttg.convert_layout %t : tensor<64x16xbf16, #trrow> -> tensor<64x16xbf16, #trv>
    %ta = ttg.convert_layout %tc : tensor<64x16xbf16, #trv> -> tensor<64x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #fma}>>
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #fma>
    %d = tt.dot %ta, %b, %z, inputPrecision = tf32 : tensor<64x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #fma}>> * tensor<16x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #fma}>> -> tensor<64x64xf32, #fma>
    %po = tt.make_tensor_ptr %o, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #fma>>
    tt.store %po, %d {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #fma>>
    tt.return
  }
}

