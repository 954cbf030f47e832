// RUN: xpu-opt %s -mlir-print-debuginfo | FileCheck %s
// RUN: xpu-opt -mlir-print-debuginfo < %s | FileCheck %s --check-prefix=STDIN
// RUN: xpu-opt %s -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// RUN: xpu-opt %s | FileCheck %s --check-prefix=PLAIN
// Text without locations: each op gets the line:col of its name, each argument that of
// its `%name`, in the file named as on the command line (`<stdin>` for standard input),
// as MLIR's parser gives them. A written location, also `loc(unknown)`, is kept.

module {
  tt.func @f(%arg0: i32, %p: i1) -> i32 {
    %c = arith.constant 1 : i32
      %0 = arith.addi %arg0, %c : i32
    tt.return %0 : i32 loc(unknown)
  }
}

// CHECK: #[[ARG0:loc[0-9]*]] = loc("{{.*}}text-locations.mlir":10:14)
// CHECK: tt.func @f(%arg0: i32 loc("{{.*}}text-locations.mlir":10:14), %arg1: i1 loc("{{.*}}text-locations.mlir":10:26)) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32 loc(#[[C:loc[0-9]*]])
// CHECK-NEXT: %0 = arith.addi %arg0, %c1_i32 : i32 loc(#[[ADD:loc[0-9]*]])
// CHECK-NEXT: tt.return %0 : i32 loc(#[[U:loc[0-9]*]])
// CHECK-NEXT: } loc(#[[F:loc[0-9]*]])
// CHECK-NEXT: } loc(#[[M:loc[0-9]*]])
// CHECK-DAG: #[[M]] = loc("{{.*}}text-locations.mlir":9:1)
// CHECK-DAG: #[[F]] = loc("{{.*}}text-locations.mlir":10:3)
// CHECK-DAG: #[[C]] = loc("{{.*}}text-locations.mlir":11:10)
// CHECK-DAG: #[[U]] = loc(unknown)
// CHECK-DAG: #[[ADD]] = loc("{{.*}}text-locations.mlir":12:12)

// STDIN: tt.func @f(%arg0: i32 loc("<stdin>":10:14), %arg1: i1 loc("<stdin>":10:26)) -> i32 {
// STDIN: {{^}}} loc(#[[M:loc[0-9]*]])
// STDIN: #[[M]] = loc("<stdin>":9:1)

// LOCAL: %c1_i32 = arith.constant 1 : i32 loc("{{.*}}text-locations.mlir":11:10)
// LOCAL: } loc("{{.*}}text-locations.mlir":9:1)
// LOCAL-NOT: #loc

// PLAIN-NOT: loc(
