// RUN: xpu-opt %s --split-input-file | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// MLIR prints `type($x)` of a type the op fixes without its `!dialect.name` prefix, and
// reads it either way: ops sharing `_syntax.parse_stripped` read the full type too (Triton's
// own lit files write `-> !ttg.memdesc<...>`) and print the stripped form.

// CHECK-LABEL: tt.func @copy
// CHECK: ttg.async_copy_global_to_local %arg0, %0 : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: tt.make_tensor_ptr %arg1, [%c64_i64, %c32_i64], [%c32_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
// ORACLE: ttg.async_copy_global_to_local %arg0, %0 : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// ORACLE: tt.make_tensor_ptr %arg1, [%c64_i64, %c32_i64], [%c32_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @copy(%arg0: tensor<64x32x!tt.ptr<f16>, #blocked>, %arg1: !tt.ptr<f16>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %0 = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %1 = ttg.async_copy_global_to_local %arg0, %0 : tensor<64x32x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %2 = tt.make_tensor_ptr %arg1, [%c64_i64, %c32_i64], [%c32_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x32xf16>>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @descriptor
// CHECK: tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <tensor<16x32xf16>>
// ORACLE: tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <tensor<16x32xf16>>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @descriptor(%arg0: !tt.ptr<f16>, %arg1: i32, %arg2: i64) {
    %0 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : !tt.ptr<f16>, !tt.tensordesc<tensor<16x32xf16>>
    tt.return
  }
}
