// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions=never-worse-than-native=true --remarks 2>%t.remarks | FileCheck %s %}
// RUN: %if triton %{ FileCheck %s --check-prefix=REMARK < %t.remarks %}
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s --check-prefix=OURS
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions=max-work-per-op=1 --remarks 2>%t.budget | FileCheck %s --check-prefix=BUDGET
// RUN: FileCheck %s --check-prefix=BUDGET-REMARK < %t.budget
// RUN: %if triton %{ xpu-opt %s --split-input-file "--tritonintelgpu-remove-layout-conversions=max-work-per-op=1 never-worse-than-native=true" --remarks 2>%t.fallback | FileCheck %s --check-prefix=FALLBACK %}
// RUN: %if triton %{ FileCheck %s --check-prefix=FALLBACK-REMARK < %t.fallback %}

// never-worse-than-native: triton-xpu's own pass runs on the same input and the result
// worse in no figure (SLM, conversions, loop-weighted cost) is kept, ours on a tie.
// max-work-per-op bounds our pass's work by the module's size: past it the input is
// kept, or native's result with never-worse-than-native.

// Ours wins: tt.reshape carries the load's layout through and every conversion goes;
// native keeps one (1,152 bytes of SLM). Ours is kept; it leaves nothing (no conversion, no
// scratch, no cost), which native's figures cannot beat: native's pass is not run.
// CHECK-LABEL: tt.func public @ours_better
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
// REMARK: remove-layout-conversions-never-worse.mlir:[[# @LINE + 22]]:1: remark: [tritonintelgpu-remove-layout-conversions] ours kept: 0 conversion(s), 0 bytes of SLM, weighted cost 0; native's pass not run (it cannot do better)
// OURS-LABEL: tt.func public @ours_better
// OURS-NOT: ttg.convert_layout
// OURS: tt.return
// With a budget of one unit per op, the first conversion examined spends it: the input is
// kept (four conversions), or native's result (one) is taken.
// BUDGET-LABEL: tt.func public @ours_better
// BUDGET-COUNT-4: ttg.convert_layout
// BUDGET: tt.return
// BUDGET-REMARK: remove-layout-conversions-never-worse.mlir:[[# @LINE + 13]]:1: remark: [tritonintelgpu-remove-layout-conversions] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
// BUDGET-REMARK-NOT: ours kept
// FALLBACK-LABEL: tt.func public @ours_better
// FALLBACK-COUNT-1: ttg.convert_layout
// FALLBACK-NOT: ttg.convert_layout
// FALLBACK: tt.return
// FALLBACK-REMARK: remove-layout-conversions-never-worse.mlir:[[# @LINE + 7]]:1: remark: [tritonintelgpu-remove-layout-conversions] input kept: work budget spent
// FALLBACK-REMARK: remove-layout-conversions-never-worse.mlir:[[# @LINE + 6]]:1: remark: [tritonintelgpu-remove-layout-conversions] native's result kept: ours ran out of its work budget
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked6 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#blocked7 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ours_better(%in: tensor<8x64x!tt.ptr<f32>, #blocked>, %out: !tt.ptr<f32>) {
    %x = tt.load %in : tensor<8x64x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %x : tensor<8x64xf32, #blocked> -> tensor<8x64xf32, #blocked4>
    %r = tt.reshape %c : tensor<8x64xf32, #blocked4> -> tensor<8x32x2xf32, #blocked6>
    %c2 = ttg.convert_layout %r : tensor<8x32x2xf32, #blocked6> -> tensor<8x32x2xf32, #blocked7>
    %l, %h = tt.split %c2 : tensor<8x32x2xf32, #blocked7> -> tensor<8x32xf32, #blocked8>
    %s = arith.addf %l, %h : tensor<8x32xf32, #blocked8>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<8x32x!tt.ptr<f32>, #blocked8>
    %c3 = ttg.convert_layout %s : tensor<8x32xf32, #blocked8> -> tensor<8x32xf32, #ttg.slice<{dim = 2, parent = #blocked7}>>
    %c4 = ttg.convert_layout %q : tensor<8x32x!tt.ptr<f32>, #blocked8> -> tensor<8x32x!tt.ptr<f32>, #ttg.slice<{dim = 2, parent = #blocked7}>>
    tt.store %c4, %c3 : tensor<8x32x!tt.ptr<f32>, #ttg.slice<{dim = 2, parent = #blocked7}>>
    tt.return
  }
}

// -----

// Native wins: [2, 2] per thread on 32x32 flattens into no blocked layout, so ours keeps
// the conversion before the reshape (4,224 bytes of SLM); native reshapes the load into
// a linear layout and converts after it (4,096 bytes). Native's result is kept.
// CHECK-LABEL: tt.func public @native_better
// CHECK: %[[L:.*]] = tt.load
// CHECK-NEXT: %[[R:.*]] = tt.reshape %[[L]] : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #linear>
// CHECK-NEXT: ttg.convert_layout %[[R]] : tensor<1024xf32, #linear> -> tensor<1024xf32, #{{blocked[0-9]*}}>
// REMARK: remove-layout-conversions-never-worse.mlir:[[# @LINE + 13]]:1: remark: [tritonintelgpu-remove-layout-conversions] native's result kept: ours would leave slm 4224 > 4096 (ours: 1 conversion(s), 4224 bytes of SLM, weighted cost [[C:[0-9]+]]; native: 1 conversion(s), 4096 bytes of SLM, weighted cost [[C]])
// Without never-worse-than-native, ours stands.
// OURS-LABEL: tt.func public @native_better
// OURS: %[[C:.*]] = ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<32x32xf32, #{{blocked[0-9]*}}> -> tensor<32x32xf32, #{{blocked[0-9]*}}>
// OURS: tt.reshape %[[C]]
// Its few trials stay within a budget of one unit per op.
// BUDGET-REMARK-NOT: input kept: work budget spent
// FALLBACK-LABEL: tt.func public @native_better
// FALLBACK: tt.reshape %{{[a-z0-9_#]+}} : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #linear>
// FALLBACK-REMARK: remark: [tritonintelgpu-remove-layout-conversions] native's result kept: ours would leave slm 4224 > 4096
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @native_better(%in: tensor<32x32x!tt.ptr<f32>, #blocked>, %out: !tt.ptr<f32>) {
    %x = tt.load %in : tensor<32x32x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %r = tt.reshape %c : tensor<32x32xf32, #blocked1> -> tensor<1024xf32, #blocked2>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked2>
    tt.store %q, %r : tensor<1024x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}
