// RUN: xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttgir | FileCheck %s
// RUN: %if triton %{ %python -m xpu_passes.integration.oracle verify %S/../../../examples/gemm_add_tensor_ptr.ttgir > %t.native %}
// RUN: %if triton %{ xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttgir --mlir-print-debuginfo | %python -m xpu_passes.integration.oracle verify > %t.ours %}
// RUN: %if triton %{ diff %t.native %t.ours %}
// RUN: %if triton %{ FileCheck %s --check-prefix=ORACLE < %t.ours %}
// Real TTGIR printed by triton-xpu 3.3 (GEMM + masked add-matrix, 256x256x32,
// 32 warps, right before its MaterializeBlockPointer): our round trip is
// identical for triton-xpu, locations included.

// CHECK: #[[MMA:mma]] = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
// CHECK: module attributes {triton_intel_gpu.min_sg_size = 16 : i32, {{.*}}triton_intel_gpu.support_sg_2d_block{{.*}}"ttg.num-warps" = 32 : i32
// CHECK: tt.func public @gemm_add_tensor_ptr(
// CHECK: scf.for
// CHECK: ttg.convert_layout %{{.*}} : tensor<256x32xbf16, #{{blocked[0-9]*}}> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>>
// CHECK: tt.dot
// CHECK: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #{{blocked[0-9]*}}>
// CHECK-NEXT: ttg.convert_layout %[[D]] : tensor<256x256xf32, #{{blocked[0-9]*}}> -> tensor<256x256xf32, #[[MMA]]>

// ORACLE: loc("kernels.py":
