// wide-positions weighs what a raised loop keeps live per warp (the dot's accumulator, A and B in the best split
// of the warps over M and N) against the register file the compile builds with (`grf-mode`, the pipeline fills
// in the compile's; "": none). Without grf_mode, IGC builds with 128 registers (8 KB per warp) and triton-xpu's
// driver rebuilds with 256 only over 1,000 spill bytes: live bytes within a quarter of 8 KB either side may spill
// less than that and stay at 128 registers, so such a function is raised as without wide-positions (remark);
// with grf-mode=large it is raised; with small (no rebuild) only what fits under the edge.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true wide-positions=true" --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true wide-positions=true grf-mode=large" --remarks 2>%t.large | FileCheck %s --check-prefix=LARGE
// RUN: FileCheck %s --check-prefix=LARGE-REMARK < %t.large
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true wide-positions=true grf-mode=small" --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALL

// LARGE-REMARK-NOT: wide-positions not applied

// 64x64 tile, K 32, 4 warps (2x2): accumulator 4 KB + A and B 4 KB = 8 KB per warp, the whole default file. Not
// applied without grf_mode (the i64 rows left alone, B as before); applied with grf-mode=large (A and B carried).
// CHECK-LABEL: tt.func public @gemm_at_the_edge
// CHECK: scf.for %{{.*}} -> (tensor<64x64xf32>)
// CHECK: tt.load %{{.*}} : tensor<64x32x!tt.ptr<bf16>>
// REMARK: wide-positions not applied: a tt.dot's accumulator, A and B take 8192 bytes per warp, at the edge of the 8192-byte register file a kernel without grf_mode is built with (6144 to 10240)
// LARGE-LABEL: tt.func public @gemm_at_the_edge
// LARGE: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}})
// LARGE: tt.load %[[X]] : !tt.ptr<tensor<64x32xbf16>>
// LARGE: tt.load %[[Y]] : !tt.ptr<tensor<32x64xbf16>>
// LARGE-NOT: tensor<64x32x!tt.ptr<bf16>>
// SMALL: wide-positions not applied: a tt.dot's accumulator, A and B take 8192 bytes per warp, over the 6144 of the 8192-byte register file that fit with grf_mode=small
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @gemm_at_the_edge(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c0_i64 = arith.constant 0 : i64
    %cK = arith.constant 32 : i32
    %cM = arith.constant 64 : i64
    %cN = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.extsi %0 : i32 to i64
    %3 = arith.maxsi %2, %c0_i64 : i64
    %4 = arith.muli %3, %cM : i64
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %5 = arith.extsi %rm : tensor<64xi32> to tensor<64xi64>
    %6 = tt.splat %4 : i64 -> tensor<64xi64>
    %7 = arith.addi %6, %5 : tensor<64xi64>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
    %9 = arith.extsi %arg6 : i32 to i64
    %10 = tt.splat %9 : i64 -> tensor<64x1xi64>
    %11 = arith.muli %8, %10 : tensor<64x1xi64>
    %12 = tt.broadcast %11 : tensor<64x1xi64> -> tensor<64x32xi64>
    %13 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<64x32x!tt.ptr<bf16>>
    %14 = arith.muli %1, %cN : i32
    %15 = tt.splat %14 : i32 -> tensor<64xi32>
    %16 = arith.addi %15, %rn : tensor<64xi32>
    %17 = arith.extsi %16 : tensor<64xi32> to tensor<64xi64>
    %18 = tt.expand_dims %17 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
    %19 = tt.broadcast %18 : tensor<1x64xi64> -> tensor<32x64xi64>
    %20 = arith.extsi %arg7 : i32 to i64
    %21 = tt.splat %20 : i64 -> tensor<32x1xi64>
    %22 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<32x64x!tt.ptr<bf16>>
    %23 = scf.for %arg9 = %c0_i32 to %arg5 step %cK iter_args(%arg10 = %cst) -> (tensor<64x64xf32>)  : i32 {
      %40 = tt.splat %arg9 : i32 -> tensor<32xi32>
      %41 = arith.addi %40, %rk : tensor<32xi32>
      %42 = arith.extsi %41 : tensor<32xi32> to tensor<32xi64>
      %43 = tt.expand_dims %42 {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
      %44 = tt.broadcast %43 : tensor<1x32xi64> -> tensor<64x32xi64>
      %45 = arith.addi %12, %44 : tensor<64x32xi64>
      %46 = tt.addptr %13, %45 : tensor<64x32x!tt.ptr<bf16>>, tensor<64x32xi64>
      %47 = tt.load %46 : tensor<64x32x!tt.ptr<bf16>>
      %48 = tt.expand_dims %42 {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
      %49 = arith.muli %48, %21 : tensor<32x1xi64>
      %50 = tt.broadcast %49 : tensor<32x1xi64> -> tensor<32x64xi64>
      %51 = arith.addi %50, %19 : tensor<32x64xi64>
      %52 = tt.addptr %22, %51 : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi64>
      %53 = tt.load %52 : tensor<32x64x!tt.ptr<bf16>>
      %54 = tt.dot %47, %53, %arg10 : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
      scf.yield %54 : tensor<64x64xf32>
    }
    %24 = arith.extsi %arg8 : i32 to i64
    %25 = tt.splat %24 : i64 -> tensor<64x1xi64>
    %26 = arith.muli %8, %25 : tensor<64x1xi64>
    %27 = tt.broadcast %26 : tensor<64x1xi64> -> tensor<64x64xi64>
    %28 = tt.broadcast %18 : tensor<1x64xi64> -> tensor<64x64xi64>
    %29 = arith.addi %27, %28 : tensor<64x64xi64>
    %30 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %31 = tt.addptr %30, %29 : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi64>
    %32 = arith.extsi %arg3 : i32 to i64
    %33 = tt.splat %32 : i64 -> tensor<64x1xi64>
    %34 = arith.cmpi slt, %8, %33 : tensor<64x1xi64>
    %35 = tt.broadcast %34 : tensor<64x1xi1> -> tensor<64x64xi1>
    %36 = arith.extsi %arg4 : i32 to i64
    %37 = tt.splat %36 : i64 -> tensor<1x64xi64>
    %38 = arith.cmpi slt, %18, %37 : tensor<1x64xi64>
    %39 = tt.broadcast %38 : tensor<1x64xi1> -> tensor<64x64xi1>
    %60 = arith.andi %35, %39 : tensor<64x64xi1>
    tt.store %31, %23, %60 : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}


// -----

// K 64: 4 KB + 8 KB = 12 KB per warp, past the edge (IGC spills enough for the driver's rebuild): applied
// without grf_mode and with large; not with small (no rebuild).
// CHECK-LABEL: tt.func public @gemm_past_the_edge
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}})
// CHECK: tt.load %[[X]] : !tt.ptr<tensor<64x64xbf16>>
// CHECK: tt.load %[[Y]] : !tt.ptr<tensor<64x64xbf16>>
// CHECK-NOT: tensor<64x64x!tt.ptr<bf16>>
// LARGE-LABEL: tt.func public @gemm_past_the_edge
// LARGE: tt.load %{{.*}} : !tt.ptr<tensor<64x64xbf16>>
// SMALL: wide-positions not applied: a tt.dot's accumulator, A and B take 12288 bytes per warp, over the 6144
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @gemm_past_the_edge(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c0_i64 = arith.constant 0 : i64
    %cK = arith.constant 64 : i32
    %cM = arith.constant 64 : i64
    %cN = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.extsi %0 : i32 to i64
    %3 = arith.maxsi %2, %c0_i64 : i64
    %4 = arith.muli %3, %cM : i64
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %5 = arith.extsi %rm : tensor<64xi32> to tensor<64xi64>
    %6 = tt.splat %4 : i64 -> tensor<64xi64>
    %7 = arith.addi %6, %5 : tensor<64xi64>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
    %9 = arith.extsi %arg6 : i32 to i64
    %10 = tt.splat %9 : i64 -> tensor<64x1xi64>
    %11 = arith.muli %8, %10 : tensor<64x1xi64>
    %12 = tt.broadcast %11 : tensor<64x1xi64> -> tensor<64x64xi64>
    %13 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<64x64x!tt.ptr<bf16>>
    %14 = arith.muli %1, %cN : i32
    %15 = tt.splat %14 : i32 -> tensor<64xi32>
    %16 = arith.addi %15, %rn : tensor<64xi32>
    %17 = arith.extsi %16 : tensor<64xi32> to tensor<64xi64>
    %18 = tt.expand_dims %17 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
    %19 = tt.broadcast %18 : tensor<1x64xi64> -> tensor<64x64xi64>
    %20 = arith.extsi %arg7 : i32 to i64
    %21 = tt.splat %20 : i64 -> tensor<64x1xi64>
    %22 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<64x64x!tt.ptr<bf16>>
    %23 = scf.for %arg9 = %c0_i32 to %arg5 step %cK iter_args(%arg10 = %cst) -> (tensor<64x64xf32>)  : i32 {
      %40 = tt.splat %arg9 : i32 -> tensor<64xi32>
      %41 = arith.addi %40, %rk : tensor<64xi32>
      %42 = arith.extsi %41 : tensor<64xi32> to tensor<64xi64>
      %43 = tt.expand_dims %42 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
      %44 = tt.broadcast %43 : tensor<1x64xi64> -> tensor<64x64xi64>
      %45 = arith.addi %12, %44 : tensor<64x64xi64>
      %46 = tt.addptr %13, %45 : tensor<64x64x!tt.ptr<bf16>>, tensor<64x64xi64>
      %47 = tt.load %46 : tensor<64x64x!tt.ptr<bf16>>
      %48 = tt.expand_dims %42 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
      %49 = arith.muli %48, %21 : tensor<64x1xi64>
      %50 = tt.broadcast %49 : tensor<64x1xi64> -> tensor<64x64xi64>
      %51 = arith.addi %50, %19 : tensor<64x64xi64>
      %52 = tt.addptr %22, %51 : tensor<64x64x!tt.ptr<bf16>>, tensor<64x64xi64>
      %53 = tt.load %52 : tensor<64x64x!tt.ptr<bf16>>
      %54 = tt.dot %47, %53, %arg10 : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
      scf.yield %54 : tensor<64x64xf32>
    }
    %24 = arith.extsi %arg8 : i32 to i64
    %25 = tt.splat %24 : i64 -> tensor<64x1xi64>
    %26 = arith.muli %8, %25 : tensor<64x1xi64>
    %27 = tt.broadcast %26 : tensor<64x1xi64> -> tensor<64x64xi64>
    %28 = tt.broadcast %18 : tensor<1x64xi64> -> tensor<64x64xi64>
    %29 = arith.addi %27, %28 : tensor<64x64xi64>
    %30 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %31 = tt.addptr %30, %29 : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi64>
    %32 = arith.extsi %arg3 : i32 to i64
    %33 = tt.splat %32 : i64 -> tensor<64x1xi64>
    %34 = arith.cmpi slt, %8, %33 : tensor<64x1xi64>
    %35 = tt.broadcast %34 : tensor<64x1xi1> -> tensor<64x64xi1>
    %36 = arith.extsi %arg4 : i32 to i64
    %37 = tt.splat %36 : i64 -> tensor<1x64xi64>
    %38 = arith.cmpi slt, %18, %37 : tensor<1x64xi64>
    %39 = tt.broadcast %38 : tensor<1x64xi1> -> tensor<64x64xi1>
    %60 = arith.andi %35, %39 : tensor<64x64xi1>
    tt.store %31, %23, %60 : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}


