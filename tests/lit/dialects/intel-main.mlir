// RUN: xpu-opt %s --split-input-file -spelling=new | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s --split-input-file -spelling=new | xpu-opt --split-input-file -spelling=new | FileCheck %s --match-full-lines --strict-whitespace
// Intel XPU Triton main (2026) syntax that triton-xpu 3.3 does not know, so it is
// checked by exact round trip against the text form Intel's lit files show: every
// CHECK is a whole printed line.

// CHECK-LABEL:  tt.func public @descriptors(%arg0: !tt.ptr<f16>, %arg1: i32, %arg2: i64, %arg3: tensor<32xi32>, %arg4: tensor<1x32xf16>, %arg5: tensor<1x1xf16>) {
// CHECK-NEXT:    %0 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <1x32xf16>
// CHECK-NEXT:    %1 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] {padding = 2 : i32} : <f16>, <1x32xf16, #shared>
// CHECK-NEXT:    %2 = tt.descriptor_load %0[%arg1, %arg1] : !tt.tensordesc<1x32xf16> -> tensor<1x32xf16>
// CHECK-NEXT:    %3 = tt.descriptor_load %0[%arg1, %arg1] cacheModifier = cg evictionPolicy = evict_last {ttig.block_io = "row_major"} : !tt.tensordesc<1x32xf16> -> tensor<1x32xf16>
// CHECK-NEXT:    tt.descriptor_store %0[%arg1, %arg1], %arg4 : !tt.tensordesc<1x32xf16>, tensor<1x32xf16>
// CHECK-NEXT:    tt.descriptor_reduce add, %0[%arg1, %arg1], %arg4 : !tt.tensordesc<1x32xf16>, tensor<1x32xf16>
// CHECK-NEXT:    %4 = tt.descriptor_gather %0[%arg3, %arg1] : (!tt.tensordesc<1x32xf16>, tensor<32xi32>, i32) -> tensor<32x32xf16>
// CHECK-NEXT:    tt.descriptor_scatter %0[%arg3, %arg1], %4 : !tt.tensordesc<1x32xf16>, tensor<32xi32>, i32, tensor<32x32xf16>
// CHECK-NEXT:    ttig.descriptor_prefetch %0[%arg1, %arg1] : !tt.tensordesc<1x32xf16>
// CHECK-NEXT:    ttig.descriptor_prefetch %0[%arg1, %arg1] cacheModifier = ca : !tt.tensordesc<1x32xf16>
// CHECK-NEXT:    %5 = ttig.extract_desc %0[0] : <1x32xf16> -> i64
// CHECK-NEXT:    %6 = ttig.extract_desc %0[4] : <1x32xf16> -> !tt.ptr<f16>
// CHECK-NEXT:    %7 = ttig.descriptor_gather %0[%arg3, %arg1] : (!tt.tensordesc<1x32xf16>, tensor<32xi32>, i32) -> tensor<32x32xf16>
// CHECK-NEXT:    ttig.descriptor_scatter %0[%arg3, %arg1], %7 : !tt.tensordesc<1x32xf16>, tensor<32xi32>, i32, tensor<32x32xf16>
// CHECK-NEXT:    %8 = tt.unsplat %arg5 : tensor<1x1xf16>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @descriptors(%arg0: !tt.ptr<f16>, %arg1: i32, %arg2: i64, %arg3: tensor<32xi32>, %arg4: tensor<1x32xf16>, %arg5: tensor<1x1xf16>) {
    %0 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <1x32xf16>
    %1 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] {padding = 2 : i32} : <f16>, <1x32xf16, #shared>
    %2 = tt.descriptor_load %0[%arg1, %arg1] cacheModifier = none evictionPolicy = evict_normal : !tt.tensordesc<1x32xf16> -> tensor<1x32xf16>
    %3 = tt.descriptor_load %0[%arg1, %arg1] evictionPolicy = evict_last cacheModifier = cg {ttig.block_io = "row_major"} : !tt.tensordesc<1x32xf16> -> tensor<1x32xf16>
    tt.descriptor_store %0[%arg1, %arg1], %arg4 : !tt.tensordesc<1x32xf16>, tensor<1x32xf16>
    tt.descriptor_reduce add, %0[%arg1, %arg1], %arg4 : !tt.tensordesc<1x32xf16>, tensor<1x32xf16>
    %4 = tt.descriptor_gather %0[%arg3, %arg1] : (!tt.tensordesc<1x32xf16>, tensor<32xi32>, i32) -> tensor<32x32xf16>
    tt.descriptor_scatter %0[%arg3, %arg1], %4 : !tt.tensordesc<1x32xf16>, tensor<32xi32>, i32, tensor<32x32xf16>
    ttig.descriptor_prefetch %0[%arg1, %arg1] cacheModifier = none evictionPolicy = evict_normal : !tt.tensordesc<1x32xf16>
    ttig.descriptor_prefetch %0[%arg1, %arg1] cacheModifier = ca : !tt.tensordesc<1x32xf16>
    %5 = ttig.extract_desc %0[0] : <1x32xf16> -> i64
    %6 = ttig.extract_desc %0[4] : <1x32xf16> -> !tt.ptr<f16>
    %7 = ttig.descriptor_gather %0[%arg3, %arg1] : (!tt.tensordesc<1x32xf16>, tensor<32xi32>, i32) -> tensor<32x32xf16>
    ttig.descriptor_scatter %0[%arg3, %arg1], %7 : !tt.tensordesc<1x32xf16>, tensor<32xi32>, i32, tensor<32x32xf16>
    %8 = tt.unsplat %arg5 : tensor<1x1xf16>
    tt.return
  }
}

