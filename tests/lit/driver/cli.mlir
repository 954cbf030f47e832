// RUN: xpu-opt - < %s | FileCheck %s
// RUN: xpu-opt %s -o %t && FileCheck %s < %t
// RUN: xpu-opt %s --pass-pipeline='builtin.module()' | FileCheck %s
// RUN: not xpu-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=BADPASS
// RUN: not xpu-opt %s.missing 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: xpu-opt --list-passes | FileCheck %s --check-prefix=LIST
// The driver reads stdin or a file, writes stdout or -o, takes MLIR-style
// pipelines, and reports bad pipelines and files without a traceback.

// CHECK: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT: tt.func @f() {
// BADPASS: xpu-opt: error: unknown pass 'no-such-pass' at column 16 of the pipeline
// BADPASS-NOT: Traceback
// NOFILE: xpu-opt: error: {{.*}}No such file or directory
// LIST: --tritonintelgpu-materialize-block-pointer

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f() {
    tt.return
  }
}
