// wide-positions=true (ours, off by default): tile positions the kernel computes in i64 (flag_gems'
// `pid.to(tl.int64) * BLOCK_M`) are raised, moved into the base pointer (`tt.addptr` by an i64 offset; the
// shape less as much, in i64), never truncated to an i32 offset; dot operands read in a loop through pointers
// made from its induction variable (`(k + rk)[None, :]`) are carried by the loop as block pointers advanced by
// the step (triton-xpu 3.3's pipeliner asserts on a block pointer made anew each iteration), the shape of
// their unmasked K dim the last position the loop reaches. Default: left alone (remark).
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true wide-positions=true" --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=true --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true wide-positions=true" --verify-semantics="grid=3x3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-3: remark: [verify-semantics] equal on
// SEM-NOT: error

// Rows max(pid_m, 0)*16 in i64 (a value the decomposition does not follow: an i64 leaf), K positions k + arange from the loop's induction variable: A and B carried as
// block pointers made before the loop (A's rows folded into its base: an i64 addptr), advanced by
// [0, 16] / [16, 0]; C's rows folded too, stored with (M, N) checks.
// CHECK-LABEL: tt.func public @gemm_i64_rows
// CHECK: %[[AB:.*]] = tt.addptr %arg0, %{{.*}} : !tt.ptr<bf16>, i64
// CHECK: %[[A:.*]] = tt.make_tensor_ptr %[[AB]], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x16xbf16>>
// CHECK: %[[B:.*]] = tt.make_tensor_ptr %arg1,
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CHECK: tt.load %[[X]] : !tt.ptr<tensor<16x16xbf16>>
// CHECK: tt.load %[[Y]] : !tt.ptr<tensor<16x16xbf16>>
// CHECK: tt.dot
// CHECK: tt.advance %[[X]], [%{{.*}}, %{{.*}}] : <tensor<16x16xbf16>>
// CHECK: tt.advance %[[Y]], [%{{.*}}, %{{.*}}] : <tensor<16x16xbf16>>
// CHECK: tt.addptr %arg2, %{{.*}} : !tt.ptr<f32>, i64
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
// CHECK-NOT: tt.load %{{.*}} : tensor<16x16x!tt.ptr
// REMARK-NOT: left alone
// OFF-COUNT-5: left alone: 64-bit offsets not sign-extended from i32 (wide-positions=false)
// OFF-NOT: 64-bit offsets
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @gemm_i64_rows(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c16_i64 = arith.constant 16 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %c0_i64 = arith.constant 0 : i64
    %55 = arith.extsi %0 : i32 to i64
    %2 = arith.maxsi %55, %c0_i64 : i64
    %3 = arith.muli %2, %c16_i64 : i64
    %4 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %5 = arith.extsi %4 : tensor<16xi32> to tensor<16xi64>
    %6 = tt.splat %3 : i64 -> tensor<16xi64>
    %7 = arith.addi %6, %5 : tensor<16xi64>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
    %9 = arith.extsi %arg6 : i32 to i64
    %10 = tt.splat %9 : i64 -> tensor<16x1xi64>
    %11 = arith.muli %8, %10 : tensor<16x1xi64>
    %12 = tt.broadcast %11 : tensor<16x1xi64> -> tensor<16x16xi64>
    %13 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %14 = arith.muli %1, %c16_i32 : i32
    %15 = tt.splat %14 : i32 -> tensor<16xi32>
    %16 = arith.addi %15, %4 : tensor<16xi32>
    %17 = arith.extsi %16 : tensor<16xi32> to tensor<16xi64>
    %18 = tt.expand_dims %17 {axis = 0 : i32} : tensor<16xi64> -> tensor<1x16xi64>
    %19 = tt.broadcast %18 : tensor<1x16xi64> -> tensor<16x16xi64>
    %20 = arith.extsi %arg7 : i32 to i64
    %21 = tt.splat %20 : i64 -> tensor<16x1xi64>
    %22 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %23 = scf.for %arg9 = %c0_i32 to %arg5 step %c16_i32 iter_args(%arg10 = %cst) -> (tensor<16x16xf32>)  : i32 {
      %40 = tt.splat %arg9 : i32 -> tensor<16xi32>
      %41 = arith.addi %40, %4 : tensor<16xi32>
      %42 = arith.extsi %41 : tensor<16xi32> to tensor<16xi64>
      %43 = tt.expand_dims %42 {axis = 0 : i32} : tensor<16xi64> -> tensor<1x16xi64>
      %44 = tt.broadcast %43 : tensor<1x16xi64> -> tensor<16x16xi64>
      %45 = arith.addi %12, %44 : tensor<16x16xi64>
      %46 = tt.addptr %13, %45 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi64>
      %47 = tt.load %46 : tensor<16x16x!tt.ptr<bf16>>
      %48 = tt.expand_dims %42 {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
      %49 = arith.muli %48, %21 : tensor<16x1xi64>
      %50 = tt.broadcast %49 : tensor<16x1xi64> -> tensor<16x16xi64>
      %51 = arith.addi %50, %19 : tensor<16x16xi64>
      %52 = tt.addptr %22, %51 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi64>
      %53 = tt.load %52 : tensor<16x16x!tt.ptr<bf16>>
      %54 = tt.dot %47, %53, %arg10 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      scf.yield %54 : tensor<16x16xf32>
    }
    %24 = arith.extsi %arg8 : i32 to i64
    %25 = tt.splat %24 : i64 -> tensor<16x1xi64>
    %26 = arith.muli %8, %25 : tensor<16x1xi64>
    %27 = tt.broadcast %26 : tensor<16x1xi64> -> tensor<16x16xi64>
    %28 = arith.addi %27, %19 : tensor<16x16xi64>
    %29 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %30 = tt.addptr %29, %28 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi64>
    %31 = arith.extsi %arg3 : i32 to i64
    %32 = tt.splat %31 : i64 -> tensor<16x1xi64>
    %33 = arith.cmpi slt, %8, %32 : tensor<16x1xi64>
    %34 = tt.broadcast %33 : tensor<16x1xi1> -> tensor<16x16xi1>
    %35 = arith.extsi %arg4 : i32 to i64
    %36 = tt.splat %35 : i64 -> tensor<1x16xi64>
    %37 = arith.cmpi slt, %18, %36 : tensor<1x16xi64>
    %38 = tt.broadcast %37 : tensor<1x16xi1> -> tensor<16x16xi1>
    %39 = arith.andi %34, %38 : tensor<16x16xi1>
    tt.store %30, %23, %39 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// The same GEMM with 64x64x64 tiles and 1 warp: A and B take 16 KB of a warp's registers in the DPAS operand
// layouts (over 8 KB: read as 2D blocks they stay in registers and spill), so the function is raised as without
// wide-positions: the i64 rows left alone, B (i32 positions) as before.
// CHECK-LABEL: tt.func public @gemm_i64_rows_large
// CHECK: scf.for %{{.*}} -> (tensor<64x64xf32>)
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<bf16>>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>>
// REMARK: wide-positions not applied: a tt.dot's A and B tiles take 16384 bytes per warp
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @gemm_i64_rows_large(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 64 : i32
    %c16_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %c0_i64 = arith.constant 0 : i64
    %55 = arith.extsi %0 : i32 to i64
    %2 = arith.maxsi %55, %c0_i64 : i64
    %3 = arith.muli %2, %c16_i64 : i64
    %4 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %5 = arith.extsi %4 : tensor<64xi32> to tensor<64xi64>
    %6 = tt.splat %3 : i64 -> tensor<64xi64>
    %7 = arith.addi %6, %5 : tensor<64xi64>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
    %9 = arith.extsi %arg6 : i32 to i64
    %10 = tt.splat %9 : i64 -> tensor<64x1xi64>
    %11 = arith.muli %8, %10 : tensor<64x1xi64>
    %12 = tt.broadcast %11 : tensor<64x1xi64> -> tensor<64x64xi64>
    %13 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<64x64x!tt.ptr<bf16>>
    %14 = arith.muli %1, %c16_i32 : i32
    %15 = tt.splat %14 : i32 -> tensor<64xi32>
    %16 = arith.addi %15, %4 : tensor<64xi32>
    %17 = arith.extsi %16 : tensor<64xi32> to tensor<64xi64>
    %18 = tt.expand_dims %17 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
    %19 = tt.broadcast %18 : tensor<1x64xi64> -> tensor<64x64xi64>
    %20 = arith.extsi %arg7 : i32 to i64
    %21 = tt.splat %20 : i64 -> tensor<64x1xi64>
    %22 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<64x64x!tt.ptr<bf16>>
    %23 = scf.for %arg9 = %c0_i32 to %arg5 step %c16_i32 iter_args(%arg10 = %cst) -> (tensor<64x64xf32>)  : i32 {
      %40 = tt.splat %arg9 : i32 -> tensor<64xi32>
      %41 = arith.addi %40, %4 : tensor<64xi32>
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
    %28 = arith.addi %27, %19 : tensor<64x64xi64>
    %29 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %30 = tt.addptr %29, %28 : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi64>
    %31 = arith.extsi %arg3 : i32 to i64
    %32 = tt.splat %31 : i64 -> tensor<64x1xi64>
    %33 = arith.cmpi slt, %8, %32 : tensor<64x1xi64>
    %34 = tt.broadcast %33 : tensor<64x1xi1> -> tensor<64x64xi1>
    %35 = arith.extsi %arg4 : i32 to i64
    %36 = tt.splat %35 : i64 -> tensor<1x64xi64>
    %37 = arith.cmpi slt, %18, %36 : tensor<1x64xi64>
    %38 = tt.broadcast %37 : tensor<1x64xi1> -> tensor<64x64xi1>
    %39 = arith.andi %34, %38 : tensor<64x64xi1>
    tt.store %30, %23, %39 : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A diagonal tile: A's rows and columns both k + arange. Its position moves along two dims, so the loop cannot
// carry it by one advance: raised as without wide-positions (a block pointer made in the loop); B is carried.
// CHECK-LABEL: tt.func public @gemm_diagonal
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[Y:.*]] = %{{.*}}) -> (tensor<16x16xf32>, !tt.ptr<tensor<16x16xbf16>>)
// CHECK: %[[D:.*]] = tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%arg9, %arg9] {order = array<i32: 1, 0>} : <tensor<16x16xbf16>>
// CHECK: tt.load %[[D]] : !tt.ptr<tensor<16x16xbf16>>
// CHECK: tt.load %[[Y]] : !tt.ptr<tensor<16x16xbf16>>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @gemm_diagonal(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c16_i64 = arith.constant 16 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %c0_i64 = arith.constant 0 : i64
    %55 = arith.extsi %0 : i32 to i64
    %2 = arith.maxsi %55, %c0_i64 : i64
    %3 = arith.muli %2, %c16_i64 : i64
    %4 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %5 = arith.extsi %4 : tensor<16xi32> to tensor<16xi64>
    %6 = tt.splat %3 : i64 -> tensor<16xi64>
    %7 = arith.addi %6, %5 : tensor<16xi64>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
    %9 = arith.extsi %arg6 : i32 to i64
    %10 = tt.splat %9 : i64 -> tensor<16x1xi64>
    %11 = arith.muli %8, %10 : tensor<16x1xi64>
    %12 = tt.broadcast %11 : tensor<16x1xi64> -> tensor<16x16xi64>
    %13 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %14 = arith.muli %1, %c16_i32 : i32
    %15 = tt.splat %14 : i32 -> tensor<16xi32>
    %16 = arith.addi %15, %4 : tensor<16xi32>
    %17 = arith.extsi %16 : tensor<16xi32> to tensor<16xi64>
    %18 = tt.expand_dims %17 {axis = 0 : i32} : tensor<16xi64> -> tensor<1x16xi64>
    %19 = tt.broadcast %18 : tensor<1x16xi64> -> tensor<16x16xi64>
    %20 = arith.extsi %arg7 : i32 to i64
    %21 = tt.splat %20 : i64 -> tensor<16x1xi64>
    %22 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %23 = scf.for %arg9 = %c0_i32 to %arg5 step %c16_i32 iter_args(%arg10 = %cst) -> (tensor<16x16xf32>)  : i32 {
      %40 = tt.splat %arg9 : i32 -> tensor<16xi32>
      %41 = arith.addi %40, %4 : tensor<16xi32>
      %42 = arith.extsi %41 : tensor<16xi32> to tensor<16xi64>
      %43 = tt.expand_dims %42 {axis = 0 : i32} : tensor<16xi64> -> tensor<1x16xi64>
      %44 = tt.broadcast %43 : tensor<1x16xi64> -> tensor<16x16xi64>
      %60 = tt.expand_dims %42 {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
      %61 = arith.muli %60, %10 : tensor<16x1xi64>
      %62 = tt.broadcast %61 : tensor<16x1xi64> -> tensor<16x16xi64>
      %45 = arith.addi %62, %44 : tensor<16x16xi64>
      %46 = tt.addptr %13, %45 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi64>
      %47 = tt.load %46 : tensor<16x16x!tt.ptr<bf16>>
      %48 = tt.expand_dims %42 {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
      %49 = arith.muli %48, %21 : tensor<16x1xi64>
      %50 = tt.broadcast %49 : tensor<16x1xi64> -> tensor<16x16xi64>
      %51 = arith.addi %50, %19 : tensor<16x16xi64>
      %52 = tt.addptr %22, %51 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi64>
      %53 = tt.load %52 : tensor<16x16x!tt.ptr<bf16>>
      %54 = tt.dot %47, %53, %arg10 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      scf.yield %54 : tensor<16x16xf32>
    }
    %24 = arith.extsi %arg8 : i32 to i64
    %25 = tt.splat %24 : i64 -> tensor<16x1xi64>
    %26 = arith.muli %8, %25 : tensor<16x1xi64>
    %27 = tt.broadcast %26 : tensor<16x1xi64> -> tensor<16x16xi64>
    %28 = arith.addi %27, %19 : tensor<16x16xi64>
    %29 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %30 = tt.addptr %29, %28 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi64>
    %31 = arith.extsi %arg3 : i32 to i64
    %32 = tt.splat %31 : i64 -> tensor<16x1xi64>
    %33 = arith.cmpi slt, %8, %32 : tensor<16x1xi64>
    %34 = tt.broadcast %33 : tensor<16x1xi1> -> tensor<16x16xi1>
    %35 = arith.extsi %arg4 : i32 to i64
    %36 = tt.splat %35 : i64 -> tensor<1x16xi64>
    %37 = arith.cmpi slt, %18, %36 : tensor<1x16xi64>
    %38 = tt.broadcast %37 : tensor<1x16xi1> -> tensor<16x16xi1>
    %39 = arith.andi %34, %38 : tensor<16x16xi1>
    tt.store %30, %23, %39 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
