// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=false --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=false --verify-semantics="grid=9" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=false | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.make_tensor_ptr
// ORACLE: tt.advance

// Every chunk, run before and after on the same random inputs (ints 40: ragged against the
// 16-wide tiles, so masks, the wrap-around copy and the raised copy all run): equal.
// SEM-NOT: error
// SEM-COUNT-7: remark: [verify-semantics] equal on
// SEM-NOT: error

// Tutorial GEMM as triton-xpu 3.3 prints its TTIR (16x16x16 tiles, f16; locations
// dropped): offsets `(pid_m * BM + arange) % M`, `(pid_n * BN + arange) % N`; Intel's
// remove-masks step already split the K loop into an unmasked version (K % BK == 0)
// and one masked with `k < K - k * BK`. No run-time version: A's wrapped rows
// (pid_m*16 + i >= M) only reach accumulator rows, B's wrapped columns only accumulator
// columns, and the epilogue store masks exactly those off (`offs_cm < M`, `offs_cn < N`),
// so the wrapped dims become `boundaryCheck` against M (A) and N (B) with zero padding.
// Only the kernel's own scf.if (remove-masks) remains: its then-loop carries block
// pointers (tt.advance by 16 along K; K's extent is 16 * trip count, unchecked), its
// else-loop checks K against the mask's bound. pid_m*16 (pid / cdiv(N, 16)) is not
// provably >= 0: it moves into the base and dim 0's shape is M - pid_m*16.
// CHECK-LABEL: tt.func public @gemm_tensor_ptr
// CHECK: %[[PM:.*]] = arith.divsi %0, %2 : i32
// CHECK: %[[PN:.*]] = arith.remsi %0, %2 : i32
// CHECK-NOT: arith.remsi %{{.*}}, %{{.*}} : tensor<16xi32>
// CHECK: %[[KT:.*]] = arith.divsi %{{.*}}, %c16_i32 : i32
// CHECK-NOT: arith.cmpi sge
// CHECK: %[[RESULT:.*]] = scf.if %{{.*}} -> (tensor<16x16xf32>) {
// CHECK: %[[AB:.*]] = tt.addptr %arg0, %{{.*}} : !tt.ptr<f16>, i32
// CHECK: %[[TRIPS:.*]] = arith.extsi %[[KT]] : i32 to i64
// CHECK: %[[KEXT:.*]] = arith.muli %[[TRIPS]], %{{.*}} : i64
// CHECK: %[[A:.*]] = tt.make_tensor_ptr %[[AB]], [%{{.*}}, %[[KEXT]]], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
// CHECK: %[[N64:.*]] = arith.extsi %arg4 : i32 to i64
// CHECK: %[[B:.*]] = tt.make_tensor_ptr %arg1, [%{{.*}}, %[[N64]]], {{.*}} {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[KT]] step %c1_i32 iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]]) -> (tensor<16x16xf32>, !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>)
// CHECK-NEXT: tt.load %[[X]] {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// CHECK-NEXT: tt.load %[[Y]] {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// CHECK: tt.advance %[[X]], [%[[Z:.*]], %[[S:.*]]] : <tensor<16x16xf16>>
// CHECK: tt.advance %[[Y]], [%[[S]], %[[Z]]] : <tensor<16x16xf16>>
// CHECK: } else {
// CHECK: %[[K64:.*]] = arith.extsi %arg5 : i32 to i64
// CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %[[K64]]], {{.*}} : <tensor<16x16xf16>>
// CHECK: tt.make_tensor_ptr %arg1, [%[[K64]], %{{.*}}], {{.*}} : <tensor<16x16xf16>>
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// CHECK-NOT: tensor<16x16x!tt.ptr<f16>>
// The store's row position pid_m * 16 moves into the base pointer as well; the column
// position pid_n * 16 (pid_n = pid % cdiv(N, 16)) is >= 0 and stays.
// CHECK: %[[CB:.*]] = tt.addptr %arg2, %{{.*}} : !tt.ptr<f32>, i32
// CHECK: tt.make_tensor_ptr %[[CB]], {{.*}}, [%[[C0:.*]], %[[COL:.*]]] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// CHECK-NEXT: tt.store %{{.*}}, %[[RESULT]] {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
// REMARK: raise-block-pointer.mlir:118:9: remark: [triton-raise-block-pointer] raised; wrap-around on dim 0 needs no version: rows with 16*(divsi ...) + i >= %arg3 read 0 and reach only elements 1 masked store leaves unwritten
// The unmasked K loop (K % 16 == 0): no bound on K in the IR, the shape is 16 * trip count.
// REMARK: raise-block-pointer.mlir:118:9: remark: [triton-raise-block-pointer] raised; dim 1 has no bound in the IR: shape = the extent the loop reaches, unchecked
// REMARK: raise-block-pointer.mlir:119:9: remark: [triton-raise-block-pointer] raised; wrap-around on dim 1 needs no version: rows with 16*(remsi ...) + i >= %arg4 read 0 and reach only elements 1 masked store leaves unwritten
// REMARK: raise-block-pointer.mlir:119:9: remark: [triton-raise-block-pointer] raised; dim 0 has no bound in the IR: shape = the extent the loop reaches, unchecked
// REMARK: raise-block-pointer.mlir:135:9: remark: [triton-raise-block-pointer] raised; wrap-around on dim 0 needs no version
// REMARK: raise-block-pointer.mlir:139:9: remark: [triton-raise-block-pointer] raised; wrap-around on dim 1 needs no version
// REMARK-NOT: left alone: needs
module {
  tt.func public @gemm_tensor_ptr(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %c15_i32 = arith.constant 15 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.addi %arg4, %c15_i32 : i32
    %2 = arith.divsi %1, %c16_i32 : i32
    %3 = arith.divsi %0, %2 : i32
    %4 = arith.remsi %0, %2 : i32
    %5 = arith.muli %3, %c16_i32 : i32
    %6 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %7 = tt.splat %5 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %6 : tensor<16xi32>
    %9 = tt.splat %arg3 : i32 -> tensor<16xi32>
    %10 = arith.remsi %8, %9 : tensor<16xi32>
    %11 = arith.muli %4, %c16_i32 : i32
    %12 = tt.splat %11 : i32 -> tensor<16xi32>
    %13 = arith.addi %12, %6 : tensor<16xi32>
    %14 = tt.splat %arg4 : i32 -> tensor<16xi32>
    %15 = arith.remsi %13, %14 : tensor<16xi32>
    %16 = tt.expand_dims %10 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %17 = tt.splat %arg6 : i32 -> tensor<16x1xi32>
    %18 = arith.muli %16, %17 : tensor<16x1xi32>
    %19 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %20 = tt.addptr %19, %18 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %21 = tt.expand_dims %6 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %22 = tt.broadcast %20 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %23 = tt.broadcast %21 : tensor<1x16xi32> -> tensor<16x16xi32>
    %24 = tt.addptr %22, %23 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %25 = tt.expand_dims %6 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %26 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %27 = arith.muli %25, %26 : tensor<16x1xi32>
    %28 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %29 = tt.addptr %28, %27 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %30 = tt.expand_dims %15 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %31 = tt.broadcast %29 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %32 = tt.broadcast %30 : tensor<1x16xi32> -> tensor<16x16xi32>
    %33 = tt.addptr %31, %32 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %34 = arith.addi %arg5, %c15_i32 : i32
    %35 = arith.divsi %34, %c16_i32 : i32
    %36 = arith.remsi %arg5, %c16_i32 : i32
    %37 = arith.cmpi eq, %36, %c0_i32 : i32
    %38 = arith.cmpi sgt, %arg5, %c16_i32 : i32
    %39 = arith.andi %37, %38 : i1
    %40 = scf.if %39 -> (tensor<16x16xf32>) {
      %57 = arith.muli %arg7, %c16_i32 : i32
      %58 = tt.splat %57 : i32 -> tensor<16x16xi32>
      %59:3 = scf.for %arg9 = %c0_i32 to %35 step %c1_i32 iter_args(%arg10 = %cst_1, %arg11 = %24, %arg12 = %33) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>, tensor<16x16x!tt.ptr<f16>>)  : i32 {
        %60 = tt.load %arg11 : tensor<16x16x!tt.ptr<f16>>
        %61 = tt.load %arg12 : tensor<16x16x!tt.ptr<f16>>
        %62 = tt.dot %60, %61, %arg10, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
        %63 = tt.addptr %arg11, %cst_0 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
        %64 = tt.addptr %arg12, %58 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
        scf.yield %62, %63, %64 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>, tensor<16x16x!tt.ptr<f16>>
      }
      scf.yield %59#0 : tensor<16x16xf32>
    } else {
      %57 = arith.muli %arg7, %c16_i32 : i32
      %58 = tt.splat %57 : i32 -> tensor<16x16xi32>
      %59:3 = scf.for %arg9 = %c0_i32 to %35 step %c1_i32 iter_args(%arg10 = %cst_1, %arg11 = %24, %arg12 = %33) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>, tensor<16x16x!tt.ptr<f16>>)  : i32 {
        %60 = arith.muli %arg9, %c16_i32 : i32
        %61 = arith.subi %arg5, %60 : i32
        %62 = tt.splat %61 : i32 -> tensor<1x16xi32>
        %63 = arith.cmpi slt, %21, %62 : tensor<1x16xi32>
        %64 = tt.broadcast %63 : tensor<1x16xi1> -> tensor<16x16xi1>
        %65 = tt.load %arg11, %64, %cst : tensor<16x16x!tt.ptr<f16>>
        %66 = tt.splat %61 : i32 -> tensor<16x1xi32>
        %67 = arith.cmpi slt, %25, %66 : tensor<16x1xi32>
        %68 = tt.broadcast %67 : tensor<16x1xi1> -> tensor<16x16xi1>
        %69 = tt.load %arg12, %68, %cst : tensor<16x16x!tt.ptr<f16>>
        %70 = tt.dot %65, %69, %arg10, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
        %71 = tt.addptr %arg11, %cst_0 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
        %72 = tt.addptr %arg12, %58 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
        scf.yield %70, %71, %72 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>, tensor<16x16x!tt.ptr<f16>>
      }
      scf.yield %59#0 : tensor<16x16xf32>
    }
    %41 = tt.expand_dims %8 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %42 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %43 = arith.muli %41, %42 : tensor<16x1xi32>
    %44 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %45 = tt.addptr %44, %43 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %46 = tt.expand_dims %13 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %47 = tt.broadcast %45 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %48 = tt.broadcast %46 : tensor<1x16xi32> -> tensor<16x16xi32>
    %49 = tt.addptr %47, %48 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %50 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %51 = arith.cmpi slt, %41, %50 : tensor<16x1xi32>
    %52 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %53 = arith.cmpi slt, %46, %52 : tensor<1x16xi32>
    %54 = tt.broadcast %51 : tensor<16x1xi1> -> tensor<16x16xi1>
    %55 = tt.broadcast %53 : tensor<1x16xi1> -> tensor<16x16xi1>
    %56 = arith.andi %54, %55 : tensor<16x16xi1>
    tt.store %49, %40, %56 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}


