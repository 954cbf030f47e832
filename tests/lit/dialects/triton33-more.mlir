// RUN: xpu-opt %s --split-input-file | FileCheck %s
// RUN: xpu-opt %s --split-input-file | xpu-opt --split-input-file | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// Ops of triton-xpu 3.3 our passes do not rewrite, and other backends' layouts: read,
// printed in 3.3's syntax, and read back by triton-xpu, which prints the same op lines.

// CHECK: %0 = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %1 = ttg.async_copy_global_to_local %arg0, %0 : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %2 = ttg.async_copy_global_to_local %arg0, %0 mask %arg1 other %arg2 cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %3 = ttg.async_commit_group %1
// CHECK: %4 = ttg.async_wait %3 {num = 0 : i32}
// CHECK: %5 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK: ttg.local_dealloc %0 : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<16x8xi8, #blocked> -> tensor<16x16xbf16, #blocked>
// CHECK: %0 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <tensor<1x32xf16>>
// CHECK: %1 = tt.experimental_descriptor_load %0[%arg1, %arg1] : !tt.tensordesc<tensor<1x32xf16>> -> tensor<1x32xf16>
// CHECK: %2 = tt.experimental_descriptor_load %0[%arg1, %arg1] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<1x32xf16>> -> tensor<1x32xf16>
// CHECK: tt.experimental_descriptor_store %0[%arg1, %arg1], %1 : !tt.tensordesc<tensor<1x32xf16>>, tensor<1x32xf16>
// CHECK: %3 = tt.experimental_descriptor_gather %0[%arg3, %arg1] : (!tt.tensordesc<tensor<1x32xf16>>, tensor<32xi32>, i32) -> tensor<32x32xf16>
// CHECK: tt.experimental_descriptor_scatter %0[%arg3, %arg1], %3 : !tt.tensordesc<tensor<1x32xf16>>, tensor<32xi32>, i32, tensor<32x32xf16>
// CHECK: %4 = tt.reinterpret_tensor_descriptor %arg0 : !tt.ptr<f16> to !tt.tensordesc<tensor<1x32xf16>>
// ORACLE: %0 = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// ORACLE: %1 = ttg.async_copy_global_to_local %arg0, %0 : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// ORACLE: %2 = ttg.async_copy_global_to_local %arg0, %0 mask %arg1 other %arg2 cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// ORACLE: %3 = ttg.async_commit_group %1
// ORACLE: %4 = ttg.async_wait %3 {num = 0 : i32}
// ORACLE: %5 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// ORACLE: ttg.local_dealloc %0 : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// ORACLE: %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<16x8xi8, #blocked> -> tensor<16x16xbf16, #blocked>
// ORACLE: %0 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <tensor<1x32xf16>>
// ORACLE: %1 = tt.experimental_descriptor_load %0[%arg1, %arg1] : !tt.tensordesc<tensor<1x32xf16>> -> tensor<1x32xf16>
// ORACLE: %2 = tt.experimental_descriptor_load %0[%arg1, %arg1] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<1x32xf16>> -> tensor<1x32xf16>
// ORACLE: tt.experimental_descriptor_store %0[%arg1, %arg1], %1 : !tt.tensordesc<tensor<1x32xf16>>, tensor<1x32xf16>
// ORACLE: %3 = tt.experimental_descriptor_gather %0[%arg3, %arg1] : (!tt.tensordesc<tensor<1x32xf16>>, tensor<32xi32>, i32) -> tensor<32x32xf16>
// ORACLE: tt.experimental_descriptor_scatter %0[%arg3, %arg1], %3 : !tt.tensordesc<tensor<1x32xf16>>, tensor<32xi32>, i32, tensor<32x32xf16>
// ORACLE: %4 = tt.reinterpret_tensor_descriptor %arg0 : !tt.ptr<f16> to !tt.tensordesc<tensor<1x32xf16>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @async(%arg0: tensor<64x32x!tt.ptr<f16>, #blocked>, %arg1: tensor<64x32xi1, #blocked>, %arg2: tensor<64x32xf16, #blocked>) {
    %0 = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %1 = ttg.async_copy_global_to_local %arg0, %0 : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %2 = ttg.async_copy_global_to_local %arg0, %0 mask %arg1 other %arg2 cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    %3 = ttg.async_commit_group %1
    %4 = ttg.async_wait %3 {num = 0 : i32}
    %5 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttg.local_dealloc %0 : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    tt.return
  }
  tt.func public @fp4(%arg0: tensor<16x8xi8, #blocked>) -> tensor<16x16xbf16, #blocked> {
    %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<16x8xi8, #blocked> -> tensor<16x16xbf16, #blocked>
    tt.return %0 : tensor<16x16xbf16, #blocked>
  }
  tt.func public @desc(%arg0: !tt.ptr<f16>, %arg1: i32, %arg2: i64, %arg3: tensor<32xi32>) {
    %0 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <tensor<1x32xf16>>
    %1 = tt.experimental_descriptor_load %0[%arg1, %arg1] : !tt.tensordesc<tensor<1x32xf16>> -> tensor<1x32xf16>
    %2 = tt.experimental_descriptor_load %0[%arg1, %arg1] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<1x32xf16>> -> tensor<1x32xf16>
    tt.experimental_descriptor_store %0[%arg1, %arg1], %1 : !tt.tensordesc<tensor<1x32xf16>>, tensor<1x32xf16>
    %3 = tt.experimental_descriptor_gather %0[%arg3, %arg1] : (!tt.tensordesc<tensor<1x32xf16>>, tensor<32xi32>, i32) -> tensor<32x32xf16>
    tt.experimental_descriptor_scatter %0[%arg3, %arg1], %3 : !tt.tensordesc<tensor<1x32xf16>>, tensor<32xi32>, i32, tensor<32x32xf16>
    %4 = tt.reinterpret_tensor_descriptor %arg0 : !tt.ptr<f16> to !tt.tensordesc<tensor<1x32xf16>>
    tt.return
  }
}

