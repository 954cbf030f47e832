// -xpu-narrow-masked-dims (transforms/narrow_masked_dims.py): a tile dimension whose indices past K every store
// masks off, narrowed to K (rounded up to a power of two) on every value it runs through. The columns of a
// 64x16 tile are `pid * 16 + arange(16)`, stored only where `< 1` (an extent specialized to 1): the 16 columns
// become one, through the loop's carried tiles, the reduction along the rows and the stores.
// RUN: xpu-opt %s --split-input-file --xpu-narrow-masked-dims --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --xpu-narrow-masked-dims --verify-semantics="arg2=100,grid=2" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: xpu-opt %s --split-input-file --xpu-narrow-masked-dims=max-work-per-op=1 --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET

// BUDGET: remark: [xpu-narrow-masked-dims] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
// SEM-NOT: error
// SEM-COUNT-5: remark: [verify-semantics] equal on
// SEM-NOT: error

// REMARK: remark: [xpu-narrow-masked-dims] narrowed: a dim of 16 stored only below 1, on 26 values
// REMARK-NOT: gathered
// CHECK-LABEL: tt.func public @column_max
// CHECK: tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK: tt.make_range {end = 64 : i32, start = 0 : i32}
// CHECK: scf.for {{.*}} -> (tensor<64x1xf32, #blocked>)
// CHECK: tt.load {{.*}} : tensor<64x1x!tt.ptr<f32>, #blocked>
// CHECK: "tt.reduce"
// CHECK: (tensor<64x1xf32, #blocked>) -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK: tt.store {{.*}} : tensor<1x!tt.ptr<f32>, #blocked1>
// CHECK-NOT: 16xf32
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @column_max(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c16 = arith.constant 16 : i64
    %ninf = arith.constant dense<0xFF800000> : tensor<64x16xf32, #blocked>
    %one = arith.constant dense<1> : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %pid = tt.get_program_id x : i32
    %pid64 = arith.extsi %pid : i32 to i64
    %base = arith.muli %pid64, %c16 : i64
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r64 = arith.extsi %r : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> to tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %bs = tt.splat %base : i64 -> tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cols = arith.addi %bs, %r64 : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cmask = arith.cmpi slt, %cols, %one : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi64, #blocked>
    %cb = tt.broadcast %ce : tensor<1x16xi64, #blocked> -> tensor<64x16xi64, #blocked>
    %me = tt.expand_dims %cmask {axis = 0 : i32} : tensor<16xi1, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi1, #blocked>
    %mb = tt.broadcast %me : tensor<1x16xi1, #blocked> -> tensor<64x16xi1, #blocked>
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %p0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %acc = scf.for %i = %c0 to %arg2 step %c64 iter_args(%m = %ninf) -> (tensor<64x16xf32, #blocked>)  : i32 {
      %ri = tt.splat %i : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %rr = arith.addi %ri, %rows : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %re = tt.expand_dims %rr {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
      %pr = tt.addptr %p0, %re : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
      %pb = tt.broadcast %pr : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x16x!tt.ptr<f32>, #blocked>
      %p = tt.addptr %pb, %cb : tensor<64x16x!tt.ptr<f32>, #blocked>, tensor<64x16xi64, #blocked>
      %n = tt.splat %arg2 : i32 -> tensor<64x1xi32, #blocked>
      %rm = arith.cmpi slt, %re, %n : tensor<64x1xi32, #blocked>
      %rmb = tt.broadcast %rm : tensor<64x1xi1, #blocked> -> tensor<64x16xi1, #blocked>
      %mask = arith.andi %rmb, %mb : tensor<64x16xi1, #blocked>
      %x = tt.load %p, %mask, %ninf : tensor<64x16x!tt.ptr<f32>, #blocked>
      %mx = arith.maxnumf %m, %x : tensor<64x16xf32, #blocked>
      scf.yield %mx : tensor<64x16xf32, #blocked>
    }
    %red = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mm = arith.maxnumf %a, %b : f32
      tt.reduce.return %mm : f32
    }) : (tensor<64x16xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %po = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #blocked1>
    %cols1 = ttg.convert_layout %cols : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<16xi64, #blocked1>
    %pc = tt.addptr %po, %cols1 : tensor<16x!tt.ptr<f32>, #blocked1>, tensor<16xi64, #blocked1>
    %red1 = ttg.convert_layout %red : tensor<16xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<16xf32, #blocked1>
    %one1 = arith.constant dense<1> : tensor<16xi64, #blocked1>
    %cmask1 = arith.cmpi slt, %cols1, %one1 : tensor<16xi64, #blocked1>
    tt.store %pc, %red1, %cmask1 : tensor<16x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// The same, the reduction along the columns: it mixes them, the tile is kept.
// CHECK-LABEL: tt.func public @row_max
// CHECK: tt.load {{.*}} : tensor<64x16x!tt.ptr<f32>, #blocked>
// REMARK: remark: [xpu-narrow-masked-dims] a dim of 16 stored only below 1 kept: a reduction along it mixes or hides its indices
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @row_max(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32) {
    %c16 = arith.constant 16 : i64
    %one = arith.constant dense<1> : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %pid = tt.get_program_id x : i32
    %pid64 = arith.extsi %pid : i32 to i64
    %base = arith.muli %pid64, %c16 : i64
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r64 = arith.extsi %r : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> to tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %bs = tt.splat %base : i64 -> tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cols = arith.addi %bs, %r64 : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cmask = arith.cmpi slt, %cols, %one : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi64, #blocked>
    %cb = tt.broadcast %ce : tensor<1x16xi64, #blocked> -> tensor<64x16xi64, #blocked>
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %p0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %pr = tt.addptr %p0, %re : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %pb = tt.broadcast %pr : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x16x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %pb, %cb : tensor<64x16x!tt.ptr<f32>, #blocked>, tensor<64x16xi64, #blocked>
    %x = tt.load %p : tensor<64x16x!tt.ptr<f32>, #blocked>
    %red = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mm = arith.maxnumf %a, %b : f32
      tt.reduce.return %mm : f32
    }) : (tensor<64x16xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rx = tt.expand_dims %red {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xf32, #blocked>
    %rxb = tt.broadcast %rx : tensor<64x1xf32, #blocked> -> tensor<64x16xf32, #blocked>
    %me = tt.expand_dims %cmask {axis = 0 : i32} : tensor<16xi1, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi1, #blocked>
    %mb = tt.broadcast %me : tensor<1x16xi1, #blocked> -> tensor<64x16xi1, #blocked>
    %y = arith.subf %x, %rxb : tensor<64x16xf32, #blocked>
    %po = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %pq = tt.addptr %po, %re : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %pqb = tt.broadcast %pq : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x16x!tt.ptr<f32>, #blocked>
    %pc = tt.addptr %pqb, %cb : tensor<64x16x!tt.ptr<f32>, #blocked>, tensor<64x16xi64, #blocked>
    tt.store %pc, %y, %mb : tensor<64x16x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Columns spread over the lanes (16 lanes along them): narrowed, the lanes would replicate the one column, so the
// layout (every tensor in it now one column wide) moves its lanes to the rows.
// CHECK: #[[ROWS:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// REMARK: remark: [xpu-narrow-masked-dims] narrowed: a dim of 16 stored only below 1, on 14 values
// REMARK-NEXT: remark: [xpu-narrow-masked-dims] gathered: #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}> holds its dim 1 in one lane
// CHECK-LABEL: tt.func public @spread
// CHECK: tt.load {{.*}} : tensor<64x1x!tt.ptr<f32>, #[[ROWS]]>
// CHECK: (tensor<64x1xf32, #[[ROWS]]>) -> tensor<1xf32, #ttg.slice<{dim = 0, parent = #[[ROWS]]}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @spread(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32) {
    %c16 = arith.constant 16 : i64
    %one = arith.constant dense<1> : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %pid = tt.get_program_id x : i32
    %pid64 = arith.extsi %pid : i32 to i64
    %base = arith.muli %pid64, %c16 : i64
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r64 = arith.extsi %r : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> to tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %bs = tt.splat %base : i64 -> tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cols = arith.addi %bs, %r64 : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cmask = arith.cmpi slt, %cols, %one : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi64, #blocked>
    %cb = tt.broadcast %ce : tensor<1x16xi64, #blocked> -> tensor<64x16xi64, #blocked>
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %p0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %pr = tt.addptr %p0, %re : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %pb = tt.broadcast %pr : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x16x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %pb, %cb : tensor<64x16x!tt.ptr<f32>, #blocked>, tensor<64x16xi64, #blocked>
    %x = tt.load %p : tensor<64x16x!tt.ptr<f32>, #blocked>
    %red = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mm = arith.maxnumf %a, %b : f32
      tt.reduce.return %mm : f32
    }) : (tensor<64x16xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %po = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %pc = tt.addptr %po, %cols : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %pc, %red, %cmask : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}

