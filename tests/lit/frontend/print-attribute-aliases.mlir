// RUN: xpu-opt %s | FileCheck %s
// RUN: xpu-opt %s --spelling=new | FileCheck %s --check-prefix=NEW
// RUN: xpu-opt %s --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// RUN: %if triton %{ xpu-opt %s --mlir-print-debuginfo > %t.ours && %python -m xpu_passes.integration.oracle verify %s > %t.triton && diff %t.triton %t.ours %}
// Attribute aliases as MLIR names and orders them, whatever the input called
// them and in whatever order it defined them: Triton's stems (blocked, linear,
// mma, shared, smem), ordered by alias depth then name, numbered per stem in
// order of first use (here #first is used before #second); unused ones dropped;
// a dot_op or slice layout is printed inline. Attribute dictionaries are sorted
// by their printed names (triton_intel_gpu.* before ttg.*, ttig.* after).

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #linear = #ttg.linear<
// CHECK-NEXT: #mma = #triton_intel_gpu.dpas<
// CHECK-NEXT: #shared = #ttg.swizzled_shared<
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {triton_intel_gpu.support_sg_2d_block, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
// CHECK-NEXT: tt.func @layouts(%arg0: tensor<64xf32, #blocked>, %arg1: tensor<64x32xf16, #blocked1>) {
// CHECK-NEXT: ttg.convert_layout %arg1 : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #mma>
// CHECK-NEXT: ttg.convert_layout %arg1 : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT: ttg.convert_layout %arg1 : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #linear>
// CHECK-NEXT: ttg.local_alloc %arg1 : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK-NEXT: ttg.local_load %3 {triton_intel_gpu.block_io = "row_major", tt.a = 2 : i32, tt.b = 1 : i32}
// CHECK-NOT: #blocked2
// CHECK-NOT: sizePerThread = [2, 2]

// NEW: #mma = #ttig.dpas<
// NEW: module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32, ttig.support_sg_2d_block} {
// NEW: ttg.local_load %3 {tt.a = 2 : i32, tt.b = 1 : i32, ttig.block_io = "row_major"}

// LOCAL-NOT: #blocked =
// LOCAL: tt.func @layouts(%arg0: tensor<64xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>>,
// LOCAL: ttg.convert_layout %arg1 : tensor<64x32xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #triton_intel_gpu.dpas<{repeatCount = 8,
// LOCAL-NOT: {{#blocked|#mma|#linear|#shared|#smem}}

#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2]}>
#lin = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0]], warp = [[16, 0], [32, 0]], block = []}>
#unused = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#second = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#first = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block, "ttg.num-warps" = 4 : i32} {
  tt.func @layouts(%v: tensor<64xf32, #first> loc("k.py":1:0), %t: tensor<64x32xf16, #second> loc("k.py":1:0)) {
    %0 = ttg.convert_layout %t : tensor<64x32xf16, #second> -> tensor<64x32xf16, #mma> loc("k.py":2:4)
    %1 = ttg.convert_layout %t : tensor<64x32xf16, #second> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> loc("k.py":3:4)
    %2 = ttg.convert_layout %t : tensor<64x32xf16, #second> -> tensor<64x32xf16, #lin> loc("k.py":4:4)
    %3 = ttg.local_alloc %t : (tensor<64x32xf16, #second>) -> !ttg.memdesc<64x32xf16, #sh, #smem> loc("k.py":5:4)
    %4 = ttg.local_load %3 {tt.b = 1 : i32, tt.a = 2 : i32, triton_intel_gpu.block_io = "row_major"} : !ttg.memdesc<64x32xf16, #sh, #smem> -> tensor<64x32xf16, #second> loc("k.py":6:4)
    tt.return loc("k.py":7:4)
  } loc("k.py":1:0)
} loc("k.py":0:0)
