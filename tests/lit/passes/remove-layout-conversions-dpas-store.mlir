// RUN: xpu-opt %s --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify | FileCheck %s --check-prefix=ORACLE %}
// ORACLE: tt.func public @dpas_store_advanced

// An attention epilogue (flag-gems flash_varlen's shape): a DPAS tile truncated to f16 and
// stored with 2D block stores. triton-xpu writes the DPAS tile directly only through a pointer
// straight from tt.make_tensor_ptr; through tt.advance it converts first, and IGC crashed on ours
// writing it directly there (floating point exception). So through tt.advance the conversion stays.
// CHECK-LABEL: tt.func public @dpas_store_advanced
// CHECK: %[[P:.*]] = tt.make_tensor_ptr {{.*}} : <tensor<64x128xf16, #blocked>>
// CHECK: %[[Q:.*]] = tt.advance %[[P]], {{.*}} : <tensor<64x128xf16, #blocked>>
// CHECK: %[[V:.*]] = ttg.convert_layout %{{.*}} : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked>
// CHECK: tt.store %[[Q]], %[[V]] {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x128xf16, #blocked>>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}a 2D block store of a DPAS tile through a moved block pointer
// Straight from tt.make_tensor_ptr the store takes the DPAS layout, as triton-xpu's does.
// CHECK-LABEL: tt.func public @dpas_store_direct
// CHECK: %[[P:.*]] = tt.make_tensor_ptr {{.*}} : <tensor<64x128xf16, #mma>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %[[P]], %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x128xf16, #mma>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @dpas_store_advanced(%o: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32, %rows: i64, %ld: i64, %a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c128 = arith.constant 128 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %d = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x128xf32, #mma>
    %h = arith.truncf %d : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
    %p = tt.make_tensor_ptr %o, [%rows, %c128], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x128xf16, #blocked>>
    %q = tt.advance %p, [%m, %c0] : <tensor<64x128xf16, #blocked>>
    %v = ttg.convert_layout %h : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked>
    tt.store %q, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x128xf16, #blocked>>
    tt.return
  }
  tt.func public @dpas_store_direct(%o: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32, %rows: i64, %ld: i64, %a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c128 = arith.constant 128 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %d = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x128xf32, #mma>
    %h = arith.truncf %d : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
    %p = tt.make_tensor_ptr %o, [%rows, %c128], [%ld, %c1], [%m, %c0] {order = array<i32: 1, 0>} : <tensor<64x128xf16, #blocked>>
    %v = ttg.convert_layout %h : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked>
    tt.store %p, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x128xf16, #blocked>>
    tt.return
  }
}
