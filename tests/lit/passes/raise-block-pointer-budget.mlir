// Raising's work budget (max-work-per-op, ours): a run bounded by the input's size; past it the input is kept as
// given and a remark says so (issue 27: compile time bounded by construction). Kernel from Triton's frontend (TTIR).
// RUN: xpu-opt %s --triton-raise-block-pointer=dot-only=false --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --triton-raise-block-pointer="dot-only=false max-work-per-op=1" --remarks 2>%t.over | FileCheck %s --check-prefix=OVER
// RUN: FileCheck %s --check-prefix=OVERREMARK < %t.over

// A 16x16 tile copied (row pitch %arg2) at row pid * 16 * 2^5, its position a chain of sums each read once per
// path (not memoized: 2^5 reads): raised with the default budget.
// CHECK-LABEL: tt.func public @copy_tile
// CHECK-COUNT-4: arith.addi {{.*}} : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[HALF:.*]], %[[HALF]] : i32
// CHECK-NOT: arith.addi
// CHECK: tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%[[ROW]], %{{.*}}]
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16x16xf16>>
// CHECK: tt.make_tensor_ptr %arg1
// CHECK: tt.store %{{.*}} : !tt.ptr<tensor<16x16xf16>>
// REMARK-NOT: input kept
// ... and left as given with one unit per op: the run reads more values than the function has ops.
// OVER-LABEL: tt.func public @copy_tile
// OVER-NOT: tt.make_tensor_ptr
// OVER: %[[P:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
// OVER: tt.load %[[P]] : tensor<16x16x!tt.ptr<f16>>
// OVER: tt.store %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f16>>
// OVERREMARK: remark: [triton-raise-block-pointer] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
// OVERREMARK-NOT: raised
module {
  tt.func public @copy_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %r = arith.muli %0, %c16_i32 : i32
    %r1 = arith.addi %r, %r : i32
    %r2 = arith.addi %r1, %r1 : i32
    %r3 = arith.addi %r2, %r2 : i32
    %r4 = arith.addi %r3, %r3 : i32
    %1 = arith.addi %r4, %r4 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %6 = tt.splat %arg2 : i32 -> tensor<16x1xi32>
    %7 = arith.muli %5, %6 : tensor<16x1xi32>
    %8 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = tt.broadcast %7 : tensor<16x1xi32> -> tensor<16x16xi32>
    %10 = tt.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = arith.addi %9, %10 : tensor<16x16xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %13 = tt.addptr %12, %11 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %14 = tt.load %13 : tensor<16x16x!tt.ptr<f16>>
    %15 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %16 = tt.addptr %15, %11 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    tt.store %16, %14 : tensor<16x16x!tt.ptr<f16>>
    tt.return
  }
}
