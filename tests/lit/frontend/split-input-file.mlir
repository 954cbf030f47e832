// RUN: not xpu-opt %s --split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// Each chunk is parsed on its own; a bad chunk is reported with its line in
// this file, the other chunks are still printed, and the exit code is 1.

// CHECK: tt.func @first
// CHECK-NEXT: tt.get_program_id x : i32
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: tt.func @third
// CHECK-NEXT: tt.get_program_id y : i32
// CHECK-NOT: @second

// ERR: split-input-file.mlir:28:28: error:
// ERR-NOT: error:

module {
  tt.func @first() {
    %0 = tt.get_program_id x : i32
    tt.return
  }
}

// -----

module {
  tt.func @second() {
    %0 = tt.get_program_id w : i32
    tt.return
  }
}

// -----

module {
  tt.func @third() {
    %0 = tt.get_program_id y : i32
    tt.return
  }
}
