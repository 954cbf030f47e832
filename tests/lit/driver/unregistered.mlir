// RUN: xpu-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: not xpu-opt %s 2>&1 | FileCheck %s --check-prefix=ERR
// Unknown ops pass through only when asked for, like mlir-opt.

// CHECK: "mydialect.op"(%arg0) {tag = 1 : i32} : (i32) -> i32
// ERR: unregistered.mlir:9:24: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
module {
  tt.func @f(%arg0: i32) {
    %0 = "mydialect.op"(%arg0) {tag = 1 : i32} : (i32) -> i32
    tt.return
  }
}
