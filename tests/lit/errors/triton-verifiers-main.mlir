// RUN: xpu-opt %s -split-input-file -verify-diagnostics
// Rules Intel XPU Triton's main branch (2026) adds to ops triton-xpu 3.3 also has, in
// main's words (3.3 accepts these: they are not checked against the oracle).

tt.func @bitcast_width(%x: tensor<16xf32>) {
  // expected-error @+1 {{Cannot bitcast data-type of size 32 to data-type of size 16}}
  %0 = tt.bitcast %x : tensor<16xf32> -> tensor<16xi16>
  tt.return
}

// -----

tt.func @bitcast_ptr(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{Cannot bitcast pointer to non-pointer type}}
  %0 = tt.bitcast %p : !tt.ptr<f32> -> i64
  tt.return
}

// -----

tt.func @cas_cmp(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  %c = arith.constant dense<0> : tensor<16xi32>
  // expected-error @+1 {{'tt.atomic_cas' op failed to verify that ptr type matches cmp type}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (tensor<16x!tt.ptr<f32>>, tensor<16xi32>, tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @unsplat(%x: tensor<4xf32>) {
  // expected-error @+1 {{source tensor must have exactly one element}}
  %0 = tt.unsplat %x : tensor<4xf32>
  tt.return
}

// -----

tt.func @desc_load_elems(%d: !tt.tensordesc<tensor<16x16xf16>>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{descriptor block and tensor must have the same number of elements, but got descriptor block with 256 elements tensor with 128 elements}}
  %0 = tt.descriptor_load %d[%c, %c] : !tt.tensordesc<tensor<16x16xf16>> -> tensor<8x16xf16>
  tt.return
}

// -----

tt.func @desc_gather_cols(%d: !tt.tensordesc<tensor<1x8xf16>>, %x: tensor<16xi32>, %y: i32) {
  // expected-error @+1 {{must have at least 16 columns for f16, but got 8}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x8xf16>>, tensor<16xi32>, i32) -> tensor<16x8xf16>
  tt.return
}
