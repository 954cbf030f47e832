// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions=never-worse-than-native=true --remarks 2>%t.remarks | FileCheck %s %}
// RUN: %if triton %{ FileCheck %s --check-prefix=REMARK < %t.remarks %}
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s --check-prefix=OURS

// The per-position guard weighs what the stage guard weighs beyond RemoveLayoutConversions'
// figures (integration/isa_estimate: gathers and scatters). The construct: a GEMM whose A and B
// tiles are tensor-of-pointer loads tagged for 2D block reads, converted to the DPAS operands.
// Native's pass rematerializes both loads in the operand layouts (1 conversion instead of 3, the
// same SLM): by its figures it wins; but in a dot operand's layout each lane loads one element a
// message (64 gathers; 4 in the blocked layout, 8 contiguous f16 a lane): ours is kept.
// CHECK-LABEL: tt.func public @gemm_tagged_loads
// CHECK: scf.for
// CHECK: tt.load {{.*}} : tensor<32x32x!tt.ptr<f16>, #blocked>
// CHECK: tt.load {{.*}} : tensor<32x32x!tt.ptr<f16>, #blocked>
// CHECK-COUNT-2: ttg.convert_layout
// CHECK: tt.dot
// CHECK: ttg.convert_layout
// CHECK: tt.return
// REMARK: remove-layout-conversions-never-worse-estimate.mlir:[[# @LINE + 8]]:1: remark: [tritonintelgpu-remove-layout-conversions] ours kept: native's result would leave converts 3 > 1 but gathers 64 > 4 (estimated) at the ISA (~4 gathers, ~2 scatters, ~18 SLM messages ours, ~64 gathers, ~2 scatters, ~18 SLM messages native's) (ours: 3 conversion(s), 2560 bytes of SLM, weighted cost 34816; native: 1 conversion(s), 2560 bytes of SLM, weighted cost 1968128)
// REMARK-NOT: native's result kept
// OURS-LABEL: tt.func public @gemm_tagged_loads
// OURS-COUNT-3: ttg.convert_layout
// OURS-NOT: ttg.convert_layout
// OURS: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 1], A = [16, 16], B = [16, 16], C = [16, 16]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gemm_tagged_loads(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k_tiles: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step_a = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %step_b = arith.constant dense<1024> : tensor<32x32xi32, #blocked>
    %ld = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %roff = arith.muli %r, %ld : tensor<32x1xi32, #blocked>
    %cl = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %rb = tt.broadcast %roff : tensor<32x1xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %cb = tt.broadcast %cl : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #blocked>
    %pa0 = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa = tt.addptr %pa0, %off : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb = tt.addptr %pb0, %off : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %acc:3 = scf.for %i = %c0 to %k_tiles step %c1 iter_args(%qa = %pa, %qb = %pb, %sum = %zero) -> (tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xf32, #mma>)  : i32 {
      %x = tt.load %qa {triton_intel_gpu.block_io = "row_major"} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %qb {triton_intel_gpu.block_io = "row_major"} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %xa = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %yb = ttg.convert_layout %y : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xa, %yb, %sum : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %na = tt.addptr %qa, %step_a : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %nb = tt.addptr %qb, %step_b : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %na, %nb, %d : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xf32, #mma>
    }
    %h = arith.truncf %acc#2 : tensor<32x32xf32, #mma> to tensor<32x32xf16, #mma>
    %hb = ttg.convert_layout %h : tensor<32x32xf16, #mma> -> tensor<32x32xf16, #blocked>
    %pc0 = tt.splat %c : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pc = tt.addptr %pc0, %off : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    tt.store %pc, %hb : tensor<32x32x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Untagged, the same GEMM: native's pass leaves the loads blocked too, the figures tie and ours
// is kept without an estimate (ties are the common path: nothing more is computed there).
// CHECK-LABEL: tt.func public @gemm_untagged_loads
// CHECK-COUNT-2: tt.load {{.*}} : tensor<32x32x!tt.ptr<f16>, #blocked>
// REMARK: remove-layout-conversions-never-worse-estimate.mlir:[[# @LINE + 4]]:1: remark: [tritonintelgpu-remove-layout-conversions] ours kept: 3 conversion(s), 2560 bytes of SLM, weighted cost 34816; native: 3 conversion(s), 2560 bytes of SLM, weighted cost 34816
// REMARK-NOT: estimated
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 1], A = [16, 16], B = [16, 16], C = [16, 16]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gemm_untagged_loads(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k_tiles: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %step_a = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %step_b = arith.constant dense<1024> : tensor<32x32xi32, #blocked>
    %ld = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %roff = arith.muli %r, %ld : tensor<32x1xi32, #blocked>
    %cl = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %rb = tt.broadcast %roff : tensor<32x1xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %cb = tt.broadcast %cl : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #blocked>
    %pa0 = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pa = tt.addptr %pa0, %off : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pb = tt.addptr %pb0, %off : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %acc:3 = scf.for %i = %c0 to %k_tiles step %c1 iter_args(%qa = %pa, %qb = %pb, %sum = %zero) -> (tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xf32, #mma>)  : i32 {
      %x = tt.load %qa : tensor<32x32x!tt.ptr<f16>, #blocked>
      %y = tt.load %qb : tensor<32x32x!tt.ptr<f16>, #blocked>
      %xa = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %yb = ttg.convert_layout %y : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xa, %yb, %sum : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %na = tt.addptr %qa, %step_a : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %nb = tt.addptr %qb, %step_b : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %na, %nb, %d : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xf32, #mma>
    }
    %h = arith.truncf %acc#2 : tensor<32x32xf32, #mma> to tensor<32x32xf16, #mma>
    %hb = ttg.convert_layout %h : tensor<32x32xf16, #mma> -> tensor<32x32xf16, #blocked>
    %pc0 = tt.splat %c : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %pc = tt.addptr %pc0, %off : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    tt.store %pc, %hb : tensor<32x32x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