// -----

// ORACLE: // -----
// CHECK: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK: #ttg.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = true}>
// CHECK: #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: %0 = triton_intel_gpu.glue %arg0, %arg1 : (tensor<16x8xf16>, tensor<16x8xf16>) -> tensor<32x8xf16>
// CHECK: %1 = triton_intel_gpu.extract %0[1] : tensor<32x8xf16> -> tensor<16x8xf16>
// CHECK: %2 = triton_intel_gpu.broadcast %arg0 : tensor<16x8xf16> -> tensor<16x16xf16>
// CHECK: %3 = triton_intel_gpu.sub_group_transpose %arg2, %2 : tensor<16x16xf16>
// CHECK: %4 = triton_intel_gpu.alloc : <f32, 3>
// CHECK: %0 = ttg.convert_layout %arg0 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked>
// CHECK: %1 = ttg.local_alloc %arg2 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
// ORACLE: %0 = triton_intel_gpu.glue %arg0, %arg1 : (tensor<16x8xf16>, tensor<16x8xf16>) -> tensor<32x8xf16>
// ORACLE: %1 = triton_intel_gpu.extract %0[1] : tensor<32x8xf16> -> tensor<16x8xf16>
// ORACLE: %2 = triton_intel_gpu.broadcast %arg0 : tensor<16x8xf16> -> tensor<16x16xf16>
// ORACLE: %3 = triton_intel_gpu.sub_group_transpose %arg2, %2 : tensor<16x16xf16>
// ORACLE: %4 = triton_intel_gpu.alloc : <f32, 3>
// ORACLE: %0 = ttg.convert_layout %arg0 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked>
// ORACLE: %1 = ttg.local_alloc %arg2 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mfma = #ttg.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = true}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @glue(%arg0: tensor<16x8xf16>, %arg1: tensor<16x8xf16>, %arg2: !tt.ptr<f16, 3>) {
    %0 = triton_intel_gpu.glue %arg0, %arg1 : (tensor<16x8xf16>, tensor<16x8xf16>) -> tensor<32x8xf16>
    %1 = triton_intel_gpu.extract %0[1] : tensor<32x8xf16> -> tensor<16x8xf16>
    %2 = triton_intel_gpu.broadcast %arg0 : tensor<16x8xf16> -> tensor<16x16xf16>
    %3 = triton_intel_gpu.sub_group_transpose %arg2, %2 : tensor<16x16xf16>
    %4 = triton_intel_gpu.alloc : <f32, 3>
    tt.return
  }
  tt.func public @foreign(%arg0: tensor<32x32xf32, #mma>, %arg1: tensor<32x32xf32, #mfma>, %arg2: tensor<32x32xf16, #blocked>) {
    %0 = ttg.convert_layout %arg0 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked>
    %1 = ttg.local_alloc %arg2 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

// CHECK: %0 = tt.dot_scaled %arg0 scale %arg1, %arg2, %arg3 lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xbf16, #blocked2> -> tensor<128x128xf32, #blocked2>
// ORACLE: // -----
// ORACLE: %0 = tt.dot_scaled %arg0 scale %arg1, %arg2, %arg3 lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xbf16, #blocked2> -> tensor<128x128xf32, #blocked2>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @dot_scaled(%arg0: tensor<128x32xi8, #blocked>, %arg1: tensor<128x2xi8, #blocked1>, %arg2: tensor<64x128xbf16, #blocked2>, %arg3: tensor<128x128xf32, #blocked2>) {
    %0 = tt.dot_scaled %arg0 scale %arg1, %arg2, %arg3 lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8, #blocked>, tensor<128x2xi8, #blocked1> * tensor<64x128xbf16, #blocked2> -> tensor<128x128xf32, #blocked2>
    tt.return
  }
}
