// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE-COUNT-1: // -----

// A GEMV over int32 words that pack four 8-bit weights (what coalesce leaves of a kernel of ours:
// the words loaded in #blocked5, warps along K, converted to #blocked1, warps along N), unpacked by
// shifts, scaled by an fma with broadcast rows, multiplied by a broadcast x column and summed over K.
// Following the load's layout to the end would remove the 64x128 conversion but make the sum cross
// the 2 warps: a 64x128 f16 operand (128 registers of a SIMD32 warp, its whole register file) live
// across the reduction's barrier, which IGC spilled (9,152 -> 21,632 bytes on this kernel, 3,615 ->
// 5,060 instructions). registers.reduce_price charges that spill: the conversion stays and the sum
// stays within a warp.
// CHECK-LABEL: tt.func public @packed_gemv_64x128
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x128xi32, #[[LOAD:blocked[0-9]*]]> -> tensor<64x128xi32, #[[ROWS:blocked[0-9]*]]>
// CHECK: "tt.reduce"
// CHECK: }) : (tensor<64x128xf16, #[[ROWS]]>) -> tensor<128xf16, #ttg.slice<{dim = 0, parent = #[[ROWS]]}>>
// REMARK: kept: forward would not make the module cheaper
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [0, 1]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [0, 1]}>
#blocked5 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked6 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
#blocked7 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @packed_gemv_64x128(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg4: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<true> : tensor<128xi1, #blocked>
    %cst_0 = arith.constant dense<255> : tensor<64x128xi32, #blocked1>
    %cst_1 = arith.constant dense<8> : tensor<64xi32, #blocked>
    %cst_2 = arith.constant dense<4> : tensor<64xi32, #blocked>
    %cst_3 = arith.constant dense<4> : tensor<64x1xi32, #blocked2>
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %1, %c64_i32 : i32
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %4 = tt.splat %2 : i32 -> tensor<64xi32, #blocked>
    %5 = arith.addi %4, %3 : tensor<64xi32, #blocked>
    %6 = arith.muli %0, %c128_i32 : i32
    %7 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %8 = tt.splat %6 : i32 -> tensor<128xi32, #blocked>
    %9 = arith.addi %8, %7 : tensor<128xi32, #blocked>
    %10 = ttg.convert_layout %5 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
    %11 = tt.expand_dims %10 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x64xi32, #blocked3>
    %12 = ttg.convert_layout %11 : tensor<1x64xi32, #blocked3> -> tensor<1x64xi32, #blocked1>
    %13 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %14 = tt.addptr %13, %12 : tensor<1x64x!tt.ptr<f16>, #blocked1>, tensor<1x64xi32, #blocked1>
    %15 = ttg.convert_layout %14 : tensor<1x64x!tt.ptr<f16>, #blocked1> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %16 = tt.load %15 : tensor<1x64x!tt.ptr<f16>, #blocked1>
    %17 = ttg.convert_layout %5 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>>
    %18 = tt.expand_dims %17 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<64x1xi32, #blocked4>
    %19 = ttg.convert_layout %18 : tensor<64x1xi32, #blocked4> -> tensor<64x1xi32, #blocked2>
    %20 = arith.divsi %19, %cst_3 : tensor<64x1xi32, #blocked2>
    %21 = tt.splat %arg5 : i32 -> tensor<64x1xi32, #blocked2>
    %22 = arith.muli %20, %21 : tensor<64x1xi32, #blocked2>
    %23 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<64x1x!tt.ptr<i32>, #blocked2>
    %24 = tt.addptr %23, %22 : tensor<64x1x!tt.ptr<i32>, #blocked2>, tensor<64x1xi32, #blocked2>
    %25 = ttg.convert_layout %9 : tensor<128xi32, #blocked> -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
    %26 = tt.expand_dims %25 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x128xi32, #blocked3>
    %27 = ttg.convert_layout %26 : tensor<1x128xi32, #blocked3> -> tensor<1x128xi32, #blocked1>
    %28 = tt.broadcast %24 : tensor<64x1x!tt.ptr<i32>, #blocked2> -> tensor<64x128x!tt.ptr<i32>, #blocked2>
    %29 = ttg.convert_layout %28 : tensor<64x128x!tt.ptr<i32>, #blocked2> -> tensor<64x128x!tt.ptr<i32>, #blocked1>
    %30 = tt.broadcast %27 : tensor<1x128xi32, #blocked1> -> tensor<64x128xi32, #blocked1>
    %31 = tt.addptr %29, %30 : tensor<64x128x!tt.ptr<i32>, #blocked1>, tensor<64x128xi32, #blocked1>
    %32 = ttg.convert_layout %31 : tensor<64x128x!tt.ptr<i32>, #blocked1> -> tensor<64x128x!tt.ptr<i32>, #blocked5>
    %33 = tt.load %32 : tensor<64x128x!tt.ptr<i32>, #blocked5>
    %34 = ttg.convert_layout %33 : tensor<64x128xi32, #blocked5> -> tensor<64x128xi32, #blocked1>
    %35 = arith.remsi %5, %cst_2 : tensor<64xi32, #blocked>
    %36 = arith.muli %35, %cst_1 : tensor<64xi32, #blocked>
    %37 = ttg.convert_layout %36 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>>
    %38 = tt.expand_dims %37 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<64x1xi32, #blocked4>
    %39 = ttg.convert_layout %38 : tensor<64x1xi32, #blocked4> -> tensor<64x1xi32, #blocked2>
    %40 = tt.broadcast %39 : tensor<64x1xi32, #blocked2> -> tensor<64x128xi32, #blocked2>
    %41 = ttg.convert_layout %40 : tensor<64x128xi32, #blocked2> -> tensor<64x128xi32, #blocked1>
    %42 = arith.shrsi %34, %41 : tensor<64x128xi32, #blocked1>
    %43 = arith.andi %42, %cst_0 : tensor<64x128xi32, #blocked1>
    %44 = arith.sitofp %43 : tensor<64x128xi32, #blocked1> to tensor<64x128xf16, #blocked1>
    %45 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<1x128x!tt.ptr<f16>, #blocked1>
    %46 = tt.addptr %45, %27 : tensor<1x128x!tt.ptr<f16>, #blocked1>, tensor<1x128xi32, #blocked1>
    %47 = ttg.convert_layout %46 : tensor<1x128x!tt.ptr<f16>, #blocked1> -> tensor<1x128x!tt.ptr<f16>, #blocked6>
    %48 = tt.load %47 : tensor<1x128x!tt.ptr<f16>, #blocked6>
    %49 = ttg.convert_layout %48 : tensor<1x128xf16, #blocked6> -> tensor<1x128xf16, #blocked1>
    %50 = tt.splat %arg3 : !tt.ptr<f16> -> tensor<1x128x!tt.ptr<f16>, #blocked1>
    %51 = tt.addptr %50, %27 : tensor<1x128x!tt.ptr<f16>, #blocked1>, tensor<1x128xi32, #blocked1>
    %52 = ttg.convert_layout %51 : tensor<1x128x!tt.ptr<f16>, #blocked1> -> tensor<1x128x!tt.ptr<f16>, #blocked6>
    %53 = tt.load %52 : tensor<1x128x!tt.ptr<f16>, #blocked6>
    %54 = ttg.convert_layout %53 : tensor<1x128xf16, #blocked6> -> tensor<1x128xf16, #blocked1>
    %55 = tt.broadcast %49 : tensor<1x128xf16, #blocked1> -> tensor<64x128xf16, #blocked1>
    %56 = tt.broadcast %54 : tensor<1x128xf16, #blocked1> -> tensor<64x128xf16, #blocked1>
    %57 = math.fma %44, %55, %56 : tensor<64x128xf16, #blocked1>
    %58 = tt.reshape %16 : tensor<1x64xf16, #blocked1> -> tensor<64x1xf16, #blocked2>
    %59 = tt.broadcast %58 : tensor<64x1xf16, #blocked2> -> tensor<64x128xf16, #blocked2>
    %60 = ttg.convert_layout %59 : tensor<64x128xf16, #blocked2> -> tensor<64x128xf16, #blocked1>
    %61 = arith.mulf %60, %57 : tensor<64x128xf16, #blocked1>
    %62 = "tt.reduce"(%61) <{axis = 0 : i32}> ({
    ^bb0(%arg6: f16, %arg7: f16):
      %71 = arith.addf %arg6, %arg7 : f16
      tt.reduce.return %71 : f16
    }) : (tensor<64x128xf16, #blocked1>) -> tensor<128xf16, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %63 = ttg.convert_layout %62 : tensor<128xf16, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<128xf16, #blocked>
    %64 = tt.splat %arg4 : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #blocked>
    %65 = tt.addptr %64, %9 : tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xi32, #blocked>
    %66 = ttg.convert_layout %65 : tensor<128x!tt.ptr<f16>, #blocked> -> tensor<128x!tt.ptr<f16>, #blocked7>
    %67 = ttg.convert_layout %63 : tensor<128xf16, #blocked> -> tensor<128xf16, #blocked7>
    %68 = ttg.convert_layout %cst : tensor<128xi1, #blocked> -> tensor<128xi1, #blocked7>
    %69 = tt.atomic_rmw fadd, acq_rel, gpu, %66, %67, %68 : (tensor<128x!tt.ptr<f16>, #blocked7>, tensor<128xf16, #blocked7>, tensor<128xi1, #blocked7>) -> tensor<128xf16, #blocked7>
    %70 = ttg.convert_layout %69 : tensor<128xf16, #blocked7> -> tensor<128xf16, #blocked>
    tt.return
  }
}

