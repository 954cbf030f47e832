// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.reshape
// ORACLE-COUNT-1: // -----

// tt.reshape carries the load's layout through (interleaved rotary's pattern): the
// reshaped layout keeps every element on its thread ([1, 4] per thread becomes
// [1, 2, 2]), tt.split takes it, and the conversion before the reshape goes.
// CHECK: #[[R:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func public @reshape_follows
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reshape %{{[a-z0-9_#]+}} : tensor<8x64xf32, #{{blocked[0-9]*}}> -> tensor<8x32x2xf32, #[[R]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked6 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#blocked7 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_follows(%in: tensor<8x64x!tt.ptr<f32>, #blocked>, %out: !tt.ptr<f32>) {
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

// Negative: [2, 2] per thread on 32x32 cannot be flattened into any blocked layout
// of 1024 elements (a thread's elements are not contiguous in row-major order), so
// the conversion before the reshape stays.
// CHECK-LABEL: tt.func public @reshape_no_blocked
// CHECK: %[[C:.*]] = ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<32x32xf32, #{{blocked[0-9]*}}> -> tensor<32x32xf32, #{{blocked[0-9]*}}>
// CHECK: tt.reshape %[[C]]
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward: a user 'tt.reshape' cannot take the source layout
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_no_blocked(%in: tensor<32x32x!tt.ptr<f32>, #blocked>, %out: !tt.ptr<f32>) {
    %x = tt.load %in : tensor<32x32x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %r = tt.reshape %c : tensor<32x32xf32, #blocked1> -> tensor<1024xf32, #blocked2>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked2>
    tt.store %q, %r : tensor<1024x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}
