// RUN: xpu-opt %s -split-input-file -verify-diagnostics
// What triton-xpu 3.3's verifiers reject (shared traits, tt/ttg op verifiers, layout
// attributes), rejected here in triton's words at the same line. Written for this project
// from the rules; tests/python/test_triton_verifiers.py also checks every chunk against
// triton-xpu itself.

tt.func @broadcast_rank(%v: tensor<16xi32>) {
  // expected-error @+1 {{rank of source must be same as rank of result}}
  %0 = tt.broadcast %v : tensor<16xi32> -> tensor<16x4xi32>
  tt.return
}

// -----

tt.func @broadcast_dim(%v: tensor<4x8xi32>) {
  // expected-error @+1 {{Different dimensions at index 1 between source and result.  Broadcast requires the source dimension to be 1.}}
  %0 = tt.broadcast %v : tensor<4x8xi32> -> tensor<4x16xi32>
  tt.return
}

// -----

tt.func @broadcast_ok(%v: tensor<1x8xi32>) {
  %0 = tt.broadcast %v : tensor<1x8xi32> -> tensor<4x8xi32>
  tt.return
}

// -----

tt.func @reshape_numel(%v: tensor<8x8xf32>) {
  // expected-error @+1 {{number of src and dst elements of reshape must be the same}}
  %0 = tt.reshape %v : tensor<8x8xf32> -> tensor<128xf32>
  tt.return
}

// -----

// The result layout triton infers from a #ttg.linear operand, compared by the exact linear
// map: a blocked layout placing the elements alike but with replicated registers (4 per
// thread along the 1-wide dim) is not it.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 2], [0, 4], [0, 8]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 1]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_layout(%a: tensor<1x16xf16, #linear>) {
    // expected-error @+1 {{Expected result encoding #ttg.linear<{register = [[2, 0], [4, 0], [8, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [1, 0]], warp = [], block = []}> but was #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>}}
    %0 = tt.reshape %a : tensor<1x16xf16, #linear> -> tensor<16x1xf16, #blocked>
    tt.return
  }
}

// -----

tt.func @join_shape(%a: tensor<8xf16>) {
  // expected-error @+2 {{'tt.join' op inferred type(s) 'tensor<8x2xf16>' are incompatible with return type(s) of operation 'tensor<16xf16>'}}
  // expected-error @+1 {{'tt.join' op failed to infer returned types}}
  %0 = tt.join %a, %a : tensor<8xf16> -> tensor<16xf16>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @join_layout(%a: tensor<64xf32, #b>) {
    // expected-error @+2 {{incompatible with return type(s) of operation}}
    // expected-error @+1 {{failed to infer returned types}}
    %0 = tt.join %a, %a : tensor<64xf32, #b> -> tensor<64x2xf32, #b2>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @join_split_ok(%a: tensor<64xf32, #b>) {
    %0 = tt.join %a, %a : tensor<64xf32, #b> -> tensor<64x2xf32, #b2>
    %1, %2 = tt.split %0 : tensor<64x2xf32, #b2> -> tensor<64xf32, #b>
    tt.return
  }
}

// -----

tt.func @split_last_dim(%a: tensor<8x4xf32>) {
  // expected-error @+2 {{last dimension of input tensor must be 2}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %a : tensor<8x4xf32> -> tensor<8x2xf32>
  tt.return
}

// -----

tt.func @split_scalar(%a: f32) {
  // expected-error @+1 {{invalid kind of type specified}}
  %0, %1 = tt.split %a : f32 -> f32
  tt.return
}

// -----

tt.func @trans_not_permutation(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{order must be a permutation of [0, ..., rank - 1]}}
  %0 = tt.trans %a {order = array<i32: 1, 1>} : tensor<8x16xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @trans_order_rank(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{order must have the same size as the rank of the operand and result}}
  %0 = tt.trans %a {order = array<i32: 1, 0, 2>} : tensor<8x16xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @trans_shape(%a: tensor<8x16xf32>) {
  // expected-error @+1 {{result shape must match the permutation of the source shape}}
  %0 = tt.trans %a {order = array<i32: 1, 0>} : tensor<8x16xf32> -> tensor<8x16xf32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @trans_layout(%a: tensor<16x16xf32, #b>) {
    %ok = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x16xf32, #b> -> tensor<16x16xf32, #t>
    // expected-error @+2 {{are incompatible with return type(s) of operation}}
    // expected-error @+1 {{failed to infer returned types}}
    %0 = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x16xf32, #b> -> tensor<16x16xf32, #b>
    tt.return
  }
}

// -----

tt.func @reduce_types(%v: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op operand types and result types must agree}}
  %0 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%x: f16, %y: f16):
    %s = arith.addf %x, %y : f16
    tt.reduce.return %s : f16
  }) : (tensor<4x8xf32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @reduce_shapes(%v: tensor<4x8xf32>, %w: tensor<8x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op requires the same shape for all operands}}
  %0:2 = "tt.reduce"(%v, %w) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %s = arith.addf %a, %c : f32
    %t = arith.addf %b, %d : f32
    tt.reduce.return %s, %t : f32, f32
  }) : (tensor<4x8xf32>, tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  tt.return
}

// -----

