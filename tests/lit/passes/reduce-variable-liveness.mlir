// -tritonintelgpu-reduce-variable-liveness (transforms/reduce_variable_liveness.py), on our kernels.
// Ours: in a loop body, a dot operand read before the other operand's reads sinks to right before the dot
// when its values are the smaller (the larger read goes first: lower register peak), where the loop's
// carried tensors and the reads reach the default register file (min-live-grf; 0 in the first RUN line). At the ISA, gemlite's
// A16W1 64x256x64 w8 GEMM (A's read before B's local_load): native 18,752 -> 0 B spill with it.
// Intel's: a large dot operand load made before the loop moves into it (a prefetch stays in its place).
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness="min-live-grf=0" --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness --remarks 2>%t.fit | FileCheck %s --check-prefix=FIT
// RUN: FileCheck %s --check-prefix=FIT-REMARK < %t.fit
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness="order-operand-reads=false" | FileCheck %s --check-prefix=INTEL
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-reduce-variable-liveness --verify-semantics="arg0=16384,arg1=16384,arg2=16384,arg3=64,grid=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-8: remark: [verify-semantics] equal on
// SEM-NOT: error

// B is computed in the loop (squared) and goes through SLM; A (16x32, the smaller) is read after B's SLM store
// and before B's local_load: it moves past the local_load.
// CHECK-LABEL: tt.func public @small_a_first
// CHECK: scf.for
// CHECK: ttg.local_alloc
// CHECK-NEXT: %[[B:.*]] = ttg.local_load
// CHECK-NEXT: %[[A:.*]] = tt.load %arg5
// CHECK-NEXT: tt.dot %[[A]], %[[B]],
// At the default min-live-grf (128 registers) the loop fits (352 of 512 B per lane live at the reads): A stays.
// FIT-LABEL: tt.func public @small_a_first
// FIT: scf.for
// FIT: ttg.local_alloc
// FIT-NEXT: %[[A:.*]] = tt.load %arg5
// FIT-NEXT: ttg.local_load
// FIT-REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand read not sunk to its dot: the loop fits the register file ({{[0-9]+}} of 512 B per lane live at the reads)
// INTEL-LABEL: tt.func public @small_a_first
// INTEL: scf.for
// INTEL: ttg.local_alloc
// INTEL-NEXT: tt.load %arg5
// INTEL-NEXT: ttg.local_load
// INTEL-NEXT: tt.dot
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @small_a_first(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #dpas>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %0 = tt.make_tensor_ptr %arg0, [%c16_i64, %c256_i64], [%c256_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %5 = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %6 = arith.muli %2, %5 : tensor<32x1xi32, #blocked>
    %7 = tt.broadcast %6 : tensor<32x1xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %8 = tt.broadcast %4 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %9 = arith.addi %7, %8 : tensor<32x64xi32, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %11 = tt.addptr %10, %9 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %12:3 = scf.for %arg4 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg5 = %0, %arg6 = %11, %arg7 = %cst) -> (!tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>) : i32 {
      %20 = tt.load %arg6 : tensor<32x64x!tt.ptr<f16>, #blocked>
      %27 = arith.mulf %20, %20 : tensor<32x64xf16, #blocked>
      %21 = ttg.local_alloc %27 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %22 = tt.load %arg5 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %23 = ttg.local_load %21 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>
      %24 = tt.dot %22, %23, %arg7, inputPrecision = tf32 : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<16x64xf32, #dpas>
      %25 = tt.advance %arg5, [%c0_i32, %c32_i32] : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %26 = tt.addptr %arg6, %cst_0 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %25, %26, %24 : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>
    }
    %13 = tt.make_tensor_ptr %arg2, [%c16_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #dpas>>
    tt.store %13, %12#2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #dpas>>
    tt.return
  }
}

// -----

