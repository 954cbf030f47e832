// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --pass-pipeline 'builtin.module(tritonintelgpu-remove-layout-conversions,tritonintelgpu-reduce-data-duplication)' | FileCheck %s --check-prefix=RDD %}

// A GEMM whose loop-carried pointers are loaded after the loop for a second dot
// with another DPAS layout (gemm_tail): the pointers come out of the loop in the
// first dot's operand layout. Recomputing the tail load in the second dot's
// operand layout would convert the POINTERS between the two dot-operand layouts;
// triton-xpu's ReduceDataDuplication sizes that conversion's SLM by the element
// bit width and aborts on pointers. The loaded values are converted instead.
// (%p stands for the loop's result, in the loop's dot-operand layout.)
// CHECK-LABEL: tt.func public @pointers_used_after_loop
// CHECK-NOT: tensor<64x32x!tt.ptr<bf16>, #ttg.dot_op<{opIdx = 0, parent = #mma1
// CHECK: %[[Q:.*]] = ttg.convert_layout %arg0 : tensor<64x32x!tt.ptr<bf16>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x32x!tt.ptr<bf16>, #blocked>
// CHECK: %[[T:.*]] = tt.load %[[Q]], %{{.*}}, %{{.*}} {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<bf16>, #blocked>
// CHECK: ttg.convert_layout %[[T]] : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward: a tensor of pointers would be converted to a dot-operand layout
// RDD-LABEL: tt.func public @pointers_used_after_loop
// RDD: ttg.local_load %{{.*}} : !ttg.memdesc<64x32xbf16, #shared, #smem> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
#mma1 = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @pointers_used_after_loop(%p: tensor<64x32x!tt.ptr<bf16>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b1: tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>>, %acc: tensor<64x128xf32, #mma1>, %mask: tensor<64x32xi1, #blocked>) -> tensor<64x128xf32, #mma1> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xbf16, #blocked>
    %q = ttg.convert_layout %p : tensor<64x32x!tt.ptr<bf16>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x32x!tt.ptr<bf16>, #blocked>
    %t = tt.load %q, %mask, %zero {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<bf16>, #blocked>
    %ta = ttg.convert_layout %t : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
    %e = tt.dot %ta, %b1, %acc, inputPrecision = tf32 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>> * tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>> -> tensor<64x128xf32, #mma1>
    tt.return %e : tensor<64x128xf32, #mma1>
  }
}

// -----

// The same with integer offsets in the first dot's operand layout: converting
// them to the second one is fine (they have a bit width), so the pointers are
// recomputed and the load moves into the dot-operand layout.
// CHECK-LABEL: tt.func public @offsets_used_after_loop
// CHECK: %[[O:.*]] = ttg.convert_layout %arg1 : tensor<64x32xi32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x32xi32, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
// CHECK: %[[S:.*]] = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<64x32x!tt.ptr<bf16>, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
// CHECK: %[[Q:.*]] = tt.addptr %[[S]], %[[O]]
// CHECK: %[[T:.*]] = tt.load %[[Q]], %{{.*}}, %{{.*}} {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<bf16>, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
// CHECK: tt.dot %[[T]]
// RDD-LABEL: tt.func public @offsets_used_after_loop
// RDD: ttg.local_load %{{.*}} -> tensor<64x32xi32, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
#mma1 = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @offsets_used_after_loop(%a: !tt.ptr<bf16>, %off: tensor<64x32xi32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b1: tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>>, %acc: tensor<64x128xf32, #mma1>, %mask: tensor<64x32xi1, #blocked>) -> tensor<64x128xf32, #mma1> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xbf16, #blocked>
    %o = ttg.convert_layout %off : tensor<64x32xi32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x32xi32, #blocked>
    %s = tt.splat %a : !tt.ptr<bf16> -> tensor<64x32x!tt.ptr<bf16>, #blocked>
    %q = tt.addptr %s, %o : tensor<64x32x!tt.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %t = tt.load %q, %mask, %zero {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<bf16>, #blocked>
    %ta = ttg.convert_layout %t : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>>
    %e = tt.dot %ta, %b1, %acc, inputPrecision = tf32 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 1}>> * tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>> -> tensor<64x128xf32, #mma1>
    tt.return %e : tensor<64x128xf32, #mma1>
  }
}