// -----

// The same kernel on a 64x64 tile: its operand (64 registers) leaves room in the register file, so
// the sum may cross warps: the conversion goes and the sum is done in the load's layout (IGC:
// 1,399 instructions and no spill, where keeping the conversion gives 1,787).
// CHECK-LABEL: tt.func public @packed_gemv_64x64
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<64x64xi32
// CHECK: %[[WORDS:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<i32>, #[[LOAD64:blocked[0-9]*]]>
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<64x64x
// CHECK: "tt.reduce"
// CHECK: }) : (tensor<64x64xf16, #[[LOAD64]]>) -> tensor<64xf16, #ttg.slice<{dim = 0, parent = #[[LOAD64]]}>>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [0, 1]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [0, 1]}>
#blocked5 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @packed_gemv_64x64(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg4: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<true> : tensor<64xi1, #blocked>
    %cst_0 = arith.constant dense<255> : tensor<64x64xi32, #blocked1>
    %cst_1 = arith.constant dense<8> : tensor<64xi32, #blocked>
    %cst_2 = arith.constant dense<4> : tensor<64xi32, #blocked>
    %cst_3 = arith.constant dense<4> : tensor<64x1xi32, #blocked2>
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %1, %c64_i32 : i32
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %4 = tt.splat %2 : i32 -> tensor<64xi32, #blocked>
    %5 = arith.addi %4, %3 : tensor<64xi32, #blocked>
    %6 = arith.muli %0, %c64_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<64xi32, #blocked>
    %8 = arith.addi %7, %3 : tensor<64xi32, #blocked>
    %9 = ttg.convert_layout %5 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
    %10 = tt.expand_dims %9 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x64xi32, #blocked3>
    %11 = ttg.convert_layout %10 : tensor<1x64xi32, #blocked3> -> tensor<1x64xi32, #blocked1>
    %12 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %13 = tt.addptr %12, %11 : tensor<1x64x!tt.ptr<f16>, #blocked1>, tensor<1x64xi32, #blocked1>
    %14 = ttg.convert_layout %13 : tensor<1x64x!tt.ptr<f16>, #blocked1> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %15 = tt.load %14 : tensor<1x64x!tt.ptr<f16>, #blocked1>
    %16 = ttg.convert_layout %5 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>>
    %17 = tt.expand_dims %16 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<64x1xi32, #blocked4>
    %18 = ttg.convert_layout %17 : tensor<64x1xi32, #blocked4> -> tensor<64x1xi32, #blocked2>
    %19 = arith.divsi %18, %cst_3 : tensor<64x1xi32, #blocked2>
    %20 = tt.splat %arg5 : i32 -> tensor<64x1xi32, #blocked2>
    %21 = arith.muli %19, %20 : tensor<64x1xi32, #blocked2>
    %22 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<64x1x!tt.ptr<i32>, #blocked2>
    %23 = tt.addptr %22, %21 : tensor<64x1x!tt.ptr<i32>, #blocked2>, tensor<64x1xi32, #blocked2>
    %24 = ttg.convert_layout %8 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
    %25 = tt.expand_dims %24 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x64xi32, #blocked3>
    %26 = ttg.convert_layout %25 : tensor<1x64xi32, #blocked3> -> tensor<1x64xi32, #blocked1>
    %27 = tt.broadcast %23 : tensor<64x1x!tt.ptr<i32>, #blocked2> -> tensor<64x64x!tt.ptr<i32>, #blocked2>
    %28 = ttg.convert_layout %27 : tensor<64x64x!tt.ptr<i32>, #blocked2> -> tensor<64x64x!tt.ptr<i32>, #blocked1>
    %29 = tt.broadcast %26 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %30 = tt.addptr %28, %29 : tensor<64x64x!tt.ptr<i32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %31 = ttg.convert_layout %30 : tensor<64x64x!tt.ptr<i32>, #blocked1> -> tensor<64x64x!tt.ptr<i32>, #blocked5>
    %32 = tt.load %31 : tensor<64x64x!tt.ptr<i32>, #blocked5>
    %33 = ttg.convert_layout %32 : tensor<64x64xi32, #blocked5> -> tensor<64x64xi32, #blocked1>
    %34 = arith.remsi %5, %cst_2 : tensor<64xi32, #blocked>
    %35 = arith.muli %34, %cst_1 : tensor<64xi32, #blocked>
    %36 = ttg.convert_layout %35 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>>
    %37 = tt.expand_dims %36 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<64x1xi32, #blocked4>
    %38 = ttg.convert_layout %37 : tensor<64x1xi32, #blocked4> -> tensor<64x1xi32, #blocked2>
    %39 = tt.broadcast %38 : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %40 = ttg.convert_layout %39 : tensor<64x64xi32, #blocked2> -> tensor<64x64xi32, #blocked1>
    %41 = arith.shrsi %33, %40 : tensor<64x64xi32, #blocked1>
    %42 = arith.andi %41, %cst_0 : tensor<64x64xi32, #blocked1>
    %43 = arith.sitofp %42 : tensor<64x64xi32, #blocked1> to tensor<64x64xf16, #blocked1>
    %44 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %45 = tt.addptr %44, %26 : tensor<1x64x!tt.ptr<f16>, #blocked1>, tensor<1x64xi32, #blocked1>
    %46 = ttg.convert_layout %45 : tensor<1x64x!tt.ptr<f16>, #blocked1> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %47 = tt.load %46 : tensor<1x64x!tt.ptr<f16>, #blocked1>
    %48 = tt.splat %arg3 : !tt.ptr<f16> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %49 = tt.addptr %48, %26 : tensor<1x64x!tt.ptr<f16>, #blocked1>, tensor<1x64xi32, #blocked1>
    %50 = ttg.convert_layout %49 : tensor<1x64x!tt.ptr<f16>, #blocked1> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %51 = tt.load %50 : tensor<1x64x!tt.ptr<f16>, #blocked1>
    %52 = tt.broadcast %47 : tensor<1x64xf16, #blocked1> -> tensor<64x64xf16, #blocked1>
    %53 = tt.broadcast %51 : tensor<1x64xf16, #blocked1> -> tensor<64x64xf16, #blocked1>
    %54 = math.fma %43, %52, %53 : tensor<64x64xf16, #blocked1>
    %55 = tt.reshape %15 : tensor<1x64xf16, #blocked1> -> tensor<64x1xf16, #blocked2>
    %56 = tt.broadcast %55 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %57 = ttg.convert_layout %56 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blocked1>
    %58 = arith.mulf %57, %54 : tensor<64x64xf16, #blocked1>
    %59 = "tt.reduce"(%58) <{axis = 0 : i32}> ({
    ^bb0(%arg6: f16, %arg7: f16):
      %67 = arith.addf %arg6, %arg7 : f16
      tt.reduce.return %67 : f16
    }) : (tensor<64x64xf16, #blocked1>) -> tensor<64xf16, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %60 = ttg.convert_layout %59 : tensor<64xf16, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<64xf16, #blocked>
    %61 = tt.splat %arg4 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %62 = tt.addptr %61, %8 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %63 = ttg.convert_layout %62 : tensor<64x!tt.ptr<f16>, #blocked> -> tensor<64x!tt.ptr<f16>, #blocked>
    %64 = ttg.convert_layout %60 : tensor<64xf16, #blocked> -> tensor<64xf16, #blocked>
    %65 = ttg.convert_layout %cst : tensor<64xi1, #blocked> -> tensor<64xi1, #blocked>
    %66 = tt.atomic_rmw fadd, acq_rel, gpu, %63, %64, %65 : (tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xf16, #blocked>, tensor<64xi1, #blocked>) -> tensor<64xf16, #blocked>
    tt.return
  }
}
