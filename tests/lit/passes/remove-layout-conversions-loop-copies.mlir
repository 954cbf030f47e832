// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: sed '/^\/\/ -----/,$d' %s | xpu-opt - --tritonintelgpu-remove-layout-conversions --verify-semantics='arg0=128,arg1=128,arg2=5,func=pair_kernel' 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// A loop carries a value in one layout and converts it, each iteration, for a second carried value
// in another; both leave the loop in the layouts a (noinline) function returns. Retyping the first
// in place leaves its other users a conversion back, and forward propagation moves the conversion
// after the loop; triton's pass instead gives the loop a copy of the carried value in the other
// layout (a new iter_arg, the old one kept for its users). So does ours, when neither rewrite
// removes the conversion and the copy leaves the loop free of conversions.
// (the first module, run by the interpreter before and after the pass on the same inputs:)
// SEM: remark: [verify-semantics] equal on 256 elements
// ORACLE-COUNT-3: scf.for

// CHECK-LABEL: tt.func private @halving_pair(
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[F:.*]]:3 = scf.for {{.*}} -> (tensor<128xf32, #blocked1>, tensor<128xf32, #blocked1>, tensor<128xf32, #blocked>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return %[[F]]#2, %[[F]]#1 : tensor<128xf32, #blocked>, tensor<128xf32, #blocked1>
#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @pair_kernel(%px: !tt.ptr<f32>, %py: !tt.ptr<f32>, %n: i32) {
    %ra = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
    %rb = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %sa = tt.splat %px : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #a>
    %pa = tt.addptr %sa, %ra : tensor<128x!tt.ptr<f32>, #a>, tensor<128xi32, #a>
    %sb = tt.splat %py : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pb = tt.addptr %sb, %rb : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %y = tt.load %pb : tensor<128x!tt.ptr<f32>, #b>
    %r:2 = tt.call @halving_pair(%y, %n) : (tensor<128xf32, #b>, i32) -> (tensor<128xf32, #a>, tensor<128xf32, #b>)
    tt.store %pa, %r#0 : tensor<128x!tt.ptr<f32>, #a>
    tt.store %pb, %r#1 : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
  tt.func private @halving_pair(%y: tensor<128xf32, #b>, %n: i32) -> (tensor<128xf32, #a>, tensor<128xf32, #b>) attributes {noinline = true} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #a>
    %half = arith.constant dense<5.000000e-01> : tensor<128xf32, #a>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %one, %p = %y) -> (tensor<128xf32, #a>, tensor<128xf32, #b>)  : i32 {
      %s2 = arith.mulf %s, %half : tensor<128xf32, #a>
      %sb = ttg.convert_layout %s2 : tensor<128xf32, #a> -> tensor<128xf32, #b>
      %p2 = arith.subf %p, %sb : tensor<128xf32, #b>
      scf.yield %s2, %p2 : tensor<128xf32, #a>, tensor<128xf32, #b>
    }
    tt.return %r#0, %r#1 : tensor<128xf32, #a>, tensor<128xf32, #b>
  }
}

// -----

// The same loop, its first value starting from a function argument: the copy starts from that
// argument converted once, before the loop (the conversion leaves the loop; it was run per
// iteration, which ours kept before and triton's pass keeps).
// CHECK-LABEL: tt.func @halving_pair_from_arg(
// CHECK: ttg.convert_layout %arg0 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
// CHECK: scf.for
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @halving_pair_from_arg(%x: tensor<128xf32, #a>, %y: tensor<128xf32, #b>, %n: i32) -> (tensor<128xf32, #a>, tensor<128xf32, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %half = arith.constant dense<5.000000e-01> : tensor<128xf32, #a>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x, %p = %y) -> (tensor<128xf32, #a>, tensor<128xf32, #b>)  : i32 {
      %s2 = arith.mulf %s, %half : tensor<128xf32, #a>
      %sb = ttg.convert_layout %s2 : tensor<128xf32, #a> -> tensor<128xf32, #b>
      %p2 = arith.subf %p, %sb : tensor<128xf32, #b>
      scf.yield %s2, %p2 : tensor<128xf32, #a>, tensor<128xf32, #b>
    }
    tt.return %r#0, %r#1 : tensor<128xf32, #a>, tensor<128xf32, #b>
  }
}

// -----

// Only the second value leaves the loop: the first is retyped in place (no copy, no new iter_arg).
// CHECK-LABEL: tt.func @halving_pair_one_result(
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[F:.*]]:2 = scf.for {{.*}} -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @halving_pair_one_result(%y: tensor<128xf32, #b>, %n: i32) -> tensor<128xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #a>
    %half = arith.constant dense<5.000000e-01> : tensor<128xf32, #a>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %one, %p = %y) -> (tensor<128xf32, #a>, tensor<128xf32, #b>)  : i32 {
      %s2 = arith.mulf %s, %half : tensor<128xf32, #a>
      %sb = ttg.convert_layout %s2 : tensor<128xf32, #a> -> tensor<128xf32, #b>
      %p2 = arith.subf %p, %sb : tensor<128xf32, #b>
      scf.yield %s2, %p2 : tensor<128xf32, #a>, tensor<128xf32, #b>
    }
    tt.return %r#1 : tensor<128xf32, #b>
  }
}

// -----

// A second conversion stays in the loop (a row maximum, from a reduction's slice layout): a copy
// would keep both values alive beside it, so there is none and the input is kept (two
// conversions in the loop; with the copy, one in it and one before it).
// CHECK-LABEL: tt.func @halving_pair_with_rows(
// CHECK: scf.for {{.*}} -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked1>)
// CHECK-COUNT-2: ttg.convert_layout
// CHECK: scf.yield
// CHECK-NOT: ttg.convert_layout
// REMARK: loop-copies.mlir:[[# @LINE + 4]]:1: remark: [tritonintelgpu-remove-layout-conversions] input kept: the rewrite would leave 3 conversion(s)
#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#t = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @halving_pair_with_rows(%x: tensor<128xf32, #a>, %y: tensor<128xf32, #b>, %t: tensor<128x16xf32, #t>, %n: i32) -> (tensor<128xf32, #a>, tensor<128xf32, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %half = arith.constant dense<5.000000e-01> : tensor<128xf32, #a>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x, %p = %y) -> (tensor<128xf32, #a>, tensor<128xf32, #b>)  : i32 {
      %s2 = arith.mulf %s, %half : tensor<128xf32, #a>
      %sb = ttg.convert_layout %s2 : tensor<128xf32, #a> -> tensor<128xf32, #b>
      %p2 = arith.subf %p, %sb : tensor<128xf32, #b>
      %ts = arith.mulf %t, %t : tensor<128x16xf32, #t>
      %rs = "tt.reduce"(%ts) <{axis = 1 : i32}> ({
      ^bb0(%u: f32, %v: f32):
        %w = arith.maxnumf %u, %v : f32
        tt.reduce.return %w : f32
      }) : (tensor<128x16xf32, #t>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #t}>>
      %rb = ttg.convert_layout %rs : tensor<128xf32, #ttg.slice<{dim = 1, parent = #t}>> -> tensor<128xf32, #b>
      %p3 = arith.addf %p2, %rb : tensor<128xf32, #b>
      scf.yield %s2, %p3 : tensor<128xf32, #a>, tensor<128xf32, #b>
    }
    tt.return %r#0, %r#1 : tensor<128xf32, #a>, tensor<128xf32, #b>
  }
}
