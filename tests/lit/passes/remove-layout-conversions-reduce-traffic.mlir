// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s
// The incremental figures agree with the full ones:
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions=check-incremental=true | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE-COUNT-1: // -----

// A forward slice through a tt.reduce whose result meets another reduction's (reductions.py,
// candidates._cut_variants). A loop carries two 128x16 f32 accumulators: the running max of a
// loaded tile, in #ld (the load's layout: the rows over the lanes and warps), and a one-hot
// count, in #col (the 16 columns over 16 lanes). After the loop the max is converted to #col,
// both are reduced over the rows and divided. Forwarding #ld from that conversion, the divf's
// other operand can be recomputed in #ld through its reduction (the whole count chain in the
// loop) or the count's 16 sums converted. In #ld each lane reduces 16 columns and, the rows
// spanning 4 warps, writes and reads back 16 accumulators through SLM where #col needs 1 (IGC:
// celoss_indices_smooth_bwd BLOCK_D=16, 75 -> 102 SLM messages): the count stays in #col and
// its sums are converted, as triton's pass does.
// CHECK: #[[COL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[LD:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-LABEL: tt.func public @count_over_max_4_warps
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<128x16xf32, #[[COL]]>, tensor<128x16xf32, #[[LD]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[SW:.*]] = "tt.reduce"
// CHECK: }) : (tensor<128x16xf32, #[[COL]]>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #[[COL]]}>>
// CHECK-NEXT: %[[SWC:.*]] = ttg.convert_layout %[[SW]] : tensor<16xf32, #ttg.slice<{dim = 0, parent = #[[COL]]}>> -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #[[LD]]}>>
// CHECK: }) : (tensor<128x16xf32, #[[LD]]>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #[[LD]]}>>
// CHECK-NEXT: arith.divf %[[SWC]], %{{.*}} : tensor<16xf32, #ttg.slice<{dim = 0, parent = #[[LD]]}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<128x16x!tt.ptr<f32>, #[[LD]]>
// CHECK-NOT: ttg.convert_layout
#ld = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @count_over_max_4_warps(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %t: i32, %n: i32, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %cr = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #col>
    %one = arith.constant dense<1.000000e+00> : tensor<128x16xf32, #col>
    %c16 = arith.constant dense<16> : tensor<128x1xi32, #ld>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<128x1xi32, #col>
    %rowsb = tt.broadcast %rows : tensor<128x1xi32, #col> -> tensor<128x16xi32, #col>
    %ts = tt.splat %t : i32 -> tensor<128x16xi32, #col>
    %rl = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #ld}>>
    %rowsl = tt.expand_dims %rl {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #ld}>> -> tensor<128x1xi32, #ld>
    %rowsl16 = arith.muli %rowsl, %c16 : tensor<128x1xi32, #ld>
    %cl = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ld}>>
    %cols = tt.expand_dims %cl {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ld}>> -> tensor<1x16xi32, #ld>
    %ra = tt.broadcast %rowsl16 : tensor<128x1xi32, #ld> -> tensor<128x16xi32, #ld>
    %ca = tt.broadcast %cols : tensor<1x16xi32, #ld> -> tensor<128x16xi32, #ld>
    %offs = arith.addi %ra, %ca : tensor<128x16xi32, #ld>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<128x16x!tt.ptr<f16>, #ld>
    %ptrs = tt.addptr %base, %offs : tensor<128x16x!tt.ptr<f16>, #ld>, tensor<128x16xi32, #ld>
    %zl = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #ld>
    %res:2 = scf.for %i = %c0 to %n step %cr iter_args(%w = %zero, %m = %zl) -> (tensor<128x16xf32, #col>, tensor<128x16xf32, #ld>)  : i32 {
      %is = tt.splat %i : i32 -> tensor<128x16xi32, #ld>
      %p = tt.addptr %ptrs, %is : tensor<128x16x!tt.ptr<f16>, #ld>, tensor<128x16xi32, #ld>
      %v = tt.load %p : tensor<128x16x!tt.ptr<f16>, #ld>
      %vf = arith.extf %v : tensor<128x16xf16, #ld> to tensor<128x16xf32, #ld>
      %m2 = arith.maxnumf %m, %vf : tensor<128x16xf32, #ld>
      %iv = tt.splat %i : i32 -> tensor<128x16xi32, #col>
      %row = arith.addi %rowsb, %iv : tensor<128x16xi32, #col>
      %eq = arith.cmpi eq, %row, %ts : tensor<128x16xi32, #col>
      %s = arith.select %eq, %one, %zero : tensor<128x16xi1, #col>, tensor<128x16xf32, #col>
      %w2 = arith.addf %w, %s : tensor<128x16xf32, #col>
      scf.yield %w2, %m2 : tensor<128x16xf32, #col>, tensor<128x16xf32, #ld>
    }
    %mc = ttg.convert_layout %res#1 : tensor<128x16xf32, #ld> -> tensor<128x16xf32, #col>
    %sw = "tt.reduce"(%res#0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.addf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<128x16xf32, #col>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>>
    %sm = "tt.reduce"(%mc) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.maxnumf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<128x16xf32, #col>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>>
    %q = arith.divf %sw, %sm : tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>>
    %qe = tt.expand_dims %q {axis = 0 : i32} : tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x16xf32, #col>
    %qb = tt.broadcast %qe : tensor<1x16xf32, #col> -> tensor<128x16xf32, #col>
    %c16c = arith.constant dense<16> : tensor<128x16xi32, #col>
    %oc = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #col}>>
    %oce = tt.expand_dims %oc {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x16xi32, #col>
    %ocb = tt.broadcast %oce : tensor<1x16xi32, #col> -> tensor<128x16xi32, #col>
    %or = arith.muli %rowsb, %c16c : tensor<128x16xi32, #col>
    %oo = arith.addi %or, %ocb : tensor<128x16xi32, #col>
    %po = tt.splat %out : !tt.ptr<f32> -> tensor<128x16x!tt.ptr<f32>, #col>
    %pq = tt.addptr %po, %oo : tensor<128x16x!tt.ptr<f32>, #col>, tensor<128x16xi32, #col>
    tt.store %pq, %qb : tensor<128x16x!tt.ptr<f32>, #col>
    tt.return
  }
}