tt.func @reduce_result_shape(%v: tensor<4x8xf32>) {
  // expected-error @+2 {{'tt.reduce' op inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @scan_shape(%v: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.scan' op requires the same shape for all operands and results}}
  %0 = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.scan.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @gather_axis(%s: tensor<16x8xf32>, %i: tensor<4x8xi32>) {
  // expected-error @+1 {{'tt.gather' op gather dimension must be less than the input rank}}
  %0 = tt.gather %s[%i] {axis = 2 : i32} : (tensor<16x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @gather_other_dim(%s: tensor<16x8xf32>, %i: tensor<4x4xi32>) {
  // expected-error @+1 {{'tt.gather' op indices dimension 1 must match the corresponding input dimension}}
  %0 = tt.gather %s[%i] {axis = 0 : i32} : (tensor<16x8xf32>, tensor<4x4xi32>) -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @dot_k(%a: tensor<16x8xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  %0 = tt.dot %a, %b, %c : tensor<16x8xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_bit_width(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{element types of operands A and B must have same bit width}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @dot_operand_index(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>, %c: tensor<16x16xf32, #b>) {
    // expected-error @+2 {{Wrong opIdx}}
    // expected-error @+1 {{failed to infer returned types}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<16x16xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @dot_c_encoding(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>, %c: tensor<16x16xf32>) {
    // expected-error @+1 {{miss encoding of C operand}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<16x16xf32>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @layout_warps(%p: tensor<16x16x!tt.ptr<f32>, #b>) {
    // expected-error @+1 {{Layout has a total of 2 warps per CTA, but the context requires 4 warps per CTA.}}
    %0 = tt.load %p : tensor<16x16x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @layout_threads(%p: tensor<16x16x!tt.ptr<f32>, #b>) {
    // expected-error @+1 {{Layout has a total of 32 threads per warp, but the module specifies 16 threads per warp.}}
    %0 = tt.load %p : tensor<16x16x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @layout_no_num_warps(%p: tensor<16x16x!tt.ptr<f32>, #b>) {
  // expected-error @+1 {{Could not determine the number of warps per CTA. Operation is not in a context with `ttg.num-warps`.}}
  %0 = tt.load %p : tensor<16x16x!tt.ptr<f32>, #b>
  tt.return
}

// -----

#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @shared_on_tensor(%p: tensor<16x16x!tt.ptr<f32>, #s>) {
    // expected-error @+1 {{has an invalid layout: Shared layout is not allowed on tensor type.}}
    %0 = tt.load %p : tensor<16x16x!tt.ptr<f32>, #s>
    tt.return
  }
}

// -----

tt.func @not_power_of_two(%v: i32) {
  // expected-error @+1 {{Number of elements must be power-of-two}}
  %0 = tt.splat %v : i32 -> tensor<12xi32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#c = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @addptr_encoding(%p: tensor<128x!tt.ptr<f32>, #b>, %o: tensor<128xi32, #c>) {
    // expected-error @+1 {{'tt.addptr' op requires the same encoding for all operands}}
    %0 = tt.addptr %p, %o : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #c>
    tt.return
  }
}

// -----

tt.func @desc_load(%d: !tt.tensordesc<tensor<16x16xf32>>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{tensor desciptor block and tensor types must match}}
  %0 = tt.experimental_descriptor_load %d[%c, %c] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @desc_gather_rows(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{result tensor must have as many rows as indices (32), but got 'tensor<16x128xbf16>'}}
  %0 = tt.experimental_descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<16x128xbf16>
  tt.return
}

// -----

#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subview_rank(%m: !ttg.memdesc<2x16x16xf32, #s, #smem>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{offsets must have the same rank as input}}
  %0 = ttg.memdesc_subview %m[%c, %c] : !ttg.memdesc<2x16x16xf32, #s, #smem> -> !ttg.memdesc<16x16xf32, #s, #smem>
  tt.return
}

// -----

#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subview_shape(%m: !ttg.memdesc<2x16x16xf32, #s, #smem>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{result shape cannot be larger than input shape at dimension 1}}
  %0 = ttg.memdesc_subview %m[%c, %c, %c] : !ttg.memdesc<2x16x16xf32, #s, #smem> -> !ttg.memdesc<16x32xf32, #s, #smem>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout}}
#a = #ttg.dot_op<{opIdx = 0, parent = #b, kWidth = 2}>

// -----

// expected-error @+1 {{minor version must be 0}}
#m = #ttg.amd_mfma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = true}>

// -----

// expected-note @+1 {{prior use here}}
tt.func @type_clash(%a: tensor<8xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<16xf32>'}}
  %0 = tt.join %a, %b : tensor<8xf32> -> tensor<8x2xf32>
  tt.return
}

// -----

tt.func @inline_asm_packed(%a: tensor<16xf32>) {
  // expected-error @+1 {{number of input elements 16 must be a multiple of the op's packed_element attribute, 3}}
  %0 = "tt.elementwise_inline_asm"(%a) <{asm_string = "", constraints = "=r,r", packed_element = 3 : i32, pure = true}> : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @bitcast_ptr_ok(%p: !tt.ptr<f32>, %x: tensor<16xf32>) {
  %0 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  %1 = tt.bitcast %x : tensor<16xf32> -> tensor<16xi32>
  tt.return
}
