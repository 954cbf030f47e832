// -tritonintelgpu-reduce-variable-liveness, our step 5 (transforms/straight_operand_loads.py; off by default: OFF
// below, the input as it is): outside loops, a dot's B operand tile's load is made right before its first user
// instead of above the dots it does not feed (IGC holds it across them), where that lowers the block's estimated
// register peak. It passes pure ops, reads and SLM allocations, not a dot of the other operand of the dot it
// feeds, not an op that writes memory (a barrier), and keeps its order among the loads beside it. At the ISA:
// fla chunk_bwd_kernel_dqkwg (simple GLA) w4 32,896 -> 15,360 spill bytes, 12,988 -> 11,623 instructions.
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness="sink-straight-loads=true" --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness | FileCheck %s --check-prefix=OFF
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness="sink-straight-loads=true" --verify-semantics="arg0=2048,arg1=4096,arg2=2048,arg3=4096,arg4=2048,grid=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-5: remark: [verify-semantics] equal on
// SEM-NOT: error

// The second dot's B tile is loaded with the first dot's tiles, above it: it moves below it (A2's, an A tile,
// stays; per lane, 1 warp: A 256 B, B 512 B, the result 512 B; the peak, all four tiles, 1,536 -> 1,280 B).
// CHECK-LABEL: tt.func public @two_dots
// CHECK: %[[A:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<32x64xf16
// CHECK-NEXT: %[[B:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<64x64xf16
// CHECK-NEXT: %[[A2:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<32x64xf16
// CHECK-NEXT: %[[X:.*]] = tt.dot %[[A]], %[[B]]
// CHECK-NEXT: %[[B2:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<64x64xf16
// CHECK-NEXT: tt.dot %[[A2]], %[[B2]], %[[X]]
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand load sunk to its first user (estimated peak 1536 -> 1280 B per lane)
// REMARK-NOT: sunk
// OFF-LABEL: tt.func public @two_dots
// OFF: tt.load
// OFF-NEXT: tt.load
// OFF-NEXT: tt.load
// OFF-NEXT: tt.load
// OFF-NEXT: tt.dot
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @two_dots(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f16>, %arg4: !tt.ptr<f32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %ap = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %bp = tt.make_tensor_ptr %arg1, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %a2p = tt.make_tensor_ptr %arg2, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %b2p = tt.make_tensor_ptr %arg3, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %a = tt.load %ap : !tt.ptr<tensor<32x64xf16, #dA>>
    %b = tt.load %bp : !tt.ptr<tensor<64x64xf16, #dB>>
    %a2 = tt.load %a2p : !tt.ptr<tensor<32x64xf16, #dA>>
    %b2 = tt.load %b2p : !tt.ptr<tensor<64x64xf16, #dB>>
    %x = tt.dot %a, %b, %cst, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %y = tt.dot %a2, %b2, %x, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %op = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %op, %y : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}

// -----

// Two dots of one A tile (q @ h, q @ k): k's tile is not moved past the dot of q @ h, and h's tile passes only a
// load (the loads keep their order).
// CHECK-LABEL: tt.func public @shared_operand
// CHECK: %[[Q:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<32x64xf16
// CHECK-NEXT: %[[H:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<64x64xf16
// CHECK-NEXT: %[[K:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<64x64xf16
// CHECK-NEXT: %[[O:.*]] = tt.dot %[[Q]], %[[H]]
// CHECK-NEXT: tt.dot %[[Q]], %[[K]], %[[O]]
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand load left: a dot of its dot's other operand before its first user
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @shared_operand(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f16>, %arg4: !tt.ptr<f32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %qp = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %hp = tt.make_tensor_ptr %arg1, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %kp = tt.make_tensor_ptr %arg3, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %q = tt.load %qp : !tt.ptr<tensor<32x64xf16, #dA>>
    %h = tt.load %hp : !tt.ptr<tensor<64x64xf16, #dB>>
    %k = tt.load %kp : !tt.ptr<tensor<64x64xf16, #dB>>
    %o = tt.dot %q, %h, %cst, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %s = tt.dot %q, %k, %o, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %op = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %op, %s : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}

// -----

