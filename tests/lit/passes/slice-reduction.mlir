// RUN: xpu-opt %s --split-input-file --xpu-slice-reduction --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --xpu-slice-reduction=chunk-registers=4 | FileCheck %s --check-prefix=ROW
// RUN: xpu-opt %s --split-input-file --xpu-slice-reduction=min-registers=512 --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALL
// RUN: xpu-opt %s --split-input-file --xpu-slice-reduction=max-work-per-op=1 --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET
// RUN: %if triton %{ xpu-opt %s --split-input-file --xpu-slice-reduction | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// Over its work budget the pass keeps its input and says so.
// BUDGET: remark: [xpu-slice-reduction] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1

// ORACLE: scf.for
// ORACLE: tt.reduce

// A GEMV over 4-bit weights packed 8 to an i32 (our construct): a 64x128 tile of packed words
// (256 registers per thread, the 64 rows in each thread's registers), each row shifted by its
// nibble, scaled by a per-column vector and multiplied by x[k], then summed over the rows. The
// tile is computed in an scf.for, 16 rows (64 registers per thread, chunk-registers) an
// iteration; the iteration's rows are cut apart on their register bits (no data moved) and
// folded into the accumulator one by one, in order, from -0.0 (addf's exact identity). The
// per-column scale, loaded once, stays before the loop. With chunk-registers=4, one row an
// iteration (ROW).
// CHECK-LABEL: tt.func public @gemv_packed
// CHECK: %[[SCALE:.*]] = tt.load %{{.*}} : tensor<1x128x!tt.ptr<f32>, #blocked>
// CHECK-NOT: tt.load
// CHECK: %[[ZERO:.*]] = arith.constant dense<-0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK: %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16_i32 iter_args(%[[ACC:.*]] = %[[ZERO]])
// CHECK: tt.splat %[[K]] : i32 -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: tt.load %{{.*}} : tensor<16x1x!tt.ptr<f32>, #blocked>
// CHECK: tt.load %{{.*}} : tensor<16x128x!tt.ptr<i32>, #blocked>
// CHECK: arith.mulf %{{.*}} : tensor<16x128xf32, #blocked>
// CHECK: tt.split
// CHECK: %[[R0:.*]] = "tt.reduce"(%{{.*}}) <{axis = 0 : i32}>
// CHECK: (tensor<1x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK: %[[A0:.*]] = arith.addf %[[ACC]], %[[R0]] : tensor<128xf32
// CHECK: %[[R1:.*]] = "tt.reduce"
// CHECK: %[[A1:.*]] = arith.addf %[[A0]], %[[R1]] : tensor<128xf32
// CHECK-COUNT-14: arith.addf %{{.*}} : tensor<128xf32
// CHECK-NOT: tt.reduce
// CHECK: scf.yield %{{.*}} : tensor<128xf32
// CHECK: tt.store %{{.*}}, %[[SUM]]
// ROW-LABEL: tt.func public @gemv_packed
// ROW: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1_i32
// ROW: tt.load %{{.*}} : tensor<1x128x!tt.ptr<i32>, #blocked>
// ROW-NOT: tt.split
// ROW-COUNT-1: "tt.reduce"
// ROW-NOT: "tt.reduce"
// ROW: scf.yield
// SMALL: remark: [xpu-slice-reduction] reduction left whole: 256 elements per thread (< min-registers=512){{$}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [1, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gemv_packed(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %w: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %ldw: i32) {
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %c8 = arith.constant dense<8> : tensor<64x1xi32, #blocked>
    %c4 = arith.constant dense<4> : tensor<64x1xi32, #blocked>
    %c15 = arith.constant dense<15> : tensor<64x128xi32, #blocked>
    %pk = tt.get_program_id y : i32
    %pn = tt.get_program_id x : i32
    %k0 = arith.muli %pk, %c64 : i32
    %n0 = arith.muli %pn, %c128 : i32
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %k0s = tt.splat %k0 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %k = arith.addi %k0s, %rk : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %k2 = tt.expand_dims %k {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %n0s = tt.splat %n0 : i32 -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %n = arith.addi %n0s, %rn : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %n2 = tt.expand_dims %n {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %xp2 = tt.addptr %xp, %k2 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %xv = tt.load %xp2 : tensor<64x1x!tt.ptr<f32>, #blocked>
    %word = arith.divsi %k2, %c8 : tensor<64x1xi32, #blocked>
    %ld = tt.splat %ldw : i32 -> tensor<64x1xi32, #blocked>
    %rowoff = arith.muli %word, %ld : tensor<64x1xi32, #blocked>
    %wp = tt.splat %w : !tt.ptr<i32> -> tensor<64x1x!tt.ptr<i32>, #blocked>
    %wp2 = tt.addptr %wp, %rowoff : tensor<64x1x!tt.ptr<i32>, #blocked>, tensor<64x1xi32, #blocked>
    %wpb = tt.broadcast %wp2 : tensor<64x1x!tt.ptr<i32>, #blocked> -> tensor<64x128x!tt.ptr<i32>, #blocked>
    %nb = tt.broadcast %n2 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %wp3 = tt.addptr %wpb, %nb : tensor<64x128x!tt.ptr<i32>, #blocked>, tensor<64x128xi32, #blocked>
    %packed = tt.load %wp3 : tensor<64x128x!tt.ptr<i32>, #blocked>
    %sp = tt.splat %s : !tt.ptr<f32> -> tensor<1x128x!tt.ptr<f32>, #blocked>
    %sp2 = tt.addptr %sp, %n2 : tensor<1x128x!tt.ptr<f32>, #blocked>, tensor<1x128xi32, #blocked>
    %scale = tt.load %sp2 : tensor<1x128x!tt.ptr<f32>, #blocked>
    %nib = arith.remsi %k2, %c8 : tensor<64x1xi32, #blocked>
    %shift = arith.muli %nib, %c4 : tensor<64x1xi32, #blocked>
    %shiftb = tt.broadcast %shift : tensor<64x1xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %q = arith.shrsi %packed, %shiftb : tensor<64x128xi32, #blocked>
    %q4 = arith.andi %q, %c15 : tensor<64x128xi32, #blocked>
    %qf = arith.sitofp %q4 : tensor<64x128xi32, #blocked> to tensor<64x128xf32, #blocked>
    %scaleb = tt.broadcast %scale : tensor<1x128xf32, #blocked> -> tensor<64x128xf32, #blocked>
    %wv = arith.mulf %qf, %scaleb : tensor<64x128xf32, #blocked>
    %xb = tt.broadcast %xv : tensor<64x1xf32, #blocked> -> tensor<64x128xf32, #blocked>
    %prod = arith.mulf %xb, %wv : tensor<64x128xf32, #blocked>
    %sum = "tt.reduce"(%prod) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %yp2 = tt.addptr %yp, %n : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %yp2, %sum : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}

// -----

// A column maximum of an i32 tile whose combine region takes (new, acc): the loop starts from
// INT_MIN and keeps the region's operand order; the tile is converted 8 rows at a time.
// CHECK-LABEL: tt.func public @colmax
// CHECK: %[[MIN:.*]] = arith.constant dense<-2147483648> : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[MIN]])
// CHECK: ttg.convert_layout %{{.*}} : tensor<8x128xi32, #blocked> -> tensor<8x128xi32, #blocked1>
// CHECK: %[[RED:.*]] = "tt.reduce"
// CHECK: arith.maxsi %[[RED]], %[[ACC]] : tensor<128xi32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @colmax(%a: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %c128 = arith.constant dense<128> : tensor<32x1xi32, #blocked>
    %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %mo = arith.muli %m2, %c128 : tensor<32x1xi32, #blocked>
    %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %n2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %mb = tt.broadcast %mo : tensor<32x1xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %nb = tt.broadcast %n2 : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %off = arith.addi %mb, %nb : tensor<32x128xi32, #blocked>
    %ap = tt.splat %a : !tt.ptr<i32> -> tensor<32x128x!tt.ptr<i32>, #blocked>
    %ap2 = tt.addptr %ap, %off : tensor<32x128x!tt.ptr<i32>, #blocked>, tensor<32x128xi32, #blocked>
    %v = tt.load %ap2 : tensor<32x128x!tt.ptr<i32>, #blocked>
    %v1 = ttg.convert_layout %v : tensor<32x128xi32, #blocked> -> tensor<32x128xi32, #blocked1>
    %m = "tt.reduce"(%v1) <{axis = 0 : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %r = arith.maxsi %q, %p : i32
      tt.reduce.return %r : i32
    }) : (tensor<32x128xi32, #blocked1>) -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %rn1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %yp = tt.splat %y : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %yp2 = tt.addptr %yp, %rn1 : tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #blocked1}>>, tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    tt.store %yp2, %m : tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 0, parent = #blocked1}>>
    tt.return
  }
}

