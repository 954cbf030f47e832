// RUN: xpu-opt %s | FileCheck %s
// RUN: xpu-opt %s --mlir-print-debuginfo | xpu-opt | FileCheck %s
// RUN: xpu-opt %s | FileCheck %s --check-prefix=NEG
// RUN: %if triton %{ xpu-opt %s --mlir-print-debuginfo > %t.ours && %python -m xpu_passes.integration.oracle verify %s > %t.triton && diff %t.triton %t.ours %}
// SSA names as MLIR's AsmPrinter gives them, whatever the input called them:
// %argN per function (nested regions continue the count), %N per function in
// region order (a nested region's values come after its parent region's, sibling
// regions reuse the same numbers), arith.constant's own names uniqued with _K,
// result groups %N:k used as %N#i, and tt.split's named results.

// CHECK-LABEL: tt.func @first(%arg0: i32, %arg1: f32, %arg2: tensor<8x2xf32>) -> f32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c0_i32_0 = arith.constant 0 : i32
// CHECK-NEXT: %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %c7_i64 = arith.constant 7 : i64
// CHECK-NEXT: %outLHS, %outRHS = tt.split %arg2 : tensor<8x2xf32> -> tensor<8xf32>
// CHECK-NEXT: %0:2 = scf.for %arg3 = %c0_i32 to %arg0 step %arg0 iter_args(%arg4 = %arg1, %arg5 = %c0_i32_0) -> (f32, i32)  : i32 {
// CHECK-NEXT: %cst_1 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %4 = arith.addf %arg4, %cst_1 : f32
// CHECK-NEXT: %5 = scf.for %arg6 = %c0_i32 to %arg0 step %arg0 iter_args(%arg7 = %arg5) -> (i32)  : i32 {
// CHECK-NEXT: %6 = arith.addi %arg7, %arg6 : i32
// CHECK-NEXT: scf.yield %6 : i32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %4, %5 : f32, i32
// CHECK-NEXT: }
// CHECK-NEXT: %1 = scf.if %true -> (f32) {
// CHECK-NEXT: %cst_1 = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: scf.yield %cst_1 : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %4 = arith.addf %0#0, %cst : f32
// CHECK-NEXT: scf.yield %4 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %2 = arith.addf %1, %0#0 : f32
// CHECK-NEXT: %3 = arith.select %false, %2, %cst : f32
// CHECK-NEXT: tt.return %3 : f32
// CHECK-LABEL: tt.func @second(%arg0: i32) -> i32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = arith.addi %arg0, %c0_i32 : i32
// Negative: no input name survives, no numbered result is listed one by one.
// NEG-NOT: %{{zero|minus|idx|yes|no|one|wide|a|b|r|i|acc|k|two|s|inner|c|sum|sel|y}}{{[ ,:#)]}}
// NEG-NOT: %{{[0-9]+}}, %{{[0-9]+}} =

module {
  tt.func @first(%n: i32 loc("k.py":1:0), %x: f32 loc("k.py":1:0), %t: tensor<8x2xf32> loc("k.py":1:0)) -> f32 {
    %zero = arith.constant 0 : i32 loc("k.py":2:4)
    %zero2 = arith.constant 0 : i32 loc("k.py":2:8)
    %minus = arith.constant -1 : i32 loc("k.py":2:12)
    %idx = arith.constant 4 : index loc("k.py":2:16)
    %yes = arith.constant true loc("k.py":2:20)
    %no = arith.constant false loc("k.py":2:24)
    %one = arith.constant 1.000000e+00 : f32 loc("k.py":2:28)
    %wide = arith.constant 7 : i64 loc("k.py":2:32)
    %a, %b = tt.split %t : tensor<8x2xf32> -> tensor<8xf32> loc("k.py":3:4)
    %r:2 = scf.for %i = %zero to %n step %n iter_args(%acc = %x, %k = %zero2) -> (f32, i32)  : i32 {
      %two = arith.constant 2.000000e+00 : f32 loc("k.py":5:8)
      %s = arith.addf %acc, %two : f32 loc("k.py":5:8)
      %inner = scf.for %j = %zero to %n step %n iter_args(%q = %k) -> (i32)  : i32 {
        %u = arith.addi %q, %j : i32 loc("k.py":6:12)
        scf.yield %u : i32 loc("k.py":6:12)
      } loc("k.py":6:8)
      scf.yield %s, %inner : f32, i32 loc("k.py":5:8)
    } loc("k.py":4:4)
    %c = scf.if %yes -> (f32) {
      %three = arith.constant 3.000000e+00 : f32 loc("k.py":7:8)
      scf.yield %three : f32 loc("k.py":7:8)
    } else {
      %w = arith.addf %r#0, %one : f32 loc("k.py":8:8)
      scf.yield %w : f32 loc("k.py":8:8)
    } loc("k.py":7:4)
    %sum = arith.addf %c, %r#0 : f32 loc("k.py":9:4)
    %sel = arith.select %no, %sum, %one : f32 loc("k.py":9:8)
    tt.return %sel : f32 loc("k.py":10:4)
  } loc("k.py":1:0)
  tt.func @second(%y: i32 loc("k.py":11:0)) -> i32 {
    %zero = arith.constant 0 : i32 loc("k.py":12:4)
    %s = arith.addi %y, %zero : i32 loc("k.py":12:4)
    tt.return %s : i32 loc("k.py":13:4)
  } loc("k.py":11:0)
} loc("k.py":0:0)
