// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked>
// ORACLE-COUNT-12: // -----

// GEMM epilogue through a tensor of pointers masked per row: in its blocked layout
// each lane reads 4 contiguous f32 per message (16 bytes); recomputed in the DPAS
// layout (one column per lane) it would read one per message: 3,072 more
// lane-messages, which cost more than the conversion (16 KB through SLM), so the
// conversion is kept (remove-layout-conversions-memory.mlir: where moving is free).
// CHECK-LABEL: tt.func public @masked_epilogue
// CHECK: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[D]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK-NEXT: arith.addf %arg3, %[[C]] : tensor<64x64xf32, #mma>
// REMARK: remove-layout-conversions.mlir:[[# @LINE + 21]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would not make the module cheaper
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @masked_epilogue(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %stride: i32 {tt.divisibility = 16 : i32}, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ld = tt.splat %stride : i32 -> tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %ld : tensor<64x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %lim = tt.splat %m : i32 -> tensor<64x1xi32, #blocked>
    %in = arith.cmpi slt, %rows, %lim : tensor<64x1xi32, #blocked>
    %mask = tt.broadcast %in : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %x = tt.load %ptrs, %mask, %zero : tensor<64x64x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %z = arith.addf %acc, %y : tensor<64x64xf32, #mma>
    tt.return %z : tensor<64x64xf32, #mma>
  }
}

// -----

// Block pointers take the layout their loads are converted to (loop-carried A
// and B of a GEMM) and their stores receive (C): no conversion is left.
// CHECK-LABEL: tt.func public @block_pointer_anchors
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_tensor_ptr %{{.*}} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: scf.for
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: tt.advance %{{.*}} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: tt.make_tensor_ptr %{{.*}} : <tensor<64x64xf32, #mma>>
// CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<64x64xf32, #mma>>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @block_pointer_anchors(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %c128 = arith.constant 128 : i32
    %c1 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%n, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
    %r:2 = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %acc0, %p = %pa) -> (tensor<64x64xf32, #mma>, !tt.ptr<tensor<64x32xf16, #blocked>>)  : i32 {
      %x = tt.load %p {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
      %xa = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %dd = tt.dot %xa, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %np = tt.advance %p, [%c0, %c32] : <tensor<64x32xf16, #blocked>>
      scf.yield %dd, %np : tensor<64x64xf32, #mma>, !tt.ptr<tensor<64x32xf16, #blocked>>
    }
    %pc = tt.make_tensor_ptr %c, [%n, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #blocked1>>
    %out = ttg.convert_layout %r#0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
    tt.store %pc, %out : !tt.ptr<tensor<64x64xf32, #blocked1>>
    tt.return
  }
}

// -----

// Negative: a reduction's result cannot be produced in another layout by
// recomputation here, so its conversion stays, with the reason.
// CHECK-LABEL: tt.func public @reduction_needs_blocked
// CHECK: "tt.reduce"
// CHECK: ttg.convert_layout %{{.*}} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert 256 weighted bytes to save 256 ('tt.reduce' cannot produce the target layout)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @reduction_needs_blocked(%x: tensor<64x64xf32, #blocked>, %o: tensor<64x!tt.ptr<f32>, #blocked1>) {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = ttg.convert_layout %s : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
    tt.store %o, %c : tensor<64x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// Inside a loop, a round trip blocked -> mma -> blocked around elementwise work
// is recomputed in the loop-carried layout; conversions to the same layout and
// chains of conversions fold.
// CHECK-LABEL: tt.func public @round_trips
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %arg1)
// CHECK-NEXT: arith.addf %[[ACC]], %[[ACC]] : tensor<64x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return %arg1 : tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @round_trips(%n: i32, %x: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf32, #blocked>)  : i32 {
      %m = ttg.convert_layout %acc : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %s = arith.addf %m, %m : tensor<64x64xf32, #mma>
      %b = ttg.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      scf.yield %b : tensor<64x64xf32, #blocked>
    }
    %same = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
    %there = ttg.convert_layout %same : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %back = ttg.convert_layout %there : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.return %back : tensor<64x64xf32, #blocked>
  }
}

// -----

