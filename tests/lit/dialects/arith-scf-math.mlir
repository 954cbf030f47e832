// RUN: xpu-opt %s --split-input-file | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// Upstream dialects as Triton uses them: tensor compares and selects, fastmath,
// hex float constants, scf.for/if/while with iter_args and results.

// ORACLE: arith.cmpi slt
// ORACLE: // -----
// ORACLE: scf.while

// CHECK-LABEL: tt.func @elementwise(
// CHECK: %[[C:.*]] = arith.cmpi slt, %arg0, %arg1 : tensor<16xi32>
// CHECK-NEXT: %[[F:.*]] = arith.cmpf olt, %arg2, %arg2 : tensor<16xf32>
// CHECK-NEXT: arith.select %[[C]], %arg2, %arg2 : tensor<16xi1>, tensor<16xf32>
// CHECK-NEXT: arith.select %arg3, %arg2, %arg2 : tensor<16xf32>
// CHECK-NEXT: arith.addf %arg2, %arg2 fastmath<fast> : tensor<16xf32>
// CHECK-NEXT: math.exp2 %arg2 : tensor<16xf32>
// CHECK-NEXT: math.erf %arg2 : tensor<16xf32>
// CHECK-NEXT: arith.maximumf %arg2, %arg2 : tensor<16xf32>
// CHECK-NEXT: arith.constant dense<0xFF800000> : tensor<16xf32>
// CHECK-NEXT: arith.constant 0x7F800000 : f32
// CHECK-NEXT: arith.constant dense<1.44269502> : tensor<16xf32>
// CHECK-NEXT: arith.truncf %arg2 : tensor<16xf32> to tensor<16xbf16>
module {
  tt.func @elementwise(%arg0: tensor<16xi32>, %arg1: tensor<16xi32>, %arg2: tensor<16xf32>, %arg3: i1) {
    %0 = arith.cmpi slt, %arg0, %arg1 : tensor<16xi32>
    %1 = arith.cmpf olt, %arg2, %arg2 : tensor<16xf32>
    %2 = arith.select %0, %arg2, %arg2 : tensor<16xi1>, tensor<16xf32>
    %3 = arith.select %arg3, %arg2, %arg2 : tensor<16xf32>
    %4 = arith.addf %arg2, %arg2 fastmath<fast> : tensor<16xf32>
    %5 = math.exp2 %arg2 : tensor<16xf32>
    %6 = math.erf %arg2 : tensor<16xf32>
    %7 = arith.maximumf %arg2, %arg2 : tensor<16xf32>
    %8 = arith.constant dense<0xFF800000> : tensor<16xf32>
    %9 = arith.constant 0x7F800000 : f32
    %10 = arith.constant dense<1.44269502> : tensor<16xf32>
    %11 = arith.truncf %arg2 : tensor<16xf32> to tensor<16xbf16>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @control_flow(
// CHECK: %[[R:.*]]:2 = scf.for %[[I:[^ ]*]] = %c0_i32 to %arg0 step %c1_i32 iter_args(%[[A:[^ ]*]] = %c0_i32, %[[B:[^ ]*]] = %arg1) -> (i32, f32)  : i32 {
// CHECK: scf.yield %{{.*}}, %[[B]] : i32, f32
// CHECK: scf.if %{{.*}} -> (i32) {
// CHECK: } else {
// CHECK: scf.while (%{{.*}} = %[[R]]#0) : (i32) -> i32 {
// CHECK: scf.condition(%{{.*}}) %{{.*}} : i32
// CHECK: } do {
module {
  tt.func @control_flow(%arg0: i32, %arg1: f32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0:2 = scf.for %i = %c0_i32 to %arg0 step %c1_i32 iter_args(%a = %c0_i32, %b = %arg1) -> (i32, f32)  : i32 {
      %s = arith.addi %a, %i : i32
      scf.yield %s, %b : i32, f32
    }
    %c = arith.cmpi sgt, %0#0, %c0_i32 : i32
    %1 = scf.if %c -> (i32) {
      scf.yield %c1_i32 : i32
    } else {
      scf.yield %c0_i32 : i32
    }
    %2 = scf.while (%x = %0#0) : (i32) -> i32 {
      %k = arith.cmpi slt, %x, %arg0 : i32
      scf.condition(%k) %x : i32
    } do {
    ^bb0(%y: i32):
      %z = arith.addi %y, %c1_i32 : i32
      scf.yield %z : i32
    }
    tt.return
  }
}
