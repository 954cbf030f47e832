// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE-COUNT-2: // -----

// A value already recomputed in a layout is read from that copy by the next slice that
// needs it there (native's remat mapping): one chain in #B, not one per conversion, and
// the chain in #A left dead goes.
// CHECK-LABEL: tt.func public @copies_reused
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[R:[0-9]+]] = tt.make_range {{.*}} : tensor<128xi32, #[[B:blocked[0-9]*]]>
// CHECK-NOT: tt.make_range
// CHECK: %[[X:[0-9]+]] = arith.muli %[[R]], %[[R]] : tensor<128xi32, #[[B]]>
// CHECK-NOT: arith.muli
// CHECK: arith.addi %[[X]], %[[R]] : tensor<128xi32, #[[B]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#A = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @copies_reused(%pa: tensor<128x!tt.ptr<i32>, #B>, %pb: tensor<128x!tt.ptr<i32>, #B>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #A>
    %x = arith.muli %r, %r : tensor<128xi32, #A>
    %c1 = ttg.convert_layout %x : tensor<128xi32, #A> -> tensor<128xi32, #B>
    tt.store %pa, %c1 : tensor<128x!tt.ptr<i32>, #B>
    %y = arith.addi %x, %r : tensor<128xi32, #A>
    %c2 = ttg.convert_layout %y : tensor<128xi32, #A> -> tensor<128xi32, #B>
    tt.store %pb, %c2 : tensor<128x!tt.ptr<i32>, #B>
    tt.return
  }
}

// -----

// A copy of a copy is a copy of the first value: %z is computed from %x's copy in #B, and
// its slice into #C reads the copy of %x the earlier conversion to #C made.
// CHECK-LABEL: tt.func public @copy_of_a_copy
// CHECK-SAME: #[[B:blocked[0-9]*]]>, %{{[a-z0-9]+}}: tensor<128x!tt.ptr<i32>, #[[C:blocked[0-9]*]]>
// CHECK-COUNT-2: tt.make_range
// CHECK-NOT: tt.make_range
// CHECK: %[[XC:[0-9]+]] = arith.muli %{{[0-9]+}}, %{{[0-9]+}} : tensor<128xi32, #[[C]]>
// CHECK-NOT: arith.muli
// CHECK: arith.addi %[[XC]], %[[XC]] : tensor<128xi32, #[[C]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#A = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#C = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @copy_of_a_copy(%pb: tensor<128x!tt.ptr<i32>, #B>, %pc: tensor<128x!tt.ptr<i32>, #C>, %pz: tensor<128x!tt.ptr<i32>, #C>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #A>
    %x = arith.muli %r, %r : tensor<128xi32, #A>
    %c1 = ttg.convert_layout %x : tensor<128xi32, #A> -> tensor<128xi32, #B>
    tt.store %pb, %c1 : tensor<128x!tt.ptr<i32>, #B>
    %c2 = ttg.convert_layout %x : tensor<128xi32, #A> -> tensor<128xi32, #C>
    tt.store %pc, %c2 : tensor<128x!tt.ptr<i32>, #C>
    %z = arith.addi %c1, %c1 : tensor<128xi32, #B>
    %cz = ttg.convert_layout %z : tensor<128xi32, #B> -> tensor<128xi32, #C>
    tt.store %pz, %cz : tensor<128x!tt.ptr<i32>, #C>
    tt.return
  }
}

// -----

// Negative: inside a loop copies are not read (there reuse steered the greedy order away
// from a cheaper loop-carried solution on flash attention): each conversion gets its own chain.
// CHECK-LABEL: tt.func public @copies_in_a_loop
// CHECK: scf.for
// CHECK-COUNT-2: tt.make_range {{.*}} : tensor<128xi32, #[[B:blocked[0-9]*]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#A = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @copies_in_a_loop(%pa: tensor<128x!tt.ptr<i32>, #B>, %pb: tensor<128x!tt.ptr<i32>, #B>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1_i32  : i32 {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #A>
      %x = arith.muli %r, %r : tensor<128xi32, #A>
      %c1 = ttg.convert_layout %x : tensor<128xi32, #A> -> tensor<128xi32, #B>
      tt.store %pa, %c1 : tensor<128x!tt.ptr<i32>, #B>
      %y = arith.addi %x, %r : tensor<128xi32, #A>
      %c2 = ttg.convert_layout %y : tensor<128xi32, #A> -> tensor<128xi32, #B>
      tt.store %pb, %c2 : tensor<128x!tt.ptr<i32>, #B>
    }
    tt.return
  }
}
