// Raising patterns (our own cases, after Intel's test list), each checked in the form Intel's pass gives
// after -canonicalize (the kernel's pointer argument as the base, the tile's position in the offsets, shape 0
// where no mask bounds a dim: no tt.dot here, so no 2D block I/O reads the shape), bit-identical on the
// interpreter, and accepted by triton-xpu. Dot data keeps real shapes: raise-block-pointer-dot-only.mlir.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=false --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=false --verify-semantics="grid=12" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=false | %python -c "import re, sys; from xpu_passes.integration import oracle as o; from triton._C.libtriton import ir, passes as p; ms = [o.parse(c) for c in re.split(r'(?m)^// -----.*$', sys.stdin.read())]; [(pm := ir.pass_manager(m.context), p.common.add_canonicalizer(pm), pm.run(m)) for m in ms]; print('// -----'.join(str(m) for m in ms))" | FileCheck %s --check-prefix=CANON %}

// SEM-NOT: error
// SEM-COUNT-8: remark: [verify-semantics] equal on
// SEM-NOT: error

// addptr chain: rows (pid*4 + arange) times a value (the row stride), columns times the constant 2,
// then + 6 elements (= 3 columns): base %arg0, offsets [pid*4, 3], strides [stride, 2]. No mask and no
// tt.dot: shape [0, 0] as Intel's (nothing reads it: no boundaryCheck, no 2D block I/O).
// CHECK-LABEL: tt.func public @chain_add_mul
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK-NOT: tt.addptr
// CANON-LABEL: tt.func public @chain_add_mul
// CANON: %[[PID:.*]] = tt.get_program_id x : i32
// CANON: %[[P:.*]] = arith.muli %[[PID]], %c4_i32 : i32
// CANON: %[[S:.*]] = arith.extsi %arg2 : i32 to i64
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%[[S]], %c2_i64], [%[[P]], %c3_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%{{.*}}, %c2_i64], [%[[P]], %c3_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: patterns.mlir:[[# @LINE + 23]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
module {
  tt.func public @chain_add_mul(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c4_i32 = arith.constant 4 : i32
    %cst = arith.constant dense<2> : tensor<1x16xi32>
    %cst_0 = arith.constant dense<6> : tensor<4x16xi32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %6 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %7 = arith.muli %5, %6 : tensor<4x1xi32>
    %8 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %9 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %10 = arith.muli %9, %cst : tensor<1x16xi32>
    %11 = tt.broadcast %10 : tensor<1x16xi32> -> tensor<4x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %13 = tt.addptr %12, %7 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %14 = tt.broadcast %13 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x16x!tt.ptr<f32>>
    %15 = tt.addptr %14, %11 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %16 = tt.addptr %15, %cst_0 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %17 = tt.load %16 : tensor<4x16x!tt.ptr<f32>>
    %18 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %20 = tt.broadcast %19 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x16x!tt.ptr<f32>>
    %21 = tt.addptr %20, %11 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %22 = tt.addptr %21, %cst_0 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %22, %17 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A scalar `tt.addptr` before the splat (pid*16 rows of the row stride), and a data bitcast: the scalar
// offset becomes the row position, the kernel argument stays the base.
// CHECK-LABEL: tt.func public @scalar_base_splat
// CHECK-NOT: tt.addptr
// CHECK: tt.make_tensor_ptr %arg0,
// CANON-LABEL: tt.func public @scalar_base_splat
// CANON: %[[PID:.*]] = tt.get_program_id x : i32
// CANON: %[[P:.*]] = arith.muli %[[PID]], %c16_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%{{.*}}, %c1_i64], [%[[P]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
// CANON: tt.bitcast
// CANON: tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%{{.*}}, %c1_i64], [%{{.*}}, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
module {
  tt.func public @scalar_base_splat(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = arith.muli %1, %arg2 : i32
    %3 = tt.addptr %arg0, %2 : !tt.ptr<f16>, i32
    %4 = tt.addptr %arg1, %2 : !tt.ptr<f16>, i32
    %5 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %6 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %8 = arith.muli %6, %7 : tensor<16x1xi32>
    %9 = tt.broadcast %8 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.expand_dims %5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %11 = tt.broadcast %10 : tensor<1x16xi32> -> tensor<16x16xi32>
    %12 = arith.addi %9, %11 : tensor<16x16xi32>
    %13 = tt.splat %3 : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %14 = tt.addptr %13, %12 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %15 = tt.load %14 : tensor<16x16x!tt.ptr<f16>>
    %16 = tt.bitcast %15 : tensor<16x16xf16> -> tensor<16x16xi16>
    %17 = tt.bitcast %16 : tensor<16x16xi16> -> tensor<16x16xf16>
    %18 = tt.splat %4 : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %19 = tt.addptr %18, %12 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    tt.store %19, %17 : tensor<16x16x!tt.ptr<f16>>
    tt.return
  }
}

// -----

// i64 offsets sign-extended from i32 (rows, the stride, the bound): followed back to the i32 values. The
// row mask is the bounds check of dim 0 (shape = the bound %arg3), so the load gets boundaryCheck and zero
// padding, and the masked store boundaryCheck.
// CHECK-LABEL: tt.func public @sign_extend
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<8x16xf32>>
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<8x16xf32>>
// CANON-LABEL: tt.func public @sign_extend
// CANON-DAG: %[[M:.*]] = arith.extsi %arg3 : i32 to i64
// CANON-DAG: %[[S:.*]] = arith.extsi %arg2 : i32 to i64
// CANON: tt.make_tensor_ptr %arg0, [%[[M]], %c16_i64], [%[[S]], %c1_i64], [%{{.*}}, %c0_i32] {order = array<i32: 1, 0>} : <tensor<8x16xf32>>
module {
  tt.func public @sign_extend(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32) attributes {noinline = false} {
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c8_i32 : i32
    %2 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %3 = tt.splat %1 : i32 -> tensor<8xi32>
    %4 = arith.addi %3, %2 : tensor<8xi32>
    %5 = arith.extsi %4 : tensor<8xi32> to tensor<8xi64>
    %6 = tt.expand_dims %5 {axis = 1 : i32} : tensor<8xi64> -> tensor<8x1xi64>
    %7 = arith.extsi %arg2 : i32 to i64
    %8 = tt.splat %7 : i64 -> tensor<8x1xi64>
    %9 = arith.muli %6, %8 : tensor<8x1xi64>
    %10 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %11 = arith.extsi %10 : tensor<16xi32> to tensor<16xi64>
    %12 = tt.expand_dims %11 {axis = 0 : i32} : tensor<16xi64> -> tensor<1x16xi64>
    %13 = tt.broadcast %9 : tensor<8x1xi64> -> tensor<8x16xi64>
    %14 = tt.broadcast %12 : tensor<1x16xi64> -> tensor<8x16xi64>
    %15 = arith.addi %13, %14 : tensor<8x16xi64>
    %16 = arith.extsi %arg3 : i32 to i64
    %17 = tt.splat %16 : i64 -> tensor<8x1xi64>
    %18 = arith.cmpi slt, %6, %17 : tensor<8x1xi64>
    %19 = tt.broadcast %18 : tensor<8x1xi1> -> tensor<8x16xi1>
    %20 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>>
    %21 = tt.addptr %20, %15 : tensor<8x16x!tt.ptr<f32>>, tensor<8x16xi64>
    %22 = tt.load %21, %19, %cst : tensor<8x16x!tt.ptr<f32>>
    %23 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>>
    %24 = tt.addptr %23, %15 : tensor<8x16x!tt.ptr<f32>>, tensor<8x16xi64>
    tt.store %24, %22, %19 : tensor<8x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// More loop iter args than pointers (an i32 counter), a load and a store through loop-carried pointers
// before their update, and both pointers used after the loop: the loop carries block pointers moved by
// tt.advance (4 rows), and after the loop the pointers are rebuilt from the trip count (3) and raised too.
// CHECK-LABEL: tt.func public @loop_more_args_used_after
// CHECK: scf.for {{.*}} -> (i32, !tt.ptr<tensor<4x16xf32>>, !tt.ptr<tensor<4x16xf32>>)
// CHECK-NOT: tensor<4x16x!tt.ptr<f32>>
// CHECK: tt.return
// CANON-LABEL: tt.func public @loop_more_args_used_after
// CANON: %[[A:.*]] = tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%[[S:.*]], %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: %[[B:.*]] = tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%[[S]], %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: scf.for %{{.*}} iter_args(%{{.*}} = %c0_i32, %[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CANON-NEXT: %[[V:.*]] = tt.load %[[X]] : !tt.ptr<tensor<4x16xf32>>
// CANON-NEXT: tt.store %[[Y]], %[[V]] : !tt.ptr<tensor<4x16xf32>>
// CANON: tt.advance %[[X]], [%c4_i32, %c0_i32] : <tensor<4x16xf32>>
// CANON: tt.advance %[[Y]], [%c4_i32, %c0_i32] : <tensor<4x16xf32>>
// CANON-DAG: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%{{.*}}, %c1_i64], [%c12_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON-DAG: tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%{{.*}}, %c1_i64], [%c12_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
module {
  tt.func public @loop_more_args_used_after(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
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
    %10 = tt.addptr %9, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %11 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %12 = tt.addptr %11, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %13 = arith.muli %arg2, %c4_i32 : i32
    %14 = tt.splat %13 : i32 -> tensor<4x16xi32>
    %15:3 = scf.for %arg3 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg4 = %c0_i32, %arg5 = %10, %arg6 = %12) -> (i32, tensor<4x16x!tt.ptr<f32>>, tensor<4x16x!tt.ptr<f32>>)  : i32 {
      %20 = tt.load %arg5 : tensor<4x16x!tt.ptr<f32>>
      tt.store %arg6, %20 : tensor<4x16x!tt.ptr<f32>>
      %21 = arith.addi %arg4, %c1_i32 : i32
      %22 = tt.addptr %arg5, %14 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %23 = tt.addptr %arg6, %14 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %21, %22, %23 : i32, tensor<4x16x!tt.ptr<f32>>, tensor<4x16x!tt.ptr<f32>>
    }
    %16 = tt.load %15#1 : tensor<4x16x!tt.ptr<f32>>
    tt.store %15#2, %16 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Wrap-around rows `(pid*4 + arange) % M` (stacked): versioned on pid*4 + 4 <= M (pid*4 >= 0 is proven),
// and only the load is versioned (the smallest region whose condition can be computed before it), not the
// function body. The store's rows do not wrap: raised as is.
// CHECK-LABEL: tt.func public @wrap_stacked
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (tensor<4x16xf32>) {
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK: } else {
// CHECK-NEXT: tt.load %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %[[V]] : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @wrap_stacked
// CANON: %[[C:.*]] = arith.cmpi sge, %{{.*}}, %c0_i64 : i64
// CANON-NEXT: scf.if %[[C]] -> (tensor<4x16xf32>) {
// CANON: tt.make_tensor_ptr %arg0, [%{{.*}}, %c0_i64], [%{{.*}}, %c1_i64], [%{{.*}}, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: remark: [triton-raise-block-pointer] left alone: needs %arg2 - 4*(get_program_id ...) - 4 >= 0 at run time (raised in the versioned copy)
module {
  tt.func public @wrap_stacked(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
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
    tt.store %23, %17 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A loop-carried pointer used before its update (a load) and after it (a load and a store through the
// advanced pointer, the one yielded): the tt.advance replaces the increment where it was, the accesses
// after it go through its result. The masks `k*4 + i < K` on the rows before the update and
// `k*4 + 4 + i < K` after it are both the bounds check of dim 0 with the shape K.
// CHECK-LABEL: tt.func public @used_before_and_after_update
// CHECK: scf.for
// CHECK: %[[OLD:.*]] = tt.load %[[ARG:.*]] {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<4x16xf32>>
// CHECK-NEXT: %[[ADV:.*]] = tt.advance %[[ARG]], [%{{.*}}, %{{.*}}] : <tensor<4x16xf32>>
// CHECK: tt.load %[[ADV]] {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.store %[[ADV]], %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<4x16xf32>>
// CHECK: scf.yield %[[ADV]] : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @used_before_and_after_update
// CANON: %[[K:.*]] = arith.extsi %arg3 : i32 to i64
// CANON: %[[P:.*]] = tt.make_tensor_ptr %arg0, [%[[K]], %c16_i64], [%{{.*}}, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: scf.for %{{.*}} iter_args(%[[X:.*]] = %[[P]]) -> (!tt.ptr<tensor<4x16xf32>>)
// CANON: tt.advance %[[X]], [%c4_i32, %c0_i32] : <tensor<4x16xf32>>
module {
  tt.func public @used_before_and_after_update(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
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
    %10 = tt.addptr %9, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %11 = arith.muli %arg2, %c4_i32 : i32
    %12 = tt.splat %11 : i32 -> tensor<4x16xi32>
    %13 = scf.for %arg4 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg5 = %10) -> (tensor<4x16x!tt.ptr<f32>>)  : i32 {
      %16 = arith.muli %arg4, %c4_i32 : i32
      %25 = tt.splat %16 : i32 -> tensor<4x1xi32>
      %26 = arith.addi %25, %1 : tensor<4x1xi32>
      %27 = tt.splat %arg3 : i32 -> tensor<4x1xi32>
      %28 = arith.cmpi slt, %26, %27 : tensor<4x1xi32>
      %29 = tt.broadcast %28 : tensor<4x1xi1> -> tensor<4x16xi1>
      %14 = tt.load %arg5, %29, %cst : tensor<4x16x!tt.ptr<f32>>
      %15 = tt.addptr %arg5, %12 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %17 = arith.addi %16, %c4_i32 : i32
      %18 = tt.splat %17 : i32 -> tensor<4x1xi32>
      %19 = arith.addi %18, %1 : tensor<4x1xi32>
      %20 = tt.splat %arg3 : i32 -> tensor<4x1xi32>
      %21 = arith.cmpi slt, %19, %20 : tensor<4x1xi32>
      %22 = tt.broadcast %21 : tensor<4x1xi1> -> tensor<4x16xi1>
      %23 = tt.load %15, %22, %cst : tensor<4x16x!tt.ptr<f32>>
      %24 = arith.addf %14, %23 : tensor<4x16xf32>
      tt.store %15, %24, %22 : tensor<4x16x!tt.ptr<f32>>
      scf.yield %15 : tensor<4x16x!tt.ptr<f32>>
    }
    tt.return
  }
}

// -----

// Nested loops: a pointer carried by the outer loop (4 rows per iteration) starts the inner loop (16
// columns per iteration), whose accesses go through it. The outer pointer at induction value i is
// `init + i * 4 rows` (its closed form), so the inner loop's block pointer starts at [4*i, 0]; the outer
// iter_arg, left only advancing itself, is dropped.
// CHECK-LABEL: tt.func public @nested
// CHECK: scf.for %{{.*}} = %c0_i32 to %c2_i32 step %c1_i32 : i32 {
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %arg0,
// CHECK: scf.for %{{.*}} iter_args(%[[X:.*]] = %[[P]]) -> (!tt.ptr<tensor<4x16xf32>>)
// CHECK-NEXT: tt.load %[[X]] : !tt.ptr<tensor<4x16xf32>>
// CHECK-NOT: tensor<4x16x!tt.ptr<f32>>
// CHECK: tt.return
// CANON-LABEL: tt.func public @nested
// CANON: scf.for %[[I:.*]] = %c0_i32 to %c2_i32 step %c1_i32 : i32 {
// CANON: %[[R:.*]] = arith.muli %[[I]], %c4_i32 : i32
// CANON: %[[P:.*]] = tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%{{.*}}, %c1_i64], [%[[R]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: scf.for %{{.*}} iter_args(%[[X:.*]] = %[[P]])
// CANON: tt.advance %[[X]], [%c0_i32, %c16_i32] : <tensor<4x16xf32>>
module {
  tt.func public @nested(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
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
    %10 = tt.addptr %9, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %11 = arith.constant dense<16> : tensor<4x16xi32>
    %12 = arith.muli %arg2, %c4_i32 : i32
    %13 = tt.splat %12 : i32 -> tensor<4x16xi32>
    %14 = scf.for %arg3 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg4 = %10) -> (tensor<4x16x!tt.ptr<f32>>)  : i32 {
      %15 = scf.for %arg5 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg6 = %arg4) -> (tensor<4x16x!tt.ptr<f32>>)  : i32 {
        %16 = tt.load %arg6 : tensor<4x16x!tt.ptr<f32>>
        tt.store %arg6, %16 : tensor<4x16x!tt.ptr<f32>>
        %17 = tt.addptr %arg6, %11 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
        scf.yield %17 : tensor<4x16x!tt.ptr<f32>>
      }
      %18 = tt.addptr %arg4, %13 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %18 : tensor<4x16x!tt.ptr<f32>>
    }
    tt.return
  }
}

// -----

// Tensor indices carried as a loop iter_arg (advanced by 16 columns per iteration) and the pointer rebuilt
// from them each iteration: at induction value i the indices are `init + 16*i` (their closed form), so the
// load is a block pointer at [0, 16*i]; the index iter_arg, left only advancing itself, is dropped.
// CHECK-LABEL: tt.func public @indices_iter_arg
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %cst) -> (tensor<4x16xf32>)
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @indices_iter_arg
// CANON: scf.for %[[I:.*]] = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%{{.*}} = %cst) -> (tensor<4x16xf32>)
// CANON: %[[C:.*]] = arith.muli %[[I]], %c16_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%{{.*}}, %c1_i64], [%c0_i32, %[[C]]] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
module {
  tt.func public @indices_iter_arg(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
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
    %10 = arith.constant dense<16> : tensor<4x16xi32>
    %11:2 = scf.for %arg3 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg4 = %8, %arg5 = %cst) -> (tensor<4x16xi32>, tensor<4x16xf32>)  : i32 {
      %12 = tt.addptr %9, %arg4 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %13 = tt.load %12 : tensor<4x16x!tt.ptr<f32>>
      %14 = arith.addf %arg5, %13 : tensor<4x16xf32>
      %15 = arith.addi %arg4, %10 : tensor<4x16xi32>
      scf.yield %15, %14 : tensor<4x16xi32>, tensor<4x16xf32>
    }
    %16 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %17 = tt.addptr %16, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %17, %11#1 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}
