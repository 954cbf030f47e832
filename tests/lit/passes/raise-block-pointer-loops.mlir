// Loops (our own cases): tensor indices carried as iter_args under a mask on them, and a loop whose
// init args mix pointers with other values. Checked after triton's canonicalize, and bit-identical on the
// interpreter (ints 40: ragged against the tiles).
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --verify-semantics="grid=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --triton-raise-block-pointer | %python -c "import re, sys; from xpu_passes.integration import oracle as o; from triton._C.libtriton import ir, passes as p; ms = [o.parse(c) for c in re.split(r'(?m)^// -----.*$', sys.stdin.read())]; [(pm := ir.pass_manager(m.context), p.common.add_canonicalizer(pm), pm.run(m)) for m in ms]; print('// -----'.join(str(m) for m in ms))" | FileCheck %s --check-prefix=CANON %}

// SEM-NOT: error
// SEM-COUNT-3: remark: [verify-semantics] equal on
// SEM-NOT: error

// Column indices carried as an iter_arg (+16 per iteration) and masked with `cols < K`, other 0: at
// induction value i the columns start at 16*i, so the mask is the bounds check of dim 1 against K
// (boundaryCheck, padding zero); the index iter_arg, then only advancing itself, is dropped.
// CHECK-LABEL: tt.func public @indices_iter_arg_masked
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (tensor<4x16xf32>)
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @indices_iter_arg_masked
// CANON: scf.for %[[I:.*]] = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%{{.*}} = %cst) -> (tensor<4x16xf32>)
// CANON: %[[K:.*]] = arith.extsi %arg3 : i32 to i64
// CANON: %[[C:.*]] = arith.muli %[[I]], %c16_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%c4_i64, %[[K]]], [%{{.*}}, %c1_i64], [%c0_i32, %[[C]]] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: loops.mlir:[[# @LINE + 24]]:7: remark: [triton-raise-block-pointer] raised; dim 0 has no bound in the IR: shape = the extent the tile reaches, unchecked
module {
  tt.func public @indices_iter_arg_masked(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
    %cst_0 = arith.constant dense<16> : tensor<16xi32>
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %3 = arith.muli %1, %2 : tensor<4x1xi32>
    %4 = tt.broadcast %3 : tensor<4x1xi32> -> tensor<4x16xi32>
    %5 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %6 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %7 = tt.splat %arg3 : i32 -> tensor<16xi32>
    %8:2 = scf.for %arg4 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg5 = %5, %arg6 = %cst) -> (tensor<16xi32>, tensor<4x16xf32>)  : i32 {
      %9 = tt.expand_dims %arg5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %10 = tt.broadcast %9 : tensor<1x16xi32> -> tensor<4x16xi32>
      %11 = arith.addi %4, %10 : tensor<4x16xi32>
      %12 = tt.addptr %6, %11 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %13 = arith.cmpi slt, %arg5, %7 : tensor<16xi32>
      %14 = tt.expand_dims %13 {axis = 0 : i32} : tensor<16xi1> -> tensor<1x16xi1>
      %15 = tt.broadcast %14 : tensor<1x16xi1> -> tensor<4x16xi1>
      %16 = tt.load %12, %15, %cst : tensor<4x16x!tt.ptr<f32>>
      %17 = arith.addf %arg6, %16 : tensor<4x16xf32>
      %18 = arith.addi %arg5, %cst_0 : tensor<16xi32>
      scf.yield %18, %17 : tensor<16xi32>, tensor<4x16xf32>
    }
    %19 = tt.expand_dims %5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %20 = tt.broadcast %19 : tensor<1x16xi32> -> tensor<4x16xi32>
    %21 = arith.addi %4, %20 : tensor<4x16xi32>
    %22 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %23 = tt.addptr %22, %21 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %23, %8#1 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Init args interleaving a counter, two loop-carried pointers and an accumulator (the pointers at
// positions 1 and 3): both pointers become block pointers moved by tt.advance (4 rows each iteration),
// the counter and the accumulator stay where they were, and the sum leaves the loop.
// CHECK-LABEL: tt.func public @more_init_args
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %c0_i32{{.*}}, %[[X:.*]] = %{{.*}}, %{{.*}} = %cst{{.*}}, %[[Y:.*]] = %{{.*}}) -> (i32, !tt.ptr<tensor<4x16xf32>>, tensor<4x16xf32>, !tt.ptr<tensor<4x16xf32>>)
// CHECK: tt.load %[[X]] : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.store %[[Y]], %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK-DAG: tt.advance %[[X]], [%{{.*}}, %{{.*}}] : <tensor<4x16xf32>>
// CHECK-DAG: tt.advance %[[Y]], [%{{.*}}, %{{.*}}] : <tensor<4x16xf32>>
// CANON-LABEL: tt.func public @more_init_args
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%[[S:.*]], %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%[[S]], %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: tt.advance %{{.*}}, [%c4_i32, %c0_i32] : <tensor<4x16xf32>>
// CANON: tt.advance %{{.*}}, [%c4_i32, %c0_i32] : <tensor<4x16xf32>>
module {
  tt.func public @more_init_args(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = tt.splat %arg3 : i32 -> tensor<4x1xi32>
    %3 = arith.muli %1, %2 : tensor<4x1xi32>
    %4 = tt.broadcast %3 : tensor<4x1xi32> -> tensor<4x16xi32>
    %5 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %6 = tt.expand_dims %5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<4x16xi32>
    %8 = arith.addi %4, %7 : tensor<4x16xi32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %10 = tt.addptr %9, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %11 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %12 = tt.addptr %11, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %13 = arith.muli %arg3, %c1_i32 : i32
    %14 = arith.constant 4 : i32
    %15 = arith.muli %13, %14 : i32
    %16 = tt.splat %15 : i32 -> tensor<4x16xi32>
    %17:4 = scf.for %arg4 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg5 = %c0_i32, %arg6 = %10, %arg7 = %cst, %arg8 = %12) -> (i32, tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>, tensor<4x16x!tt.ptr<f32>>)  : i32 {
      %18 = tt.load %arg6 : tensor<4x16x!tt.ptr<f32>>
      %19 = arith.addf %arg7, %18 : tensor<4x16xf32>
      tt.store %arg8, %19 : tensor<4x16x!tt.ptr<f32>>
      %20 = arith.addi %arg5, %c1_i32 : i32
      %21 = tt.addptr %arg6, %16 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %22 = tt.addptr %arg8, %16 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %20, %21, %19, %22 : i32, tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>, tensor<4x16x!tt.ptr<f32>>
    }
    %23 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %24 = tt.addptr %23, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %25 = tt.splat %17#0 : i32 -> tensor<4x16xi32>
    %26 = arith.sitofp %25 : tensor<4x16xi32> to tensor<4x16xf32>
    %27 = arith.addf %17#2, %26 : tensor<4x16xf32>
    tt.store %24, %27 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Negative: the indices carried as an iter_arg are advanced by an amount loaded in the loop (not a
// loop-invariant step): no closed form, left alone.
// CHECK-LABEL: tt.func public @indices_iter_arg_loaded_step
// CHECK: tt.load %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// REMARK: loops.mlir:[[# @LINE + 19]]:7: remark: [triton-raise-block-pointer] left alone: offsets carried through a loop or branch
module {
  tt.func public @indices_iter_arg_loaded_step(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<i32>) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %3 = arith.muli %1, %2 : tensor<4x1xi32>
    %4 = tt.broadcast %3 : tensor<4x1xi32> -> tensor<4x16xi32>
    %5 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %6 = tt.expand_dims %5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<4x16xi32>
    %8 = arith.addi %4, %7 : tensor<4x16xi32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %10:2 = scf.for %arg4 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg5 = %8, %arg6 = %cst) -> (tensor<4x16xi32>, tensor<4x16xf32>)  : i32 {
      %11 = tt.addptr %9, %arg5 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %12 = tt.load %11 : tensor<4x16x!tt.ptr<f32>>
      %13 = arith.addf %arg6, %12 : tensor<4x16xf32>
      %14 = tt.addptr %arg3, %arg4 : !tt.ptr<i32>, i32
      %15 = tt.load %14 : !tt.ptr<i32>
      %16 = arith.andi %15, %c1_i32 : i32
      %17 = tt.splat %16 : i32 -> tensor<4x16xi32>
      %18 = arith.addi %arg5, %17 : tensor<4x16xi32>
      scf.yield %18, %13 : tensor<4x16xi32>, tensor<4x16xf32>
    }
    %19 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %20 = tt.addptr %19, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %20, %10#1 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}
