// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s
// The incremental figures agree with the full ones:
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions=check-incremental=true | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE-COUNT-1: // -----

// Replicated tiles (costs.pressure_peak, pressure.replicated_bytes). A loop carries two Nx1 f32
// accumulators over 4 warps of 32 lanes: the running max of a loaded column and a one-hot count
// of the rows equal to %t (no load). After the loop both are summed over N; the count's sum is
// stored in #rep, a layout with the lanes and warps along the size-1 dim (what expand_dims at
// axis 0 of a 1-D value gets from convert-triton-to-tritongpu). Rematerializing the count
// backward from that conversion would put the whole count in #rep: every lane then holds all N
// rows (1 KB per lane at N = 256, twice the SIMD32 register file) though no access holds it; the
// load in the loop holds 2 bytes per lane. Priced by what is live across the load, the count
// stays in #blk and the conversion goes forward to the reduced value instead.
// CHECK: #[[BLK:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1]
// CHECK-NOT: threadsPerWarp = [1, 32]
// CHECK-LABEL: tt.func public @carried_one_hot_256
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<256x1xf32, #[[BLK]]>, tensor<256x1xf32, #[[BLK]]>)
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #[[BLK]]}>>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #[[BLK]]}>>
// CHECK-NOT: ttg.convert_layout
#blk = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#rep = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried_one_hot_256(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %t: i32, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256x1xf32, #blk>
    %one = arith.constant dense<1.000000e+00> : tensor<256x1xf32, #blk>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blk}>>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blk}>> -> tensor<256x1xi32, #blk>
    %ts = tt.splat %t : i32 -> tensor<256x1xi32, #blk>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<256x1x!tt.ptr<f16>, #blk>
    %res:2 = scf.for %i = %c0 to %n step %c256 iter_args(%w = %zero, %m = %zero) -> (tensor<256x1xf32, #blk>, tensor<256x1xf32, #blk>)  : i32 {
      %iv = tt.splat %i : i32 -> tensor<256x1xi32, #blk>
      %off = arith.addi %rows, %iv : tensor<256x1xi32, #blk>
      %p = tt.addptr %base, %off : tensor<256x1x!tt.ptr<f16>, #blk>, tensor<256x1xi32, #blk>
      %v = tt.load %p : tensor<256x1x!tt.ptr<f16>, #blk>
      %vf = arith.extf %v : tensor<256x1xf16, #blk> to tensor<256x1xf32, #blk>
      %m2 = arith.maxnumf %m, %vf : tensor<256x1xf32, #blk>
      %eq = arith.cmpi eq, %off, %ts : tensor<256x1xi32, #blk>
      %s = arith.select %eq, %one, %zero : tensor<256x1xi1, #blk>, tensor<256x1xf32, #blk>
      %w2 = arith.addf %w, %s : tensor<256x1xf32, #blk>
      scf.yield %w2, %m2 : tensor<256x1xf32, #blk>, tensor<256x1xf32, #blk>
    }
    %sw = "tt.reduce"(%res#0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.addf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<256x1xf32, #blk>) -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #blk}>>
    %sm = "tt.reduce"(%res#1) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.maxnumf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<256x1xf32, #blk>) -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #blk}>>
    %swr = ttg.convert_layout %sw : tensor<1xf32, #ttg.slice<{dim = 0, parent = #blk}>> -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #rep}>>
    %pr = tt.splat %out : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #rep}>>
    tt.store %pr, %swr : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #rep}>>
    %pm = tt.splat %out : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blk}>>
    tt.store %pm, %sm : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blk}>>
    tt.return
  }
}

// -----

// Negative: the same loop over 32 rows. The count in #rep holds 32 values (128 bytes) per lane,
// within the register file beside the load: nothing is priced, and the backward rematerialization
// (no conversion left, as forward) is kept as before: the rule prices registers, it does not ban
// replicated layouts.
// CHECK-LABEL: tt.func public @carried_one_hot_32
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<32x1xf32, #[[REP:blocked[0-9]*]]>, tensor<32x1xf32, #[[BLK:blocked[0-9]*]]>)
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #[[REP]]}>>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #[[BLK]]}>>
// CHECK-NOT: ttg.convert_layout
#blk = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#rep = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried_one_hot_32(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %t: i32, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x1xf32, #blk>
    %one = arith.constant dense<1.000000e+00> : tensor<32x1xf32, #blk>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blk}>>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blk}>> -> tensor<32x1xi32, #blk>
    %ts = tt.splat %t : i32 -> tensor<32x1xi32, #blk>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blk>
    %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%w = %zero, %m = %zero) -> (tensor<32x1xf32, #blk>, tensor<32x1xf32, #blk>)  : i32 {
      %iv = tt.splat %i : i32 -> tensor<32x1xi32, #blk>
      %off = arith.addi %rows, %iv : tensor<32x1xi32, #blk>
      %p = tt.addptr %base, %off : tensor<32x1x!tt.ptr<f16>, #blk>, tensor<32x1xi32, #blk>
      %v = tt.load %p : tensor<32x1x!tt.ptr<f16>, #blk>
      %vf = arith.extf %v : tensor<32x1xf16, #blk> to tensor<32x1xf32, #blk>
      %m2 = arith.maxnumf %m, %vf : tensor<32x1xf32, #blk>
      %eq = arith.cmpi eq, %off, %ts : tensor<32x1xi32, #blk>
      %s = arith.select %eq, %one, %zero : tensor<32x1xi1, #blk>, tensor<32x1xf32, #blk>
      %w2 = arith.addf %w, %s : tensor<32x1xf32, #blk>
      scf.yield %w2, %m2 : tensor<32x1xf32, #blk>, tensor<32x1xf32, #blk>
    }
    %sw = "tt.reduce"(%res#0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.addf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<32x1xf32, #blk>) -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #blk}>>
    %sm = "tt.reduce"(%res#1) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.maxnumf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<32x1xf32, #blk>) -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #blk}>>
    %swr = ttg.convert_layout %sw : tensor<1xf32, #ttg.slice<{dim = 0, parent = #blk}>> -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #rep}>>
    %pr = tt.splat %out : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #rep}>>
    tt.store %pr, %swr : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #rep}>>
    %pm = tt.splat %out : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blk}>>
    tt.store %pm, %sm : tensor<1x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blk}>>
    tt.return
  }
}
