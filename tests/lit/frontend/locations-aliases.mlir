// RUN: xpu-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=ALIAS
// RUN: xpu-opt %s --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=INLINE
// RUN: xpu-opt %s | FileCheck %s --check-prefix=NODEBUG
// RUN: xpu-opt %s --mlir-print-debuginfo | xpu-opt --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=INLINE
// Location aliases defined after the module (as MLIR prints them), some used
// before they are defined and some defined out of order, with callsite, fused
// and name locations.

// ALIAS: %[[X:.*]] = tt.get_program_id x : i32 loc([[L2:#loc[0-9]*]])
// ALIAS-NEXT: arith.addi %[[X]], %[[X]] : i32 loc([[L3:#loc[0-9]*]])
// ALIAS-NEXT: arith.muli %{{.*}}, %{{.*}} : i32 loc([[L4:#loc[0-9]*]])
// ALIAS-NEXT: tt.return loc([[L5:#loc[0-9]*]])
// ALIAS: } loc(
// ALIAS-DAG: [[L2]] = loc("k.py":11:24)
// ALIAS-DAG: [[L3]] = loc(callsite([[CALLEE:#loc[0-9]*]] at [[CALLER:#loc[0-9]*]]))
// ALIAS-DAG: [[CALLEE]] = loc("standard.py":40:22)
// ALIAS-DAG: [[CALLER]] = loc("k.py":12:20)
// ALIAS-DAG: [[L4]] = loc(fused[{{#loc[0-9]*}}, {{#loc[0-9]*}}])
// ALIAS-DAG: [[L5]] = loc("ret"({{#loc[0-9]*}}))

// INLINE: tt.get_program_id x : i32 loc("k.py":11:24)
// INLINE-NEXT: arith.addi %{{.*}}, %{{.*}} : i32 loc(callsite("standard.py":40:22 at "k.py":12:20))
// INLINE-NEXT: arith.muli %{{.*}}, %{{.*}} : i32 loc(fused["k.py":11:24, "standard.py":40:22])
// INLINE-NEXT: tt.return loc("ret"("k.py":13:4))
// INLINE-NOT: #loc

// NODEBUG: tt.get_program_id x : i32{{$}}
// NODEBUG-NOT: loc(

module {
  tt.func public @k() attributes {noinline = false} {
    %0 = tt.get_program_id x : i32 loc(#loc2)
    %1 = arith.addi %0, %0 : i32 loc(#loc6)
    %2 = arith.muli %1, %1 : i32 loc(#loc7)
    tt.return loc(#loc8)
  } loc(#loc)
} loc(#loc)
#loc = loc("k.py":9:0)
#loc6 = loc(callsite(#loc3 at #loc4))
#loc2 = loc("k.py":11:24)
#loc3 = loc("standard.py":40:22)
#loc4 = loc("k.py":12:20)
#loc7 = loc(fused[#loc2, #loc3])
#loc8 = loc("ret"(#loc5))
#loc5 = loc("k.py":13:4)