// -----

// Masked add-matrix epilogue: D read with the bounds mask (offs_m < M) & (offs_n < N)
// and other = 0: boundaryCheck on both dims, padding zero, shape (M, N) from the mask;
// C stored with the same mask: boundaryCheck. Positions pid * 16 are >= 0: kept.
// CHECK-LABEL: tt.func public @add_matrix
// CHECK: %[[M:.*]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[N:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK: %[[SD:.*]] = arith.extsi %arg4 : i32 to i64
// CHECK: %[[D:.*]] = tt.make_tensor_ptr %arg0, [%[[M]], %[[N]]], [%[[SD]], %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// CHECK-NEXT: tt.load %[[D]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
// CHECK: %[[C:.*]] = tt.make_tensor_ptr %arg1, {{.*}} : <tensor<16x16xf32>>
// CHECK-NEXT: tt.store %[[C]], %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
// CHECK-NOT: tt.addptr
// CHECK: tt.return
module {
  tt.func public @add_matrix(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = arith.muli %1, %c16_i32 : i32
    %4 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %5 = tt.splat %2 : i32 -> tensor<16xi32>
    %6 = arith.addi %5, %4 : tensor<16xi32>
    %7 = tt.splat %3 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %4 : tensor<16xi32>
    %9 = tt.expand_dims %6 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %10 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %14 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %18 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %19 = arith.cmpi slt, %9, %18 : tensor<16x1xi32>
    %20 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %21 = arith.cmpi slt, %14, %20 : tensor<1x16xi32>
    %22 = tt.broadcast %19 : tensor<16x1xi1> -> tensor<16x16xi1>
    %23 = tt.broadcast %21 : tensor<1x16xi1> -> tensor<16x16xi1>
    %24 = arith.andi %22, %23 : tensor<16x16xi1>
    %25 = tt.load %17, %24, %cst : tensor<16x16x!tt.ptr<f32>>
    %26 = arith.addf %25, %cst_0 : tensor<16x16xf32>
    %27 = tt.splat %arg5 : i32 -> tensor<16x1xi32>
    %28 = arith.muli %9, %27 : tensor<16x1xi32>
    %29 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %30 = tt.addptr %29, %28 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %31 = tt.broadcast %30 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %32 = tt.addptr %31, %16 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %32, %26, %24 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Masks that are not only bounds checks. %28 tests (offs_m < M) & (offs_n < N) & (x > 0):
// both dims are bounds-checked, so the block load reads nowhere the kernel's bounds
// forbid; it becomes a block load and a select with the original mask and other.
// %24's address does not vary along dim 0 (a broadcast row): raised with stride 0 there, as Intel's
// pass does (not dot data; a tt.dot operand would be left alone: no 2D block I/O has pitch 0). The
// store's mask is not a bounds check: left alone.
// CHECK-LABEL: tt.func public @select_mask
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
// CHECK: tt.make_tensor_ptr %arg1, [%c16_i64, %{{.*}}], [%c0_i64, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// CHECK-NEXT: tt.load %{{.*}} {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32>>
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<16x16xi1>
// CHECK: %[[L:.*]] = tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[MASK]], %[[L]], %cst : tensor<16x16xi1>, tensor<16x16xf32>
// CHECK: tt.store %{{.*}}, %{{.*}}, %[[MASK]] : tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] raised; dim 0 has no bound in the IR: shape = the extent the tile reaches, unchecked
// REMARK: remark: [triton-raise-block-pointer] left alone: store mask is not a bounds check of the block
module {
  tt.func public @select_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<0> : tensor<16x16xi32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %9 = tt.addptr %8, %7 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %10 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %11 = tt.broadcast %9 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %12 = tt.broadcast %10 : tensor<1x16xi32> -> tensor<16x16xi32>
    %13 = tt.addptr %11, %12 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %14 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %17 = arith.cmpi slt, %10, %16 : tensor<1x16xi32>
    %18 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %19 = tt.broadcast %17 : tensor<1x16xi1> -> tensor<16x16xi1>
    %20 = arith.andi %18, %19 : tensor<16x16xi1>
    %21 = tt.load %13, %20, %cst : tensor<16x16x!tt.ptr<f32>>
    %22 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %23 = tt.addptr %22, %12 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %24 = tt.load %23, %19, %cst : tensor<16x16x!tt.ptr<f32>>
    %25 = arith.fptosi %24 : tensor<16x16xf32> to tensor<16x16xi32>
    %26 = arith.cmpi sgt, %25, %cst_0 : tensor<16x16xi32>
    %27 = arith.andi %20, %26 : tensor<16x16xi1>
    %28 = tt.load %13, %27, %cst : tensor<16x16x!tt.ptr<f32>>
    %29 = arith.addf %21, %28 : tensor<16x16xf32>
    tt.store %13, %29, %27 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// The mask bounds only dim 1; its other conjunct (an argument) may switch rows off, so a
// block load could read rows the original never touches: left alone.
// CHECK-LABEL: tt.func public @may_fault
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.load %{{.*}}, %{{.*}}, %cst : tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] left alone: mask is not a bounds check of the block, and the block load may read outside the kernel's bounds along dim 0
module {
  tt.func public @may_fault(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: tensor<16x16xi1>) -> tensor<16x16xf32> attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %2 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %3 = arith.muli %1, %2 : tensor<16x1xi32>
    %4 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %5 = tt.addptr %4, %3 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %6 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %5 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %8 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<16x16xi32>
    %9 = tt.addptr %7, %8 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %10 = tt.splat %arg1 : i32 -> tensor<1x16xi32>
    %11 = arith.cmpi slt, %6, %10 : tensor<1x16xi32>
    %12 = tt.broadcast %11 : tensor<1x16xi1> -> tensor<16x16xi1>
    %13 = arith.andi %12, %arg3 : tensor<16x16xi1>
    %14 = tt.load %9, %13, %cst : tensor<16x16x!tt.ptr<f32>>
    tt.return %14 : tensor<16x16xf32>
  }
}

// -----

// 1D accesses (a softmax row, masked, `other` -inf kept with a select; the index load) are raised as
// Intel's pass does (dot-only=true leaves them alone); a 2D gather whose row offsets are loaded from memory
// (masked to 0..15, so the kernel stays in bounds on any input): left alone, with its reason.
// CHECK-LABEL: tt.func public @one_d_and_gather
// CHECK: tt.make_tensor_ptr %{{.*}} : <tensor<64xf32>>
// CHECK: %[[ROW:.*]] = tt.load %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64xf32>>
// CHECK: arith.select %{{.*}}, %[[ROW]], %cst : tensor<64xi1>, tensor<64xf32>
// CHECK: tt.make_tensor_ptr %arg1, {{.*}} : <tensor<16xi32>>
// CHECK: tt.load %{{.*}} : tensor<16x16x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f32>>
// REMARK: remark: [triton-raise-block-pointer] raised; dim 0 has no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
// REMARK: remark: [triton-raise-block-pointer] left alone: gather: offsets loaded from memory (indirect)
// REMARK: remark: [triton-raise-block-pointer] left alone: gather: offsets loaded from memory (indirect)
module {
  tt.func public @one_d_and_gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0xFF800000> : tensor<64xf32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %arg4 : i32
    %2 = tt.addptr %arg0, %1 : !tt.ptr<f32>, i32
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %4 = tt.splat %2 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %5 = tt.addptr %4, %3 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %6 = tt.splat %arg3 : i32 -> tensor<64xi32>
    %7 = arith.cmpi slt, %3, %6 : tensor<64xi32>
    %8 = tt.load %5, %7, %cst : tensor<64x!tt.ptr<f32>>
    %9 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %10 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %11 = tt.addptr %9, %10 : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    %idx = tt.load %11 : tensor<16x!tt.ptr<i32>>
    %c15 = arith.constant dense<15> : tensor<16xi32>
    %12 = arith.andi %idx, %c15 : tensor<16xi32>
    %13 = tt.expand_dims %12 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %14 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %15 = arith.muli %13, %14 : tensor<16x1xi32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %15 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %18 = tt.expand_dims %10 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %19 = tt.broadcast %17 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %20 = tt.broadcast %18 : tensor<1x16xi32> -> tensor<16x16xi32>
    %21 = tt.addptr %19, %20 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %22 = tt.load %21 : tensor<16x16x!tt.ptr<f32>>
    %23 = "tt.reduce"(%8) <{axis = 0 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %26 = arith.maxnumf %arg5, %arg6 : f32
      tt.reduce.return %26 : f32
    }) : (tensor<64xf32>) -> f32
    %24 = tt.splat %23 : f32 -> tensor<16x16xf32>
    %25 = arith.addf %22, %24 : tensor<16x16xf32>
    tt.store %21, %25 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Loop-carried pointer whose K mask is written `offs_k + k*16 < K` (the position form)
// with other = NaN: a block pointer advanced by 16 along dim 1, boundaryCheck on both dims
// (rows against M, columns against K), padding nan. The store's mask bounds only dim 0;
// dim 1 is unmasked, so its shape is the extent the tile reaches (0 + 16).
// CHECK-LABEL: tt.func public @row_sums
// CHECK: %[[M:.*]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[K:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK: %[[A:.*]] = tt.make_tensor_ptr %arg0, [%[[M]], %[[K]]], {{.*}} {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %[[A]]) -> (tensor<16x16xf32>, !tt.ptr<tensor<16x16xf32>>)
// CHECK-NEXT: tt.load %[[X]] {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<16x16xf32>>
// CHECK: tt.advance %[[X]], [%{{.*}}, %{{.*}}] : <tensor<16x16xf32>>
// CHECK: %[[W:.*]] = arith.constant 16 : i64
// CHECK: %[[C:.*]] = tt.make_tensor_ptr %arg1, [%{{.*}}, %[[W]]], [%[[W]], %{{.*}}], {{.*}} : <tensor<16x16xf32>>
// CHECK-NEXT: tt.store %[[C]], %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16x16xf32>>
// REMARK: remark: [triton-raise-block-pointer] raised; dim 1 has no bound in the IR: shape = the extent the tile reaches, unchecked
module {
  tt.func public @row_sums(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0x7FC00000> : tensor<16x16xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
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
    %6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %9 = tt.addptr %8, %7 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %10 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %11 = tt.broadcast %9 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %12 = tt.broadcast %10 : tensor<1x16xi32> -> tensor<16x16xi32>
    %13 = tt.addptr %11, %12 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %14 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %15 = arith.cmpi slt, %5, %14 : tensor<16x1xi32>
    %16 = tt.broadcast %15 : tensor<16x1xi1> -> tensor<16x16xi1>
    %17 = arith.addi %arg3, %c15_i32 : i32
    %18 = arith.divsi %17, %c16_i32 : i32
    %19:2 = scf.for %arg5 = %c0_i32 to %18 step %c1_i32 iter_args(%arg6 = %cst_0, %arg7 = %13) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>)  : i32 {
      %30 = arith.muli %arg5, %c16_i32 : i32
      %31 = tt.splat %30 : i32 -> tensor<1x16xi32>
      %32 = arith.addi %10, %31 : tensor<1x16xi32>
      %33 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
      %34 = arith.cmpi slt, %32, %33 : tensor<1x16xi32>
      %35 = tt.broadcast %34 : tensor<1x16xi1> -> tensor<16x16xi1>
      %36 = arith.andi %16, %35 : tensor<16x16xi1>
      %37 = tt.load %arg7, %36, %cst : tensor<16x16x!tt.ptr<f32>>
      %38 = arith.addf %arg6, %37 : tensor<16x16xf32>
      %39 = tt.addptr %arg7, %cst_1 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
      scf.yield %38, %39 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f32>>
    }
    %20 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %cst_2 = arith.constant dense<16> : tensor<16x1xi32>
    %21 = arith.muli %5, %cst_2 : tensor<16x1xi32>
    %22 = tt.addptr %20, %21 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %23 = tt.broadcast %22 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %24 = tt.addptr %23, %12 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %24, %19#0, %16 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Column-major tile (unit stride along dim 0), unmasked: order [0, 1], no boundaryCheck,
// shapes [0, 0] as Intel's (no tt.dot: nothing reads them).
// CHECK-LABEL: tt.func public @col_major
// CHECK: tt.make_tensor_ptr %arg0, [%c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}], {{.*}} {order = array<i32: 0, 1>} : <tensor<16x16xf16>>
// CHECK-NEXT: tt.load %{{.*}} : !tt.ptr<tensor<16x16xf16>>
// CHECK: tt.make_tensor_ptr %arg1, [%c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}], {{.*}} {order = array<i32: 0, 1>} : <tensor<16x16xf16>>
// CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<16x16xf16>>
// REMARK-COUNT-2: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = 0 as Intel's (not dot data: never 2D block I/O)
module {
  tt.func public @col_major(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %7 = tt.addptr %6, %5 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %8 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.splat %arg2 : i32 -> tensor<1x16xi32>
    %10 = arith.muli %8, %9 : tensor<1x16xi32>
    %11 = tt.broadcast %7 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %12 = tt.broadcast %10 : tensor<1x16xi32> -> tensor<16x16xi32>
    %13 = tt.addptr %11, %12 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %14 = tt.load %13 : tensor<16x16x!tt.ptr<f16>>
    %15 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %16 = tt.addptr %15, %5 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %17 = tt.broadcast %16 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %18 = tt.addptr %17, %12 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    tt.store %18, %14 : tensor<16x16x!tt.ptr<f16>>
    tt.return
  }
}
