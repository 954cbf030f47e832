// -xpu-split-fma-dots (transforms/split_fma_dots.py): a dot lowered to FMAs (a blocked result: f32 operands
// without tf32) whose SLM-staged operands and accumulator take more than max-live-bytes per lane, computed as a
// chain of dots over K chunks of the staged buffers, in K order (the FMAs of the whole dot, in its order).
// 64x64 * 64x32 on 2 warps of 32 lanes: a lane holds 8 rows x K of A, K x 4 columns of B, 8x4 of C: 3,200 bytes;
// a chunk of 4 along K takes 320. (No --verify-semantics: the interpreter rounds a tt.dot once, from an f64 sum,
// where triton-xpu's FMA lowering rounds at each k, the order the chain keeps.)
// RUN: xpu-opt %s --split-input-file --xpu-split-fma-dots --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --xpu-split-fma-dots=max-work-per-op=1 --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET
// RUN: xpu-opt %s --split-input-file --xpu-split-fma-dots=max-live-bytes=4096 | FileCheck %s --check-prefix=WIDE

// BUDGET: remark: [xpu-split-fma-dots] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
// WIDE-NOT: ttg.memdesc_subview

// REMARK: remark: [xpu-split-fma-dots] split: K 64 in chunks of 4 (320 bytes per lane, not 3200)
// CHECK-LABEL: tt.func public @triangular
// CHECK: %[[A:.*]] = ttg.local_alloc
// CHECK: %[[B:.*]] = ttg.local_alloc
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: %[[SA:.*]] = ttg.memdesc_subview %[[A]][%[[Z]], %[[Z]]] : !ttg.memdesc<64x64xf32, #shared, #smem> -> !ttg.memdesc<64x4xf32, #shared, #smem>
// CHECK: %[[SB:.*]] = ttg.memdesc_subview %[[B]][%[[Z]], %[[Z]]] : !ttg.memdesc<64x32xf32, #shared, #smem> -> !ttg.memdesc<4x32xf32, #shared, #smem>
// CHECK: %[[LA:.*]] = ttg.local_load %[[SA]] : {{.*}} -> tensor<64x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %[[LB:.*]] = ttg.local_load %[[SB]] : {{.*}} -> tensor<4x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %[[D0:.*]] = tt.dot %[[LA]], %[[LB]], %cst
// CHECK: %[[K4:.*]] = arith.constant 4 : i32
// CHECK: ttg.memdesc_subview %[[A]][%[[Z]], %[[K4]]]
// CHECK: ttg.memdesc_subview %[[B]][%[[K4]], %[[Z]]]
// CHECK: %[[D1:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[D0]]
// CHECK-COUNT-14: tt.dot
// CHECK-NOT: tt.dot
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @triangular(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %c32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
    %rm = arith.muli %re, %c32 : tensor<64x1xi32, #blocked1>
    %rb = tt.broadcast %rm : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %cb = tt.broadcast %ce : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %off = arith.addi %rb, %cb : tensor<64x32xi32, #blocked1>
    %p = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked1>
    %pp = tt.addptr %p, %off : tensor<64x32x!tt.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    %x = tt.load %pp : tensor<64x32x!tt.ptr<f32>, #blocked1>
    %ones = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked1>
    %a = ttg.local_alloc %ones : (tensor<64x64xf32, #blocked1>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    %b = ttg.local_alloc %x : (tensor<64x32xf32, #blocked1>) -> !ttg.memdesc<64x32xf32, #shared, #smem>
    %la = ttg.local_load %a : !ttg.memdesc<64x64xf32, #shared, #smem> -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %lb = ttg.local_load %b : !ttg.memdesc<64x32xf32, #shared, #smem> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %la, %lb, %cst : tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x32xf32, #blocked>
    %dc = ttg.convert_layout %d : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked1>
    %q = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked1>
    %qq = tt.addptr %q, %off : tensor<64x32x!tt.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    tt.store %qq, %dc : tensor<64x32x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// An operand load with another use (its whole tile is needed anyway): the dot is kept whole.
// REMARK: remark: [xpu-split-fma-dots] FMA dot over 64 kept whole: an operand load with another use
// CHECK-LABEL: tt.func public @shared_operand
// CHECK-NOT: ttg.memdesc_subview
// CHECK-COUNT-2: tt.dot %{{.*}} : tensor<64x64xf32
// CHECK-NOT: tt.dot
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_operand(%arg0: !tt.ptr<f32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #blocked>
    %ones = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked1>
    %twos = arith.constant dense<2.000000e+00> : tensor<64x32xf32, #blocked1>
    %a = ttg.local_alloc %ones : (tensor<64x64xf32, #blocked1>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    %b = ttg.local_alloc %twos : (tensor<64x32xf32, #blocked1>) -> !ttg.memdesc<64x32xf32, #shared, #smem>
    %la = ttg.local_load %a : !ttg.memdesc<64x64xf32, #shared, #smem> -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %lb = ttg.local_load %b : !ttg.memdesc<64x32xf32, #shared, #smem> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %la, %lb, %cst : tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x32xf32, #blocked>
    %e = tt.dot %la, %lb, %d : tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x32xf32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rb = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %q = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    %qq = tt.addptr %q, %rb : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    tt.store %qq, %e : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Operands loaded from mutable buffers (a store could come between the load and the dot): kept whole.
// REMARK: remark: [xpu-split-fma-dots] FMA dot over 64 kept whole: an operand loaded from a mutable buffer
// CHECK-LABEL: tt.func public @mutable_buffers
// CHECK-NOT: ttg.memdesc_subview
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mutable_buffers(%arg0: !tt.ptr<f32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #blocked>
    %ones = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked1>
    %twos = arith.constant dense<2.000000e+00> : tensor<64x32xf32, #blocked1>
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    ttg.local_store %ones, %a : tensor<64x64xf32, #blocked1> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    ttg.local_store %twos, %b : tensor<64x32xf32, #blocked1> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %la = ttg.local_load %a : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %lb = ttg.local_load %b : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %la, %lb, %cst : tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x32xf32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rb = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %q = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    %qq = tt.addptr %q, %rb : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    tt.store %qq, %d : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