// -----

// A load tagged for a 2D block message (its width is the tile's): the tile is kept.
// CHECK-LABEL: tt.func public @block_io_load
// CHECK: tt.load {{.*}} : tensor<64x16x!tt.ptr<f32>, #blocked>
// REMARK: remark: [xpu-narrow-masked-dims] a dim of 16 stored only below 1 kept: a 2D block access ('tt.load') mixes or hides its indices
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @block_io_load(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32) {
    %c16 = arith.constant 16 : i64
    %one = arith.constant dense<1> : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %pid = tt.get_program_id x : i32
    %pid64 = arith.extsi %pid : i32 to i64
    %base = arith.muli %pid64, %c16 : i64
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r64 = arith.extsi %r : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> to tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %bs = tt.splat %base : i64 -> tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cols = arith.addi %bs, %r64 : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cmask = arith.cmpi slt, %cols, %one : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi64, #blocked>
    %cb = tt.broadcast %ce : tensor<1x16xi64, #blocked> -> tensor<64x16xi64, #blocked>
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %p0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %pr = tt.addptr %p0, %re : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %pb = tt.broadcast %pr : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x16x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %pb, %cb : tensor<64x16x!tt.ptr<f32>, #blocked>, tensor<64x16xi64, #blocked>
    %x = tt.load %p {triton_intel_gpu.block_io = "row_major"} : tensor<64x16x!tt.ptr<f32>, #blocked>
    %red = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mm = arith.maxnumf %a, %b : f32
      tt.reduce.return %mm : f32
    }) : (tensor<64x16xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %po = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %pc = tt.addptr %po, %cols : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<16xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %pc, %red, %cmask : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}

// -----

// A store without a mask: every column is seen, nothing changes (and nothing is said).
// CHECK-LABEL: tt.func public @unmasked
// CHECK: tt.store {{.*}} : tensor<16x!tt.ptr<f32>, #blocked>
// REMARK-NOT: remark: [xpu-narrow-masked-dims]
#blocked = #ttg.blocked<{sizePerThread = [16], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @unmasked(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
    %p0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %p0, %r : tensor<16x!tt.ptr<f32>, #blocked>, tensor<16xi32, #blocked>
    %x = tt.load %p : tensor<16x!tt.ptr<f32>, #blocked>
    %y = math.exp %x : tensor<16xf32, #blocked>
    %po = tt.splat %arg1 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #blocked>
    %pc = tt.addptr %po, %r : tensor<16x!tt.ptr<f32>, #blocked>, tensor<16xi32, #blocked>
    tt.store %pc, %y : tensor<16x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
