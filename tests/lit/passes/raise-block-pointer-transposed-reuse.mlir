// skip-transposed-reuse (ours, on by default): a function where a loaded tile feeds tt.dot both as loaded and
// through tt.trans (attention backward: K^T in `dot(q, k_t)` and `dot(ds, trans(k_t))`) is left alone whole,
// with a remark at each access. Raised, the tile is one 2D block read in one operand layout and a transposed
// copy for the other, and RemoveLayoutConversions spreads the DPAS layout to the loop's other loads: at the ISA
// (IGC, PVC) the corpus's attn_bwd_dkdv went from 24 to 68-72 gathers and attn_bwd_dq (fp16, 64x64, 8 warps)
// from 1,280 to 8,064 spill bytes; raising all but that tile, or all but the others, spilled more.
// Our kernels: a 16x16 f16 loop over K^T tiles; the same tile fed to both dots as loaded, a K tile used only
// transposed (flash attention forward), and a transposed tile added to a dot's result (no operand) are raised.
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true block-io-only=true" --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="dot-only=true block-io-only=true skip-transposed-reuse=false" | FileCheck %s --check-prefix=OFF
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT

// The tile %25 feeds the first dot as loaded and the second through tt.trans: nothing is raised.
// CHECK-LABEL: tt.func public @reused_transposed
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.load %{{.*}} : tensor<16x16x!tt.ptr<f16>>
// CHECK: tt.trans
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f32>>
// REMARK: raise-block-pointer-transposed-reuse.mlir:51:5: remark: [triton-raise-block-pointer] left alone: a tile of this function feeds tt.dot both as loaded and through tt.trans{{.*}}(skip-transposed-reuse)
// REMARK-NEXT: raise-block-pointer-transposed-reuse.mlir:62:7: remark: [triton-raise-block-pointer] left alone: this tile feeds tt.dot both as loaded and through tt.trans{{.*}}(skip-transposed-reuse)
// REMARK-NEXT: raise-block-pointer-transposed-reuse.mlir:74:5: remark: [triton-raise-block-pointer] left alone: a tile of this function feeds tt.dot both as loaded and through tt.trans{{.*}}(skip-transposed-reuse)
// REMARK-NEXT: raise-block-pointer-transposed-reuse.mlir:102:5: remark: [triton-raise-block-pointer] raised;
// With the option off, the same function is raised (the loop-carried K^T tile too).
// OFF-LABEL: tt.func public @reused_transposed
// OFF: tt.make_tensor_ptr %arg0,
// OFF: tt.make_tensor_ptr %arg1,
// OFF: tt.load %{{.*}} : !tt.ptr<tensor<16x16xf16>>
// OFF: tt.trans
// OFF: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<16x16xf32>>
// The pass's own default (no dot-only/block-io-only) leaves it alone too.
// DEFAULT: raise-block-pointer-transposed-reuse.mlir:62:7: remark: [triton-raise-block-pointer] left alone: this tile feeds tt.dot both as loaded and through tt.trans
// DEFAULT-NEXT: raise-block-pointer-transposed-reuse.mlir:74:5: remark: [triton-raise-block-pointer] left alone: a tile of this function feeds
// DEFAULT-NEXT: raise-block-pointer-transposed-reuse.mlir:102:5: remark: [triton-raise-block-pointer] raised;
module {
  tt.func public @reused_transposed(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %2 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %3 = arith.muli %1, %2 : tensor<16x1xi32>
    %4 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %5 = tt.addptr %4, %3 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %6 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %5 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %8 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<16x16xi32>
    %9 = tt.addptr %7, %8 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %10 = tt.load %9 : tensor<16x16x!tt.ptr<f16>>
    %11 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %12 = arith.muli %6, %11 : tensor<1x16xi32>
    %13 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<1x16x!tt.ptr<f16>>
    %14 = tt.addptr %13, %12 : tensor<1x16x!tt.ptr<f16>>, tensor<1x16xi32>
    %15 = tt.broadcast %14 : tensor<1x16x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %16 = tt.broadcast %1 : tensor<16x1xi32> -> tensor<16x16xi32>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %18 = arith.muli %arg4, %c16_i32 : i32
    %19 = tt.splat %18 : i32 -> tensor<16x16xi32>
    %20:2 = scf.for %arg5 = %c0_i32 to %arg3 step %c16_i32 iter_args(%arg6 = %cst, %arg7 = %17) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>)  : i32 {
      %25 = tt.load %arg7 : tensor<16x16x!tt.ptr<f16>>
      %26 = tt.dot %10, %25, %cst, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      %27 = arith.truncf %26 : tensor<16x16xf32> to tensor<16x16xf16>
      %28 = tt.trans %25 {order = array<i32: 1, 0>} : tensor<16x16xf16> -> tensor<16x16xf16>
      %29 = tt.dot %27, %28, %arg6, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      %30 = tt.addptr %arg7, %19 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      scf.yield %29, %30 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>
    }
    %21 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %22 = tt.addptr %21, %3 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %23 = tt.broadcast %22 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %24 = tt.addptr %23, %8 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %24, %20#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// The tile feeds both dots as loaded (no tt.trans): raised.
// CHECK-LABEL: tt.func public @reused_as_loaded
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16x16xf16>>
// CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<16x16xf32>>
module {
  tt.func public @reused_as_loaded(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %2 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %3 = arith.muli %1, %2 : tensor<16x1xi32>
    %4 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %5 = tt.addptr %4, %3 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %6 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %5 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %8 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<16x16xi32>
    %9 = tt.addptr %7, %8 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %10 = tt.load %9 : tensor<16x16x!tt.ptr<f16>>
    %11 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %12 = arith.muli %6, %11 : tensor<1x16xi32>
    %13 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<1x16x!tt.ptr<f16>>
    %14 = tt.addptr %13, %12 : tensor<1x16x!tt.ptr<f16>>, tensor<1x16xi32>
    %15 = tt.broadcast %14 : tensor<1x16x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %16 = tt.broadcast %1 : tensor<16x1xi32> -> tensor<16x16xi32>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %18 = arith.muli %arg4, %c16_i32 : i32
    %19 = tt.splat %18 : i32 -> tensor<16x16xi32>
    %20:2 = scf.for %arg5 = %c0_i32 to %arg3 step %c16_i32 iter_args(%arg6 = %cst, %arg7 = %17) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>)  : i32 {
      %25 = tt.load %arg7 : tensor<16x16x!tt.ptr<f16>>
      %26 = tt.dot %10, %25, %cst, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      %27 = arith.truncf %26 : tensor<16x16xf32> to tensor<16x16xf16>
      %28 = tt.dot %27, %25, %arg6, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      %29 = tt.addptr %arg7, %19 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      scf.yield %28, %29 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>
    }
    %21 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %22 = tt.addptr %21, %3 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %23 = tt.broadcast %22 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %24 = tt.addptr %23, %8 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %24, %20#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// K used only through tt.trans (flash attention forward's `dot(q, trans(k))`): raised.
// CHECK-LABEL: tt.func public @trans_only
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK: tt.trans
// CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<16x16xf32>>
// REMARK-NOT: skip-transposed-reuse
// REMARK: raise-block-pointer-transposed-reuse.mlir:154:5: remark: [triton-raise-block-pointer] raised;
module {
  tt.func public @trans_only(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %2 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %3 = arith.muli %1, %2 : tensor<16x1xi32>
    %4 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %5 = tt.addptr %4, %3 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %6 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %5 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %8 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<16x16xi32>
    %9 = tt.addptr %7, %8 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %10 = tt.load %9 : tensor<16x16x!tt.ptr<f16>>
    %11 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %12 = tt.addptr %11, %3 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %13 = tt.broadcast %12 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %14 = tt.addptr %13, %8 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %15 = arith.muli %arg4, %c16_i32 : i32
    %16 = tt.splat %15 : i32 -> tensor<16x16xi32>
    %17:2 = scf.for %arg5 = %c0_i32 to %arg3 step %c16_i32 iter_args(%arg6 = %cst, %arg7 = %14) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>)  : i32 {
      %22 = tt.load %arg7 : tensor<16x16x!tt.ptr<f16>>
      %23 = tt.trans %22 {order = array<i32: 1, 0>} : tensor<16x16xf16> -> tensor<16x16xf16>
      %24 = tt.dot %10, %23, %arg6, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      %25 = tt.addptr %arg7, %16 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      scf.yield %24, %25 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>
    }
    %18 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %19 = tt.addptr %18, %3 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %20 = tt.broadcast %19 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %21 = tt.addptr %20, %8 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %21, %17#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// The transposed tile only meets a dot's result (`dot(q, k_t, acc) + trans(k_t)`), no dot operand: raised.
// CHECK-LABEL: tt.func public @trans_not_dot
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK: tt.make_tensor_ptr %arg1,
// CHECK: tt.trans
// CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<16x16xf32>>
// REMARK-NOT: skip-transposed-reuse
// REMARK: remark: [triton-raise-block-pointer] raised;
module {
  tt.func public @trans_not_dot(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %2 = tt.splat %arg4 : i32 -> tensor<16x1xi32>
    %3 = arith.muli %1, %2 : tensor<16x1xi32>
    %4 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %5 = tt.addptr %4, %3 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %6 = tt.expand_dims %0 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %7 = tt.broadcast %5 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %8 = tt.broadcast %6 : tensor<1x16xi32> -> tensor<16x16xi32>
    %9 = tt.addptr %7, %8 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %10 = tt.load %9 : tensor<16x16x!tt.ptr<f16>>
    %11 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %12 = arith.muli %6, %11 : tensor<1x16xi32>
    %13 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<1x16x!tt.ptr<f16>>
    %14 = tt.addptr %13, %12 : tensor<1x16x!tt.ptr<f16>>, tensor<1x16xi32>
    %15 = tt.broadcast %14 : tensor<1x16x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %16 = tt.broadcast %1 : tensor<16x1xi32> -> tensor<16x16xi32>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %18 = arith.muli %arg4, %c16_i32 : i32
    %19 = tt.splat %18 : i32 -> tensor<16x16xi32>
    %20:2 = scf.for %arg5 = %c0_i32 to %arg3 step %c16_i32 iter_args(%arg6 = %cst, %arg7 = %17) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>)  : i32 {
      %25 = tt.load %arg7 : tensor<16x16x!tt.ptr<f16>>
      %26 = tt.dot %10, %25, %arg6, inputPrecision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      %27 = tt.trans %25 {order = array<i32: 1, 0>} : tensor<16x16xf16> -> tensor<16x16xf16>
      %28 = arith.extf %27 : tensor<16x16xf16> to tensor<16x16xf32>
      %29 = arith.addf %26, %28 : tensor<16x16xf32>
      %30 = tt.addptr %arg7, %19 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
      scf.yield %29, %30 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<f16>>
    }
    %21 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %22 = tt.addptr %21, %3 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %23 = tt.broadcast %22 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %24 = tt.addptr %23, %8 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %24, %20#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
