// RUN: not xpu-opt %s --split-input-file 2>&1 >/dev/null | FileCheck %s
// Dominance across the blocks of a function body joined by cf branches, as MLIR
// checks it: a value defined in one branch is not available in the other or after
// the join. Lines and columns are those of this file.

// CHECK: dominance.mlir:14:5: error: 'tt.store' op operand #1 does not dominate this use
module {
  tt.func public @sibling(%arg0: !tt.ptr<i32>, %arg1: i1, %arg2: i32) {
    cf.cond_br %arg1, ^bb1, ^bb2
  ^bb1:
    %0 = arith.addi %arg2, %arg2 : i32
    tt.return
  ^bb2:
    tt.store %arg0, %0 : !tt.ptr<i32>
    tt.return
  }
}

// -----

// CHECK: dominance.mlir:31:5: error: 'tt.store' op operand #1 does not dominate this use
module {
  tt.func public @after_join(%arg0: !tt.ptr<i32>, %arg1: i1, %arg2: i32) {
    cf.cond_br %arg1, ^bb1, ^bb2
  ^bb1:
    %0 = arith.addi %arg2, %arg2 : i32
    cf.br ^bb3
  ^bb2:
    cf.br ^bb3
  ^bb3:
    tt.store %arg0, %0 : !tt.ptr<i32>
    tt.return
  }
}

// -----

// CHECK: dominance.mlir:41:30: error: expected 1 operand types, got 0
module {
  tt.func public @while_arity(%arg0: i32) {
    scf.while (%a = %arg0) : () -> () {
      scf.condition(%true)
    } do {
      scf.yield
    }
    tt.return
  }
}

// -----

// A value of the entry block dominates every block; a block argument its own block.
// CHECK-NOT: error
module {
  tt.func public @ok(%arg0: !tt.ptr<i32>, %arg1: i1, %arg2: i32) {
    %0 = arith.addi %arg2, %arg2 : i32
    cf.cond_br %arg1, ^bb1, ^bb2(%0 : i32)
  ^bb1:
    tt.store %arg0, %0 : !tt.ptr<i32>
    tt.return
  ^bb2(%1: i32):
    tt.store %arg0, %1 : !tt.ptr<i32>
    tt.return
  }
}
