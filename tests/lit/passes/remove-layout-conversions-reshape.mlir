// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.reshape
// ORACLE-COUNT-3: // -----

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

// -----

// A GEMV's vector reshaped from 1x16 to 16x1 and broadcast over a 16x64 tile whose
// layout holds 4 registers per thread along the 1-wide dim. triton-xpu 3.3's verifier
// compares the reshape's result with the layout it infers by their exact linear maps,
// registers past the shape included (they are 0 bases of #blocked on 16x1): no operand
// layout makes the reshape yield #blocked, so the conversion after it stays.
// CHECK-LABEL: tt.func public @reshape_replicated_registers
// CHECK: %[[R:.*]] = tt.reshape %{{[a-z0-9_#]+}} : tensor<1x16xf16, #{{blocked[0-9]*}}> -> tensor<16x1xf16, #[[B2:blocked[0-9]*]]>
// CHECK: ttg.convert_layout %[[R]] : tensor<16x1xf16, #[[B2]]> -> tensor<16x1xf16, #{{blocked[0-9]*}}>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}'tt.reshape' cannot produce the target layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_replicated_registers(%a: tensor<1x16x!tt.ptr<f16>, #blocked1>, %w: tensor<16x64x!tt.ptr<f16>, #blocked>, %out: tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 0, parent = #blocked}>>) {
    %x = tt.load %a : tensor<1x16x!tt.ptr<f16>, #blocked1>
    %r = tt.reshape %x : tensor<1x16xf16, #blocked1> -> tensor<16x1xf16, #blocked2>
    %c = ttg.convert_layout %r : tensor<16x1xf16, #blocked2> -> tensor<16x1xf16, #blocked>
    %b = tt.broadcast %c : tensor<16x1xf16, #blocked> -> tensor<16x64xf16, #blocked>
    %y = tt.load %w : tensor<16x64x!tt.ptr<f16>, #blocked>
    %m = arith.mulf %b, %y : tensor<16x64xf16, #blocked>
    %s = "tt.reduce"(%m) <{axis = 0 : i32}> ({
    ^bb0(%p: f16, %q: f16):
      %t = arith.addf %p, %q : f16
      tt.reduce.return %t : f16
    }) : (tensor<16x64xf16, #blocked>) -> tensor<64xf16, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %out, %s : tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}

// -----

// The same vector loaded in a #ttg.linear layout that holds a replicated register, reduced (a
// store would price its messages: 16 a warp from replicated registers against 1): the
// conversion before the reshape goes, and the reshape yields exactly the #ttg.linear
// triton-xpu infers (no blocked layout has that map, replicated register included).
// CHECK: #[[LIN:linear[0-9]*]] = #ttg.linear<{register = {{\[}}[0, 0], [1, 0], [2, 0], [4, 0], [8, 0]], lane = {{\[}}[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [], block = []}>
// CHECK-LABEL: tt.func public @reshape_to_inferred_linear
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reshape %{{[a-z0-9_#]+}} : tensor<1x16xf16, #{{linear[0-9]*}}> -> tensor<16x1xf16, #[[LIN]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#linear = #ttg.linear<{register = [[0, 0], [0, 1], [0, 2], [0, 4], [0, 8]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [], block = []}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_to_inferred_linear(%a: tensor<1x16x!tt.ptr<f16>, #linear>, %out: !tt.ptr<f16>) {
    %x = tt.load %a : tensor<1x16x!tt.ptr<f16>, #linear>
    %c = ttg.convert_layout %x : tensor<1x16xf16, #linear> -> tensor<1x16xf16, #blocked1>
    %r = tt.reshape %c : tensor<1x16xf16, #blocked1> -> tensor<16x1xf16, #blocked2>
    %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%p: f16, %q: f16):
      %t = arith.maxnumf %p, %q : f16
      tt.reduce.return %t : f16
    }) : (tensor<16x1xf16, #blocked2>) -> tensor<1xf16, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %m = "tt.reduce"(%s) <{axis = 0 : i32}> ({
    ^bb0(%p: f16, %q: f16):
      %t = arith.maxnumf %p, %q : f16
      tt.reduce.return %t : f16
    }) : (tensor<1xf16, #ttg.slice<{dim = 0, parent = #blocked2}>>) -> f16
    tt.store %out, %m : !tt.ptr<f16>
    tt.return
  }
}
