// -tritonintelgpu-reduce-variable-liveness, our step 4 (transforms/invariant_operands.py): a loop whose carried
// tensors and live-in tensors exceed a hardware thread's register file (1 KB per lane at 256 GRF) reads its
// loop-invariant dot operands (2D block loads made before it) again right before their dots, when the loop then
// fits. At the ISA: fla parallel_nsa_bwd_kernel_dkv 20,416 -> 16,768 spill bytes, 5,725 -> 4,599 instructions.
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness="reload-invariant-operands=false" | FileCheck %s --check-prefix=OFF
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness --verify-semantics="arg0=2048,arg1=2048,arg2=16384,arg3=2048,arg4=2048,arg5=0,grid=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-5: remark: [verify-semantics] equal on
// SEM-NOT: error

// Two f32 accumulators (512 B per lane each, 1 warp) and K and V (256 B each) held across the loop: 1.5 KB per
// lane, over the 1 KB of the file. K and V are read again right before their dots (1 KB: fits).
// CHECK-LABEL: tt.func public @reloaded
// CHECK-NOT: tt.load
// CHECK: scf.for
// CHECK: %[[Q:.*]] = tt.load %{{.*}} {{.*}} : !tt.ptr<tensor<64x64xf16
// CHECK-NEXT: %[[K:.*]] = tt.load %0 {{.*}} : !tt.ptr<tensor<32x64xf16
// CHECK-NEXT: tt.dot %[[K]], %[[Q]], %arg7
// CHECK-NEXT: %[[V:.*]] = tt.load %1 {{.*}} : !tt.ptr<tensor<32x64xf16
// CHECK-NEXT: tt.dot %[[V]], %[[Q]], %arg8
// OFF-LABEL: tt.func public @reloaded
// OFF: tt.load %0
// OFF-NEXT: tt.load %1
// OFF-NEXT: scf.for
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @reloaded(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f32>, %arg4: !tt.ptr<f32>, %arg5: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %kp = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %vp = tt.make_tensor_ptr %arg1, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %k = tt.load %kp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %v = tt.load %vp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %r:2 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%a0 = %cst, %a1 = %cst) -> (tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>) : i32 {
      %row = arith.muli %i, %c64_i32 : i32
      %qp = tt.make_tensor_ptr %arg2, [%c256_i64, %c64_i64], [%c64_i64, %c1_i64], [%row, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
      %q = tt.load %qp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xf16, #dB>>
      %d0 = tt.dot %k, %q, %a0, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
      %d1 = tt.dot %v, %q, %a1, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
      scf.yield %d0, %d1 : tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>
    }
    %o0 = tt.make_tensor_ptr %arg3, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    %o1 = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %o0, %r#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.store %o1, %r#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}

// -----

// The dots in an scf.if of the body: read again there.
// CHECK-LABEL: tt.func public @reloaded_in_if
// CHECK-NOT: tt.load
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: %[[K:.*]] = tt.load %0
// CHECK-NEXT: tt.dot %[[K]],
// CHECK-NEXT: %[[V:.*]] = tt.load %1
// CHECK-NEXT: tt.dot %[[V]],
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @reloaded_in_if(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f32>, %arg4: !tt.ptr<f32>, %arg5: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %kp = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %vp = tt.make_tensor_ptr %arg1, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %k = tt.load %kp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %v = tt.load %vp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %r:2 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%a0 = %cst, %a1 = %cst) -> (tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>) : i32 {
      %row = arith.muli %i, %c64_i32 : i32
      %qp = tt.make_tensor_ptr %arg2, [%c256_i64, %c64_i64], [%c64_i64, %c1_i64], [%row, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
      %q = tt.load %qp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xf16, #dB>>
      %odd = arith.andi %i, %c1_i32 : i32
      %c = arith.cmpi eq, %odd, %c0_i32 : i32
      %s:2 = scf.if %c -> (tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>) {
        %d0 = tt.dot %k, %q, %a0, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
        %d1 = tt.dot %v, %q, %a1, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
        scf.yield %d0, %d1 : tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>
      } else {
        scf.yield %a0, %a1 : tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>
      }
      scf.yield %s#0, %s#1 : tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>
    }
    %o0 = tt.make_tensor_ptr %arg3, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    %o1 = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %o0, %r#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.store %o1, %r#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}

// -----

// A store in the loop: a read moved into it could see it. Left alone.
// CHECK-LABEL: tt.func public @store_in_loop
// CHECK: tt.load %0
// CHECK-NEXT: tt.load %1
// CHECK-NEXT: scf.for
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] loop-invariant dot operands held across the loop: holds 1536 B per lane, 2048 B with its operand reads (> 1024), but tt.store in it may write memory
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @store_in_loop(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f32>, %arg4: !tt.ptr<f32>, %arg5: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %kp = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %vp = tt.make_tensor_ptr %arg1, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %k = tt.load %kp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %v = tt.load %vp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %r:2 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%a0 = %cst, %a1 = %cst) -> (tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>) : i32 {
      %row = arith.muli %i, %c64_i32 : i32
      %qp = tt.make_tensor_ptr %arg2, [%c256_i64, %c64_i64], [%c64_i64, %c1_i64], [%row, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
      %q = tt.load %qp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xf16, #dB>>
      %sp = tt.make_tensor_ptr %arg3, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
      tt.store %sp, %a0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
      %d0 = tt.dot %k, %q, %a0, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
      %d1 = tt.dot %v, %q, %a1, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
      scf.yield %d0, %d1 : tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>
    }
    %o0 = tt.make_tensor_ptr %arg3, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    %o1 = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %o0, %r#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.store %o1, %r#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.return
  }
}

