// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: scf.while
// ORACLE-COUNT-3: // -----

// A value carried through both regions of scf.while: its initial value, the
// before/after arguments, the condition's and the yield's operands and the result
// all take the DPAS layout; no conversion is left.
// CHECK-LABEL: tt.func public @while_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
// CHECK: scf.while (%{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} = %{{[a-z0-9_#]+}}) : (tensor<64x64xf32, #mma>, i32) -> (tensor<64x64xf32, #mma>, i32)
// CHECK: scf.condition(%{{[a-z0-9_#]+}}) %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<64x64xf32, #mma>, i32
// CHECK: ^bb0(%{{[a-z0-9_#]+}}: tensor<64x64xf32, #mma>, %{{[a-z0-9_#]+}}: i32):
// CHECK: arith.addf %{{[a-z0-9_#]+}}, %{{[a-z0-9_#]+}} : tensor<64x64xf32, #mma>
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<64x64xf32, #mma>, i32
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @while_carried(%v: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.while (%acc = %zero, %i = %c0) : (tensor<64x64xf32, #blocked>, i32) -> (tensor<64x64xf32, #blocked>, i32) {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %acc, %i : tensor<64x64xf32, #blocked>, i32
    } do {
    ^bb0(%a: tensor<64x64xf32, #blocked>, %j: i32):
      %c = ttg.convert_layout %v : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      %s = arith.addf %a, %c : tensor<64x64xf32, #blocked>
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %s, %j1 : tensor<64x64xf32, #blocked>, i32
    }
    %o = ttg.convert_layout %r#0 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    tt.return %o : tensor<64x64xf32, #mma>
  }
}

// -----

// Negative: the regions carry the accumulator at different positions (the
// condition swaps them); each group can be retyped, but the function returns the
// result in #blocked, so moving the loop to #mma would only move the conversion
// after the loop: the conversion of the loop-invariant stays (hoisted out of the loop).
// CHECK-LABEL: tt.func public @while_regions_differ
// CHECK: ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: scf.while {{.*}} -> (i32, tensor<64x64xf32, #blocked>)
// CHECK-NOT: ttg.convert_layout
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert 16384 weighted bytes to save 16384 (a function argument is converted); forward would convert 16384 weighted bytes to save 16384
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @while_regions_differ(%v: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %r:2 = scf.while (%acc = %zero, %i = %c0) : (tensor<64x64xf32, #blocked>, i32) -> (i32, tensor<64x64xf32, #blocked>) {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %i, %acc : i32, tensor<64x64xf32, #blocked>
    } do {
    ^bb0(%j: i32, %a: tensor<64x64xf32, #blocked>):
      %c = ttg.convert_layout %v : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      %s = arith.addf %a, %c : tensor<64x64xf32, #blocked>
      %j1 = arith.addi %j, %j : i32
      scf.yield %s, %j1 : tensor<64x64xf32, #blocked>, i32
    }
    tt.return %r#1 : tensor<64x64xf32, #blocked>
  }
}

// -----

// A gather's result takes its indices' layout; its source keeps its own. The
// indices' conversion and the result's conversion back both go.
// CHECK-LABEL: tt.func public @gather_indices
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.gather %{{[a-z0-9_#]+}}[%{{[a-z0-9_#]+}}] {axis = 1 : i32} : (tensor<64x64xf32, #blocked>, tensor<64x64xi32, #blocked1>) -> tensor<64x64xf32, #blocked1>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gather_indices(%src: tensor<64x64xf32, #blocked>, %idx: tensor<64x64xi32, #blocked1>) -> tensor<64x64xf32, #blocked1> {
    %i = ttg.convert_layout %idx : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked>
    %g = tt.gather %src[%i] {axis = 1 : i32} : (tensor<64x64xf32, #blocked>, tensor<64x64xi32, #blocked>) -> tensor<64x64xf32, #blocked>
    %o = ttg.convert_layout %g : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    tt.return %o : tensor<64x64xf32, #blocked1>
  }
}

// -----

// Negative: a gather marked with its efficient layout keeps it (Intel's anchor).
// CHECK-LABEL: tt.func public @gather_efficient_layout
// CHECK: %[[I:.*]] = ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked>
// CHECK: tt.gather %{{[a-z0-9_#]+}}[%[[I]]] {axis = 1 : i32, efficient_layout} : (tensor<64x64xf32, #blocked>, tensor<64x64xi32, #blocked>) -> tensor<64x64xf32, #blocked>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward: a user 'tt.gather' cannot take the source layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gather_efficient_layout(%src: tensor<64x64xf32, #blocked>, %idx: tensor<64x64xi32, #blocked1>) -> tensor<64x64xf32, #blocked> {
    %i = ttg.convert_layout %idx : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked>
    %g = tt.gather %src[%i] {axis = 1 : i32, efficient_layout} : (tensor<64x64xf32, #blocked>, tensor<64x64xi32, #blocked>) -> tensor<64x64xf32, #blocked>
    tt.return %g : tensor<64x64xf32, #blocked>
  }
}
