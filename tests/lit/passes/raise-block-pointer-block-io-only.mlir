// block-io-only=true (the plugin's pipeline sets it; off by default): a load of a tt.dot's data is raised only
// where triton-xpu 3.3 will read the block pointer with 2D block reads (what MaterializeBlockPointer tags: a
// unit stride on an inner dim, a pitch that is a provable multiple of 16 bytes, no column-major A operand).
// Elsewhere 3.3 gathers the raised tile lane by lane in the dot's layout: at the ISA (IGC, PVC) a 256x256x32
// bf16 GEMM with run-time strides went from 6,984 instructions, 0 spill, 64 gathers (unraised) to 13,183,
// 10,176 and 384 raised (benchmarks/isa_table.py); grouped_gemm's loaded leading dims 64 -> 192 gathers.
// Stores are raised as before (3.3 writes DPAS-layout block pointers with 2D block stores).
// Our kernels: a 16x16x16 bf16 GEMM, its A/B pointers carried by the K loop, C stored under (M, N) masks.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true block-io-only=true" --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=true | FileCheck %s --check-prefix=ALL
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true block-io-only=true" --verify-semantics="grid=2x2" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-8: remark: [verify-semantics] equal on
// SEM-NOT: error

// Strides specialized (tt.divisibility = 16): both loads will be 2D block reads: raised.
// CHECK-LABEL: tt.func public @strides_div16
// CHECK: tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], [%{{.*}}, %c1_i64]
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK: tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
// CHECK: tt.load %arg12 : !tt.ptr<tensor<16x16xbf16>>
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
// REMARK-NOT: (block-io-only)
// REMARK: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR
// REMARK: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR
module {
  tt.func public @strides_div16(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %10 = tt.splat %arg6 : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %cst_1 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.addi %4, %3 : tensor<16xi32>
    %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %39, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %39, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %30, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Strides known only at run time: neither pitch is a provable multiple of 16 bytes, so the loads stay gathers
// of tensors of pointers (a remark each); the C store is still raised. Without block-io-only both are raised.
// CHECK-LABEL: tt.func public @strides_runtime
// CHECK-NOT: tt.make_tensor_ptr %arg0
// CHECK-NOT: tt.make_tensor_ptr %arg1
// CHECK: tt.load %{{.*}} : tensor<16x16x!tt.ptr<bf16>>
// CHECK: tt.load %{{.*}} : tensor<16x16x!tt.ptr<bf16>>
// CHECK: tt.make_tensor_ptr %arg2,
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
// REMARK: block-io-only.mlir:[[# @LINE + 43]]:7: remark: [triton-raise-block-pointer] left alone: the raised 16x16 load would not be a 2D block read (its pitch %arg6 is not provably a multiple of 16 bytes (8 elements)): triton-xpu 3.3 would gather it lane by lane in the dot's layout, more gathers than the coalesced load kept (block-io-only)
// REMARK: block-io-only.mlir:[[# @LINE + 43]]:7: remark: [triton-raise-block-pointer] left alone: the raised 16x16 load would not be a 2D block read (its pitch %arg7 is not provably a multiple of 16 bytes (8 elements)): triton-xpu 3.3 would gather it lane by lane in the dot's layout, more gathers than the coalesced load kept (block-io-only)
// ALL-LABEL: tt.func public @strides_runtime
// ALL: tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
// ALL: tt.load %arg12 : !tt.ptr<tensor<16x16xbf16>>
module {
  tt.func public @strides_runtime(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %10 = tt.splat %arg6 : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %cst_1 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.addi %4, %3 : tensor<16xi32>
    %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %39, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %39, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %30, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A's pitch divisible by 4 elements only (8 bytes): A left alone, B (divisible by 16) raised.
// CHECK-LABEL: tt.func public @strides_div4
// CHECK-NOT: tt.make_tensor_ptr %arg0
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK: tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
// CHECK: tt.load %arg12 : !tt.ptr<tensor<16x16xbf16>>
// REMARK: block-io-only.mlir:[[# @LINE + 41]]:7: remark: [triton-raise-block-pointer] left alone: the raised 16x16 load would not be a 2D block read (its pitch %arg6 is not provably a multiple of 16 bytes (8 elements)): triton-xpu 3.3 would gather it lane by lane in the dot's layout, more gathers than the coalesced load kept (block-io-only)
// ALL-LABEL: tt.func public @strides_div4
// ALL: tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
module {
  tt.func public @strides_div4(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 4 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %10 = tt.splat %arg6 : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %cst_1 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.addi %4, %3 : tensor<16xi32>
    %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %39, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %39, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %30, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Wrap-around rows `(pid*16 + i) % M` (Triton's tutorial GEMM) with run-time strides: left alone, and no
// version or block pointer is made for them (without block-io-only: A raised with a boundaryCheck on M).
// CHECK-LABEL: tt.func public @wrap_runtime
// CHECK-NOT: scf.if
// CHECK-NOT: tt.make_tensor_ptr %arg0
// CHECK-NOT: tt.make_tensor_ptr %arg1
// CHECK: tt.make_tensor_ptr %arg2,
// REMARK: block-io-only.mlir:[[# @LINE + 44]]:7: remark: [triton-raise-block-pointer] left alone: the raised 16x16 load would not be a 2D block read (its pitch %arg6 is not provably a multiple of 16 bytes (8 elements)): triton-xpu 3.3 would gather it lane by lane in the dot's layout, more gathers than the coalesced load kept (block-io-only)
// REMARK: block-io-only.mlir:[[# @LINE + 44]]:7: remark: [triton-raise-block-pointer] left alone: the raised 16x16 load would not be a 2D block read (its pitch %arg7 is not provably a multiple of 16 bytes (8 elements)): triton-xpu 3.3 would gather it lane by lane in the dot's layout, more gathers than the coalesced load kept (block-io-only)
// ALL-LABEL: tt.func public @wrap_runtime
// ALL: tt.load %arg11 {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x16xbf16>>
module {
  tt.func public @wrap_runtime(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %wa = arith.addi %4, %3 : tensor<16xi32>
    %wb = tt.splat %arg3 : i32 -> tensor<16xi32>
    %5 = arith.remsi %wa, %wb : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %10 = tt.splat %arg6 : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %cst_1 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.addi %4, %3 : tensor<16xi32>
    %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %39, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %39, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %30, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// The same with specialized strides: raised, the wrap-around a boundaryCheck against M (no version).
// CHECK-LABEL: tt.func public @wrap_div16
// CHECK-NOT: scf.if
// CHECK: tt.load %arg11 {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x16xbf16>>
// CHECK: tt.load %arg12 : !tt.ptr<tensor<16x16xbf16>>
// REMARK-NOT: (block-io-only)
// REMARK: remark: [triton-raise-block-pointer] raised; wrap-around on dim 0 needs no version
module {
  tt.func public @wrap_div16(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %wa = arith.addi %4, %3 : tensor<16xi32>
    %wb = tt.splat %arg3 : i32 -> tensor<16xi32>
    %5 = arith.remsi %wa, %wb : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %10 = tt.splat %arg6 : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %cst_1 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.addi %4, %3 : tensor<16xi32>
    %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %39, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %39, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %30, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A constant pitch (64 elements, 128 bytes) with no divisibility on the argument: raised.
// CHECK-LABEL: tt.func public @pitch_constant
// CHECK: tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], [%c64_i64, %c1_i64]
// CHECK: tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
// REMARK-NOT: (block-io-only)
// REMARK: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR
module {
  tt.func public @pitch_constant(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %cp = arith.constant 64 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %10 = tt.splat %cp : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %cst_1 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.addi %4, %3 : tensor<16xi32>
    %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %39, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %39, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %30, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A stored column major (unit stride along M): MaterializeBlockPointer does not tag an A operand read column
// major, so A is left alone; B is raised.
// CHECK-LABEL: tt.func public @a_column_major
// CHECK-NOT: tt.make_tensor_ptr %arg0
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK: tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
// CHECK: tt.load %arg12 : !tt.ptr<tensor<16x16xbf16>>
// REMARK: remark: [triton-raise-block-pointer] left alone: the raised 16x16 load would not be a 2D block read (it is the A operand of a tt.dot stored column major)
// ALL-LABEL: tt.func public @a_column_major
// ALL: tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
module {
  tt.func public @a_column_major(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %13 = tt.addptr %12, %9 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %10 = tt.splat %arg6 : i32 -> tensor<1x16xi32>
    %11 = arith.muli %14, %10 : tensor<1x16xi32>
    %kb = tt.broadcast %11 : tensor<1x16xi32> -> tensor<16x16xi32>
    %17 = tt.addptr %15, %kb : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %ka = arith.muli %arg6, %c16_i32 : i32
    %ainc = tt.splat %ka : i32 -> tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %ainc : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.addi %4, %3 : tensor<16xi32>
    %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %39, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %39, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %30, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}


// -----

// A column-major B tile (%18) used by two dots whose first product is the second's A operand: the tile itself
// is only ever a B operand (2D block reads, column major), so it is raised (the A check once followed the
// data through the first product and left it alone).
// CHECK-LABEL: tt.func public @b_column_major_chain
// CHECK: tt.make_tensor_ptr %arg1, [%{{.*}}, %{{.*}}], [%c1_i64{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 0, 1>}
// CHECK-NOT: tensor<16x16x!tt.ptr<bf16>>
// CHECK: tt.return
// REMARK-NOT: A operand
// REMARK: block-io-only.mlir:[[# @LINE + 23]]:5: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR
// REMARK-NOT: A operand
module {
  tt.func public @b_column_major_chain(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %2 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %3 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %4 = arith.muli %1, %3 : tensor<16x1xi32>
    %5 = tt.broadcast %4 : tensor<16x1xi32> -> tensor<16x16xi32>
    %6 = tt.broadcast %2 : tensor<1x16xi32> -> tensor<16x16xi32>
    %7 = arith.addi %5, %6 : tensor<16x16xi32>
    %8 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %9 = tt.addptr %8, %7 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %10 = tt.load %9 : tensor<16x16x!tt.ptr<bf16>>
    %11 = tt.splat %arg3 : i32 -> tensor<1x16xi32>
    %12 = arith.muli %2, %11 : tensor<1x16xi32>
    %13 = tt.broadcast %1 : tensor<16x1xi32> -> tensor<16x16xi32>
    %14 = tt.broadcast %12 : tensor<1x16xi32> -> tensor<16x16xi32>
    %15 = arith.addi %13, %14 : tensor<16x16xi32>
    %16 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %17 = tt.addptr %16, %15 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.load %17 : tensor<16x16x!tt.ptr<bf16>>
    %19 = tt.dot %10, %18, %cst, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
    %20 = arith.truncf %19 : tensor<16x16xf32> to tensor<16x16xbf16>
    %21 = tt.dot %20, %18, %cst, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
    %22 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %23 = tt.addptr %22, %7 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %23, %21 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
