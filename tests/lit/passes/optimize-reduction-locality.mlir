// RUN: xpu-opt %s --split-input-file --tritonintelgpu-optimize-reduction-locality --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-optimize-reduction-locality -spelling=triton-3.3 | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-optimize-reduction-locality=max-work-per-op=1 --remarks 2>%t.budget | FileCheck %s --check-prefix=BUDGET --implicit-check-not=tt.reshape
// RUN: FileCheck %s --check-prefix=BUDGET-REMARK < %t.budget

// max-work-per-op bounds the pass's work by the module's size: past it (here one unit per op)
// the input is kept (in a pipeline, triton-xpu's pass runs instead) and a remark says so.
// BUDGET: tt.reduce
// BUDGET-REMARK: remark: [tritonintelgpu-optimize-reduction-locality] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1

// ORACLE-COUNT-6: tt.return

// Row max of a 32x64 f32 DPAS tile on 2x2 warps: each thread reduces its own registers (7D
// reshape, axes 2 and 4), one conversion transposes within the sub-group, then registers and
// warps are reduced (4D reshape, axes 0 and 1), and the result goes back to the slice layout.
// CHECK-DAG: #[[B7:.*]] = #ttg.blocked<{sizePerThread = [1, 8, 2, 2, 1, 1, 1], threadsPerWarp = [16, 1, 1, 1, 1, 1, 1], warpsPerCTA = [1, 1, 1, 1, 2, 1, 2], order = [0, 1, 2, 3, 4, 5, 6]}>
// CHECK-DAG: #[[B5:.*]] = #ttg.blocked<{sizePerThread = [16, 1, 1, 1, 1], threadsPerWarp = [1, 8, 2, 1, 1], warpsPerCTA = [1, 1, 1, 2, 2], order = [0, 1, 2, 3, 4]}>
// CHECK-DAG: #[[B4:.*]] = #ttg.blocked<{sizePerThread = [16, 1, 1, 1], threadsPerWarp = [1, 16, 1, 1], warpsPerCTA = [1, 1, 2, 2], order = [0, 1, 2, 3]}>
// CHECK-DAG: #[[B2:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK-LABEL: tt.func @row_max(
// CHECK-SAME: %[[X:.*]]: tensor<32x64xf32, #[[MMA:.*]]>)
// CHECK: %[[R:.*]] = tt.reshape %[[X]] allow_reorder efficient_layout : tensor<32x64xf32, #[[MMA]]> -> tensor<16x8x2x2x2x1x2xf32, #[[B7]]>
// CHECK: %[[A:.*]] = "tt.reduce"(%[[R]]) <{axis = 2 : i32}>
// CHECK: arith.maxnumf
// CHECK: %[[B:.*]] = "tt.reduce"(%[[A]]) <{axis = 4 : i32}>
// CHECK: arith.maxnumf
// CHECK: %[[C:.*]] = ttg.convert_layout %[[B]] : {{.*}} -> tensor<16x8x2x2x2xf32, #[[B5]]>
// CHECK: %[[D:.*]] = tt.reshape %[[C]] allow_reorder efficient_layout : tensor<16x8x2x2x2xf32, #[[B5]]> -> tensor<16x16x2x2xf32, #[[B4]]>
// CHECK: %[[E:.*]] = "tt.reduce"(%[[D]]) <{axis = 0 : i32}>
// CHECK: arith.maxnumf
// CHECK: %[[F:.*]] = "tt.reduce"(%[[E]]) <{axis = 1 : i32}>
// CHECK: arith.maxnumf
// CHECK: }) : (tensor<16x2x2xf32, #ttg.slice<{dim = 0, parent = #[[B4]]}>>) -> tensor<16x2xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 0, parent = #[[B4]]}>}>>
// CHECK: %[[G:.*]] = tt.reshape %[[F]] allow_reorder efficient_layout : {{.*}} -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[B2]]}>>
// CHECK: %[[H:.*]] = ttg.convert_layout %[[G]] : tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[B2]]}>> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>>
// CHECK: tt.return %[[H]]
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @row_max(%arg0: tensor<32x64xf32, #mma>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>> {
    %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %1 = arith.maxnumf %a, %b : f32
      tt.reduce.return %1 : f32
    }) : (tensor<32x64xf32, #mma>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return %0 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>>
  }
}