// A barrier between the first dot and the second: B2's tile (loaded as f32, truncated for its dot) cannot reach
// its dot and stays where it is.
// CHECK-LABEL: tt.func public @barrier
// CHECK: tt.load
// CHECK-NEXT: tt.load
// CHECK-NEXT: %[[B2:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<64x64xf32
// CHECK-NEXT: %[[X:.*]] = tt.dot
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[A2:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<32x64xf16
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[B2]]
// CHECK-NEXT: tt.dot %[[A2]], %[[T]], %[[X]]
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand load left: 'gpu.barrier' before its first user
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @barrier(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f32>, %arg4: !tt.ptr<f32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %ap = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %bp = tt.make_tensor_ptr %arg1, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %a2p = tt.make_tensor_ptr %arg2, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %b2p = tt.make_tensor_ptr %arg3, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #dB>>
    %a = tt.load %ap : !tt.ptr<tensor<32x64xf16, #dA>>
    %b = tt.load %bp : !tt.ptr<tensor<64x64xf16, #dB>>
    %b2 = tt.load %b2p : !tt.ptr<tensor<64x64xf32, #dB>>
    %x = tt.dot %a, %b, %cst, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    gpu.barrier
    %a2 = tt.load %a2p : !tt.ptr<tensor<32x64xf16, #dA>>
    %t = arith.truncf %b2 : tensor<64x64xf32, #dB> to tensor<64x64xf16, #dB>
    %y = tt.dot %a2, %t, %x, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %op = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %op, %y : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}

// -----

// As @two_dots, but a later f32 tile held with the second result makes the peak (1,536 B there): moving B2 would
// lower the first dots' part only, so it stays.
// CHECK-LABEL: tt.func public @peak_elsewhere
// CHECK: tt.load
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.dot
// CHECK-NEXT: tt.dot
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @peak_elsewhere(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f32>, %arg4: !tt.ptr<f32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %ap = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %bp = tt.make_tensor_ptr %arg1, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %a2p = tt.make_tensor_ptr %arg2, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %b2p = tt.make_tensor_ptr %arg1, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %dp = tt.make_tensor_ptr %arg3, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #dB>>
    %a = tt.load %ap : !tt.ptr<tensor<32x64xf16, #dA>>
    %b = tt.load %bp : !tt.ptr<tensor<64x64xf16, #dB>>
    %a2 = tt.load %a2p : !tt.ptr<tensor<32x64xf16, #dA>>
    %b2 = tt.load %b2p : !tt.ptr<tensor<64x64xf16, #dB>>
    %x = tt.dot %a, %b, %cst, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %y = tt.dot %a2, %b2, %x, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %d = tt.load %dp : !tt.ptr<tensor<64x64xf32, #dB>>
    %dt = arith.truncf %d : tensor<64x64xf32, #dB> to tensor<64x64xf16, #dB>
    %c = tt.load %ap : !tt.ptr<tensor<32x64xf16, #dA>>
    %z = tt.dot %c, %dt, %y, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %op = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %op, %z : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}

// -----

// A tile read in a loop (its first user holds a region) is held across the loop wherever it is made: B2's load
// stays above the first dot; the loop's own load stays too.
// CHECK-LABEL: tt.func public @read_in_loop
// CHECK: %[[B2:.*]] = tt.load %{{.*}} : !tt.ptr<tensor<64x64xf16
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.dot
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.dot %{{.*}}, %[[B2]]
// REMARK-NOT: remark: [tritonintelgpu-reduce-variable-liveness] dot operand load
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @read_in_loop(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f16>, %arg4: !tt.ptr<f32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %ap = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %bp = tt.make_tensor_ptr %arg1, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %b2p = tt.make_tensor_ptr %arg3, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
    %b2 = tt.load %b2p : !tt.ptr<tensor<64x64xf16, #dB>>
    %b = tt.load %bp : !tt.ptr<tensor<64x64xf16, #dB>>
    %a = tt.load %ap : !tt.ptr<tensor<32x64xf16, #dA>>
    %x = tt.dot %a, %b, %cst, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
    %r = scf.for %i = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%acc = %x) -> (tensor<32x64xf32, #dpas>) : i32 {
      %a3 = tt.load %ap : !tt.ptr<tensor<32x64xf16, #dA>>
      %d = tt.dot %a3, %b2, %acc, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
      scf.yield %d : tensor<32x64xf32, #dpas>
    }
    %op = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %op, %r : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}
