// Input of verify-diagnostics.mlir: diagnostics nobody expected (an error, a remark of ours).
module {
  tt.func @undefined() {
    %x = arith.addi %nope, %nope : i32
    tt.return
  }
}

// -----

#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @transposed(%b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = tt.make_tensor_ptr %b, [%n, %n], [%c1, %ld], [%c0, %c0] {order = array<i32: 0, 1>} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    // expected-remark@+1 {{not a 2D block read: 8-bit elements}}
    %la = tt.load %pa : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    tt.return
  }
}

// UNEXPECTED: verify-diagnostics-unexpected.mlir:4:21: error: unexpected error: use of undefined value '%nope'
// UNEXPECTED: verify-diagnostics-unexpected.mlir:17:8: error: expected remark "not a 2D block read: 8-bit elements" was not produced
// UNEXPECTED: verify-diagnostics-unexpected.mlir:18:5: error: unexpected remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: A operand of a dot stored column major