// -----

// 64x32 tile, K 32: 2 KB + 3 KB = 5 KB per warp, under the edge: applied in every mode.
// CHECK-LABEL: tt.func public @gemm_under_the_edge
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}})
// CHECK: tt.load %[[X]] : !tt.ptr<tensor<64x32xbf16>>
// CHECK: tt.load %[[Y]] : !tt.ptr<tensor<32x32xbf16>>
// REMARK-NOT: wide-positions not applied
// LARGE-LABEL: tt.func public @gemm_under_the_edge
// LARGE: tt.load %{{.*}} : !tt.ptr<tensor<64x32xbf16>>
// SMALL-NOT: wide-positions not applied
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @gemm_under_the_edge(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c0_i64 = arith.constant 0 : i64
    %cK = arith.constant 32 : i32
    %cM = arith.constant 64 : i64
    %cN = arith.constant 32 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.extsi %0 : i32 to i64
    %3 = arith.maxsi %2, %c0_i64 : i64
    %4 = arith.muli %3, %cM : i64
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rn = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %5 = arith.extsi %rm : tensor<64xi32> to tensor<64xi64>
    %6 = tt.splat %4 : i64 -> tensor<64xi64>
    %7 = arith.addi %6, %5 : tensor<64xi64>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
    %9 = arith.extsi %arg6 : i32 to i64
    %10 = tt.splat %9 : i64 -> tensor<64x1xi64>
    %11 = arith.muli %8, %10 : tensor<64x1xi64>
    %12 = tt.broadcast %11 : tensor<64x1xi64> -> tensor<64x32xi64>
    %13 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<64x32x!tt.ptr<bf16>>
    %14 = arith.muli %1, %cN : i32
    %15 = tt.splat %14 : i32 -> tensor<32xi32>
    %16 = arith.addi %15, %rn : tensor<32xi32>
    %17 = arith.extsi %16 : tensor<32xi32> to tensor<32xi64>
    %18 = tt.expand_dims %17 {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
    %19 = tt.broadcast %18 : tensor<1x32xi64> -> tensor<32x32xi64>
    %20 = arith.extsi %arg7 : i32 to i64
    %21 = tt.splat %20 : i64 -> tensor<32x1xi64>
    %22 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<32x32x!tt.ptr<bf16>>
    %23 = scf.for %arg9 = %c0_i32 to %arg5 step %cK iter_args(%arg10 = %cst) -> (tensor<64x32xf32>)  : i32 {
      %40 = tt.splat %arg9 : i32 -> tensor<32xi32>
      %41 = arith.addi %40, %rk : tensor<32xi32>
      %42 = arith.extsi %41 : tensor<32xi32> to tensor<32xi64>
      %43 = tt.expand_dims %42 {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
      %44 = tt.broadcast %43 : tensor<1x32xi64> -> tensor<64x32xi64>
      %45 = arith.addi %12, %44 : tensor<64x32xi64>
      %46 = tt.addptr %13, %45 : tensor<64x32x!tt.ptr<bf16>>, tensor<64x32xi64>
      %47 = tt.load %46 : tensor<64x32x!tt.ptr<bf16>>
      %48 = tt.expand_dims %42 {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
      %49 = arith.muli %48, %21 : tensor<32x1xi64>
      %50 = tt.broadcast %49 : tensor<32x1xi64> -> tensor<32x32xi64>
      %51 = arith.addi %50, %19 : tensor<32x32xi64>
      %52 = tt.addptr %22, %51 : tensor<32x32x!tt.ptr<bf16>>, tensor<32x32xi64>
      %53 = tt.load %52 : tensor<32x32x!tt.ptr<bf16>>
      %54 = tt.dot %47, %53, %arg10 : tensor<64x32xbf16> * tensor<32x32xbf16> -> tensor<64x32xf32>
      scf.yield %54 : tensor<64x32xf32>
    }
    %24 = arith.extsi %arg8 : i32 to i64
    %25 = tt.splat %24 : i64 -> tensor<64x1xi64>
    %26 = arith.muli %8, %25 : tensor<64x1xi64>
    %27 = tt.broadcast %26 : tensor<64x1xi64> -> tensor<64x32xi64>
    %28 = tt.broadcast %18 : tensor<1x32xi64> -> tensor<64x32xi64>
    %29 = arith.addi %27, %28 : tensor<64x32xi64>
    %30 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
    %31 = tt.addptr %30, %29 : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi64>
    %32 = arith.extsi %arg3 : i32 to i64
    %33 = tt.splat %32 : i64 -> tensor<64x1xi64>
    %34 = arith.cmpi slt, %8, %33 : tensor<64x1xi64>
    %35 = tt.broadcast %34 : tensor<64x1xi1> -> tensor<64x32xi1>
    %36 = arith.extsi %arg4 : i32 to i64
    %37 = tt.splat %36 : i64 -> tensor<1x32xi64>
    %38 = arith.cmpi slt, %18, %37 : tensor<1x32xi64>
    %39 = tt.broadcast %38 : tensor<1x32xi1> -> tensor<64x32xi1>
    %60 = arith.andi %35, %39 : tensor<64x32xi1>
    tt.store %31, %23, %60 : tensor<64x32x!tt.ptr<f32>>
    tt.return
  }
}
