// What raising leaves alone, each with the remark saying why, and the IR unchanged (dot-only=false, the
// default, so that the reason shown is the pattern's). 1D accesses are raised as Intel's pass does (the
// lowering turns them back into gathers); with dot-only=true (the plugin's pipeline) they are left alone.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=true --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=DOT

// A tensor of pointers reshaped with `allow_reorder` (elements may be permuted): left alone (reshapes that
// keep a strided block are raised: raise-block-pointer-reshape.mlir); a 1D access: raised, unless dot-only.
// CHECK-LABEL: tt.func public @reshape_and_1d
// CHECK: tt.load %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// CHECK: tt.make_tensor_ptr %arg1, [%c0_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : <tensor<64xf32>>
// CHECK-NEXT: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<64xf32>>
// REMARK: unsupported.mlir:[[# @LINE + 8]]:5: remark: [triton-raise-block-pointer] left alone: reshape that may reorder elements (allow_reorder)
// DOT: unsupported.mlir:[[# @LINE + 11]]:5: remark: [triton-raise-block-pointer] left alone: 1D access (2D block I/O needs a 2D tile)
module {
  tt.func public @reshape_and_1d(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %3 = tt.reshape %2 allow_reorder : tensor<64x!tt.ptr<f32>> -> tensor<4x16x!tt.ptr<f32>>
    %4 = tt.load %3 : tensor<4x16x!tt.ptr<f32>>
    %5 = tt.reshape %4 : tensor<4x16xf32> -> tensor<64xf32>
    %6 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %7 = tt.addptr %6, %0 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %7, %5 : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A pointer carried by a loop over `index` (not i32) and offset before its accesses: its closed form
// would put the induction value into i32 offsets, so it is not followed (this made invalid IR once).
// CHECK-LABEL: tt.func public @index_loop_offset_pointer
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.return
// REMARK: unsupported.mlir:[[# @LINE + 20]]:7: remark: [triton-raise-block-pointer] left alone: pointer carried through a loop or branch that is not a simple increment
module {
  tt.func public @index_loop_offset_pointer(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %cst = arith.constant dense<16> : tensor<4x16xi32>
    %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = tt.splat %arg1 : i32 -> tensor<4x1xi32>
    %3 = arith.muli %1, %2 : tensor<4x1xi32>
    %4 = tt.broadcast %3 : tensor<4x1xi32> -> tensor<4x16xi32>
    %5 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %6 = tt.expand_dims %5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<4x16xi32>
    %8 = arith.addi %4, %7 : tensor<4x16xi32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %10 = tt.addptr %9, %8 : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %11 = scf.for %arg2 = %c0 to %c3 step %c1 iter_args(%arg3 = %10) -> (tensor<4x16x!tt.ptr<f32>>) {
      %12 = tt.addptr %arg3, %cst : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      %13 = tt.load %12 : tensor<4x16x!tt.ptr<f32>>
      tt.store %12, %13 : tensor<4x16x!tt.ptr<f32>>
      %14 = tt.addptr %arg3, %cst : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %14 : tensor<4x16x!tt.ptr<f32>>
    }
    tt.return
  }
}
