// RUN: xpu-opt %s | FileCheck %s --check-prefix=KEEP
// RUN: xpu-opt %s --spelling=new | FileCheck %s --check-prefix=NEW
// RUN: xpu-opt %s --spelling=new | xpu-opt --spelling=old | FileCheck %s --check-prefix=KEEP
// The 3.2-era spellings `triton_gpu` / `triton_intel_gpu` are read, and printed
// back as they came unless another spelling is asked for.

// KEEP: #[[BLOCKED:blocked[0-9]*]] = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// KEEP: #[[MMA:mma[0-9]*]] = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
// KEEP: module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block}
// KEEP: triton_gpu.convert_layout %{{.*}} : tensor<32x32xf32, #[[BLOCKED]]> -> tensor<32x32xf32, #[[MMA]]>
// KEEP-NOT: ttg.
// KEEP-NOT: ttig.

// NEW: #{{blocked[0-9]*}} = #ttg.blocked<
// NEW: #{{mma[0-9]*}} = #ttig.dpas<
// NEW: module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, ttig.support_sg_2d_block}
// NEW: ttg.convert_layout
// NEW-NOT: triton_

#blocked = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1]}>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @cvt(%arg0: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #mma> {
    %0 = triton_gpu.convert_layout %arg0 : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mma>
    tt.return %0 : tensor<32x32xf32, #mma>
  }
}
