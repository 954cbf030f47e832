// REQUIRES: triton
// triton-xpu's native passes by their MLIR names, with options, interleaved with ours;
// consecutive native passes share one triton-xpu pass manager.
// RUN: xpu-opt %s -split-input-file -canonicalize -tritonintelgpu-materialize-block-pointer -cse | FileCheck %s
// RUN: xpu-opt %s -split-input-file -pass-pipeline='builtin.module(canonicalize, tritonintelgpu-materialize-block-pointer, cse)' | FileCheck %s
// RUN: xpu-opt %s -split-input-file -tritonintelgpu-materialize-block-pointer -triton-annotate-module='min-sg-size=16 support-sg-2d-block=true support-dpas=true threads-per-warp=16' | FileCheck %s --check-prefix=ANNOTATE
// RUN: xpu-opt %s -split-input-file -native-tritonintelgpu-materialize-block-pointer | FileCheck %s --check-prefix=NATIVE-MBP
// Input in the new Intel spelling (which triton-xpu 3.3 does not read) is printed back in it.
// RUN: sed 's/triton_intel_gpu/ttig/g' %s | xpu-opt -split-input-file -canonicalize -tritonintelgpu-materialize-block-pointer | FileCheck %s --check-prefix=NEW
// RUN: sed 's/triton_intel_gpu/ttig/g' %s | xpu-opt -split-input-file -tritonintelgpu-materialize-block-pointer -canonicalize | FileCheck %s --check-prefix=NEW
// Ops keep the locations MLIR's parser gives them (the op name's line:col) through our passes
// into triton-xpu: each is one a native-only run gives (block arguments' are the printer's).
// RUN: xpu-opt %s -split-input-file -cse -mlir-print-debuginfo | grep -o '^#loc[0-9]* = loc(".*' | sed 's/^#loc[0-9]* = //' | sort > %t.native
// RUN: xpu-opt %s -split-input-file -tritonintelgpu-materialize-block-pointer -cse -mlir-print-debuginfo | grep -o '^#loc[0-9]* = loc(".*' | sed 's/^#loc[0-9]* = //' | sort > %t.mixed
// RUN: comm -13 %t.native %t.mixed > %t.extra
// RUN: not test -s %t.extra
// RUN: FileCheck %s --check-prefix=LOCS < %t.mixed
// A native pass that fails reports triton's diagnostic at the input's line:col.
// RUN: not xpu-opt %s -split-input-file -intel-allocate-shared-memory -convert-triton-intel-gpu-to-llvm 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: xpu-opt --list-passes | FileCheck %s --check-prefix=LIST

// CHECK-LABEL: tt.func @gemm_tile
// CHECK-NOT: arith.addi
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"}
// CHECK: // -----
// CHECK-LABEL: tt.func @no_warps
// ANNOTATE: module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64"
// ANNOTATE: triton_intel_gpu.block_io = "row_major"
// NEW: #mma = #ttig.dpas<
// NEW: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, ttig.block_io = "row_major"}
// LOCS: loc("{{.*}}native-passes.mlir":45:11)
// NATIVE-MBP: triton_intel_gpu.block_io = "row_major"
// FAIL: native-passes.mlir:58:3: error: 'tt.func' op is not contained within a context that specifies the number of warps
// FAIL: error: native pass(es) intel-allocate-shared-memory, convert-triton-intel-gpu-to-llvm crashed (SIGABRT)
// LIST: Our passes:
// LIST: --tritonintelgpu-remove-layout-conversions {{ +}}ours: {max-backward-remat-iterations=4 max-work-per-op=100 never-worse-than-native=false check-incremental=false in-place=true} remove layout conversions
// LIST: Native passes (triton-xpu):
// LIST: --canonicalize {{ +}}native: MLIR canonicalizer
// LIST: --convert-triton-to-tritongpu {{ +}}native: {target= num-warps=4 threads-per-warp=32 num-ctas=1} TTIR to TTGIR
// LIST: --native-tritonintelgpu-materialize-block-pointer {{ +}}native: Intel MaterializeBlockPointer

#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func @gemm_tile(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i64, %lda: i64 {tt.divisibility = 16 : i32}) -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %zero = arith.constant 0 : i64
    %k = arith.addi %m, %zero : i64
    %pa = tt.make_tensor_ptr %a, [%m, %k], [%lda, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %la = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    tt.return %la : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
  }
}

// -----

module {
  tt.func @no_warps(%a: !tt.ptr<f32>) {
    tt.return
  }
}
