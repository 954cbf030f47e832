// RUN: xpu-opt %s --mlir-print-debuginfo | FileCheck %s
// RUN: xpu-opt %s --mlir-print-debuginfo | xpu-opt --mlir-print-debuginfo | FileCheck %s
// RUN: xpu-opt %s --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// RUN: xpu-opt %s | FileCheck %s --check-prefix=NODEBUG
// RUN: %if triton %{ xpu-opt %s --mlir-print-debuginfo > %t.ours && %python -m xpu_passes.integration.oracle verify %s > %t.triton && diff %t.triton %t.ours %}
// Locations as MLIR prints them. Every location gets a #loc alias, numbered in
// order of alias depth (a callsite of file locations after them, a callsite of a
// callsite after that), then of first use, an op's location counting before the
// op's contents. Block-argument locations (function arguments, ^bb arguments)
// are printed inline, their nested locations through aliases, and their aliases
// are defined before the module; the others after it.

// CHECK: #loc = loc("k.py":9:0)
// CHECK-NEXT: #loc1 = loc("std.py":40:22)
// CHECK-NEXT: #loc2 = loc("k.py":12:20)
// CHECK-NEXT: #loc7 = loc("b.py":1:2)
// CHECK-NEXT: #loc9 = loc(callsite(#loc1 at #loc2))
// CHECK-NEXT: #loc12 = loc(callsite(#loc7 at #loc2))
// CHECK-NEXT: module {
// CHECK-NEXT: tt.func public @k(%arg0: i32 loc(callsite(#loc1 at #loc2)), %arg1: i1 loc("k.py":9:0)) -> i32 {
// CHECK-NEXT: %0 = tt.get_program_id x : i32 loc(#loc13)
// CHECK-NEXT: %1 = arith.addi %0, %arg0 : i32 loc(#loc9)
// CHECK-NEXT: %2 = arith.muli %1, %1 : i32 loc(#loc10)
// CHECK-NEXT: %3 = arith.subi %2, %1 : i32 loc(#loc11)
// CHECK-NEXT: %4 = arith.addi %3, %3 : i32 loc(#loc6)
// CHECK-NEXT: cf.cond_br %arg1, ^bb1(%4 : i32), ^bb1(%3 : i32) loc(#loc)
// CHECK-NEXT: ^bb1(%5: i32 loc(callsite(#loc7 at #loc2))):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT: tt.return %5 : i32 loc(#loc8)
// CHECK-NEXT: } loc(#loc)
// CHECK-NEXT: } loc(#loc)
// CHECK-NEXT: #loc3 = loc("k.py":20:4)
// CHECK-NEXT: #loc4 = loc("k.py":11:24)
// CHECK-NEXT: #loc5 = loc("k.py":13:4)
// CHECK-NEXT: #loc6 = loc(unknown)
// CHECK-NEXT: #loc8 = loc("k.py":14:4)
// CHECK-NEXT: #loc10 = loc(fused[#loc4, #loc1])
// CHECK-NEXT: #loc11 = loc("ret"(#loc5))
// CHECK-NEXT: #loc13 = loc(callsite(#loc9 at #loc3))
// CHECK-NOT: #loc

// LOCAL-NOT: #loc
// LOCAL: tt.func public @k(%arg0: i32 loc(callsite("std.py":40:22 at "k.py":12:20)), %arg1: i1 loc("k.py":9:0)) -> i32 {
// LOCAL-NEXT: tt.get_program_id x : i32 loc(callsite(callsite("std.py":40:22 at "k.py":12:20) at "k.py":20:4))
// LOCAL: arith.muli %1, %1 : i32 loc(fused["k.py":11:24, "std.py":40:22])
// LOCAL-NEXT: arith.subi %2, %1 : i32 loc("ret"("k.py":13:4))
// LOCAL-NEXT: arith.addi %3, %3 : i32 loc(unknown)
// LOCAL: ^bb1(%5: i32 loc(callsite("b.py":1:2 at "k.py":12:20))):  // 2 preds: ^bb0, ^bb0
// LOCAL: } loc("k.py":9:0)
// LOCAL-NOT: #loc

// NODEBUG: tt.func public @k(%arg0: i32, %arg1: i1) -> i32 {
// NODEBUG: ^bb1(%5: i32):  // 2 preds: ^bb0, ^bb0
// NODEBUG-NOT: loc

module {
  tt.func public @k(%arg0: i32 loc(callsite("std.py":40:22 at "k.py":12:20)), %arg1: i1 loc("k.py":9:0)) -> i32 {
    %0 = tt.get_program_id x : i32 loc(callsite(callsite("std.py":40:22 at "k.py":12:20) at "k.py":20:4))
    %1 = arith.addi %0, %arg0 : i32 loc(callsite("std.py":40:22 at "k.py":12:20))
    %2 = arith.muli %1, %1 : i32 loc(fused["k.py":11:24, "std.py":40:22])
    %3 = arith.subi %2, %1 : i32 loc("ret"("k.py":13:4))
    %4 = arith.addi %3, %3 : i32 loc(unknown)
    cf.cond_br %arg1, ^bb1(%4 : i32), ^bb1(%3 : i32) loc("k.py":9:0)
  ^bb1(%5: i32 loc(callsite("b.py":1:2 at "k.py":12:20))):
    tt.return %5 : i32 loc("k.py":14:4)
  } loc("k.py":9:0)
} loc("k.py":9:0)
