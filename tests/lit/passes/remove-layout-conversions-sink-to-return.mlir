// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: sed '/^\/\/ -----/,$d' %s | xpu-opt - --tritonintelgpu-remove-layout-conversions --verify-semantics='arg0=128,arg1=128,func=narrow_kernel' 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// A function's results have the layouts its signature gives: forward propagation stops at
// tt.return, whose operand is converted back there (triton's pass sinks a conversion to it).
// Worth it when what reaches the return is narrower: truncf after the conversion, so the
// conversion moves after it and goes through SLM in f16, not f32.
// (the first module, run by the interpreter before and after the pass on the same inputs:)
// SEM: remark: [verify-semantics] equal on 256 elements
// ORACLE-COUNT-2: tt.func

// CHECK-LABEL: tt.func private @narrowed(
// CHECK: %[[T:.*]] = arith.truncf %arg0 : tensor<128xf32, #blocked> to tensor<128xf16, #blocked>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[T]] : tensor<128xf16, #blocked> -> tensor<128xf16, #blocked1>
// CHECK: tt.return %[[C]]
#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @narrow_kernel(%px: !tt.ptr<f32>, %py: !tt.ptr<f16>) {
    %ra = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
    %rb = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %sa = tt.splat %px : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #a>
    %pa = tt.addptr %sa, %ra : tensor<128x!tt.ptr<f32>, #a>, tensor<128xi32, #a>
    %sb = tt.splat %py : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #b>
    %pb = tt.addptr %sb, %rb : tensor<128x!tt.ptr<f16>, #b>, tensor<128xi32, #b>
    %x = tt.load %pa : tensor<128x!tt.ptr<f32>, #a>
    %h = tt.call @narrowed(%x) : (tensor<128xf32, #a>) -> tensor<128xf16, #b>
    tt.store %pb, %h : tensor<128x!tt.ptr<f16>, #b>
    tt.return
  }
  tt.func private @narrowed(%x: tensor<128xf32, #a>) -> tensor<128xf16, #b> attributes {noinline = true} {
    %c = ttg.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
    %h = arith.truncf %c : tensor<128xf32, #b> to tensor<128xf16, #b>
    tt.return %h : tensor<128xf16, #b>
  }
}

// -----

// Widened after the conversion (extf): converting at the return would move f32; the conversion stays.
// CHECK-LABEL: tt.func @widened(
// CHECK: %[[C:.*]] = ttg.convert_layout %arg0 : tensor<128xf16, #blocked> -> tensor<128xf16, #blocked1>
// CHECK: arith.extf %[[C]]
// REMARK: sink-to-return.mlir:[[# @LINE + 5]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward would convert 512 weighted bytes to save 256
#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @widened(%x: tensor<128xf16, #a>) -> tensor<128xf32, #b> {
    %c = ttg.convert_layout %x : tensor<128xf16, #a> -> tensor<128xf16, #b>
    %w = arith.extf %c : tensor<128xf16, #b> to tensor<128xf32, #b>
    tt.return %w : tensor<128xf32, #b>
  }
}
