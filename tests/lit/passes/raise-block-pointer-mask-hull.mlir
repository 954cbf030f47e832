// A mask conjunct `i < r` that no iteration changes, on a dim a step-1 loop moves the tile along (our own
// cases, the construct of gemlite's A16W GEMMs: `a_mask = (offs_m < M) & (offs_k < K)` made once, then
// `a_ptrs += BLOCK_K` in the K loop). That dim's shape is the columns the mask lets the loop read, first
// to last (the extent less what the last iteration masks off; the position itself where r <= 0), checked,
// and that conjunct stays as a select (`other` 0 is the padding of the checked dims; else the whole mask
// is the select's): bit-identical, no column read that the input does not read
// (tests/python/transforms/raise_block_pointer/test_raise_mask_hull.py runs ragged and empty cases).
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true block-io-only=true" | FileCheck %s --check-prefix=DOT
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --verify-semantics="grid=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-6: remark: [verify-semantics] equal on
// SEM-NOT: error

// Split-K form: the columns start at pid * 16 and the mask is `pid * 16 + i < K` (r = K - 16 * pid).
// CHECK-LABEL: tt.func public @fixed_mask_rows
// CHECK: %[[R:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[SHORT:.*]] = arith.minsi %{{.*}}, %c0_i64 : i64
// CHECK: %[[REACH:.*]] = arith.addi %{{.*}}, %[[SHORT]] : i64
// CHECK: %[[SOME:.*]] = arith.cmpi sgt, %[[R]], %c0_i64 : i64
// CHECK: %[[W:.*]] = arith.select %[[SOME]], %[[REACH]], %{{.*}} : i64
// CHECK: %[[A:.*]] = tt.make_tensor_ptr %arg0, [%{{.*}}, %[[W]]], {{.*}} : <tensor<16x16xf32>>
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %[[A]])
// CHECK-NEXT: %[[L:.*]] = tt.load %[[X]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
// CHECK-NEXT: %[[KM:.*]] = tt.broadcast %{{.*}} : tensor<1x16xi1> -> tensor<16x16xi1>
// CHECK-NEXT: arith.select %[[KM]], %[[L]], %cst : tensor<16x16xi1>, tensor<16x16xf32>
// CHECK: tt.advance %[[X]], [%{{.*}}, %c32_i32] : <tensor<16x16xf32>>
// CHECK-NOT: tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] raised; dim 1's mask i < %arg3 - 16*(get_program_id ...) is the same in every iteration: shape = the columns it lets the loop read (checked), the mask kept as a select
module {
  tt.func public @fixed_mask_rows(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<32> : tensor<16x16xi32>
    %cst_1 = arith.constant dense<16> : tensor<16x1xi32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c16_i32 = arith.constant 16 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %4 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %14 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %17 = arith.cmpi slt, %8, %16 : tensor<1x16xi32>
    %18 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.broadcast %17 : tensor<1x16xi1> -> tensor<16x16xi1>
    %20 = arith.andi %18, %19 : tensor<16x16xi1>
    %21:2 = scf.for %arg6 = %c0_i32 to %arg5 step %c1_i32 iter_args(%arg7 = %cst, %arg8 = %13) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>)  : i32 {
      %30 = tt.load %arg8, %20, %cst : tensor<16x16x!tt.ptr<f32>>
      %31 = arith.addf %arg7, %30 : tensor<16x16xf32>
      %32 = tt.addptr %arg8, %cst_0 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
      scf.yield %31, %32 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>
    }
    %22 = arith.muli %0, %c256_i32 : i32
    %23 = tt.addptr %arg1, %22 : !tt.ptr<f32>, i32
    %24 = arith.muli %5, %cst_1 : tensor<16x1xi32>
    %25 = tt.splat %23 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %26 = tt.addptr %25, %24 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %27 = tt.broadcast %26 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %28 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %29 = tt.broadcast %28 : tensor<1x16xi32> -> tensor<16x16xi32>
    %33 = tt.addptr %27, %29 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %33, %21#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// gemlite's form, with tt.dot: r = K and the loop runs cdiv(K, 16) times, so a K that masks anything
// (< 16) runs one iteration: the checked load with padding is exact, no select (hull.py). A is raised
// with dot-only and block-io-only too (a 2D block read in the dot's layout).
// CHECK-LABEL: tt.func public @fixed_mask_gemm
// CHECK: %[[A:.*]] = tt.make_tensor_ptr %arg0, {{.*}} : <tensor<16x16xf16>>
// CHECK: scf.for
// CHECK-NEXT: %[[L:.*]] = tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// CHECK-NOT: arith.select
// CHECK: tt.dot %[[L]]
// DOT-LABEL: tt.func public @fixed_mask_gemm
// DOT: arith.minsi
// DOT: tt.make_tensor_ptr %arg0, {{.*}} : <tensor<16x16xf16>>
// DOT: scf.for
// DOT-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// DOT-NOT: tensor<16x16x!tt.ptr<f16>>
// DOT: tt.dot
// REMARK: remark: [triton-raise-block-pointer] raised; dim 1's mask i < %arg4 is the same in every iteration
module {
  tt.func public @fixed_mask_gemm(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<16> : tensor<16x1xi32>
    %cst_3 = arith.constant dense<256> : tensor<16x16xi32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c15_i32 = arith.constant 15 : i32
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg5 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %13 = tt.addptr %12, %11 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %14 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %17 = arith.cmpi slt, %8, %16 : tensor<1x16xi32>
    %18 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.broadcast %17 : tensor<1x16xi1> -> tensor<16x16xi1>
    %20 = arith.andi %18, %19 : tensor<16x16xi1>
    %21 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %22 = arith.muli %21, %cst_2 : tensor<16x1xi32>
    %23 = tt.broadcast %22 : tensor<16x1xi32> -> tensor<16x16xi32>
    %24 = arith.addi %23, %10 : tensor<16x16xi32>
    %25 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %26 = tt.addptr %25, %24 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %27 = arith.addi %arg4, %c15_i32 : i32
    %28 = arith.divsi %27, %c16_i32 : i32
    %29:3 = scf.for %arg6 = %c0_i32 to %28 step %c1_i32 iter_args(%arg7 = %cst_0, %arg8 = %13, %arg9 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>, tensor<16x16x!tt.ptr<f16>>)  : i32 {
      %40 = tt.load %arg8, %20, %cst : tensor<16x16x!tt.ptr<f16>>
      %41 = tt.load %arg9 : tensor<16x16x!tt.ptr<f16>>
      %42 = tt.dot %40, %41, %arg7, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      %43 = tt.addptr %arg8, %cst_1 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      %45 = tt.addptr %arg9, %cst_3 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      scf.yield %42, %43, %45 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>, tensor<16x16x!tt.ptr<f16>>
    }
    %30 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %31 = arith.muli %5, %cst_2 : tensor<16x1xi32>
    %32 = tt.broadcast %31 : tensor<16x1xi32> -> tensor<16x16xi32>
    %33 = arith.addi %32, %10 : tensor<16x16xi32>
    %34 = tt.addptr %30, %33 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %35 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    tt.store %34, %29#0, %35 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Negative: a loop of step 2 (the extent from the trip count is not exact): left alone.
// CHECK-LABEL: tt.func public @fixed_mask_step2
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %cst : tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] left alone: mask is not a bounds check of the block, and the block load may read outside the kernel's bounds along dim 1
module {
  tt.func public @fixed_mask_step2(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<32> : tensor<16x16xi32>
    %cst_1 = arith.constant dense<16> : tensor<16x1xi32>
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c16_i32 = arith.constant 16 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %4 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %14 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %17 = arith.cmpi slt, %8, %16 : tensor<1x16xi32>
    %18 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.broadcast %17 : tensor<1x16xi1> -> tensor<16x16xi1>
    %20 = arith.andi %18, %19 : tensor<16x16xi1>
    %21:2 = scf.for %arg6 = %c0_i32 to %arg5 step %c2_i32 iter_args(%arg7 = %cst, %arg8 = %13) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>)  : i32 {
      %30 = tt.load %arg8, %20, %cst : tensor<16x16x!tt.ptr<f32>>
      %31 = arith.addf %arg7, %30 : tensor<16x16xf32>
      %32 = tt.addptr %arg8, %cst_0 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
      scf.yield %31, %32 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>
    }
    %22 = arith.muli %0, %c256_i32 : i32
    %23 = tt.addptr %arg1, %22 : !tt.ptr<f32>, i32
    %24 = arith.muli %5, %cst_1 : tensor<16x1xi32>
    %25 = tt.splat %23 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %26 = tt.addptr %25, %24 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %27 = tt.broadcast %26 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %28 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %29 = tt.broadcast %28 : tensor<1x16xi32> -> tensor<16x16xi32>
    %33 = tt.addptr %27, %29 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %33, %21#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Negative: another conjunct (`offset != T`) masks too: some rows' first or last columns may be unread.
// CHECK-LABEL: tt.func public @fixed_mask_and_other
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %cst : tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] left alone: mask is not a bounds check of the block, and the block load may read outside the kernel's bounds along dim 1
module {
  tt.func public @fixed_mask_and_other(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<32> : tensor<16x16xi32>
    %cst_1 = arith.constant dense<16> : tensor<16x1xi32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c16_i32 = arith.constant 16 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %4 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %14 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %17 = arith.cmpi slt, %8, %16 : tensor<1x16xi32>
    %18 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.broadcast %17 : tensor<1x16xi1> -> tensor<16x16xi1>
    %m0 = arith.andi %18, %19 : tensor<16x16xi1>
    %m1 = tt.splat %arg5 : i32 -> tensor<16x16xi32>
    %m2 = arith.cmpi ne, %11, %m1 : tensor<16x16xi32>
    %20 = arith.andi %m0, %m2 : tensor<16x16xi1>
    %21:2 = scf.for %arg6 = %c0_i32 to %arg5 step %c1_i32 iter_args(%arg7 = %cst, %arg8 = %13) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>)  : i32 {
      %30 = tt.load %arg8, %20, %cst : tensor<16x16x!tt.ptr<f32>>
      %31 = arith.addf %arg7, %30 : tensor<16x16xf32>
      %32 = tt.addptr %arg8, %cst_0 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
      scf.yield %31, %32 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>
    }
    %22 = arith.muli %0, %c256_i32 : i32
    %23 = tt.addptr %arg1, %22 : !tt.ptr<f32>, i32
    %24 = arith.muli %5, %cst_1 : tensor<16x1xi32>
    %25 = tt.splat %23 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %26 = tt.addptr %25, %24 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %27 = tt.broadcast %26 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %28 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %29 = tt.broadcast %28 : tensor<1x16xi32> -> tensor<16x16xi32>
    %33 = tt.addptr %27, %29 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %33, %21#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Negative: two such conjuncts on the dim (`i < K` and `i < stride`): no single r, left alone.
// CHECK-LABEL: tt.func public @fixed_mask_twice
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %cst : tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] left alone: mask is not a bounds check of the block, and the block load may read outside the kernel's bounds along dim 1
module {
  tt.func public @fixed_mask_twice(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<32> : tensor<16x16xi32>
    %cst_1 = arith.constant dense<16> : tensor<16x1xi32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c16_i32 = arith.constant 16 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %4 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %14 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %17 = arith.cmpi slt, %8, %16 : tensor<1x16xi32>
    %18 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.broadcast %17 : tensor<1x16xi1> -> tensor<16x16xi1>
    %m0 = arith.andi %18, %19 : tensor<16x16xi1>
    %m1 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %m2 = arith.cmpi slt, %8, %m1 : tensor<1x16xi32>
    %m3 = tt.broadcast %m2 : tensor<1x16xi1> -> tensor<16x16xi1>
    %20 = arith.andi %m0, %m3 : tensor<16x16xi1>
    %21:2 = scf.for %arg6 = %c0_i32 to %arg5 step %c1_i32 iter_args(%arg7 = %cst, %arg8 = %13) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>)  : i32 {
      %30 = tt.load %arg8, %20, %cst : tensor<16x16x!tt.ptr<f32>>
      %31 = arith.addf %arg7, %30 : tensor<16x16xf32>
      %32 = tt.addptr %arg8, %cst_0 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
      scf.yield %31, %32 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>
    }
    %22 = arith.muli %0, %c256_i32 : i32
    %23 = tt.addptr %arg1, %22 : !tt.ptr<f32>, i32
    %24 = arith.muli %5, %cst_1 : tensor<16x1xi32>
    %25 = tt.splat %23 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %26 = tt.addptr %25, %24 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %27 = tt.broadcast %26 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %28 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %29 = tt.broadcast %28 : tensor<1x16xi32> -> tensor<16x16xi32>
    %33 = tt.addptr %27, %29 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %33, %21#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Negative: loads before and after the increment, both masked by `i < r`: the shape is the reach of one
// position (the later one's would let the earlier read columns its mask drops), left alone.
// CHECK-LABEL: tt.func public @fixed_mask_before_after
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %cst : tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] left alone: accesses before and after the pointer's increment mask dim 1 alike
module {
  tt.func public @fixed_mask_before_after(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<32> : tensor<16x16xi32>
    %cst_1 = arith.constant dense<16> : tensor<16x1xi32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c16_i32 = arith.constant 16 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %4 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %14 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %17 = arith.cmpi slt, %8, %16 : tensor<1x16xi32>
    %18 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.broadcast %17 : tensor<1x16xi1> -> tensor<16x16xi1>
    %20 = arith.andi %18, %19 : tensor<16x16xi1>
    %21:2 = scf.for %arg6 = %c0_i32 to %arg5 step %c1_i32 iter_args(%arg7 = %cst, %arg8 = %13) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>)  : i32 {
      %30 = tt.load %arg8, %20, %cst : tensor<16x16x!tt.ptr<f32>>
      %31 = arith.addf %arg7, %30 : tensor<16x16xf32>
      %32 = tt.addptr %arg8, %cst_0 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
      %34 = tt.load %32, %20, %cst : tensor<16x16x!tt.ptr<f32>>
      %35 = arith.addf %31, %34 : tensor<16x16xf32>
      scf.yield %35, %32 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>
    }
    %22 = arith.muli %0, %c256_i32 : i32
    %23 = tt.addptr %arg1, %22 : !tt.ptr<f32>, i32
    %24 = arith.muli %5, %cst_1 : tensor<16x1xi32>
    %25 = tt.splat %23 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %26 = tt.addptr %25, %24 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %27 = tt.broadcast %26 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %28 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %29 = tt.broadcast %28 : tensor<1x16xi32> -> tensor<16x16xi32>
    %33 = tt.addptr %27, %29 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %33, %21#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