// -----

// Column sums (axis 0) reduce across rows of threads: left alone.
// CHECK-LABEL: tt.func @column_sum(
// CHECK-NEXT: "tt.reduce"(%{{.*}}) <{axis = 0 : i32}>
// CHECK-NOT: tt.reshape
// CHECK: tt.return
// REMARK: optimize-reduction-locality.mlir:[[# @LINE + 4]]:5: remark: [tritonintelgpu-optimize-reduction-locality] reduction left alone: axis 0 (only axis 1 reduces within a sub-group)
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @column_sum(%arg0: tensor<32x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>> {
    %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %1 = arith.addf %a, %b : f32
      tt.reduce.return %1 : f32
    }) : (tensor<32x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
    tt.return %0 : tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
  }
}

// -----

// A blocked operand: left alone.
// CHECK-LABEL: tt.func @blocked_rows(
// CHECK-NEXT: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK-NOT: tt.reshape
// CHECK: tt.return
// REMARK: optimize-reduction-locality.mlir:[[# @LINE + 4]]:5: remark: [tritonintelgpu-optimize-reduction-locality] reduction left alone: operand not in a #ttig.dpas layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @blocked_rows(%arg0: tensor<32x64xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %1 = arith.addf %a, %b : f32
      tt.reduce.return %1 : f32
    }) : (tensor<32x64xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %0 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// 16 columns on two warps side by side: fewer than one tile of the layout (16 x 1 x 2 = 32).
// triton-xpu 3.3's native pass builds a reshape of the wrong size here; Intel main's guard,
// and ours, leave it alone.
// CHECK-LABEL: tt.func @narrow(
// CHECK-NEXT: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK-NOT: tt.reshape
// CHECK: tt.return
// REMARK: optimize-reduction-locality.mlir:[[# @LINE + 4]]:5: remark: [tritonintelgpu-optimize-reduction-locality] reduction left alone: 16 columns, fewer than one tile of the layout (main's guard)
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 2], repCluster = [2, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @narrow(%arg0: tensor<16x16xf32, #mma>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #mma}>> {
    %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %1 = arith.addf %a, %b : f32
      tt.reduce.return %1 : f32
    }) : (tensor<16x16xf32, #mma>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return %0 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #mma}>>
  }
}

// -----

// 64 rows where the layout covers 8 x 2 x 1 = 16 (registers repeat over rows): left alone.
// CHECK-LABEL: tt.func @tall(
// CHECK-NEXT: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK-NOT: tt.reshape
// CHECK: tt.return
// REMARK: optimize-reduction-locality.mlir:[[# @LINE + 4]]:5: remark: [tritonintelgpu-optimize-reduction-locality] reduction left alone: 64 rows, not the layout's repeatCount*repCluster[0]*warpsPerCTA[0]
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @tall(%arg0: tensor<64x32xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> {
    %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %1 = arith.addf %a, %b : f32
      tt.reduce.return %1 : f32
    }) : (tensor<64x32xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return %0 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
  }
}

// -----

// Two operands (an argmax carries the index): left alone.
// CHECK-LABEL: tt.func @argmax(
// CHECK-NEXT: "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 1 : i32}>
// CHECK-NOT: tt.reshape
// CHECK: tt.return
// REMARK: optimize-reduction-locality.mlir:[[# @LINE + 4]]:5: remark: [tritonintelgpu-optimize-reduction-locality] reduction left alone: 2 operands (one only)
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @argmax(%arg0: tensor<32x64xf32, #mma>, %arg1: tensor<32x64xi32, #mma>) -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #mma}>> {
    %0:2 = "tt.reduce"(%arg0, %arg1) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %1 = arith.cmpf ogt, %a, %b : f32
      %2 = arith.select %1, %a, %b : f32
      %3 = arith.select %1, %ai, %bi : i32
      tt.reduce.return %2, %3 : f32, i32
    }) : (tensor<32x64xf32, #mma>, tensor<32x64xi32, #mma>) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #mma}>>)
    tt.return %0#1 : tensor<32xi32, #ttg.slice<{dim = 1, parent = #mma}>>
  }
}
