// Input of verify-diagnostics.mlir: an expectation no diagnostic meets, and one on the wrong line.
module {
  tt.func @nothing_wrong() {
    // expected-error@+1 {{this error is never reported}}
    tt.return
  }
}

// -----

module {
  tt.func @undefined() {
    // expected-error@+2 {{use of undefined value '%nope'}}
    %x = arith.addi %nope, %nope : i32
    tt.return
  }
}

// MISSING: verify-diagnostics-missing.mlir:4:8: error: expected error "this error is never reported" was not produced
// MISSING: verify-diagnostics-missing.mlir:13:8: error: expected error "use of undefined value '%nope'" was not produced
// MISSING: verify-diagnostics-missing.mlir:14:21: error: unexpected error: use of undefined value '%nope'
