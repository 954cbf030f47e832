// Intel's form where it is exact: accesses that move no tt.dot data and bounds-check no dim get shape 0 and
// keep any position (even one not provably >= 0) in the offsets: 3.3 lowers only DPAS-layout block pointers
// to 2D block I/O (whose surface is the shape), and a gather reads the shape only with a boundaryCheck.
// Each case is bit-identical on the interpreter, accepted by triton-xpu after its canonicalize, and has its
// negative (dot data, a mask) that keeps our 2D-block-safe form or is left alone.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --verify-semantics="grid=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --triton-raise-block-pointer | %python -c "import re, sys; from xpu_passes.integration import oracle as o; from triton._C.libtriton import ir, passes as p; ms = [o.parse(c) for c in re.split(r'(?m)^// -----.*$', sys.stdin.read())]; [(pm := ir.pass_manager(m.context), p.common.add_canonicalizer(pm), pm.run(m)) for m in ms]; print('// -----'.join(str(m) for m in ms))" | FileCheck %s --check-prefix=CANON %}

// SEM-NOT: error
// SEM-COUNT-7: remark: [verify-semantics] equal on
// SEM-NOT: error

// One tensor of pointers, loaded and stored: one block pointer, built where the tensor of pointers was.
// The row position %arg2 (not provably >= 0) stays in the offsets, the kernel's own value; shape [0, 0].
// CHECK-LABEL: tt.func public @shared_pointer
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %arg0,
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.load %[[P]] : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.store %[[P]], %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @shared_pointer
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%arg2, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: intel-form.mlir:[[# @LINE + 18]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
// REMARK: intel-form.mlir:[[# @LINE + 19]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
module {
  tt.func public @shared_pointer(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32, %arg2: i32) attributes {noinline = false} {
    %cst = arith.constant dense<1.000000e+00> : tensor<4x16xf32>
    %c16 = arith.constant dense<16> : tensor<4x1xi32>
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %2 = arith.addi %1, %0 : tensor<4xi32>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %4 = arith.muli %3, %c16 : tensor<4x1xi32>
    %5 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %6 = tt.expand_dims %5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %4 : tensor<4x1xi32> -> tensor<4x16xi32>
    %8 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<4x16xi32>
    %9 = arith.addi %7, %8 : tensor<4x16xi32>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %11 = tt.addptr %10, %9 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %12 = tt.load %11 : tensor<4x16x!tt.ptr<f32>>
    %13 = arith.addf %12, %cst : tensor<4x16xf32>
    tt.store %11, %13 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A row broadcast (the address does not vary along dim 0): stride 0 there, as Intel's pass. Its mask
// `pid * 16 + arange >= 0` is true everywhere (provably non-negative): dropped. Negatives: the same rows
// loaded under `x + %arg2 >= 0` (not provably true, and nothing bounds the load) and as a tt.dot operand
// (2D block I/O has no pitch 0) are left alone; the dot's result keeps the extent as its shape.
// CHECK-LABEL: tt.func public @broadcast_row
// CHECK: %[[R:.*]] = tt.make_tensor_ptr %arg0,
// CHECK: tt.load %[[R]] : !tt.ptr<tensor<16x16xf32>>
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f32>>
// CHECK-NEXT: tt.load %{{.*}} : tensor<16x16x!tt.ptr<f32>>
// CHECK-NEXT: tt.dot
// CANON-LABEL: tt.func public @broadcast_row
// CANON: %[[P:.*]] = arith.muli %{{.*}}, %c16_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%c0_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// CANON: tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%[[P]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// CANON: %[[E:.*]] = arith.addi %{{.*}}, %c16_i64 : i64
// CANON: tt.make_tensor_ptr %arg3, [%[[E]], %c16_i64], [%c16_i64, %c1_i64], [%[[P]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// REMARK: intel-form.mlir:[[# @LINE + 23]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
// REMARK: intel-form.mlir:[[# @LINE + 35]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
// REMARK: intel-form.mlir:[[# @LINE + 37]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = the extent the tile reaches, unchecked
// REMARK: intel-form.mlir:[[# @LINE + 24]]:5: remark: [triton-raise-block-pointer] left alone: mask is not a bounds check of the block, and the block load may read outside the kernel's bounds along dim 0
// REMARK: intel-form.mlir:[[# @LINE + 24]]:5: remark: [triton-raise-block-pointer] left alone: the address does not vary along dim 0
module {
  tt.func public @broadcast_row(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %zero = arith.constant dense<0> : tensor<16x16xi32>
    %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16 = arith.constant dense<16> : tensor<16x1xi32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %6 = tt.broadcast %5 : tensor<1x16xi32> -> tensor<16x16xi32>
    %7 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %8 = tt.addptr %7, %6 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %9 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %10 = tt.broadcast %9 : tensor<16x1xi32> -> tensor<16x16xi32>
    %11 = arith.cmpi sge, %10, %zero : tensor<16x16xi32>
    %row = tt.load %8, %11 : tensor<16x16x!tt.ptr<f32>>
    %12 = tt.splat %arg2 : i32 -> tensor<16x16xi32>
    %13 = arith.addi %10, %12 : tensor<16x16xi32>
    %14 = arith.cmpi sge, %13, %zero : tensor<16x16xi32>
    %other = tt.load %8, %14 : tensor<16x16x!tt.ptr<f32>>
    %b = tt.load %8 : tensor<16x16x!tt.ptr<f32>>
    %15 = tt.dot %b, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %16 = arith.muli %9, %c16 : tensor<16x1xi32>
    %17 = tt.broadcast %16 : tensor<16x1xi32> -> tensor<16x16xi32>
    %18 = arith.addi %17, %6 : tensor<16x16xi32>
    %19 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %20 = tt.addptr %19, %18 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %21 = arith.addf %row, %other : tensor<16x16xf32>
    tt.store %20, %21 : tensor<16x16x!tt.ptr<f32>>
    %22 = tt.splat %arg3 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %23 = tt.addptr %22, %18 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %23, %15 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A pointer advanced by an amount computed in the loop (a running row count): `tt.advance` by it, in the
// loop, as Intel's pass; no mask, no dot data, so no shape is read. The store through `%arg1 + iv * 16`
// is raised in the loop with the counter as its offset. Negative: the same increment with a mask on the
// loaded tile is left alone (the mask's bound would move with a position known only at run time).
// CHECK-LABEL: tt.func public @variable_advance
// CHECK: scf.for {{.*}} -> (i32, !tt.ptr<tensor<4x16xf32>>, tensor<4x16x!tt.ptr<f32>>)
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CANON-LABEL: tt.func public @variable_advance
// CANON: %[[A:.*]] = tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: scf.for %[[I:.*]] = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%[[S:.*]] = %c1_i32, %[[X:.*]] = %[[A]], %{{.*}} = %{{.*}})
// CANON: tt.load %[[X]] : !tt.ptr<tensor<4x16xf32>>
// CANON: tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%[[I]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: %[[N:.*]] = arith.addi %[[S]], %c1_i32 : i32
// CANON: tt.advance %[[X]], [%[[N]], %c0_i32] : <tensor<4x16xf32>>
// REMARK: intel-form.mlir:[[# @LINE + 31]]:7: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
// REMARK: intel-form.mlir:[[# @LINE + 24]]:7: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
// REMARK: intel-form.mlir:[[# @LINE + 24]]:7: remark: [triton-raise-block-pointer] left alone: the pointer increment is not a loop-invariant, constant number of rows or columns
module {
  tt.func public @variable_advance(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %c16 = arith.constant dense<16> : tensor<4x1xi32>
    %2 = arith.muli %1, %c16 : tensor<4x1xi32>
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %5 = tt.broadcast %2 : tensor<4x1xi32> -> tensor<4x16xi32>
    %6 = tt.broadcast %4 : tensor<1x16xi32> -> tensor<4x16xi32>
    %7 = arith.addi %5, %6 : tensor<4x16xi32>
    %8 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %9 = tt.addptr %8, %7 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %11 = tt.addptr %10, %7 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %12 = tt.splat %arg2 : i32 -> tensor<4x16xi32>
    %13 = arith.cmpi slt, %6, %12 : tensor<4x16xi32>
    %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%s = %c1_i32, %p = %9, %m = %9) -> (i32, tensor<4x16x!tt.ptr<f32>>, tensor<4x16x!tt.ptr<f32>>) : i32 {
      %v = tt.load %p : tensor<4x16x!tt.ptr<f32>>
      %w = tt.load %m, %13 : tensor<4x16x!tt.ptr<f32>>
      %x = arith.addf %v, %w : tensor<4x16xf32>
      %in = arith.muli %i, %c16_i32 : i32
      %is = tt.splat %in : i32 -> tensor<4x16xi32>
      %q = tt.addptr %11, %is : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      tt.store %q, %x : tensor<4x16x!tt.ptr<f32>>
      %n = arith.addi %s, %c1_i32 : i32
      %rows = arith.muli %n, %c16_i32 : i32
      %rs = tt.splat %rows : i32 -> tensor<4x16xi32>
      %pn = tt.addptr %p, %rs : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %mn = tt.addptr %m, %rs : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %n, %pn, %mn : i32, tensor<4x16x!tt.ptr<f32>>, tensor<4x16x!tt.ptr<f32>>
    }
    tt.return
  }
}

// -----

// 1D accesses, as Intel's pass raises them (never 2D block I/O, so shape 0 where unmasked): a masked
// load's mask becomes the boundaryCheck, the unmasked store gets shape 0 and position pid * 64.
// CHECK-LABEL: tt.func public @one_d
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<64xf32>>
// CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<64xf32>>
// CANON-LABEL: tt.func public @one_d
// CANON: %[[O:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%{{.*}}], [%c1_i64], [%[[O]]] {order = array<i32: 0>} : <tensor<64xf32>>
// CANON: tt.make_tensor_ptr %arg1, [%c0_i64], [%c1_i64], [%[[O]]] {order = array<i32: 0>} : <tensor<64xf32>>
// REMARK: intel-form.mlir:[[# @LINE + 17]]:5: remark: [triton-raise-block-pointer] raised; dim 0 has no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
module {
  tt.func public @one_d(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %3 = tt.splat %1 : i32 -> tensor<64xi32>
    %4 = arith.addi %3, %2 : tensor<64xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<64xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<64xi32>
    %7 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %8 = tt.addptr %7, %4 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %9 = tt.load %8, %6, %cst : tensor<64x!tt.ptr<f32>>
    %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %11, %9 : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Negative of the shape 0: a tt.dot operand (2D block I/O reads its shape as the surface) keeps the
// extent it reaches ([pid * 16 + 16, 16]) and, with its row position not provably >= 0, the position in
// the base (a 2D block read returns 0 below the surface).
// CHECK-LABEL: tt.func public @dot_keeps_extent
// CHECK: %[[B:.*]] = tt.addptr %arg0, %{{.*}} : !tt.ptr<f32>, i32
// CHECK: tt.make_tensor_ptr %[[B]],
// CANON-LABEL: tt.func public @dot_keeps_extent
// CANON: tt.make_tensor_ptr %{{.*}}, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// CANON: tt.make_tensor_ptr %{{.*}}, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// REMARK-COUNT-2: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = the extent the tile reaches, unchecked
module {
  tt.func public @dot_keeps_extent(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) attributes {noinline = false} {
    %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16 = arith.constant dense<16> : tensor<16x1xi32>
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.splat %arg2 : i32 -> tensor<16xi32>
    %2 = arith.addi %1, %0 : tensor<16xi32>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %4 = arith.muli %3, %c16 : tensor<16x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %6 = tt.broadcast %4 : tensor<16x1xi32> -> tensor<16x16xi32>
    %7 = tt.broadcast %5 : tensor<1x16xi32> -> tensor<16x16xi32>
    %8 = arith.addi %6, %7 : tensor<16x16xi32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %10 = tt.addptr %9, %8 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %a = tt.load %10 : tensor<16x16x!tt.ptr<f32>>
    %11 = tt.dot %a, %a, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %12 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %13 = tt.addptr %12, %8 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %13, %11 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// An addptr chain: `q = p + %arg1` (a uniform offset: same strides) is p's block pointer advanced, as
// Intel's pass; `r = q + offs` (offs is p's own offset pattern: the strides double) is not an advance of
// it and gets its own block pointer with strides [32, 2], and %arg1, a multiple of neither, in its base
// (Intel's pass advances p there, and divides offsets by strides, which drops remainders).
// CHECK-LABEL: tt.func public @advance_chain
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %arg0,
// CHECK: tt.load %[[P]] : !tt.ptr<tensor<4x16xf32>>
// CHECK: %[[Q:.*]] = tt.advance %[[P]], [%{{.*}}, %arg1] : <tensor<4x16xf32>>
// CHECK: tt.load %[[Q]] : !tt.ptr<tensor<4x16xf32>>
// CHECK: %[[B:.*]] = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, i32
// CHECK: %[[R:.*]] = tt.make_tensor_ptr %[[B]],
// CHECK: tt.store %[[R]], %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @advance_chain
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: tt.advance %{{.*}}, [%c0_i32, %arg1] : <tensor<4x16xf32>>
// CANON: tt.make_tensor_ptr %{{.*}}, [%c0_i64, %c0_i64], [%c32_i64, %c2_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
module {
  tt.func public @advance_chain(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32) attributes {noinline = false} {
    %c16 = arith.constant dense<16> : tensor<4x1xi32>
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = arith.muli %1, %c16 : tensor<4x1xi32>
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %5 = tt.broadcast %2 : tensor<4x1xi32> -> tensor<4x16xi32>
    %6 = tt.broadcast %4 : tensor<1x16xi32> -> tensor<4x16xi32>
    %7 = arith.addi %5, %6 : tensor<4x16xi32>
    %8 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %p = tt.addptr %8, %7 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %a = tt.load %p : tensor<4x16x!tt.ptr<f32>>
    %9 = tt.splat %arg1 : i32 -> tensor<4x16xi32>
    %q = tt.addptr %p, %9 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %b = tt.load %q : tensor<4x16x!tt.ptr<f32>>
    %r = tt.addptr %q, %7 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %c = arith.addf %a, %b : tensor<4x16xf32>
    tt.store %r, %c : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A tile at a scalar pointer carried by the loop (`p += iv` each iteration): left alone when it moves
// no tt.dot data, as Intel's pass (no 2D block I/O to gain); the store after the loop is raised.
// CHECK-LABEL: tt.func public @scalar_carried_base
// CHECK: scf.for
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: scf.yield
// CHECK: tt.make_tensor_ptr %arg1,
// REMARK: intel-form.mlir:[[# @LINE + 19]]:7: remark: [triton-raise-block-pointer] left alone: the base is a scalar pointer carried by the loop (not dot data)
module {
  tt.func public @scalar_carried_base(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
    %c16 = arith.constant dense<16> : tensor<4x1xi32>
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = arith.muli %1, %c16 : tensor<4x1xi32>
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %5 = tt.broadcast %2 : tensor<4x1xi32> -> tensor<4x16xi32>
    %6 = tt.broadcast %4 : tensor<1x16xi32> -> tensor<4x16xi32>
    %7 = arith.addi %5, %6 : tensor<4x16xi32>
    %r:2 = scf.for %i = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%acc = %zero, %p = %arg0) -> (tensor<4x16xf32>, !tt.ptr<f32>) : i32 {
      %8 = tt.splat %p : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
      %9 = tt.addptr %8, %7 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %v = tt.load %9 : tensor<4x16x!tt.ptr<f32>>
      %s = arith.addf %acc, %v : tensor<4x16xf32>
      %pn = tt.addptr %p, %i : !tt.ptr<f32>, i32
      scf.yield %s, %pn : tensor<4x16xf32>, !tt.ptr<f32>
    }
    %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %11 = tt.addptr %10, %7 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %11, %r#0 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}