// The same with a 64x256 f32 accumulator (1 KB per lane carried: over the default register file), at the
// pass's default min-live-grf: A moves past B's local_load.
// FIT-LABEL: tt.func public @large_acc_a_first
// FIT: scf.for
// FIT: ttg.local_alloc
// FIT-NEXT: %[[B:.*]] = ttg.local_load
// FIT-NEXT: %[[A:.*]] = tt.load %arg5
// FIT-NEXT: tt.dot %[[A]], %[[B]],
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @large_acc_a_first(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<64x256xf32, #dpas>
    %cst_0 = arith.constant dense<8192> : tensor<32x256xi32, #blocked>
    %0 = tt.make_tensor_ptr %arg0, [%c64_i64, %c256_i64], [%c256_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %3 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x256xi32, #blocked>
    %5 = arith.constant dense<256> : tensor<32x1xi32, #blocked>
    %6 = arith.muli %2, %5 : tensor<32x1xi32, #blocked>
    %7 = tt.broadcast %6 : tensor<32x1xi32, #blocked> -> tensor<32x256xi32, #blocked>
    %8 = tt.broadcast %4 : tensor<1x256xi32, #blocked> -> tensor<32x256xi32, #blocked>
    %9 = arith.addi %7, %8 : tensor<32x256xi32, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x256x!tt.ptr<f16>, #blocked>
    %11 = tt.addptr %10, %9 : tensor<32x256x!tt.ptr<f16>, #blocked>, tensor<32x256xi32, #blocked>
    %12:3 = scf.for %arg4 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg5 = %0, %arg6 = %11, %arg7 = %cst) -> (!tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x256x!tt.ptr<f16>, #blocked>, tensor<64x256xf32, #dpas>) : i32 {
      %20 = tt.load %arg6 : tensor<32x256x!tt.ptr<f16>, #blocked>
      %27 = arith.mulf %20, %20 : tensor<32x256xf16, #blocked>
      %21 = ttg.local_alloc %27 : (tensor<32x256xf16, #blocked>) -> !ttg.memdesc<32x256xf16, #shared, #smem>
      %22 = tt.load %arg5 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %23 = ttg.local_load %21 : !ttg.memdesc<32x256xf16, #shared, #smem> -> tensor<32x256xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>
      %24 = tt.dot %22, %23, %arg7, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<32x256xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<64x256xf32, #dpas>
      %25 = tt.advance %arg5, [%c0_i32, %c32_i32] : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %26 = tt.addptr %arg6, %cst_0 : tensor<32x256x!tt.ptr<f16>, #blocked>, tensor<32x256xi32, #blocked>
      scf.yield %25, %26, %24 : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x256x!tt.ptr<f16>, #blocked>, tensor<64x256xf32, #dpas>
    }
    %13 = tt.make_tensor_ptr %arg2, [%c64_i64, %c256_i64], [%c256_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x256xf32, #dpas>>
    tt.store %13, %12#2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x256xf32, #dpas>>
    tt.return
  }
}

// -----

// Both operands computed in the loop and read from SLM, the larger (B) first: B stays, and the remark gives
// the estimated peaks (B after A would hold more).
// CHECK-LABEL: tt.func public @larger_first
// CHECK: scf.for
// CHECK: %[[B:.*]] = ttg.local_load
// CHECK-NEXT: %[[A:.*]] = ttg.local_load
// CHECK-NEXT: tt.dot %[[A]], %[[B]],
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand read not sunk to its dot: no lower register peak past the reads after it
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @larger_first(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #dpas>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %cst_1 = arith.constant dense<32> : tensor<16x32xi32, #blocked>
    %1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %5 = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %6 = arith.muli %2, %5 : tensor<32x1xi32, #blocked>
    %7 = tt.broadcast %6 : tensor<32x1xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %8 = tt.broadcast %4 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %9 = arith.addi %7, %8 : tensor<32x64xi32, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %11 = tt.addptr %10, %9 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %40 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %41 = tt.expand_dims %40 {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %42 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %43 = tt.expand_dims %42 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %44 = arith.constant dense<256> : tensor<16x1xi32, #blocked>
    %45 = arith.muli %41, %44 : tensor<16x1xi32, #blocked>
    %46 = tt.broadcast %45 : tensor<16x1xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %47 = tt.broadcast %43 : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %48 = arith.addi %46, %47 : tensor<16x32xi32, #blocked>
    %49 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>, #blocked>
    %50 = tt.addptr %49, %48 : tensor<16x32x!tt.ptr<f16>, #blocked>, tensor<16x32xi32, #blocked>
    %12:3 = scf.for %arg4 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg5 = %50, %arg6 = %11, %arg7 = %cst) -> (tensor<16x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>) : i32 {
      %20 = tt.load %arg6 : tensor<32x64x!tt.ptr<f16>, #blocked>
      %27 = arith.mulf %20, %20 : tensor<32x64xf16, #blocked>
      %21 = ttg.local_alloc %27 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %30 = tt.load %arg5 : tensor<16x32x!tt.ptr<f16>, #blocked>
      %31 = arith.addf %30, %30 : tensor<16x32xf16, #blocked>
      %32 = ttg.local_alloc %31 : (tensor<16x32xf16, #blocked>) -> !ttg.memdesc<16x32xf16, #shared, #smem>
      %23 = ttg.local_load %21 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>
      %22 = ttg.local_load %32 : !ttg.memdesc<16x32xf16, #shared, #smem> -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>
      %24 = tt.dot %22, %23, %arg7, inputPrecision = tf32 : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<16x64xf32, #dpas>
      %25 = tt.addptr %arg5, %cst_1 : tensor<16x32x!tt.ptr<f16>, #blocked>, tensor<16x32xi32, #blocked>
      %26 = tt.addptr %arg6, %cst_0 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %25, %26, %24 : tensor<16x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>
    }
    %13 = tt.make_tensor_ptr %arg2, [%c16_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #dpas>>
    tt.store %13, %12#2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #dpas>>
    tt.return
  }
}

// -----

// An SLM write between A's read and the dot: only reads are crossed, A stays.
// CHECK-LABEL: tt.func public @slm_write_between
// CHECK: scf.for
// CHECK: %[[A:.*]] = tt.load %arg5
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: %[[B:.*]] = ttg.local_load
// CHECK-NEXT: tt.dot %[[A]], %[[B]],
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand read not sunk to its dot: 'ttg.local_alloc' between it and the dot (only reads are crossed)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @slm_write_between(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #dpas>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %0 = tt.make_tensor_ptr %arg0, [%c16_i64, %c256_i64], [%c256_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %5 = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %6 = arith.muli %2, %5 : tensor<32x1xi32, #blocked>
    %7 = tt.broadcast %6 : tensor<32x1xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %8 = tt.broadcast %4 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %9 = arith.addi %7, %8 : tensor<32x64xi32, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %11 = tt.addptr %10, %9 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %12:3 = scf.for %arg4 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg5 = %0, %arg6 = %11, %arg7 = %cst) -> (!tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>) : i32 {
      %20 = tt.load %arg6 : tensor<32x64x!tt.ptr<f16>, #blocked>
      %27 = arith.mulf %20, %20 : tensor<32x64xf16, #blocked>
      %22 = tt.load %arg5 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %21 = ttg.local_alloc %27 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %23 = ttg.local_load %21 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>
      %24 = tt.dot %22, %23, %arg7, inputPrecision = tf32 : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<16x64xf32, #dpas>
      %25 = tt.advance %arg5, [%c0_i32, %c32_i32] : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %26 = tt.addptr %arg6, %cst_0 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %25, %26, %24 : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>
    }
    %13 = tt.make_tensor_ptr %arg2, [%c16_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #dpas>>
    tt.store %13, %12#2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #dpas>>
    tt.return
  }
}


// -----

// Intel's rule: A (128x128 f16, 32 KB) is loaded before the loop and live across it, and the loop's live-in
// values exceed 32 KB: its load moves into the loop before the dot, a prefetch stays where its pointer is made.
// CHECK-LABEL: tt.func public @large_a_before_loop
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %arg0
// CHECK-NEXT: triton_intel_gpu.prefetch %[[P]] {boundaryCheck = array<i32: 0, 1>
// CHECK-NOT: tt.load %[[P]]
// CHECK: scf.for
// CHECK-NEXT: %[[B:.*]] = tt.load %arg5
// CHECK-NEXT: %[[A:.*]] = tt.load %[[P]] {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"}
// CHECK-NEXT: tt.dot %[[A]], %[[B]],
// INTEL-LABEL: tt.func public @large_a_before_loop
// INTEL: triton_intel_gpu.prefetch
// INTEL: scf.for
// INTEL: tt.load %arg5
// INTEL-NEXT: tt.load
// INTEL-NEXT: tt.dot
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @large_a_before_loop(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %c128_i64 = arith.constant 128 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #dpas>
    %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c128_i64], [%c128_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %1 = tt.load %0 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %2 = tt.make_tensor_ptr %arg1, [%c128_i64, %c128_i64], [%c128_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>
    %3:2 = scf.for %arg4 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg5 = %2, %arg6 = %cst) -> (!tt.ptr<tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>, tensor<128x64xf32, #dpas>) : i32 {
      %10 = tt.load %arg5 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>
      %11 = tt.dot %1, %10, %arg6, inputPrecision = tf32 : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<128x64xf32, #dpas>
      %12 = tt.advance %arg5, [%c0_i32, %c64_i32] : <tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>
      scf.yield %12, %11 : !tt.ptr<tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>, tensor<128x64xf32, #dpas>
    }
    %4 = tt.make_tensor_ptr %arg2, [%c128_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #dpas>>
    tt.store %4, %3#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #dpas>>
    tt.return
  }
}

// -----

// The same, with A also stored before the loop: Intel leaves a load used before its loop in place.
// CHECK-LABEL: tt.func public @large_a_used_before_loop
// CHECK: %[[A:.*]] = tt.load %0
// CHECK: scf.for
// CHECK: tt.dot %[[A]],
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand load not moved into the loop: used before the loop
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @large_a_used_before_loop(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %c128_i64 = arith.constant 128 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #dpas>
    %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c128_i64], [%c128_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %1 = tt.load %0 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %5 = tt.make_tensor_ptr %arg1, [%c128_i64, %c128_i64], [%c128_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    tt.store %5, %1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %2 = tt.make_tensor_ptr %arg1, [%c128_i64, %c128_i64], [%c128_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>
    %3:2 = scf.for %arg4 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg5 = %2, %arg6 = %cst) -> (!tt.ptr<tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>, tensor<128x64xf32, #dpas>) : i32 {
      %10 = tt.load %arg5 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>
      %11 = tt.dot %1, %10, %arg6, inputPrecision = tf32 : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<128x64xf32, #dpas>
      %12 = tt.advance %arg5, [%c0_i32, %c64_i32] : <tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>
      scf.yield %12, %11 : !tt.ptr<tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>>, tensor<128x64xf32, #dpas>
    }
    %4 = tt.make_tensor_ptr %arg2, [%c128_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #dpas>>
    tt.store %4, %3#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #dpas>>
    tt.return
  }
}

// -----

// A read for another op (C, added after the dot) between A's read and the dot: A stays (measured: fla
// prepare_wy_repr_bwd, A past a read for the next dot: +256 B spill).
// CHECK-LABEL: tt.func public @read_for_another_op_between
// CHECK: scf.for
// CHECK: %[[A:.*]] = tt.load %arg5
// CHECK-NEXT: tt.load
// CHECK-NEXT: %[[B:.*]] = ttg.local_load
// CHECK-NEXT: tt.dot %[[A]], %[[B]],
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand read not sunk to its dot: a read for another op between it and the dot
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @read_for_another_op_between(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #dpas>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %0 = tt.make_tensor_ptr %arg0, [%c16_i64, %c256_i64], [%c256_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %5 = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %6 = arith.muli %2, %5 : tensor<32x1xi32, #blocked>
    %7 = tt.broadcast %6 : tensor<32x1xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %8 = tt.broadcast %4 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %9 = arith.addi %7, %8 : tensor<32x64xi32, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %11 = tt.addptr %10, %9 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %13 = tt.make_tensor_ptr %arg2, [%c16_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #dpas>>
    %12:3 = scf.for %arg4 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg5 = %0, %arg6 = %11, %arg7 = %cst) -> (!tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>) : i32 {
      %20 = tt.load %arg6 : tensor<32x64x!tt.ptr<f16>, #blocked>
      %27 = arith.mulf %20, %20 : tensor<32x64xf16, #blocked>
      %21 = ttg.local_alloc %27 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %22 = tt.load %arg5 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %30 = tt.load %13 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #dpas>>
      %23 = ttg.local_load %21 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>
      %24 = tt.dot %22, %23, %arg7, inputPrecision = tf32 : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<16x64xf32, #dpas>
      %31 = arith.addf %24, %30 : tensor<16x64xf32, #dpas>
      %25 = tt.advance %arg5, [%c0_i32, %c32_i32] : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %26 = tt.addptr %arg6, %cst_0 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %25, %26, %31 : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>
    }
    tt.store %13, %12#2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #dpas>>
    tt.return
  }
}

// -----

// B stored to SLM as loaded (a copy): A stays (where the other operand is a copy of a load IGC gave mixed
// results: corpus grouped_gemm +64 B spill, attn_bwd_dq 32x64 +27% instructions).
// CHECK-LABEL: tt.func public @b_copied
// CHECK: scf.for
// CHECK: ttg.local_alloc
// CHECK-NEXT: %[[A:.*]] = tt.load %arg5
// CHECK-NEXT: %[[B:.*]] = ttg.local_load
// CHECK-NEXT: tt.dot %[[A]], %[[B]],
// REMARK: remark: [tritonintelgpu-reduce-variable-liveness] dot operand read not sunk to its dot: the other operand is read as loaded
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @b_copied(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<f32>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %c64_i64 = arith.constant 64 : i64
    %c256_i64 = arith.constant 256 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #dpas>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %0 = tt.make_tensor_ptr %arg0, [%c16_i64, %c256_i64], [%c256_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
    %1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %4 = tt.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %5 = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %6 = arith.muli %2, %5 : tensor<32x1xi32, #blocked>
    %7 = tt.broadcast %6 : tensor<32x1xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %8 = tt.broadcast %4 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %9 = arith.addi %7, %8 : tensor<32x64xi32, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %11 = tt.addptr %10, %9 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %12:3 = scf.for %arg4 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg5 = %0, %arg6 = %11, %arg7 = %cst) -> (!tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>) : i32 {
      %20 = tt.load %arg6 : tensor<32x64x!tt.ptr<f16>, #blocked>
      %21 = ttg.local_alloc %20 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %22 = tt.load %arg5 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %23 = ttg.local_load %21 : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>>
      %24 = tt.dot %22, %23, %arg7, inputPrecision = tf32 : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #dpas, kWidth = 2}>> -> tensor<16x64xf32, #dpas>
      %25 = tt.advance %arg5, [%c0_i32, %c32_i32] : <tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>
      %26 = tt.addptr %arg6, %cst_0 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %25, %26, %24 : !tt.ptr<tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<16x64xf32, #dpas>
    }
    %13 = tt.make_tensor_ptr %arg2, [%c16_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x64xf32, #dpas>>
    tt.store %13, %12#2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf32, #dpas>>
    tt.return
  }
}

