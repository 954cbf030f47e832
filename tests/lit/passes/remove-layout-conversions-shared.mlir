// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: ttg.local_load
// ORACLE-COUNT-1: // -----

// A tile staged through shared memory (transposed there) for a dot: ttg.local_alloc
// stores its operand from any layout and ttg.local_load reads into any layout, so
// the store takes the loaded tile's layout and the read produces the dot operand
// directly: both conversions go (as triton-xpu's pass does).
// CHECK-LABEL: tt.func public @stage_through_shared
// CHECK: %[[X:.*]] = tt.load
// CHECK-NOT: ttg.convert_layout
// CHECK: ttg.local_alloc %[[X]] : (tensor<32x32xf16, #[[B:blocked[0-9]*]]>)
// CHECK: ttg.local_load %{{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #{{blocked[0-9]*}}}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @stage_through_shared(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %in: tensor<32x32x!tt.ptr<f16>, #blocked>, %out: tensor<32x32x!tt.ptr<f32>, #blocked1>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked1>
    %x = tt.load %in : tensor<32x32x!tt.ptr<f16>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #blocked2>
    %m = ttg.local_alloc %c : (tensor<32x32xf16, #blocked2>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %t = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<32x32xf16, #shared1, #smem>
    %r = ttg.local_load %t : !ttg.memdesc<32x32xf16, #shared1, #smem> -> tensor<32x32xf16, #blocked2>
    %b = ttg.convert_layout %r : tensor<32x32xf16, #blocked2> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %d = tt.dot %a, %b, %zero : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x32xf32, #blocked1>
    tt.store %out, %d : tensor<32x32x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// Negative: the converted tile is also stored through pointers (a function
// argument) in #blocked2; moving the shared-memory store alone removes nothing, and
// the conversion stays.
// CHECK-LABEL: tt.func public @alloc_and_store
// CHECK: %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #{{blocked[0-9]+}}>
// CHECK: ttg.local_alloc %[[C]]
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}(a function argument is converted)
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @alloc_and_store(%in: tensor<32x32x!tt.ptr<f16>, #blocked>, %out: tensor<32x32x!tt.ptr<f16>, #blocked2>) -> !ttg.memdesc<32x32xf16, #shared, #smem> {
    %x = tt.load %in : tensor<32x32x!tt.ptr<f16>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #blocked2>
    %m = ttg.local_alloc %c : (tensor<32x32xf16, #blocked2>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.store %out, %c : tensor<32x32x!tt.ptr<f16>, #blocked2>
    tt.return %m : !ttg.memdesc<32x32xf16, #shared, #smem>
  }
}
