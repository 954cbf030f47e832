// RUN: xpu-opt %s --split-input-file | FileCheck %s
// RUN: xpu-opt %s --split-input-file | xpu-opt --split-input-file | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// Layout attributes and GPU/Intel ops in triton-xpu 3.3's syntax.

// ORACLE: #triton_intel_gpu.dpas<{repeatCount = 8
// ORACLE-COUNT-3: // -----

// Layout aliases are numbered in order of first use; slice and dot_op print inline.
// CHECK: #[[B0:blocked]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #[[B1:blocked1]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #[[LIN:linear]] = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0]], warp = [[16, 0], [32, 0]], block = []}>
// CHECK-NEXT: #[[MMA:mma]] = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 1], A = [16, 16], B = [16, 16], C = [16, 16]}>
// CHECK: ttg.convert_layout %arg0 : tensor<64x32xf16, #[[B0]]> -> tensor<64x32xf16, #[[MMA]]>
// CHECK-NEXT: ttg.convert_layout %arg0 : tensor<64x32xf16, #[[B0]]> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>>
// CHECK-NEXT: ttg.convert_layout %arg1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B0]]}>> -> tensor<64xf32, #[[B1]]>
// CHECK-NEXT: ttg.convert_layout %arg0 : tensor<64x32xf16, #[[B0]]> -> tensor<64x32xf16, #[[LIN]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked9 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 1], A = [16, 16], B = [16, 16], C = [16, 16]}>
#lin = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0]], warp = [[16, 0], [32, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, ttg.target = "xpu"} {
  tt.func @layouts(%arg0: tensor<64x32xf16, #blocked>, %arg1: tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    %0 = ttg.convert_layout %arg0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #mma>
    %1 = ttg.convert_layout %arg0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %2 = ttg.convert_layout %arg1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked9>
    %3 = ttg.convert_layout %arg0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #lin>
    tt.return
  }
}

// -----

// DPAS as 3.2 printed it (no A/B/C) stays without them.
// CHECK: #mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 8], B = [8, 16], C = [8, 16]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @dpas32(%arg0: tensor<32x16xf32, #mma>) {
    tt.return
  }
}

// -----

// Shared memory: local_alloc/load/store/dealloc, subviews, transposes.
// CHECK: #[[SH:shared]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK: #[[SMEM:smem]] = #ttg.shared_memory
// CHECK: %[[A:.*]] = ttg.local_alloc  : () -> !ttg.memdesc<2x32x32xf16, #[[SH]], #[[SMEM]], mutable>
// CHECK-NEXT: %[[V:.*]] = ttg.memdesc_subview %[[A]][%arg1, %arg1, %arg1] : !ttg.memdesc<2x32x32xf16, #[[SH]], #[[SMEM]], mutable> -> !ttg.memdesc<32x32xf16, #[[SH]], #[[SMEM]], mutable>
// CHECK-NEXT: ttg.local_store %arg0, %[[V]] : tensor<32x32xf16, #{{blocked[0-9]*}}> -> !ttg.memdesc<32x32xf16, #[[SH]], #[[SMEM]], mutable>
// CHECK-NEXT: ttg.local_load %[[V]] : !ttg.memdesc<32x32xf16, #[[SH]], #[[SMEM]], mutable> -> tensor<32x32xf16, #{{blocked[0-9]*}}>
// CHECK-NEXT: ttg.memdesc_trans %[[V]] {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #[[SH]], #[[SMEM]], mutable> -> !ttg.memdesc<32x32xf16, #shared1, #[[SMEM]], mutable>
// CHECK-NEXT: %[[C:.*]] = ttg.local_alloc %arg0 : (tensor<32x32xf16, #{{blocked[0-9]*}}>) -> !ttg.memdesc<32x32xf16, #[[SH]], #[[SMEM]]>
// CHECK-NEXT: ttg.local_dealloc %[[A]] : !ttg.memdesc<2x32x32xf16, #[[SH]], #[[SMEM]], mutable>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @smem(%arg0: tensor<32x32xf16, #blocked>, %arg1: i32) {
    %0 = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    %1 = ttg.memdesc_subview %0[%arg1, %arg1, %arg1] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 2x32x32>
    ttg.local_store %arg0, %1 : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 2x32x32>
    %2 = ttg.local_load %1 : !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 2x32x32> -> tensor<32x32xf16, #blocked>
    %3 = ttg.memdesc_trans %1 {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 2x32x32> -> !ttg.memdesc<32x32xf16, #shared1, #smem, mutable, 2x32x32>
    %4 = ttg.local_alloc %arg0 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    ttg.local_dealloc %0 : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Intel prefetch prints every attribute, operand segments included.
// CHECK: triton_intel_gpu.prefetch %arg0 {boundaryCheck = array<i32: 0, 1>, cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : !tt.ptr<tensor<64x32xbf16, #blocked>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func @prefetch(%arg0: !tt.ptr<tensor<64x32xbf16, #blocked>>) {
    triton_intel_gpu.prefetch %arg0 {boundaryCheck = array<i32: 0, 1>, cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : !tt.ptr<tensor<64x32xbf16, #blocked>>
    tt.return
  }
}