// A blocked loop-carried accumulator feeding tt.dot: the iter_arg, its yield
// and the loop result are retyped to DPAS; the only conversions left run once,
// before and after the loop, instead of two per iteration.
// CHECK-LABEL: tt.func public @loop_carried_dot
// CHECK: %[[X:.*]] = ttg.convert_layout %arg1 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %[[X]]) -> (tensor<64x64xf32, #mma>)
// CHECK-NEXT: %[[D:.*]] = tt.dot %arg2, %arg3, %[[ACC]]
// CHECK-NEXT: scf.yield %[[D]] : tensor<64x64xf32, #mma>
// CHECK: ttg.convert_layout %[[R]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert 16384 weighted bytes to save 16384 (a function argument is converted); forward would convert 262144 weighted bytes to save 16384 ('tt.dot' cannot produce the target layout)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @loop_carried_dot(%n: i32, %x: tensor<64x64xf32, #blocked>, %a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) -> tensor<64x64xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf32, #blocked>)  : i32 {
      %m = ttg.convert_layout %acc : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %d = tt.dot %a, %b, %m, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %back = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      scf.yield %back : tensor<64x64xf32, #blocked>
    }
    tt.return %r : tensor<64x64xf32, #blocked>
  }
}

// -----

// Negative (Intel rule): a load through a tensor of pointers whose row pitch is
// not provably 16-byte aligned cannot be a 2D block read, so it is not re-issued
// in the DPAS layout (that would be a gather); its conversion stays.
// CHECK-LABEL: tt.func public @gather_keeps_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK: ttg.convert_layout %[[X]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}(a gather load keeps its layout (not provably a 2D block read))
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @gather_keeps_layout(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ld = tt.splat %stride : i32 -> tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %ld : tensor<64x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %x = tt.load %ptrs : tensor<64x64x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %z = arith.addf %acc, %y : tensor<64x64xf32, #mma>
    tt.return %z : tensor<64x64xf32, #mma>
  }
}

// -----

// Forward propagation: the DPAS result of a dot is converted to blocked for an
// elementwise epilogue and a store through a tensor of pointers masked per column
// (one-element messages in any layout). The epilogue, the store, its pointers and
// its mask all take the DPAS layout.
// CHECK-LABEL: tt.func public @forward_to_store
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[T:.*]] = arith.truncf %arg2 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
// CHECK: tt.store %{{.*}}, %[[T]], %{{.*}} : tensor<64x64x!tt.ptr<f16>, #mma>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @forward_to_store(%c: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32, %d: tensor<64x64xf32, #mma>) {
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %c64 : tensor<64x1xi32, #blocked>
    %base = tt.splat %c : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %lim = tt.splat %m : i32 -> tensor<1x64xi32, #blocked>
    %in = arith.cmpi slt, %cols, %lim : tensor<1x64xi32, #blocked>
    %mask = tt.broadcast %in : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %b = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %t = arith.truncf %b : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tt.store %ptrs, %t, %mask : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Negative: forward propagation stops at a user that needs its own layout
// (tt.dot takes dot operands), and backward cannot recompute a dot result.
// CHECK-LABEL: tt.func public @forward_blocked_by_dot
// CHECK: ttg.convert_layout %0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert {{.*}}('tt.dot' cannot produce the target layout)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @forward_blocked_by_dot(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %x = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %x : tensor<64x64xf32, #blocked>
  }
}

// -----

// A reduction is recomputed from an operand in the parent of the wanted slice
// layout: the row sums of a DPAS tile are taken in DPAS, no conversion left.
// CHECK-LABEL: tt.func public @reduce_in_dpas
// CHECK-NOT: ttg.convert_layout
// CHECK: "tt.reduce"(%arg0) <{axis = 1 : i32}>
// CHECK: (tensor<64x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @reduce_in_dpas(%acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %x = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.maxnumf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m = ttg.convert_layout %s : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %e = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64x1xf32, #mma>
    %b = tt.broadcast %e : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
    %y = arith.subf %acc, %b : tensor<64x64xf32, #mma>
    tt.return %y : tensor<64x64xf32, #mma>
  }
}

// -----

