// RUN: not xpu-opt %s --split-input-file 2>&1 >/dev/null | FileCheck %s
// Each chunk is wrong in one way; each gets one located error and exit code 1,
// never a traceback. Lines and columns are those of this file.

// CHECK: malformed.mlir:23:5: error: custom op 'tt.frobnicate' is unknown
// CHECK: malformed.mlir:32:21: error: use of undefined value '%missing'
// CHECK: malformed.mlir:41:28: error: expected program dimension (x, y, z)
// CHECK: malformed.mlir:49:143: error: unknown key 'bogus' in ttg.blocked (expected one of sizePerThread, threadsPerWarp, warpsPerCTA, order, CTAsPerCGA, CTASplitNum, CTAOrder)
// CHECK: malformed.mlir:57:101: error: ttg.blocked is missing 'threadsPerWarp', 'warpsPerCTA'
// CHECK: malformed.mlir:65:59: error: undefined symbol alias '#blocked9'
// CHECK: malformed.mlir:74:25: error: undefined symbol alias '#loc99'
// CHECK: malformed.mlir:82:5: error: 'tt.splat' op element type must match the operand
// CHECK: malformed.mlir:91:5: error: 'tt.dot' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand
// CHECK: malformed.mlir:100:22: error: use of value '%m' expects different type than prior uses: 'tensor<16xi1>' vs 'tensor<16xi32>'
// CHECK: malformed.mlir:108:61: error: #ttg.blocked: sizePerThread must have rank 2 like order
// CHECK: malformed.mlir:117:37: error: expected cache modifier (none, ca, cg, wb, cs, wt, cv)
// CHECK: malformed.mlir:126:5: error: 'tt.advance' op expected 2 offsets, got 1
// CHECK: malformed.mlir:135:5: error: 'tt.make_range' op range [0, 10) does not fill tensor<16xi32>
// CHECK: malformed.mlir:145:1: error: unexpected end of input (in block definition): an op or region is not closed
// CHECK-NOT: Traceback
module {
  tt.func @unknown_op() {
    tt.frobnicate
    tt.return
  }
}

// -----

module {
  tt.func @undefined_value() {
    %0 = arith.addi %missing, %missing : i32
    tt.return
  }
}

// -----

module {
  tt.func @bad_enum() {
    %0 = tt.get_program_id w : i32
    tt.return
  }
}

// -----

module {
  tt.func @unknown_layout_key(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [1], order = [0], bogus = 3}>>) {
    tt.return
  }
}

// -----

module {
  tt.func @missing_layout_key(%arg0: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], order = [0]}>>) {
    tt.return
  }
}

// -----

module {
  tt.func @undefined_alias(%arg0: tensor<16xf32, #blocked9>) {
    tt.return
  }
}

// -----

module {
  tt.func @undefined_loc() {
    tt.return loc(#loc99)
  }
}

// -----

module {
  tt.func @splat_type(%arg0: i32) {
    %0 = tt.splat %arg0 : i32 -> tensor<4xf32>
    tt.return
  }
}

// -----

module {
  tt.func @dot_shapes(%a: tensor<32x16xf16>, %b: tensor<32x32xf16>, %c: tensor<32x32xf32>) {
    %0 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x16xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    tt.return
  }
}

// -----

module {
  tt.func @mask_type(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi32>) {
    %0 = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

module {
  tt.func @layout_rank(%arg0: tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 1], order = [1, 0]}>>) {
    tt.return
  }
}

// -----

module {
  tt.func @cache_keyword(%p: !tt.ptr<f32>) {
    %0 = tt.load %p cacheModifier = fast : !tt.ptr<f32>
    tt.return
  }
}

// -----

module {
  tt.func @advance_rank(%p: !tt.ptr<tensor<16x16xf32>>, %o: i32) {
    %0 = tt.advance %p, [%o] : <tensor<16x16xf32>>
    tt.return
  }
}

// -----

module {
  tt.func @make_range(%p: i32) {
    %0 = tt.make_range {end = 10 : i32, start = 0 : i32} : tensor<16xi32>
    tt.return
  }
}

// -----

module {
  tt.func @truncated() {
    tt.return
