// RUN: not timeout 60 xpu-opt %s 2>&1 | FileCheck %s
// A file cut inside a long string literal ends in a located error at once (xDSL's
// lexer used to backtrack exponentially on it and hang).
// CHECK: unterminated-string.mlir:10:14: error: End of file reached before closing string literal.

module {
} loc(#loc)
#loc = loc("a.py":1:2)

#loc21 = loc("/a/very/long/path/to/some/kernel/source/file/that/goes/on/and/on/kernels.py