// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions=never-worse-than-native=false --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// A DPAS B operand (128x128 f16 on 4 warps along M: every warp holds the whole tile, 32 KB a warp)
// loaded through a tensor of pointers tagged for 2D block reads whose addresses are the same on
// every row (a row pointer broadcast along K). The copies' registers share their addresses: the
// lowering gives them one pointer value and LLVM loads it once (at the ISA, in an f16 variant of
// Intel's hoist-convert-dot-operand chunk #3: 623 instructions, no spill, as triton-xpu's pass;
// with the load kept and converted: 5,415 instructions, 26,240 bytes of spill). What a lane holds
// apart is 128 elements: the load is recomputed in the B layout, its conversion goes.
// CHECK-LABEL: tt.func public @row_broadcast_b
// CHECK: %[[B:.*]] = tt.load %{{.*}} : tensor<128x128x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot %{{.*}}, %[[B]]
// (no remark on this function, lines 1-37, before @strided_b's)
// REMARK-NOT: broadcast-copies.mlir:{{([0-9]|[1-3][0-9])}}:
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @row_broadcast_b(%a: tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %bp: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %cols = tt.broadcast %e : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %s = tt.splat %bp : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked>
    %rows = tt.broadcast %s : tensor<128x1x!tt.ptr<f16>, #blocked> -> tensor<128x128x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %rows, %cols : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
    %b = tt.load %p {triton_intel_gpu.block_io = "row_major"} : tensor<128x128x!tt.ptr<f16>, #blocked>
    %bb = ttg.convert_layout %b : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %bb, %z : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #mma>
    tt.store %os, %d : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// The same load, rows apart by a stride (addresses differ on every row): each copy is loaded
// again, 1,024 elements a lane, over a warp's registers. The load keeps its layout, its
// conversion stays, and the remark says why.
// CHECK-LABEL: tt.func public @strided_b
// CHECK: %[[B:.*]] = tt.load %{{.*}} : tensor<128x128x!tt.ptr<f16>, #blocked>
// CHECK: ttg.convert_layout %[[B]] : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: tt.dot
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @strided_b(%a: tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %bp: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %stride = arith.constant dense<128> : tensor<128x1xi32, #blocked>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %cols = tt.broadcast %e : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %k = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %ke = tt.expand_dims %k {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %kr = arith.muli %ke, %stride : tensor<128x1xi32, #blocked>
    %kb = tt.broadcast %kr : tensor<128x1xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %off = arith.addi %kb, %cols : tensor<128x128xi32, #blocked>
    %s = tt.splat %bp : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %s, %off : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
    %b = tt.load %p {triton_intel_gpu.block_io = "row_major"} : tensor<128x128x!tt.ptr<f16>, #blocked>
    // REMARK: broadcast-copies.mlir:[[# @LINE + 1]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}(a tensor-of-pointer load keeps its layout (the target's copies of its elements overflow a warp's registers
    %bb = ttg.convert_layout %b : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %bb, %z : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #mma>
    tt.store %os, %d : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Row-broadcast addresses again, but a mask that differs on every row (a bound on K): the
// registers of one address are not one load. The load keeps its layout, as in @strided_b.
// CHECK-LABEL: tt.func public @row_broadcast_masked_b
// CHECK: %[[B:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<128x128x!tt.ptr<f16>, #blocked>
// CHECK: ttg.convert_layout %[[B]] : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @row_broadcast_masked_b(%a: tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %bp: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %cols = tt.broadcast %e : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %k = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %ke = tt.expand_dims %k {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<128x1xi32, #blocked>
    %in = arith.cmpi slt, %ke, %ns : tensor<128x1xi32, #blocked>
    %mask = tt.broadcast %in : tensor<128x1xi1, #blocked> -> tensor<128x128xi1, #blocked>
    %s = tt.splat %bp : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked>
    %rows = tt.broadcast %s : tensor<128x1x!tt.ptr<f16>, #blocked> -> tensor<128x128x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %rows, %cols : tensor<128x128x!tt.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
    %b = tt.load %p, %mask {triton_intel_gpu.block_io = "row_major"} : tensor<128x128x!tt.ptr<f16>, #blocked>
    // REMARK: broadcast-copies.mlir:[[# @LINE + 1]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}(a tensor-of-pointer load keeps its layout (the target's copies of its elements overflow a warp's registers
    %bb = ttg.convert_layout %b : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %bb, %z : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
    %os = tt.splat %o : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #mma>
    tt.store %os, %d : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}
