// -xpu-early-slm-conversions (transforms/early_slm_conversions.py): a conversion through SLM made right after
// its operand, above the global loads it does not read (its barrier then comes before them: IGC does not move
// memory messages across it). A 64-element row scale is converted into the rows of a 64x64 tile loaded after it
// as a dot's B operand (`#blocked2` here is that operand's layout).
// RUN: xpu-opt %s --split-input-file --xpu-early-slm-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --xpu-early-slm-conversions --verify-semantics="arg0=64,arg1=4096,arg2=4096,grid=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: xpu-opt %s --split-input-file --xpu-early-slm-conversions=max-work-per-op=1 --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET

// BUDGET: remark: [xpu-early-slm-conversions] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
// SEM-NOT: error
// SEM-COUNT-8: remark: [verify-semantics] equal on
// SEM-NOT: error

// CHECK-LABEL: tt.func public @scale_rows
// CHECK: %[[V:.*]] = tt.load %{{.*}} : tensor<64x!tt.ptr<f16>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[V]]
// CHECK: %[[T:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.expand_dims %[[C]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
#blocked2 = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @scale_rows(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %10 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}

// -----

// Two conversions, the second stopped by the first (a barrier of its own) whose operand is loaded between the
// first's: the first moves up to its operand, the second to where the first was, after its own operand.
// CHECK-LABEL: tt.func public @two_scales
// CHECK: %[[A:.*]] = tt.load %{{.*}} : tensor<64x!tt.ptr<f16>
// CHECK-NEXT: ttg.convert_layout %[[A]]
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
// CHECK-NEXT: %[[X:.*]] = tt.load %{{.*}} : tensor<64x!tt.ptr<f16>
// CHECK-NEXT: ttg.convert_layout %[[X]]
// CHECK-NEXT: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
#blocked2 = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @two_scales(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %x = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %t2 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %y = ttg.convert_layout %x : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %ye = tt.expand_dims %y {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %yb = tt.broadcast %ye : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %m1 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %m2 = arith.mulf %t2, %yb : tensor<64x64xf16, #blocked2>
    %10 = arith.addf %m1, %m2 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}

// -----

// A store between the tile's load and the conversion: it stays (it would pass the store), and says why.
// CHECK-LABEL: tt.func public @store_between
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
// CHECK-NEXT: tt.store
// CHECK-NEXT: ttg.convert_layout
// REMARK: remark: [xpu-early-slm-conversions] left: an op that writes memory, has regions or uses SLM ('tt.store') stops it
// REMARK-NOT: remark: [xpu-early-slm-conversions]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
#blocked2 = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @store_between(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %zero = arith.constant dense<0.0> : tensor<64x64xf16, #blocked2>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.store %5, %zero : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %10 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}

// -----

// A store right after the vector's load, above the tile's: the conversion moves to right after the store (the
// vector's store reads it: stores of the same buffer keep their order with the loads; only the conversion moves).
// CHECK-LABEL: tt.func public @store_before_loads
// CHECK: tt.store
// CHECK-NEXT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
#blocked2 = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @store_before_loads(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    tt.store %2, %3 : tensor<64x!tt.ptr<f16>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %10 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}

// -----

// The vector loaded after the tile: nothing to pass.
// CHECK-LABEL: tt.func public @operand_after
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
// CHECK: tt.load %{{.*}} : tensor<64x!tt.ptr<f16>
// CHECK-NEXT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
#blocked2 = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @operand_after(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %10 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}

// -----

// A reduction between (an op with regions, a barrier of its own) stops it, the tile's load still after: it moves
// to right after the reduction.
// CHECK-LABEL: tt.func public @reduce_between
// CHECK: tt.reduce.return
// CHECK-NEXT: })
// CHECK-NEXT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
#blocked2 = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @reduce_between(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %red = "tt.reduce"(%3) <{axis = 0 : i32}> ({
    ^bb0(%a: f16, %b: f16):
      %m = arith.maxnumf %a, %b : f16
      tt.reduce.return %m : f16
    }) : (tensor<64xf16, #blocked>) -> f16
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %rsplat = tt.splat %red : f16 -> tensor<64xf16, #blocked>
    %radd = arith.addf %3, %rsplat : tensor<64xf16, #blocked>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %10 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}

// -----

// The tile in a blocked layout (no DPAS tile nor dot operand): nothing moves (measured: no gain there, fla's
// chunk_dplr_fwd_A_kernel_intra_sub_intra spilled more).
// CHECK-LABEL: tt.func public @blocked_tile
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
// CHECK-NEXT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @blocked_tile(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %10 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}

// -----

// The tile an A operand (opIdx 0): nothing moves (measured: fla's chunk_scaled_dot_comba_pkt_fwd spilled 2,688 B
// where native spilled none).
// CHECK-LABEL: tt.func public @a_operand_tile
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
// CHECK-NEXT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>
#blocked2 = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @a_operand_tile(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.load %2 : tensor<64x!tt.ptr<f16>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
    %rm = arith.muli %re, %c64 : tensor<64x1xi32, #blocked2>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked2>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %5 = tt.addptr %4, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %6 = tt.load %5 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    %7 = ttg.convert_layout %3 : tensor<64xf16, #blocked> -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xf16, #blocked2>
    %9 = tt.broadcast %8 : tensor<64x1xf16, #blocked2> -> tensor<64x64xf16, #blocked2>
    %10 = arith.mulf %6, %9 : tensor<64x64xf16, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %12 = tt.addptr %11, %off : tensor<64x64x!tt.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    tt.store %12, %10 : tensor<64x64x!tt.ptr<f16>, #blocked2>
    tt.return
  }
}
