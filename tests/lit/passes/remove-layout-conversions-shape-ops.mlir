// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.trans
// ORACLE-COUNT-3: // -----

// tt.trans carries a blocked layout through, permuted as triton infers it: the
// load's coalesced layout reaches the store of the transposed tile and the
// conversion before the transpose goes.
// CHECK: #[[T:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @trans_follows
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.trans %{{[a-z0-9_#]+}} {order = array<i32: 1, 0>} : tensor<64x32xf32, #{{blocked[0-9]*}}> -> tensor<32x64xf32, #[[T]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<32x64x!tt.ptr<f32>, #[[T]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @trans_follows(%in: tensor<64x32x!tt.ptr<f32>, #blocked1>, %out: !tt.ptr<f32>) {
    %x = tt.load %in : tensor<64x32x!tt.ptr<f32>, #blocked1>
    %y = ttg.convert_layout %x : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    %t = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x32xf32, #blocked> -> tensor<32x64xf32, #blocked2>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked2>
    tt.store %q, %t : tensor<32x64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// Negative: a DPAS layout has no transposed layout of its own kind, so the
// transpose of an accumulator keeps its conversion.
// CHECK-LABEL: tt.func public @trans_of_dpas
// CHECK: %[[C:.*]] = ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
// CHECK: tt.trans %[[C]]
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward: a user 'tt.trans' cannot take the source layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @trans_of_dpas(%acc: tensor<64x32xf32, #mma>, %out: !tt.ptr<f32>) {
    %y = ttg.convert_layout %acc : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    %t = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x32xf32, #blocked> -> tensor<32x64xf32, #blocked2>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked2>
    tt.store %q, %t : tensor<32x64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// tt.join adds a most-minor dim of two elements per thread (triton's inference):
// both loads' layout flows through it into the store.
// CHECK: #[[J:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [2, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func public @join_follows
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.join %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<64x32xf32, #{{blocked[0-9]*}}> -> tensor<64x32x2xf32, #[[J]]>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [16, 1, 1], warpsPerCTA = [1, 4, 1], order = [2, 0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @join_follows(%a: tensor<64x32x!tt.ptr<f32>, #blocked1>, %b: tensor<64x32x!tt.ptr<f32>, #blocked1>, %out: !tt.ptr<f32>) {
    %x = tt.load %a : tensor<64x32x!tt.ptr<f32>, #blocked1>
    %y = tt.load %b : tensor<64x32x!tt.ptr<f32>, #blocked1>
    %cx = ttg.convert_layout %x : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    %cy = ttg.convert_layout %y : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    %j = tt.join %cx, %cy : tensor<64x32xf32, #blocked> -> tensor<64x32x2xf32, #blocked3>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<64x32x2x!tt.ptr<f32>, #blocked3>
    tt.store %q, %j : tensor<64x32x2x!tt.ptr<f32>, #blocked3>
    tt.return
  }
}

// -----

// tt.split drops that dim again: the loaded pairs' layout flows through the split
// and the sum of the halves into the store.
// CHECK-LABEL: tt.func public @split_follows
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.split %{{[a-z0-9_#]+}} : tensor<64x32x2xf32, #[[S:blocked[0-9]*]]> -> tensor<64x32xf32, #[[H:blocked[0-9]*]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x32x!tt.ptr<f32>, #[[H]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [16, 1, 1], warpsPerCTA = [1, 4, 1], order = [2, 0, 1]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [2, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @split_follows(%in: tensor<64x32x2x!tt.ptr<f32>, #blocked4>, %out: !tt.ptr<f32>) {
    %x = tt.load %in : tensor<64x32x2x!tt.ptr<f32>, #blocked4>
    %c = ttg.convert_layout %x : tensor<64x32x2xf32, #blocked4> -> tensor<64x32x2xf32, #blocked3>
    %l, %r = tt.split %c : tensor<64x32x2xf32, #blocked3> -> tensor<64x32xf32, #blocked>
    %s = arith.addf %l, %r : tensor<64x32xf32, #blocked>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %q, %s : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