// -----

// Left whole, each with its reason: a row sum (lanes share the reduced axis: a tree across
// lanes), a tile also stored (it would stay whole), a load that would move past a store, a
// maximum by maxnumf (no exact identity to start from), and a tile whose negation is also stored
// (the negation would stay, and with it the load).
// CHECK-LABEL: tt.func public @left_whole
// CHECK-NOT: scf.for
// CHECK: tt.return
// REMARK: remark: [xpu-slice-reduction] reduction left whole: lanes or warps share the reduced axis (their fold is a tree, not a row order); in chunks: a loaded tensor of the tile is used elsewhere: it would be loaded twice and stay whole
// REMARK: remark: [xpu-slice-reduction] reduction left whole: a loaded tensor of the tile is used elsewhere: it would be loaded twice and stay whole; in chunks: no kept dim of the result is split on register bits alone
// REMARK: remark: [xpu-slice-reduction] reduction left whole: a load of the tile would move past tt.store, which may write memory; in chunks: no kept dim of the result is split on register bits alone
// REMARK: remark: [xpu-slice-reduction] reduction left whole: arith.maxnumf on f32 has no exact identity to start the fold from; in chunks: no kept dim of the result is split on register bits alone
// REMARK: remark: [xpu-slice-reduction] reduction left whole: a loaded tensor of the tile is used elsewhere: it would be loaded twice and stay whole; in chunks: no kept dim of the result is split on register bits alone
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [1, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @left_whole(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c128 = arith.constant dense<128> : tensor<64x1xi32, #blocked>
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %mo = arith.muli %m2, %c128 : tensor<64x1xi32, #blocked>
    %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %n2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %mb = tt.broadcast %mo : tensor<64x1xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %nb = tt.broadcast %n2 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %off = arith.addi %mb, %nb : tensor<64x128xi32, #blocked>
    %ap = tt.splat %a : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #blocked>
    %ap2 = tt.addptr %ap, %off : tensor<64x128x!tt.ptr<f32>, #blocked>, tensor<64x128xi32, #blocked>
    %zp = tt.splat %z : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #blocked>
    %zp2 = tt.addptr %zp, %off : tensor<64x128x!tt.ptr<f32>, #blocked>, tensor<64x128xi32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %yp2 = tt.addptr %yp, %rn : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %v = tt.load %ap2 : tensor<64x128x!tt.ptr<f32>, #blocked>
    %rows = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.store %zp2, %v : tensor<64x128x!tt.ptr<f32>, #blocked>
    %cols = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %yp2, %cols : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %w = tt.load %zp2 : tensor<64x128x!tt.ptr<f32>, #blocked>
    tt.store %yp2, %cols : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cols2 = "tt.reduce"(%w) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %u = tt.load %ap2 : tensor<64x128x!tt.ptr<f32>, #blocked>
    %maxs = "tt.reduce"(%u) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.maxnumf %p, %q : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %both = arith.addf %cols2, %maxs : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %yp2, %both : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %t = tt.load %ap2 : tensor<64x128x!tt.ptr<f32>, #blocked>
    %tn = arith.negf %t : tensor<64x128xf32, #blocked>
    %sums = "tt.reduce"(%tn) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %yp2, %sums : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %zp2, %tn : tensor<64x128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The second rule (our construct): a row-wise dot product of two 128x64 tiles (256 registers per
// thread) whose reduced axis 16 lanes share, so the per-row fold is a tree and no row-by-row
// loop keeps it. Each element of the result folds only its own row, as the layout lays out
// that row: the tiles and the reduction are computed in 4 chunks of 32 rows (64 registers per
// thread), straight-line, and the 4 reduced chunks joined back on the result's two highest
// register bits (tt.join / tt.trans / tt.reshape: no data moved); the masked store is unchanged.
// CHECK-LABEL: tt.func public @row_dot
// CHECK-NOT: scf.for
// CHECK-COUNT-4: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK-NOT: "tt.reduce"
// CHECK: tt.join
// CHECK: %[[BACK:.*]] = ttg.convert_layout %{{.*}} -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: tt.store %{{.*}}, %[[BACK]], %{{.*}} : tensor<128x!tt.ptr<f32>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @row_dot(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32) {
    %c128 = arith.constant 128 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
    %ld = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %pid = tt.get_program_id x : i32
    %m0 = arith.muli %pid, %c128 : i32
    %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m0s = tt.splat %m0 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m = arith.addi %m0s, %rm : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %Ms = tt.splat %M : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %inm = arith.cmpi slt, %m, %Ms : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m2 = tt.expand_dims %m {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %mo = arith.muli %m2, %ld : tensor<128x1xi32, #blocked>
    %in2 = tt.expand_dims %inm {axis = 1 : i32} : tensor<128xi1, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi1, #blocked>
    %inb = tt.broadcast %in2 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %k2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %mob = tt.broadcast %mo : tensor<128x1xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %kb = tt.broadcast %k2 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %off = arith.addi %mob, %kb : tensor<128x64xi32, #blocked>
    %ap = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %ap2 = tt.addptr %ap, %off : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %av = tt.load %ap2, %inb, %cst : tensor<128x64x!tt.ptr<f16>, #blocked>
    %bp = tt.splat %b : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %bp2 = tt.addptr %bp, %off : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %bv = tt.load %bp2, %inb, %cst : tensor<128x64x!tt.ptr<f16>, #blocked>
    %af = arith.extf %av : tensor<128x64xf16, #blocked> to tensor<128x64xf32, #blocked>
    %bf = arith.extf %bv : tensor<128x64xf16, #blocked> to tensor<128x64xf32, #blocked>
    %ab = arith.mulf %af, %bf : tensor<128x64xf32, #blocked>
    %d = "tt.reduce"(%ab) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tt.reduce.return %r : f32
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    %yp2 = tt.addptr %yp, %m : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.store %yp2, %d, %inm : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}
