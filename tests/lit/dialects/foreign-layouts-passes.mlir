// RUN: xpu-opt %s > %t.plain
// RUN: xpu-opt %s --tritonintelgpu-materialize-block-pointer --remarks 2>%t.err > %t.out && diff %t.plain %t.out && FileCheck %s --check-prefix=MBP < %t.err
// RUN: xpu-opt %s --tritonintelgpu-remove-layout-conversions | FileCheck %s --check-prefix=RLC
// RUN: xpu-opt %s --tritonintelgpu-rewrite-tensor-pointer --remarks 2>%t.err > %t.out && diff %t.plain %t.out && FileCheck %s --check-prefix=RTP < %t.err
// RUN: xpu-opt %s --tritonintelgpu-raise-block-pointer --remarks 2>%t.err > %t.out && diff %t.plain %t.out && FileCheck %s --check-prefix=RAISE < %t.err
// RUN: xpu-opt %s --tritonintelgpu-optimize-block-io-encoding --tritonintelgpu-legalize-block-io-encoding --remarks 2>%t.err > %t.out && diff %t.plain %t.out && FileCheck %s --check-prefix=BLOCKIO < %t.err
// A module of another backend (an NVIDIA MMA GEMM with a block-pointer load and
// conversions our RemoveLayoutConversions and RewriteTensorPointer would otherwise
// rewrite): every pass leaves it byte for byte alone and says why, at the first op
// whose type holds the layout. But RemoveLayoutConversions: the layout algebra maps NVIDIA's
// Ampere MMA (Intel's lit tests hold it), so it reads the module, as triton-xpu's pass does: the
// blocked round trip before the store goes, the conversion out of the MMA layout stays
// (remove-layout-conversions-ampere.mlir: more, and a Hopper MMA left alone).
// RLC: %[[D:.*]] = tt.dot
// RLC: %[[C:.*]] = ttg.convert_layout %[[D]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// RLC-NOT: ttg.convert_layout
// RLC: tt.store %{{.*}}, %[[C]] : tensor<64x64x!tt.ptr<f32>, #blocked>

// MBP: foreign-layouts-passes.mlir:32:5: remark: [tritonintelgpu-materialize-block-pointer] left alone: #ttg.nvidia_mma is another backend's layout, not modelled here
// RTP: foreign-layouts-passes.mlir:32:5: remark: [tritonintelgpu-rewrite-tensor-pointer] left alone: #ttg.nvidia_mma
// RAISE: foreign-layouts-passes.mlir:32:5: remark: [triton-raise-block-pointer] left alone: #ttg.nvidia_mma
// BLOCKIO: remark: [tritonintelgpu-optimize-block-io-encoding] left alone: #ttg.nvidia_mma
// BLOCKIO: remark: [tritonintelgpu-legalize-block-io-encoding] left alone: #ttg.nvidia_mma
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.make_tensor_ptr %arg0, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>>
    %1 = tt.load %0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>>
    %2 = tt.make_tensor_ptr %arg0, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    %3 = tt.load %2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    %4 = tt.dot %1, %3, %cst : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %5 = ttg.convert_layout %4 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %6 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %9 = tt.broadcast %8 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %10 = tt.addptr %6, %9 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %11 = ttg.convert_layout %5 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %12 = ttg.convert_layout %11 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %10, %12 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