// -----

// Negative: the same kernel in one warp. The rows span 32 lanes and no warps: a reduction over
// them needs no SLM in either layout, and the count is recomputed in #ld through its reduction:
// no conversion is left (pricing the accumulators does not ban re-laying a reduction).
// CHECK-LABEL: tt.func public @count_over_max_1_warp
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<128x16xf32, #[[LD1:blocked[0-9]*]]>, tensor<128x16xf32, #[[LD1]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<128x16x!tt.ptr<f32>, #[[LD1]]>
// CHECK-NOT: ttg.convert_layout
#ld = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @count_over_max_1_warp(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %t: i32, %n: i32, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %cr = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #col>
    %one = arith.constant dense<1.000000e+00> : tensor<128x16xf32, #col>
    %c16 = arith.constant dense<16> : tensor<128x1xi32, #ld>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<128x1xi32, #col>
    %rowsb = tt.broadcast %rows : tensor<128x1xi32, #col> -> tensor<128x16xi32, #col>
    %ts = tt.splat %t : i32 -> tensor<128x16xi32, #col>
    %rl = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #ld}>>
    %rowsl = tt.expand_dims %rl {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #ld}>> -> tensor<128x1xi32, #ld>
    %rowsl16 = arith.muli %rowsl, %c16 : tensor<128x1xi32, #ld>
    %cl = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ld}>>
    %cols = tt.expand_dims %cl {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ld}>> -> tensor<1x16xi32, #ld>
    %ra = tt.broadcast %rowsl16 : tensor<128x1xi32, #ld> -> tensor<128x16xi32, #ld>
    %ca = tt.broadcast %cols : tensor<1x16xi32, #ld> -> tensor<128x16xi32, #ld>
    %offs = arith.addi %ra, %ca : tensor<128x16xi32, #ld>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<128x16x!tt.ptr<f16>, #ld>
    %ptrs = tt.addptr %base, %offs : tensor<128x16x!tt.ptr<f16>, #ld>, tensor<128x16xi32, #ld>
    %zl = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #ld>
    %res:2 = scf.for %i = %c0 to %n step %cr iter_args(%w = %zero, %m = %zl) -> (tensor<128x16xf32, #col>, tensor<128x16xf32, #ld>)  : i32 {
      %is = tt.splat %i : i32 -> tensor<128x16xi32, #ld>
      %p = tt.addptr %ptrs, %is : tensor<128x16x!tt.ptr<f16>, #ld>, tensor<128x16xi32, #ld>
      %v = tt.load %p : tensor<128x16x!tt.ptr<f16>, #ld>
      %vf = arith.extf %v : tensor<128x16xf16, #ld> to tensor<128x16xf32, #ld>
      %m2 = arith.maxnumf %m, %vf : tensor<128x16xf32, #ld>
      %iv = tt.splat %i : i32 -> tensor<128x16xi32, #col>
      %row = arith.addi %rowsb, %iv : tensor<128x16xi32, #col>
      %eq = arith.cmpi eq, %row, %ts : tensor<128x16xi32, #col>
      %s = arith.select %eq, %one, %zero : tensor<128x16xi1, #col>, tensor<128x16xf32, #col>
      %w2 = arith.addf %w, %s : tensor<128x16xf32, #col>
      scf.yield %w2, %m2 : tensor<128x16xf32, #col>, tensor<128x16xf32, #ld>
    }
    %mc = ttg.convert_layout %res#1 : tensor<128x16xf32, #ld> -> tensor<128x16xf32, #col>
    %sw = "tt.reduce"(%res#0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.addf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<128x16xf32, #col>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>>
    %sm = "tt.reduce"(%mc) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %y = arith.maxnumf %a, %b : f32
      tt.reduce.return %y : f32
    }) : (tensor<128x16xf32, #col>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>>
    %q = arith.divf %sw, %sm : tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>>
    %qe = tt.expand_dims %q {axis = 0 : i32} : tensor<16xf32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x16xf32, #col>
    %qb = tt.broadcast %qe : tensor<1x16xf32, #col> -> tensor<128x16xf32, #col>
    %c16c = arith.constant dense<16> : tensor<128x16xi32, #col>
    %oc = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #col}>>
    %oce = tt.expand_dims %oc {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x16xi32, #col>
    %ocb = tt.broadcast %oce : tensor<1x16xi32, #col> -> tensor<128x16xi32, #col>
    %or = arith.muli %rowsb, %c16c : tensor<128x16xi32, #col>
    %oo = arith.addi %or, %ocb : tensor<128x16xi32, #col>
    %po = tt.splat %out : !tt.ptr<f32> -> tensor<128x16x!tt.ptr<f32>, #col>
    %pq = tt.addptr %po, %oo : tensor<128x16x!tt.ptr<f32>, #col>, tensor<128x16xi32, #col>
    tt.store %pq, %qb : tensor<128x16x!tt.ptr<f32>, #col>
    tt.return
  }
}

