// -verify-diagnostics as MLIR: every diagnostic expected at its line (@+N, @-N, @above,
// @below), with -split-input-file; the chunks without errors are printed; our remarks
// are diagnostics too. The negative cases (Inputs/) must fail, saying what is missing.
// RUN: xpu-opt %s -split-input-file -verify-diagnostics -tritonintelgpu-materialize-block-pointer | FileCheck %s
// RUN: not xpu-opt %S/Inputs/verify-diagnostics-missing.mlir -split-input-file -verify-diagnostics 2>&1 | FileCheck %S/Inputs/verify-diagnostics-missing.mlir --check-prefix=MISSING
// RUN: not xpu-opt %S/Inputs/verify-diagnostics-unexpected.mlir -split-input-file -verify-diagnostics -tritonintelgpu-materialize-block-pointer 2>&1 | FileCheck %S/Inputs/verify-diagnostics-unexpected.mlir --check-prefix=UNEXPECTED
// Without -verify-diagnostics the annotations are comments: the errors are reported, exit 1.
// RUN: not xpu-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=PLAIN

// CHECK-LABEL: tt.func public @transposed
// CHECK: triton_intel_gpu.block_io = "column_major"
// CHECK: // -----
// CHECK-LABEL: tt.func @fine
// PLAIN: verify-diagnostics.mlir:19:21: error: use of undefined value '%nope'

module {
  tt.func @undefined() {
    // expected-error@+1 {{use of undefined value '%nope'}}
    %x = arith.addi %nope, %nope : i32
    tt.return
  }
}

// -----

module {
  tt.func @mismatch(%a: i32, %b: i64) {
    %x = arith.addi %a, %b : i32
    // expected-error@-1 {{expects different type than prior uses: 'i32' vs 'i64'}}
    // expected-note@-3 {{prior use here}}
    tt.return
  }
}

// -----

module {
  tt.func @unknown_op() {
    tt.frobnicate
    // expected-error@above {{custom op 'tt.frobnicate' is unknown}}
    tt.return
  }
}

// -----

#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @transposed(%b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pb = tt.make_tensor_ptr %b, [%n, %n], [%c1, %ld], [%c0, %c0] {order = array<i32: 0, 1>} : <tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    %lb = tt.load %pb : !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    %pa = tt.make_tensor_ptr %b, [%n, %n], [%c1, %ld], [%c0, %c0] {order = array<i32: 0, 1>} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    // expected-remark@below {{not a 2D block read: A operand of a dot stored column major}}
    %la = tt.load %pa : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    tt.return
  }
}

// -----

module {
  tt.func @fine() {
    tt.return
  }
}