// scf.if: both branches yield values that can be produced in DPAS (a splat
// constant, a 2D-block-capable load masked per column: one-element messages in any
// layout, so moving it adds none), so the if's result is retyped and the
// conversion after it is gone.
// CHECK-LABEL: tt.func public @over_if
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.if %{{.*}} -> (tensor<64x64xf32, #mma>)
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK: arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @over_if(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %flag: i1, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %c64 : tensor<64x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %lim = tt.splat %n : i32 -> tensor<1x64xi32, #blocked>
    %cin = arith.cmpi slt, %cols, %lim : tensor<1x64xi32, #blocked>
    %cm = tt.broadcast %cin : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %v = scf.if %flag -> (tensor<64x64xf32, #blocked>) {
      %x = tt.load %ptrs, %cm : tensor<64x64x!tt.ptr<f32>, #blocked>
      scf.yield %x : tensor<64x64xf32, #blocked>
    } else {
      %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
      scf.yield %z : tensor<64x64xf32, #blocked>
    }
    %y = ttg.convert_layout %v : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %s = arith.addf %acc, %y : tensor<64x64xf32, #mma>
    tt.return %s : tensor<64x64xf32, #mma>
  }
}

// -----

// A conversion of a loop-invariant value that cannot be recomputed (a function
// argument) is hoisted out of the loop: it runs once instead of every iteration.
// CHECK-LABEL: tt.func public @hoist_out_of_loop
// CHECK: %[[H:.*]] = ttg.convert_layout %arg1 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %arg2)
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.addf %[[ACC]], %[[H]] : tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @hoist_out_of_loop(%n: i32, %x: tensor<64x64xf32, #blocked>, %init: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32, #mma>)  : i32 {
      %m = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %s = arith.addf %acc, %m : tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Forward propagation through a full reduction (softmax row): the coalesced
// layout of the load flows through the reduction, the splat of its result, the
// elementwise ops and into the store; the store's pointers and mask are
// recomputed in it. Nothing is converted any more.
// CHECK-LABEL: tt.func public @softmax_row
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[X:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK: "tt.reduce"(%[[X]]) <{axis = 0 : i32}>
// CHECK: math.exp %{{.*}} : tensor<1024xf32, #blocked>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @softmax_row(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32, #blocked>
    %offs = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %lim = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %lim : tensor<1024xi32, #blocked>
    %base = tt.splat %in : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %x = tt.load %ptrs, %mask, %ninf : tensor<1024x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    %m = "tt.reduce"(%y) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<1024xf32, #blocked1>) -> f32
    %ms = tt.splat %m : f32 -> tensor<1024xf32, #blocked1>
    %d = arith.subf %y, %ms : tensor<1024xf32, #blocked1>
    %e = math.exp %d : tensor<1024xf32, #blocked1>
    %offs1 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked1>
    %lim1 = tt.splat %n : i32 -> tensor<1024xi32, #blocked1>
    %mask1 = arith.cmpi slt, %offs1, %lim1 : tensor<1024xi32, #blocked1>
    %obase = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %optrs = tt.addptr %obase, %offs1 : tensor<1024x!tt.ptr<f32>, #blocked1>, tensor<1024xi32, #blocked1>
    tt.store %optrs, %e, %mask1 : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}


// -----

// The cost model asks the layout algebra: a conversion that only renames
// registers (here #lin is #blocked with two register bases swapped) needs no
// SLM and is counted at 1/8 of its 4096 elements; it stays, as there is
// nothing cheaper to do.
// CHECK-LABEL: tt.func public @register_rename
// CHECK: ttg.convert_layout %arg0 : tensor<64x64xf32, #linear> -> tensor<64x64xf32, #blocked>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert 2048 weighted bytes to save 2048 (a function argument is converted)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#lin = #ttg.linear<{register = [[0, 2], [0, 1], [4, 0], [8, 0], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], [0, 16], [0, 32]], warp = [[1, 0], [2, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @register_rename(%x: tensor<64x64xf32, #lin>) -> tensor<64x64xf32, #blocked> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #lin> -> tensor<64x64xf32, #blocked>
    tt.return %y : tensor<64x64xf32, #blocked>
  }
}
