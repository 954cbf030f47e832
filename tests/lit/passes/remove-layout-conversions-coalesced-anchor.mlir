// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// A masked row-wise reduction (x[rows, cols] * x, summed along the row, cols < n): coalesce put
// the 16x512 load in #co ([1, 4] per thread, warps [2, 4]); its pointers and mask come in the
// default #def ([1, 1], warps [1, 8]) and its value goes back to #def. The mask limits both layouts
// to one element per message: the same messages, so the load keeps coalesce's layout (triton's
// anchor). Recomputing it in #def would remove the same conversion (what the walk did first, and
// then the row reduction spanned 8 warps instead of 4).
// CHECK: #[[CO:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
// CHECK-LABEL: tt.func public @row_sumsq_masked(
// CHECK: tt.load %{{.*}} : tensor<16x512x!tt.ptr<f32>, #[[CO]]>
// CHECK-NOT: tt.load
// CHECK: tt.return
// REMARK-NOT: input kept
#def = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
#co = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_sumsq_masked(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #def}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #def}>> -> tensor<16x1xi32, #def>
    %s = tt.splat %stride : i32 -> tensor<16x1xi32, #def>
    %ro = arith.muli %r2, %s : tensor<16x1xi32, #def>
    %c = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #def}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #def}>> -> tensor<1x512xi32, #def>
    %nn = tt.splat %n : i32 -> tensor<1x512xi32, #def>
    %m1 = arith.cmpi slt, %c2, %nn : tensor<1x512xi32, #def>
    %m = tt.broadcast %m1 : tensor<1x512xi1, #def> -> tensor<16x512xi1, #def>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>, #def>
    %rp = tt.addptr %base, %ro : tensor<16x1x!tt.ptr<f32>, #def>, tensor<16x1xi32, #def>
    %bp = tt.broadcast %rp : tensor<16x1x!tt.ptr<f32>, #def> -> tensor<16x512x!tt.ptr<f32>, #def>
    %cb = tt.broadcast %c2 : tensor<1x512xi32, #def> -> tensor<16x512xi32, #def>
    %p = tt.addptr %bp, %cb : tensor<16x512x!tt.ptr<f32>, #def>, tensor<16x512xi32, #def>
    %pc = ttg.convert_layout %p : tensor<16x512x!tt.ptr<f32>, #def> -> tensor<16x512x!tt.ptr<f32>, #co>
    %mc = ttg.convert_layout %m : tensor<16x512xi1, #def> -> tensor<16x512xi1, #co>
    %v = tt.load %pc, %mc : tensor<16x512x!tt.ptr<f32>, #co>
    %vd = ttg.convert_layout %v : tensor<16x512xf32, #co> -> tensor<16x512xf32, #def>
    %sq = arith.mulf %vd, %vd : tensor<16x512xf32, #def>
    %sum = "tt.reduce"(%sq) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x512xf32, #def>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #def}>>
    %o = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #def}>>
    %op = tt.addptr %o, %r : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #def}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #def}>>
    tt.store %op, %sum : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #def}>>
    tt.return
  }
}

// -----

// The same reduction unmasked, its load in #def and its value converted to #co: #co reads four
// elements per message where #def reads one (strictly fewer messages), so the load moves to #co.
// CHECK: #[[CO2:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
// CHECK-LABEL: tt.func public @row_sumsq_unmasked
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<16x512xf32
// CHECK: tt.load %{{.*}} : tensor<16x512x!tt.ptr<f32>, #[[CO2]]>
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<16x512xf32
// CHECK: "tt.reduce"
// CHECK: (tensor<16x512xf32, #[[CO2]]>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[CO2]]}>>
#def = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
#co = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_sumsq_unmasked(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #def}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #def}>> -> tensor<16x1xi32, #def>
    %s = tt.splat %stride : i32 -> tensor<16x1xi32, #def>
    %ro = arith.muli %r2, %s : tensor<16x1xi32, #def>
    %c = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #def}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #def}>> -> tensor<1x512xi32, #def>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>, #def>
    %rp = tt.addptr %base, %ro : tensor<16x1x!tt.ptr<f32>, #def>, tensor<16x1xi32, #def>
    %bp = tt.broadcast %rp : tensor<16x1x!tt.ptr<f32>, #def> -> tensor<16x512x!tt.ptr<f32>, #def>
    %cb = tt.broadcast %c2 : tensor<1x512xi32, #def> -> tensor<16x512xi32, #def>
    %p = tt.addptr %bp, %cb : tensor<16x512x!tt.ptr<f32>, #def>, tensor<16x512xi32, #def>
    %v = tt.load %p : tensor<16x512x!tt.ptr<f32>, #def>
    %vc = ttg.convert_layout %v : tensor<16x512xf32, #def> -> tensor<16x512xf32, #co>
    %sq = arith.mulf %vc, %vc : tensor<16x512xf32, #co>
    %sum = "tt.reduce"(%sq) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x512xf32, #co>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #co}>>
    %rs = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #co}>>
    %o = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #co}>>
    %op = tt.addptr %o, %rs : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #co}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #co}>>
    tt.store %op, %sum : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #co}>>
    tt.return
  }
}

// -----

// The masked load in #def, its value converted to #co: the same messages either way, so the load
// keeps its layout (a tie is no reason to move an anchor) and the conversion is moved past it.
// CHECK: #[[DEF:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
// CHECK-LABEL: tt.func public @row_sumsq_masked_default
// CHECK: tt.load %{{.*}} : tensor<16x512x!tt.ptr<f32>, #[[DEF]]>
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<16x512xf32
// CHECK: (tensor<16x512xf32, #[[DEF]]>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[DEF]]}>>
#def = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
#co = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_sumsq_masked_default(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #def}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #def}>> -> tensor<16x1xi32, #def>
    %s = tt.splat %stride : i32 -> tensor<16x1xi32, #def>
    %ro = arith.muli %r2, %s : tensor<16x1xi32, #def>
    %c = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #def}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #def}>> -> tensor<1x512xi32, #def>
    %nn = tt.splat %n : i32 -> tensor<1x512xi32, #def>
    %m1 = arith.cmpi slt, %c2, %nn : tensor<1x512xi32, #def>
    %m = tt.broadcast %m1 : tensor<1x512xi1, #def> -> tensor<16x512xi1, #def>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>, #def>
    %rp = tt.addptr %base, %ro : tensor<16x1x!tt.ptr<f32>, #def>, tensor<16x1xi32, #def>
    %bp = tt.broadcast %rp : tensor<16x1x!tt.ptr<f32>, #def> -> tensor<16x512x!tt.ptr<f32>, #def>
    %cb = tt.broadcast %c2 : tensor<1x512xi32, #def> -> tensor<16x512xi32, #def>
    %p = tt.addptr %bp, %cb : tensor<16x512x!tt.ptr<f32>, #def>, tensor<16x512xi32, #def>
    %v = tt.load %p, %m : tensor<16x512x!tt.ptr<f32>, #def>
    %vc = ttg.convert_layout %v : tensor<16x512xf32, #def> -> tensor<16x512xf32, #co>
    %sq = arith.mulf %vc, %vc : tensor<16x512xf32, #co>
    %sum = "tt.reduce"(%sq) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x512xf32, #co>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #co}>>
    %rs = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #co}>>
    %o = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #co}>>
    %op = tt.addptr %o, %rs : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #co}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #co}>>
    tt.store %op, %sum : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #co}>>
    tt.return
  }
}
