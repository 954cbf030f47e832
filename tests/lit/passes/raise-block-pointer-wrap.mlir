// Wrap-around offsets `(p + arange(0, B)) % W`: raised with a `boundaryCheck` against W and no run-time
// version where the wrapped rows (p + i >= W, read as 0) reach only elements a store masks off; versioned
// on `0 <= p, p + B <= W` (the access alone where nothing else needs it) where they reach anything else.
// Each case bit-identical on the interpreter (ints 40: ragged against the tiles), checked after canonicalize.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --verify-semantics="grid=12" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=ignore-masks=true --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=IGN
// RUN: %if triton %{ xpu-opt %s --split-input-file --triton-raise-block-pointer | %python -c "import re, sys; from xpu_passes.integration import oracle as o; from triton._C.libtriton import ir, passes as p; ms = [o.parse(c) for c in re.split(r'(?m)^// -----.*$', sys.stdin.read())]; [(pm := ir.pass_manager(m.context), p.common.add_canonicalizer(pm), pm.run(m)) for m in ms]; print('// -----'.join(str(m) for m in ms))" | FileCheck %s --check-prefix=CANON %}

// SEM-NOT: error
// SEM-COUNT-4: remark: [verify-semantics] equal on
// SEM-NOT: error

// Stacked rows `(pid*4 + arange) % M` copied to rows pid*4 + arange under `rows < M`: the wrapped rows are
// exactly the ones the store masks off, so no version: the load checks dim 0 against M (padding zero).
// With ignore-masks (Intel's meaning) the store's mask is dropped first: the wrapped rows would then be
// stored, and the load is versioned instead.
// CHECK-LABEL: tt.func public @wrap_masked_copy
// CHECK-NOT: scf.if
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @wrap_masked_copy
// CANON: %[[P:.*]] = arith.muli %{{.*}}, %c4_i32 : i32
// CANON: %[[M:.*]] = arith.extsi %arg2 : i32 to i64
// CANON: tt.make_tensor_ptr %arg0, [%[[M]], %c16_i64], [%{{.*}}, %c1_i64], [%[[P]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: wrap.mlir:[[# @LINE + 22]]:5: remark: [triton-raise-block-pointer] raised; wrap-around on dim 0 needs no version: rows with 4*(get_program_id ...) + i >= %arg2 read 0 and reach only elements 1 masked store leaves unwritten
// IGN: wrap.mlir:[[# @LINE + 21]]:5: remark: [triton-raise-block-pointer] left alone: needs %arg2 - 4*(get_program_id ...) - 4 >= 0 at run time (raised in the versioned copy); wrap-around on dim 0: the wrapped rows reach an unmasked store
module {
  tt.func public @wrap_masked_copy(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %6 = arith.remsi %4, %5 : tensor<4xi32>
    %7 = tt.expand_dims %6 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %8 = tt.splat %arg3 : i32 -> tensor<4x1xi32>
    %9 = arith.muli %7, %8 : tensor<4x1xi32>
    %10 = tt.broadcast %9 : tensor<4x1xi32> -> tensor<4x16xi32>
    %11 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %12 = tt.expand_dims %11 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %13 = tt.broadcast %12 : tensor<1x16xi32> -> tensor<4x16xi32>
    %14 = arith.addi %10, %13 : tensor<4x16xi32>
    %15 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %16 = tt.addptr %15, %14 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %17 = tt.load %16 : tensor<4x16x!tt.ptr<f32>>
    %18 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %19 = arith.muli %18, %8 : tensor<4x1xi32>
    %20 = tt.broadcast %19 : tensor<4x1xi32> -> tensor<4x16xi32>
    %21 = arith.addi %20, %13 : tensor<4x16xi32>
    %22 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %23 = tt.addptr %22, %21 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %24 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %25 = arith.cmpi slt, %18, %24 : tensor<4x1xi32>
    %26 = tt.broadcast %25 : tensor<4x1xi1> -> tensor<4x16xi1>
    %27 = arith.mulf %17, %17 : tensor<4x16xf32>
    tt.store %23, %27, %26 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Side by side: columns `(pid*16 + arange) % N` copied to an unmasked store: the wrapped columns would be
// stored, so the load alone is versioned on pid*16 + 16 <= N (pid*16 >= 0 is proven) and the remark says
// why no proof.
// CHECK-LABEL: tt.func public @wrap_side_by_side
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (tensor<4x16xf32>) {
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK: } else {
// CHECK-NEXT: tt.load %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %[[V]] : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @wrap_side_by_side
// CANON: %[[C:.*]] = arith.cmpi sge, %{{.*}}, %c0_i64 : i64
// CANON-NEXT: scf.if %[[C]] -> (tensor<4x16xf32>) {
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %{{.*}}], [%{{.*}}, %c1_i64], [%c0_i32, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: wrap.mlir:[[# @LINE + 21]]:5: remark: [triton-raise-block-pointer] left alone: needs %arg2 - 16*(get_program_id ...) - 16 >= 0 at run time (raised in the versioned copy); wrap-around on dim 1: the wrapped rows reach an unmasked store
module {
  tt.func public @wrap_side_by_side(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<16xi32>
    %6 = arith.remsi %4, %5 : tensor<16xi32>
    %7 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %9 = tt.splat %arg3 : i32 -> tensor<4x1xi32>
    %10 = arith.muli %8, %9 : tensor<4x1xi32>
    %11 = tt.broadcast %10 : tensor<4x1xi32> -> tensor<4x16xi32>
    %12 = tt.expand_dims %6 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %13 = tt.broadcast %12 : tensor<1x16xi32> -> tensor<4x16xi32>
    %14 = arith.addi %11, %13 : tensor<4x16xi32>
    %15 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %16 = tt.addptr %15, %14 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %17 = tt.load %16 : tensor<4x16x!tt.ptr<f32>>
    %18 = tt.expand_dims %4 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %19 = tt.broadcast %18 : tensor<1x16xi32> -> tensor<4x16xi32>
    %20 = arith.addi %11, %19 : tensor<4x16xi32>
    %21 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %22 = tt.addptr %21, %20 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %22, %17 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Stacked rows whose tile is summed over its rows before a masked store: the wrapped rows reach every
// column sum (tt.reduce), so the load is versioned even though the store is masked.
// CHECK-LABEL: tt.func public @wrap_reduced
// CHECK: scf.if %{{.*}} -> (tensor<4x16xf32>) {
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK: } else {
// CHECK: "tt.reduce"
// REMARK: wrap.mlir:[[# @LINE + 21]]:5: remark: [triton-raise-block-pointer] left alone: needs %arg2 - 4*(get_program_id ...) - 4 >= 0 at run time (raised in the versioned copy); wrap-around on dim 0: the wrapped rows reach 'tt.reduce'
module {
  tt.func public @wrap_reduced(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %6 = arith.remsi %4, %5 : tensor<4xi32>
    %7 = tt.expand_dims %6 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %8 = tt.splat %arg3 : i32 -> tensor<4x1xi32>
    %9 = arith.muli %7, %8 : tensor<4x1xi32>
    %10 = tt.broadcast %9 : tensor<4x1xi32> -> tensor<4x16xi32>
    %11 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %12 = tt.expand_dims %11 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %13 = tt.broadcast %12 : tensor<1x16xi32> -> tensor<4x16xi32>
    %14 = arith.addi %10, %13 : tensor<4x16xi32>
    %15 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %16 = tt.addptr %15, %14 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %17 = tt.load %16 : tensor<4x16x!tt.ptr<f32>>
    %18 = "tt.reduce"(%17) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<4x16xf32>) -> tensor<16xf32>
    %19 = arith.muli %0, %c4_i32 : i32
    %20 = tt.splat %19 : i32 -> tensor<16xi32>
    %21 = arith.addi %20, %11 : tensor<16xi32>
    %22 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %23 = tt.addptr %22, %21 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %24 = tt.splat %arg2 : i32 -> tensor<16xi32>
    %25 = arith.cmpi slt, %21, %24 : tensor<16xi32>
    tt.store %23, %18, %25 : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Stacked rows through loop-carried pointers (advanced 16 columns per iteration), loaded and stored at
// the same wrapped rows: no proof (a store through wrapped offsets), so each iteration's load and store
// are versioned alone: the condition is computed once before the loop (shared by both; canonicalize then
// merges the two scf.if), the loop is not copied, and each then-branch makes its block pointer from the
// pointer's closed form (columns 16*i).
// CHECK-LABEL: tt.func public @wrap_in_loop
// CHECK: %[[G:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK: scf.for
// CHECK: scf.if %[[G]] -> (tensor<4x16xf32>) {
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK: } else {
// CHECK-NEXT: tt.load %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CHECK-NOT: arith.cmpi
// CHECK: scf.if %[[G]] {
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK: } else {
// CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CHECK-NOT: scf.for
// CHECK: tt.return
// CANON-LABEL: tt.func public @wrap_in_loop
// CANON: %[[G:.*]] = arith.cmpi sge, %{{.*}}, %c0_i64 : i64
// CANON-NOT: arith.cmpi
// CANON: scf.for %[[I:.*]] = %c0_i32 to %c2_i32 step %c1_i32
// CANON-NEXT: scf.if %[[G]] {
// CANON: %[[C:.*]] = arith.muli %[[I]], %c16_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%{{.*}}, %c0_i64], [%{{.*}}, %c1_i64], [%{{.*}}, %[[C]]] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: tt.make_tensor_ptr %arg1,
// CANON: } else {
// CANON-NEXT: tt.load %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CANON-NEXT: tt.store %{{.*}}, %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// REMARK: wrap.mlir:[[# @LINE + 29]]:7: remark: [triton-raise-block-pointer] left alone: needs %arg2 - 4*(get_program_id ...) - 4 >= 0 at run time (raised in the versioned copy); wrap-around on dim 0: a store through wrapped-around offsets
module {
  tt.func public @wrap_in_loop(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
    %cst = arith.constant dense<16> : tensor<4x16xi32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %6 = arith.remsi %4, %5 : tensor<4xi32>
    %7 = tt.expand_dims %6 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %8 = tt.splat %arg3 : i32 -> tensor<4x1xi32>
    %9 = arith.muli %7, %8 : tensor<4x1xi32>
    %10 = tt.broadcast %9 : tensor<4x1xi32> -> tensor<4x16xi32>
    %11 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %12 = tt.expand_dims %11 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %13 = tt.broadcast %12 : tensor<1x16xi32> -> tensor<4x16xi32>
    %14 = arith.addi %10, %13 : tensor<4x16xi32>
    %15 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %16 = tt.addptr %15, %14 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %17 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %18 = tt.addptr %17, %14 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %19:2 = scf.for %arg4 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg5 = %16, %arg6 = %18) -> (tensor<4x16x!tt.ptr<f32>>, tensor<4x16x!tt.ptr<f32>>)  : i32 {
      %20 = tt.load %arg5 : tensor<4x16x!tt.ptr<f32>>
      tt.store %arg6, %20 : tensor<4x16x!tt.ptr<f32>>
      %21 = tt.addptr %arg5, %cst : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %22 = tt.addptr %arg6, %cst : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %21, %22 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16x!tt.ptr<f32>>
    }
    tt.return
  }
}
