// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.dot
// ORACLE: // -----
// ORACLE: tt.dot

// A tf32 dot whose B is an f16 tile extended to f32 (flag_gems' _attn_bwd construct). The pass
// converts the f16 tile (half the bytes) and extends it in the dot's layout; those copies go where
// the extf was, before A's conversion. B, which every warp holds whole, is then live across A's
// conversion (IGC: 64,832 B spilled where the same TTGIR with B after A spills 61,248): B's
// conversion and extf move right before the dot, after A's conversion.
// CHECK-LABEL: tt.func public @b_extf_after_a
// CHECK: %[[A:.*]] = ttg.convert_layout %{{.*}} : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0
// CHECK-NEXT: %[[B:.*]] = ttg.convert_layout %{{.*}} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[B]] : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1
// CHECK-NEXT: tt.dot %[[A]], %[[E]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 1], A = [16, 8], B = [8, 16], C = [16, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @b_extf_after_a(%pb: tensor<32x64x!tt.ptr<f16>, #blocked>, %s: tensor<64x32xf32, #mma>, %acc: tensor<64x64xf32, #mma>, %out: tensor<64x64x!tt.ptr<f32>, #mma>) {
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked>
    %p = arith.mulf %s, %s : tensor<64x32xf32, #mma>
    %bf = arith.extf %b : tensor<32x64xf16, #blocked> to tensor<32x64xf32, #blocked>
    %ca = ttg.convert_layout %p : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %cb = ttg.convert_layout %bf : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
    tt.store %out, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Not moved: two dots read the extended B (its extf has two users; the first dot's B chain
// cannot move after its A without leaving the second dot's operand behind it): B's conversion
// and extf stay before both A conversions.
// CHECK-LABEL: tt.func public @b_extf_two_dots
// CHECK: ttg.convert_layout %{{.*}} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1
// CHECK: arith.extf
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0
// CHECK: tt.dot
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0
// CHECK: tt.dot
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 1], A = [16, 8], B = [8, 16], C = [16, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @b_extf_two_dots(%pb: tensor<32x64x!tt.ptr<f16>, #blocked>, %s: tensor<64x32xf32, #mma>, %acc: tensor<64x64xf32, #mma>, %out: tensor<64x64x!tt.ptr<f32>, #mma>, %out2: tensor<64x64x!tt.ptr<f32>, #mma>) {
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked>
    %p = arith.mulf %s, %s : tensor<64x32xf32, #mma>
    %q = arith.addf %s, %s : tensor<64x32xf32, #mma>
    %bf = arith.extf %b : tensor<32x64xf16, #blocked> to tensor<32x64xf32, #blocked>
    %ca = ttg.convert_layout %p : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %cb = ttg.convert_layout %bf : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
    %cq = ttg.convert_layout %q : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d2 = tt.dot %cq, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
    tt.store %out, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %out2, %d2 : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
