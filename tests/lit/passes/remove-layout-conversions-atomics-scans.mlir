// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x64x!tt.ptr<f32>, #mma>, tensor<64x64xf32, #mma>, tensor<64x64xi1, #mma>) -> tensor<64x64xf32, #mma>
// ORACLE-COUNT-5: // -----

// Split-K epilogue: the DPAS accumulator is added atomically. The atomic takes the
// DPAS layout like a store (its addresses and mask are recomputed in it), so the
// conversion (an SLM round trip of the whole tile) is gone.
// CHECK-LABEL: tt.func public @atomic_add_epilogue
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{[a-z0-9_#]+}}, %{{.*}} : (tensor<64x64x!tt.ptr<f32>, #mma>, tensor<64x64xf32, #mma>, tensor<64x64xi1, #mma>) -> tensor<64x64xf32, #mma>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @atomic_add_epilogue(%c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %stride: i32 {tt.divisibility = 16 : i32}, %acc: tensor<64x64xf32, #mma>) {
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ld = tt.splat %stride : i32 -> tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %ld : tensor<64x1xi32, #blocked>
    %base = tt.splat %c : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %lim = tt.splat %m : i32 -> tensor<64x1xi32, #blocked>
    %in = arith.cmpi slt, %rows, %lim : tensor<64x1xi32, #blocked>
    %mask = tt.broadcast %in : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %v = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %ptrs, %v, %mask : (tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xi1, #blocked>) -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

// Negative: an atomic runs only in a blocked or DPAS layout (Intel's rule), so a
// value in a slice layout is converted for it; recomputing the argument is no
// cheaper.
// CHECK-LABEL: tt.func public @atomic_needs_blocked
// CHECK: ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked>
// CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert {{.*}}(a function argument is converted); forward: a user 'tt.atomic_rmw' cannot take the source layout
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @atomic_needs_blocked(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %x: tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    %v = ttg.convert_layout %x : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %ptrs, %v : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    tt.return
  }
}

// -----

// A prefix sum along rows: the load's coalesced layout flows through tt.scan into
// the store (as native does), where keeping the scan in the other layout left two
// conversions; in the load's layout one warp holds each row, so the scan needs no
// scratch either.
// CHECK-LABEL: tt.func public @cumsum_rows
// CHECK-NOT: ttg.convert_layout
// CHECK: "tt.scan"(%{{[a-z0-9_#]+}}) <{axis = 1 : i32, reverse = false}>
// CHECK: (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @cumsum_rows(%in: tensor<64x64x!tt.ptr<f32>, #blocked>, %out: tensor<64x64x!tt.ptr<f32>, #blocked>) {
    %x = tt.load %in : tensor<64x64x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %s = "tt.scan"(%y) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<64x64xf32, #blocked1>) -> tensor<64x64xf32, #blocked1>
    %z = ttg.convert_layout %s : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %out, %z : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Negative: the scan's result leaves the function in its own layout, so the scan in
// its source's layout would need a conversion at the return (and more scan scratch);
// recomputing the argument is no cheaper.
// CHECK-LABEL: tt.func public @cumsum_returned
// CHECK: ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
// CHECK: "tt.scan"(%{{[a-z0-9_#]+}}) <{axis = 0 : i32, reverse = false}>
// CHECK: (tensor<64x64xf32, #blocked1>) -> tensor<64x64xf32, #blocked1>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert 16384 weighted bytes to save 16384 (a function argument is converted); forward would convert 17408 weighted bytes to save 16384
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @cumsum_returned(%x: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked1> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %s = "tt.scan"(%y) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<64x64xf32, #blocked1>) -> tensor<64x64xf32, #blocked1>
    tt.return %s : tensor<64x64xf32, #blocked1>
  }
}

// -----

// Negative: triton-xpu lowers scans only in blocked layouts, so a prefix sum of a
// DPAS accumulator keeps its conversion (forward propagation stops at the scan).
// CHECK-LABEL: tt.func public @cumsum_of_dpas
// CHECK: %[[B:.*]] = ttg.convert_layout %{{[a-z0-9_#]+}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: "tt.scan"(%[[B]]) <{axis = 1 : i32, reverse = false}>
// CHECK: (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward: a user 'tt.scan' cannot take the source layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @cumsum_of_dpas(%acc: tensor<64x64xf32, #mma>, %out: tensor<64x64x!tt.ptr<f32>, #blocked>) {
    %y = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %s = "tt.scan"(%y) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    tt.store %out, %s : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// With block pointers (raised prefix sum): retyping the load's block pointer to the
// scan's layout (the anchoring rule) would keep the scan where several warps share
// a row (scratch) and a conversion before the store; the whole solution without
// that anchoring is cheaper: the scan runs in the loaded layout and both
// conversions go.
// CHECK: #[[L:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @cumsum_block_pointers
// CHECK-NOT: ttg.convert_layout
// CHECK: "tt.scan"(%{{[a-z0-9_#]+}}) <{axis = 1 : i32, reverse = false}>
// CHECK: (tensor<64x64xf32, #[[L]]>) -> tensor<64x64xf32, #[[L]]>
// CHECK: tt.store %{{[a-z0-9_#]+}}, %{{.*}} : !tt.ptr<tensor<64x64xf32, #[[L]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @cumsum_block_pointers(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %m: i64, %s: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %in = tt.make_tensor_ptr %a, [%m, %c64], [%s, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #blocked>>
    %out = tt.make_tensor_ptr %b, [%m, %c64], [%s, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #blocked>>
    %x = tt.load %in : !tt.ptr<tensor<64x64xf32, #blocked>>
    %y = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %r = "tt.scan"(%y) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      tt.scan.return %t : f32
    }) : (tensor<64x64xf32, #blocked1>) -> tensor<64x64xf32, #blocked1>
    %z = ttg.convert_layout %r : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %out, %z : !tt.ptr<tensor<64x64xf32, #blocked>>
    tt.return
  }
}
