// RUN: not xpu-opt %s --split-input-file 2>&1 >/dev/null | FileCheck %s
// RUN: not xpu-opt %s --split-input-file 2>/dev/null | FileCheck %s --check-prefix=OK
// MLIR's module verifier wants dialect-prefixed attribute names (found by
// fuzzing: triton-xpu rejected such a module that we accepted).

// CHECK: module-attributes.mlir:[[# @LINE + 1]]:1: error: 'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'i64'
module attributes {i64 = 32 : i32} {
}

// -----

// OK: module attributes {"ttg.num-warps" = 4 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
}