// -----

// CHECK:    %0 = ttig.2d_block_load %arg0, %arg1, %arg2, %arg3[%arg4, %arg5] {row_major} : !tt.ptr<f16> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT:    %1 = ttig.2d_block_load %arg0, %arg1, %arg2, %arg3[%arg4, %arg5] {column_major, pad_nan} : !tt.ptr<f16> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT:    %2 = ttig.2d_block_load_from_ptr %arg6, %arg3 {row_major} {base_height = 8 : i32, base_width = 64 : i32} : (tensor<64x32x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, i32) -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT:    %3 = ttig.2d_block_load_from_ptr %arg6, %arg3, %arg7, %0 {row_major} {base_height = 8 : i32, base_width = 64 : i32} : (tensor<64x32x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, i32, tensor<64x32xi1, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT:    %4 = ttig.sub_group_transpose %arg8, %arg9 : tensor<16x16xf16>
// CHECK-NEXT:    %5 = ttig.alloc : <f32, 3>
#dpas = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#dot0 = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 16 : i32, ttig.support_2d_block_io} {
  tt.func @loads(%arg0: !tt.ptr<f16>, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: tensor<64x32x!tt.ptr<f16>, #dot0>, %arg7: tensor<64x32xi1, #dot0>, %arg8: !tt.ptr<f16, 3>, %arg9: tensor<16x16xf16>) {
    %0 = ttig.2d_block_load %arg0, %arg1, %arg2, %arg3[%arg4, %arg5] {row_major} : !tt.ptr<f16> -> tensor<64x32xf16, #dot0>
    %1 = ttig.2d_block_load %arg0, %arg1, %arg2, %arg3[%arg4, %arg5] {column_major, pad_nan} : !tt.ptr<f16> -> tensor<64x32xf16, #dot0>
    %2 = ttig.2d_block_load_from_ptr %arg6, %arg3 {row_major} {base_width = 64 : i32, base_height = 8 : i32} : (tensor<64x32x!tt.ptr<f16>, #dot0>, i32) -> (tensor<64x32xf16, #dot0>)
    %3 = ttig.2d_block_load_from_ptr %arg6, %arg3, %arg7, %0 {row_major} {base_width = 64 : i32, base_height = 8 : i32} : (tensor<64x32x!tt.ptr<f16>, #dot0>, i32, tensor<64x32xi1, #dot0>, tensor<64x32xf16, #dot0>) -> (tensor<64x32xf16, #dot0>)
    %4 = ttig.sub_group_transpose %arg8, %arg9 : tensor<16x16xf16>
    %5 = ttig.alloc : <f32, 3>
    tt.return
  }
}

// -----

// CHECK:    ttg.barrier local
// CHECK-NEXT:    ttg.barrier global_read|global_write
// CHECK-NEXT:    ttg.barrier all
// CHECK-NEXT:    %0 = ttg.warp_id
// CHECK-NEXT:    %1 = ttg.local_alloc{{ +}}: () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK-NEXT:    %2 = ttg.memdesc_index %1[%arg0] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
// CHECK-NEXT:    %3 = ttg.memdesc_subslice %2[0, 16] : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 32x32>
// CHECK-NEXT:    %4 = ttg.memdesc_reshape %2 : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<1024xf16, #shared1, #smem, mutable>
// CHECK-NEXT:    %5 = ttg.local_gather %2[%arg1] {axis = 0 : i32} : !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf16, #blocked>
// CHECK-NEXT:    %6 = tt.atomic_poll acquire, cta, %arg2, %arg0 : !tt.ptr<i32>, i32 -> i1
// CHECK-NEXT:    %7 = ttg.async_commit_group tokens %arg3
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @memory(%arg0: i32, %arg1: tensor<32x32xi32, #blocked>, %arg2: !tt.ptr<i32>, %arg3: !ttg.async.token) {
    ttg.barrier local
    ttg.barrier global_read|global_write
    ttg.barrier local|global_read|global_write|tensor_read|tensor_write
    %0 = ttg.warp_id
    %1 = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    %2 = ttg.memdesc_index %1[%arg0] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %3 = ttg.memdesc_subslice %2 [0, 16] : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 32x32>
    %4 = ttg.memdesc_reshape %2 : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<1024xf16, #shared1, #smem, mutable>
    %5 = ttg.local_gather %2[%arg1] {axis = 0 : i32} : !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf16, #blocked>
    %6 = tt.atomic_poll acquire, cta, %arg2, %arg0 : !tt.ptr<i32>, i32 -> i1
    %7 = ttg.async_commit_group tokens %arg3
    tt.return
  }
}

// -----

// 3.3's ttig.upcast_mxfp (its verifier wants DPAS operand layouts, which this
// reader does not check), by exact round trip.
// CHECK:    %0 = ttig.upcast_mxfp %arg0, %arg1 fp_type = e2m1 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> -> tensor<128x64xbf16>
module {
  tt.func @upcast(%arg0: tensor<128x32xi8>, %arg1: tensor<128x2xi8>) {
    %0 = ttig.upcast_mxfp %arg0, %arg1 fp_type = e2m1 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> -> tensor<128x64xbf16>
    tt.return
  }
}
