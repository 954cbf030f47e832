// RUN: xpu-opt %s --split-input-file | FileCheck %s
// RUN: xpu-opt %s --split-input-file | xpu-opt --split-input-file | FileCheck %s
// Syntax of newer Intel Triton that triton-xpu 3.3 does not know (so no oracle
// check here): the 2D block I/O layout, the warp layout, and masked prefetch.

// CHECK: #[[B:block_io]] = #ttig.subgroup_2d_block<{warpsPerCTA = [8, 4], instrShape = [8, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
// CHECK: #[[MMA:mma]] = #ttig.dpas<
// CHECK: %[[L:.*]] = tt.load %arg0 {boundaryCheck = array<i32: 0, 1>, ttig.block_io = "row_major"} : !tt.ptr<tensor<256x32xbf16, #[[B]]>>
// CHECK-NEXT: ttg.convert_layout %[[L]] : tensor<256x32xbf16, #[[B]]> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>>
#b = #ttig.subgroup_2d_block<{warpsPerCTA = [8, 4], instrShape = [8, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2]}>
module attributes {"ttg.num-warps" = 32 : i32, "ttg.threads-per-warp" = 16 : i32, ttig.support_sg_2d_block} {
  tt.func @block_io(%arg0: !tt.ptr<tensor<256x32xbf16, #b>>) {
    %0 = tt.load %arg0 {boundaryCheck = array<i32: 0, 1>, ttig.block_io = "row_major"} : !tt.ptr<tensor<256x32xbf16, #b>>
    %1 = ttg.convert_layout %0 : tensor<256x32xbf16, #b> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    tt.return
  }
}

// -----

// CHECK: #[[W:warp]] = #ttig.warp<{sizePerThread = [8, 16], threadsPerWarp = [1, 1], order = [1, 0]}>
// CHECK: tensor<8x16xf32, #[[W]]>
// CHECK: ttig.prefetch %arg0, %arg1 {cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 1, 0>} : tensor<64x32x!tt.ptr<bf16>, #{{blocked[0-9]*}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#warp = #ttig.warp<{sizePerThread = [8, 16], threadsPerWarp = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @prefetch(%arg1: tensor<64x32x!tt.ptr<bf16>, #blocked>, %arg2: tensor<64x32xi1, #blocked>, %arg3: tensor<8x16xf32, #warp>) {
    ttig.prefetch %arg1, %arg2 {cache = 1 : i32, evict = 1 : i32, isVolatile = false} : tensor<64x32x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}