// -----

// V is also stored after the loop: only K could be read again, and the loop would still hold 1280 B. Left alone.
// CHECK-LABEL: tt.func public @used_after_loop
// CHECK: tt.load %0
// CHECK-NEXT: tt.load %1
// CHECK-NEXT: scf.for
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] loop-invariant dot operands held across the loop: holds 1536 B per lane, 2048 B with its operand reads (> 1024), 1280 B held with its operand loads read at their dots (the 32x64 load: read by an op other than dots in loops)
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @used_after_loop(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f32>, %arg4: !tt.ptr<f32>, %arg5: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #dpas>
    %kp = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %vp = tt.make_tensor_ptr %arg1, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %k = tt.load %kp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %v = tt.load %vp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %r:2 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%a0 = %cst, %a1 = %cst) -> (tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>) : i32 {
      %row = arith.muli %i, %c64_i32 : i32
      %qp = tt.make_tensor_ptr %arg2, [%c256_i64, %c64_i64], [%c64_i64, %c1_i64], [%row, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #dB>>
      %q = tt.load %qp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xf16, #dB>>
      %d0 = tt.dot %k, %q, %a0, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
      %d1 = tt.dot %v, %q, %a1, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<32x64xf32, #dpas>
      scf.yield %d0, %d1 : tensor<32x64xf32, #dpas>, tensor<32x64xf32, #dpas>
    }
    %o0 = tt.make_tensor_ptr %arg3, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    %o1 = tt.make_tensor_ptr %arg4, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #dpas>>
    tt.store %o0, %r#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    tt.store %o1, %r#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #dpas>>
    %vo = tt.make_tensor_ptr %arg2, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    tt.store %vo, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf16, #dA>>
    tt.return
  }
}

// -----

// One 32x32 accumulator and K held, the 64x32 Q read: 768 B per lane, within the file. Left alone, nothing said.
// CHECK-LABEL: tt.func public @fits
// CHECK: tt.load %0
// CHECK: scf.for
// REMARK-NOT: remark
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @fits(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f16>, %arg3: !tt.ptr<f32>, %arg4: !tt.ptr<f32>, %arg5: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #dpas>
    %kp = tt.make_tensor_ptr %arg0, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %vp = tt.make_tensor_ptr %arg1, [%c32_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #dA>>
    %k = tt.load %kp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %v = tt.load %vp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #dA>>
    %r = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%a0 = %cst) -> (tensor<32x32xf32, #dpas>) : i32 {
      %row = arith.muli %i, %c64_i32 : i32
      %qp = tt.make_tensor_ptr %arg2, [%c256_i64, %c32_i64], [%c32_i64, %c1_i64], [%row, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #dB>>
      %q = tt.load %qp {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #dB>>
      %d0 = tt.dot %k, %q, %a0, inputPrecision = tf32 : tensor<32x64xf16, #dA> * tensor<64x32xf16, #dB> -> tensor<32x32xf32, #dpas>
      scf.yield %d0 : tensor<32x32xf32, #dpas>
    }
    %o0 = tt.make_tensor_ptr %arg3, [%c32_i64, %c32_i64], [%c32_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x32xf32, #dpas>>
    %o1 = tt.make_tensor_ptr %arg4, [%c32_i64, %c32_i64], [%c32_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x32xf32, #dpas>>
    tt.store %o0, %r {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x32xf32, #dpas>>
    tt.store %o1, %cst {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x32xf32, #dpas>>
    tt.return
  }
}
