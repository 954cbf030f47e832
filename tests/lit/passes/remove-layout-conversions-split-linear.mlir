// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE-COUNT-1: // -----
// REMARK-NOT: remark

// A half of a split is returned in a slice layout (its user cannot take another). No blocked
// layout splits into a slice, but a linear one does: the pair in each thread's first
// register, the rest placed as the result (triton's inference). The split's operand, a
// constant, is made in it and the conversion goes (the input's #blocked1 is then unused).
// CHECK: #[[LIN:.+]] = #ttg.linear<{register = {{\[\[}}0, 1], [1, 0], [2, 0]], lane = {{\[\[}}0, 0], [0, 0], [0, 0], [4, 0]], warp = {{\[\[}}8, 0], [16, 0]], block = []}>
// CHECK-LABEL: tt.func public @split_into_slice
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.constant dense<{{.*}}> : tensor<32x2xf32, #[[LIN]]>
// CHECK: tt.split %{{.*}} : tensor<32x2xf32, #[[LIN]]> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @split_into_slice() -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %pairs = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0], [11.0, 12.0], [13.0, 14.0], [15.0, 16.0], [17.0, 18.0], [19.0, 20.0], [21.0, 22.0], [23.0, 24.0], [25.0, 26.0], [27.0, 28.0], [29.0, 30.0], [31.0, 32.0], [33.0, 34.0], [35.0, 36.0], [37.0, 38.0], [39.0, 40.0], [41.0, 42.0], [43.0, 44.0], [45.0, 46.0], [47.0, 48.0], [49.0, 50.0], [51.0, 52.0], [53.0, 54.0], [55.0, 56.0], [57.0, 58.0], [59.0, 60.0], [61.0, 62.0], [63.0, 64.0]]> : tensor<32x2xf32, #blocked1>
    %lhs, %rhs = tt.split %pairs : tensor<32x2xf32, #blocked1> -> tensor<32xf32, #blocked2>
    %c = ttg.convert_layout %lhs : tensor<32xf32, #blocked2> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %c : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// The same split into a blocked layout: its operand is the blocked layout that joins into it
// (no linear layout is made).
// CHECK-NOT: #ttg.linear
// CHECK-LABEL: tt.func public @split_into_blocked
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.split %{{.*}} : tensor<32x2xf32, #blocked{{[0-9]*}}> -> tensor<32xf32, #blocked{{[0-9]*}}>
// CHECK-NOT: ttg.convert_layout
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @split_into_blocked() -> tensor<32xf32, #blocked3> {
    %pairs = arith.constant dense<1.0> : tensor<32x2xf32, #blocked1>
    %lhs, %rhs = tt.split %pairs : tensor<32x2xf32, #blocked1> -> tensor<32xf32, #blocked2>
    %c = ttg.convert_layout %lhs : tensor<32xf32, #blocked2> -> tensor<32xf32, #blocked3>
    tt.return %c : tensor<32xf32, #blocked3>
  }
}
