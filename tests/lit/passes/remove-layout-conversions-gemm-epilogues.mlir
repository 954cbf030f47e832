// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// The seeds of the mission, as triton-xpu 3.3 printed them right after its
// AccelerateMatmul (before its second RemoveLayoutConversions): bf16 GEMM + add
// matrix D at 256x256x32 with 32 warps, D read through a block pointer and through
// a masked tensor of pointers. Seven conversions each; ours leaves none: A and B
// are loaded in their dot-operand layouts, D in the DPAS layout, and C is stored
// from it (native leaves three here).

// ORACLE: tt.func public @gemm_add_block_ptr
// ORACLE: tt.func public @gemm_add_tensor_ptr

// CHECK-LABEL: tt.func public @gemm_add_block_ptr
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// CHECK: %[[D:.*]] = tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #mma>>
// CHECK: arith.addf %{{.*}}, %[[D]] : tensor<256x256xf32, #mma>
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #mma>>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [32, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [16, 2], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 32 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gemm_add_block_ptr(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}, %arg9: i32 {tt.divisibility = 16 : i32}, %arg10: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c255_i32 = arith.constant 255 : i32
    %c256_i32 = arith.constant 256 : i32
    %c1_i64 = arith.constant 1 : i64
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<256x256xf32, #blocked>
    %0 = tt.get_program_id x : i32
    %1 = arith.addi %arg5, %c255_i32 : i32
    %2 = arith.divsi %1, %c256_i32 : i32
    %3 = arith.divsi %0, %2 : i32
    %4 = arith.remsi %0, %2 : i32
    %5 = arith.muli %3, %c256_i32 : i32
    %6 = arith.extsi %arg4 : i32 to i64
    %7 = arith.extsi %arg6 : i32 to i64
    %8 = arith.extsi %arg7 : i32 to i64
    %9 = tt.make_tensor_ptr %arg0, [%6, %7], [%8, %c1_i64], [%5, %c0_i32] {order = array<i32: 1, 0>} : <tensor<256x32xbf16, #blocked1>>
    %10 = arith.muli %4, %c256_i32 : i32
    %11 = arith.extsi %arg5 : i32 to i64
    %12 = arith.extsi %arg8 : i32 to i64
    %13 = tt.make_tensor_ptr %arg1, [%7, %11], [%12, %c1_i64], [%c0_i32, %10] {order = array<i32: 1, 0>} : <tensor<32x256xbf16, #blocked2>>
    %14, %15, %16 = scf.for %arg11 = %c0_i32 to %arg6 step %c32_i32 iter_args(%arg12 = %cst, %arg13 = %9, %arg14 = %13) -> (tensor<256x256xf32, #blocked>, !tt.ptr<tensor<256x32xbf16, #blocked1>>, !tt.ptr<tensor<32x256xbf16, #blocked2>>) : i32 {
      %17 = tt.load %arg13 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x32xbf16, #blocked1>>
      %18 = tt.load %arg14 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x256xbf16, #blocked2>>
      %19 = ttg.convert_layout %17 : tensor<256x32xbf16, #blocked1> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
      %20 = ttg.convert_layout %18 : tensor<32x256xbf16, #blocked2> -> tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
      %21 = ttg.convert_layout %arg12 : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>
      %22 = ttg.convert_layout %19 : tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %23 = ttg.convert_layout %20 : tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %24 = tt.dot %22, %23, %21, inputPrecision = tf32 : tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<256x256xf32, #mma>
      %25 = ttg.convert_layout %24 : tensor<256x256xf32, #mma> -> tensor<256x256xf32, #blocked>
      %26 = tt.advance %arg13, [%c0_i32, %c32_i32] : <tensor<256x32xbf16, #blocked1>>
      %27 = tt.advance %arg14, [%c32_i32, %c0_i32] : <tensor<32x256xbf16, #blocked2>>
      scf.yield %25, %26, %27 : tensor<256x256xf32, #blocked>, !tt.ptr<tensor<256x32xbf16, #blocked1>>, !tt.ptr<tensor<32x256xbf16, #blocked2>>
    }
    %28 = ttg.convert_layout %14 : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #blocked3>
    %29 = arith.extsi %arg10 : i32 to i64
    %30 = tt.make_tensor_ptr %arg3, [%6, %11], [%29, %c1_i64], [%5, %10] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #blocked3>>
    %31 = tt.load %30 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #blocked3>>
    %32 = arith.addf %28, %31 : tensor<256x256xf32, #blocked3>
    %33 = arith.extsi %arg9 : i32 to i64
    %34 = tt.make_tensor_ptr %arg2, [%6, %11], [%33, %c1_i64], [%5, %10] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #blocked3>>
    tt.store %34, %32 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #blocked3>>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @gemm_add_tensor_ptr
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// CHECK: arith.addf %{{.*}}, %[[D]] : tensor<256x256xf32, #mma>
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #mma>>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [32, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [16, 2], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 32 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gemm_add_tensor_ptr(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}, %arg9: i32 {tt.divisibility = 16 : i32}, %arg10: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256x256xf32, #blocked>
    %c255_i32 = arith.constant 255 : i32
    %c256_i32 = arith.constant 256 : i32
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<256x256xf32, #blocked1>
    %0 = tt.get_program_id x : i32
    %1 = arith.addi %arg5, %c255_i32 : i32
    %2 = arith.divsi %1, %c256_i32 : i32
    %3 = arith.divsi %0, %2 : i32
    %4 = arith.remsi %0, %2 : i32
    %5 = arith.muli %3, %c256_i32 : i32
    %6 = arith.extsi %arg4 : i32 to i64
    %7 = arith.extsi %arg6 : i32 to i64
    %8 = arith.extsi %arg7 : i32 to i64
    %9 = tt.make_tensor_ptr %arg0, [%6, %7], [%8, %c1_i64], [%5, %c0_i32] {order = array<i32: 1, 0>} : <tensor<256x32xbf16, #blocked2>>
    %10 = arith.muli %4, %c256_i32 : i32
    %11 = arith.extsi %arg5 : i32 to i64
    %12 = arith.extsi %arg8 : i32 to i64
    %13 = tt.make_tensor_ptr %arg1, [%7, %11], [%12, %c1_i64], [%c0_i32, %10] {order = array<i32: 1, 0>} : <tensor<32x256xbf16, #blocked3>>
    %14, %15, %16 = scf.for %arg11 = %c0_i32 to %arg6 step %c32_i32 iter_args(%arg12 = %cst_1, %arg13 = %9, %arg14 = %13) -> (tensor<256x256xf32, #blocked1>, !tt.ptr<tensor<256x32xbf16, #blocked2>>, !tt.ptr<tensor<32x256xbf16, #blocked3>>) : i32 {
      %17 = tt.load %arg13 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x32xbf16, #blocked2>>
      %18 = tt.load %arg14 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x256xbf16, #blocked3>>
      %19 = ttg.convert_layout %17 : tensor<256x32xbf16, #blocked2> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
      %20 = ttg.convert_layout %18 : tensor<32x256xbf16, #blocked3> -> tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
      %21 = ttg.convert_layout %arg12 : tensor<256x256xf32, #blocked1> -> tensor<256x256xf32, #mma>
      %22 = ttg.convert_layout %19 : tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %23 = ttg.convert_layout %20 : tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %24 = tt.dot %22, %23, %21, inputPrecision = tf32 : tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<256x256xf32, #mma>
      %25 = ttg.convert_layout %24 : tensor<256x256xf32, #mma> -> tensor<256x256xf32, #blocked1>
      %26 = tt.advance %arg13, [%c0_i32, %c32_i32] : <tensor<256x32xbf16, #blocked2>>
      %27 = tt.advance %arg14, [%c32_i32, %c0_i32] : <tensor<32x256xbf16, #blocked3>>
      scf.yield %25, %26, %27 : tensor<256x256xf32, #blocked1>, !tt.ptr<tensor<256x32xbf16, #blocked2>>, !tt.ptr<tensor<32x256xbf16, #blocked3>>
    }
    %28 = ttg.convert_layout %14 : tensor<256x256xf32, #blocked1> -> tensor<256x256xf32, #blocked>
    %29 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %30 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %31 = tt.splat %5 : i32 -> tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %32 = arith.addi %31, %29 : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %33 = tt.splat %10 : i32 -> tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %34 = arith.addi %33, %30 : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %35 = tt.expand_dims %32 {axis = 1 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<256x1xi32, #blocked>
    %36 = tt.splat %arg4 : i32 -> tensor<256x1xi32, #blocked>
    %37 = arith.cmpi slt, %35, %36 : tensor<256x1xi32, #blocked>
    %38 = tt.expand_dims %34 {axis = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x256xi32, #blocked>
    %39 = tt.splat %arg5 : i32 -> tensor<1x256xi32, #blocked>
    %40 = arith.cmpi slt, %38, %39 : tensor<1x256xi32, #blocked>
    %41 = tt.broadcast %37 : tensor<256x1xi1, #blocked> -> tensor<256x256xi1, #blocked>
    %42 = tt.broadcast %40 : tensor<1x256xi1, #blocked> -> tensor<256x256xi1, #blocked>
    %43 = arith.andi %41, %42 : tensor<256x256xi1, #blocked>
    %44 = tt.splat %arg10 : i32 -> tensor<256x1xi32, #blocked>
    %45 = arith.muli %35, %44 : tensor<256x1xi32, #blocked>
    %46 = tt.splat %arg3 : !tt.ptr<f32> -> tensor<256x1x!tt.ptr<f32>, #blocked>
    %47 = tt.addptr %46, %45 : tensor<256x1x!tt.ptr<f32>, #blocked>, tensor<256x1xi32, #blocked>
    %48 = tt.broadcast %47 : tensor<256x1x!tt.ptr<f32>, #blocked> -> tensor<256x256x!tt.ptr<f32>, #blocked>
    %49 = tt.broadcast %38 : tensor<1x256xi32, #blocked> -> tensor<256x256xi32, #blocked>
    %50 = tt.addptr %48, %49 : tensor<256x256x!tt.ptr<f32>, #blocked>, tensor<256x256xi32, #blocked>
    %51 = tt.load %50, %43, %cst : tensor<256x256x!tt.ptr<f32>, #blocked>
    %52 = arith.addf %28, %51 : tensor<256x256xf32, #blocked>
    %53 = arith.extsi %arg9 : i32 to i64
    %54 = tt.make_tensor_ptr %arg2, [%6, %11], [%53, %c1_i64], [%5, %10] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #blocked>>
    tt.store %54, %52 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #blocked>>
    tt.return
  }
}
