// Raised loads of a tt.dot operand sink to right before the dot when its other operand is computed after
// them (raise_block_pointer/sink.py): the raised tile is a 2D block read held in registers until the dot, and
// was live across that computation (gemlite's dequantized-B GEMM: A loaded, then B's words unpacked and
// scaled; 64x256x64 w8 group 64 at the ISA: kept unraised 8,105 instructions / 21,760 B spill, raised and sunk
// 4,509 / 19,648, native 9,565 / 20,160). Our kernel: a 16x16x16 bf16 GEMM whose B is scaled in the loop.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true block-io-only=true" --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true block-io-only=true" --verify-semantics="grid=2x2" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-3: remark: [verify-semantics] equal on
// SEM-NOT: error

// B scaled after A's load: A's raised load moves to right before the dot.
// CHECK-LABEL: tt.func public @scaled_b
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg12 : !tt.ptr<tensor<16x16xbf16>>
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: %[[A:.*]] = tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
// CHECK-NEXT: tt.dot %[[A]],
// REMARK: remark: [triton-raise-block-pointer] raised, and moved to right before its tt.dot
module {
  tt.func public @scaled_b(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
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
      %b2 = arith.mulf %34, %34 : tensor<16x16xbf16>
      %35 = tt.dot %33, %b2, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
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

// B loaded as it is: nothing computed after A's load, which stays first.
// CHECK-LABEL: tt.func public @plain_b
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
// CHECK-NEXT: tt.load %arg12 : !tt.ptr<tensor<16x16xbf16>>
// CHECK-NEXT: tt.dot
module {
  tt.func public @plain_b(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
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

// B scaled and stored back before the dot: A's load does not move past the store (it may read what it writes).
// CHECK-LABEL: tt.func public @scaled_b_stored
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg11 : !tt.ptr<tensor<16x16xbf16>>
// CHECK-NEXT: tt.load %arg12
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: tt.store
// CHECK-NEXT: tt.dot
// REMARK-NOT: moved to right before its tt.dot
module {
  tt.func public @scaled_b_stored(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
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
      %b2 = arith.mulf %34, %34 : tensor<16x16xbf16>
      tt.store %arg12, %b2 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %b2, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
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
