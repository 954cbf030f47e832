// Pointers through `tt.reshape` (our own cases): raised where the reshaped tile is still a strided block
// (a split dim, unit dims removed, dims merged whose strides compose), left alone with a remark otherwise
// (strides that do not compose, `allow_reorder`). Checked after triton's canonicalize, and bit-identical on
// the interpreter (ints 40: ragged against the tiles).
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --verify-semantics="grid=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --triton-raise-block-pointer | %python -c "import re, sys; from xpu_passes.integration import oracle as o; from triton._C.libtriton import ir, passes as p; ms = [o.parse(c) for c in re.split(r'(?m)^// -----.*$', sys.stdin.read())]; [(pm := ir.pass_manager(m.context), p.common.add_canonicalizer(pm), pm.run(m)) for m in ms]; print('// -----'.join(str(m) for m in ms))" | FileCheck %s --check-prefix=CANON %}

// SEM-NOT: error
// SEM-COUNT-5: remark: [verify-semantics] equal on
// SEM-NOT: error

// A 64-element run split into 4 rows of 16: strides [16, 1]; the run's start pid*64 is 4*pid rows.
// CHECK-LABEL: tt.func public @reshape_split
// CHECK-NOT: tt.reshape
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CANON-LABEL: tt.func public @reshape_split
// CANON: %[[PID:.*]] = tt.get_program_id x : i32
// CANON: %[[P:.*]] = arith.muli %[[PID]], %c4_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%[[P]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// CANON: %[[P1:.*]] = arith.muli %[[PID]], %c4_i32 : i32
// CANON: tt.make_tensor_ptr %arg1, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%[[P1]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: reshape.mlir:[[# @LINE + 12]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR
module {
  tt.func public @reshape_split(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %3 = tt.splat %1 : i32 -> tensor<64xi32>
    %4 = arith.addi %3, %2 : tensor<64xi32>
    %5 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %6 = tt.addptr %5, %4 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %7 = tt.reshape %6 : tensor<64x!tt.ptr<f32>> -> tensor<4x16x!tt.ptr<f32>>
    %8 = tt.load %7 : tensor<4x16x!tt.ptr<f32>>
    %9 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %11 = tt.reshape %10 : tensor<64x!tt.ptr<f32>> -> tensor<4x16x!tt.ptr<f32>>
    tt.store %11, %8 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A unit dim added (expand_dims) and removed (reshape), the pointers and the row mask alike: the mask is
// still the bounds check of the rows (boundaryCheck on dim 0, shape M from the mask, padding zero).
// CHECK-LABEL: tt.func public @reshape_unit_dims_masked
// CHECK-NOT: tt.reshape
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK-NEXT: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16x16xf32>>
// CANON-LABEL: tt.func public @reshape_unit_dims_masked
// CANON: %[[M:.*]] = arith.extsi %arg2 : i32 to i64
// CANON: %[[S:.*]] = arith.extsi %arg3 : i32 to i64
// CANON: tt.make_tensor_ptr %arg0, [%[[M]], %c16_i64], [%[[S]], %c1_i64], [%{{.*}}, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// REMARK: reshape.mlir:[[# @LINE + 26]]:5: remark: [triton-raise-block-pointer] raised; dim 1 has no bound in the IR: shape = the extent the tile reaches, unchecked
module {
  tt.func public @reshape_unit_dims_masked(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.expand_dims %11 {axis = 0 : i32} : tensor<16x16xi32> -> tensor<1x16x16xi32>
    %13 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1x16x16x!tt.ptr<f32>>
    %14 = tt.addptr %13, %12 : tensor<1x16x16x!tt.ptr<f32>>, tensor<1x16x16xi32>
    %15 = tt.reshape %14 : tensor<1x16x16x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %16 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %17 = arith.cmpi slt, %5, %16 : tensor<16x1xi32>
    %18 = tt.broadcast %17 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.expand_dims %18 {axis = 0 : i32} : tensor<16x16xi1> -> tensor<1x16x16xi1>
    %20 = tt.reshape %19 : tensor<1x16x16xi1> -> tensor<16x16xi1>
    %21 = tt.load %15, %20, %cst : tensor<16x16x!tt.ptr<f32>>
    %22 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1x16x16x!tt.ptr<f32>>
    %23 = tt.addptr %22, %12 : tensor<1x16x16x!tt.ptr<f32>>, tensor<1x16x16xi32>
    %24 = tt.reshape %23 : tensor<1x16x16x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    tt.store %24, %21, %20 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// 4 rows of 16 merged into one run of 64: the row stride is the constant 16, so the strides compose (16 =
// 1 * 16) and the run is a 1D block at pid*64 (raised, Intel's 1D form); the same merge with the row
// stride a kernel argument is no strided block: left alone.
// CHECK-LABEL: tt.func public @reshape_merge
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<64xf32>>
// CHECK: tt.reshape
// CHECK: tt.load %{{.*}} : tensor<64x!tt.ptr<f32>>
// CANON-LABEL: tt.func public @reshape_merge
// CANON: %[[PID:.*]] = tt.get_program_id x : i32
// CANON: %[[P:.*]] = arith.muli %[[PID]], %c64_i32 : i32
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64], [%c1_i64], [%[[P]]] {order = array<i32: 0>} : <tensor<64xf32>>
// REMARK: reshape.mlir:[[# @LINE + 21]]:5: remark: [triton-raise-block-pointer] raised; dim 0 has no bound in the IR
// REMARK: reshape.mlir:[[# @LINE + 28]]:5: remark: [triton-raise-block-pointer] left alone: reshape merges dims whose strides do not compose (not a strided block)
module {
  tt.func public @reshape_merge(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c4_i32 = arith.constant 4 : i32
    %cst = arith.constant dense<16> : tensor<4x1xi32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %6 = arith.muli %5, %cst : tensor<4x1xi32>
    %7 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %6 : tensor<4x1xi32> -> tensor<4x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<4x16xi32>
    %11 = arith.addi %9, %10 : tensor<4x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %14 = tt.reshape %13 : tensor<4x16x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f32>>
    %15 = tt.load %14 : tensor<64x!tt.ptr<f32>>
    %16 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %17 = arith.muli %5, %16 : tensor<4x1xi32>
    %18 = tt.broadcast %17 : tensor<4x1xi32> -> tensor<4x16xi32>
    %19 = arith.addi %18, %10 : tensor<4x16xi32>
    %20 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %21 = tt.addptr %20, %19 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %22 = tt.reshape %21 : tensor<4x16x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f32>>
    %23 = tt.load %22 : tensor<64x!tt.ptr<f32>>
    %24 = arith.addf %15, %23 : tensor<64xf32>
    %25 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %26 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %27 = tt.addptr %25, %26 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %27, %24 : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Offsets (not pointers) reshaped: split a run of 64 into 4x16 after the addition; and `allow_reorder`
// (the compiler may reorder elements): left alone.
// CHECK-LABEL: tt.func public @reshape_offsets_and_reorder
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.reshape %{{.*}} allow_reorder
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CANON-LABEL: tt.func public @reshape_offsets_and_reorder
// CANON: tt.make_tensor_ptr %arg0, [%c0_i64, %c0_i64], [%c16_i64, %c1_i64], [%{{.*}}, %c0_i32] {order = array<i32: 1, 0>} : <tensor<4x16xf32>>
// REMARK: reshape.mlir:[[# @LINE + 13]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR
// REMARK: reshape.mlir:[[# @LINE + 16]]:5: remark: [triton-raise-block-pointer] left alone: reshape that may reorder elements (allow_reorder)
module {
  tt.func public @reshape_offsets_and_reorder(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %3 = tt.splat %1 : i32 -> tensor<64xi32>
    %4 = arith.addi %3, %2 : tensor<64xi32>
    %5 = tt.reshape %4 : tensor<64xi32> -> tensor<4x16xi32>
    %6 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %7 = tt.addptr %6, %5 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %8 = tt.load %7 : tensor<4x16x!tt.ptr<f32>>
    %9 = tt.reshape %4 allow_reorder : tensor<64xi32> -> tensor<4x16xi32>
    %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %11 = tt.addptr %10, %9 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %11, %8 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Dot data through a reshape (2D block I/O: real shapes): A's 1x16x16 tile without its unit dim, masked
// on rows; the dot's operands and result keep their positions.
// CHECK-LABEL: tt.func public @reshape_dot_operand
// CHECK: tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], {{.*}} : <tensor<16x16xf16>>
// CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// CHECK: tt.dot
// REMARK: reshape.mlir:[[# @LINE + 26]]:5: remark: [triton-raise-block-pointer] raised; dim 1 has no bound in the IR: shape = the extent the tile reaches, unchecked
module {
  tt.func public @reshape_dot_operand(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_1 = arith.constant dense<1.000000e+00> : tensor<16x16xf16>
    %cst_2 = arith.constant dense<16> : tensor<16x1xi32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = arith.muli %5, %cst_2 : tensor<16x1xi32>
    %7 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %8 = tt.broadcast %6 : tensor<16x1xi32> -> tensor<16x16xi32>
    %9 = tt.broadcast %7 : tensor<1x16xi32> -> tensor<16x16xi32>
    %10 = arith.addi %8, %9 : tensor<16x16xi32>
    %11 = tt.reshape %10 : tensor<16x16xi32> -> tensor<1x16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<1x16x16x!tt.ptr<f16>>
    %13 = tt.addptr %12, %11 : tensor<1x16x16x!tt.ptr<f16>>, tensor<1x16x16xi32>
    %14 = tt.reshape %13 : tensor<1x16x16x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %15 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %16 = arith.cmpi slt, %5, %15 : tensor<16x1xi32>
    %17 = tt.broadcast %16 : tensor<16x1xi1> -> tensor<16x16xi1>
    %18 = tt.load %14, %17, %cst : tensor<16x16x!tt.ptr<f16>>
    %19 = tt.dot %18, %cst_1, %cst_0, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %20 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %21 = tt.addptr %20, %10 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %21, %19, %17 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
