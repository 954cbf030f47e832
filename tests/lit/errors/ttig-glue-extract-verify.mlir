// RUN: xpu-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// Intel's GlueOp/ExtractOp verifiers, reported in the input's spelling as triton does.

// CHECK-LABEL: tt.func @glue_ok
// CHECK: triton_intel_gpu.glue %arg0, %arg1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
// CHECK: triton_intel_gpu.extract %{{.*}}[1] : tensor<8x32xf32> -> tensor<8x16xf32>
tt.func @glue_ok(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) {
  %g = triton_intel_gpu.glue %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  %e = triton_intel_gpu.extract %g[1] : tensor<8x32xf32> -> tensor<8x16xf32>
  tt.return
}

// -----

tt.func @glue_mixed(%a: tensor<8x16xf32>, %b: tensor<8x16xf16>) {
  // expected-error@+1 {{'triton_intel_gpu.glue' op operands must have the same type}}
  %g = triton_intel_gpu.glue %a, %b : (tensor<8x16xf32>, tensor<8x16xf16>) -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @glue_too_big(%a: tensor<8x64xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.glue' op operands cannot exceed result size along any dimension}}
  %g = triton_intel_gpu.glue %a : (tensor<8x64xf32>) -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @glue_ragged(%a: tensor<8x12xf32>, %b: tensor<8x12xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.glue' op operands cannot be glued along axis 1}}
  %g = triton_intel_gpu.glue %a, %b : (tensor<8x12xf32>, tensor<8x12xf32>) -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @glue_gap(%a: tensor<8x16xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.glue' op glued operands do not exactly cover the result shape}}
  %g = triton_intel_gpu.glue %a : (tensor<8x16xf32>) -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @extract_elem(%a: tensor<8x32xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.extract' op operand and result element type must match}}
  %e = triton_intel_gpu.extract %a[0] : tensor<8x32xf32> -> tensor<8x16xf16>
  tt.return
}

// -----

tt.func @extract_rank(%a: tensor<32xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.extract' op result rank cannot be greater than operand rank}}
  %e = triton_intel_gpu.extract %a[0] : tensor<32xf32> -> tensor<2x16xf32>
  tt.return
}

// -----

tt.func @extract_small(%a: tensor<8x16xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.extract' op operand shape cannot be smaller than result shape along dimension 1}}
  %e = triton_intel_gpu.extract %a[0] : tensor<8x16xf32> -> tensor<8x32xf32>
  tt.return
}

// -----

tt.func @extract_ragged(%a: tensor<8x32xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.extract' op operands shape is not divisible by result shape along dimension 1}}
  %e = triton_intel_gpu.extract %a[0] : tensor<8x32xf32> -> tensor<8x12xf32>
  tt.return
}

// -----

tt.func @extract_index(%a: tensor<8x32xf32>) {
  // expected-error@+1 {{'triton_intel_gpu.extract' op index must be less than 2}}
  %e = triton_intel_gpu.extract %a[2] : tensor<8x32xf32> -> tensor<8x16xf32>
  tt.return
}
