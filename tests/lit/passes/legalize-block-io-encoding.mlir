// RUN: xpu-opt %s --split-input-file --tritonintelgpu-legalize-block-io-encoding --remarks 2>%t.remarks | FileCheck %s --implicit-check-not=subgroup_2d_block
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --pass-pipeline='builtin.module(tritonintelgpu-legalize-block-io-encoding{fold_register_permutations=false})' | FileCheck %s --implicit-check-not=subgroup_2d_block --check-prefix=STRICT
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-optimize-block-io-encoding --tritonintelgpu-remove-layout-conversions --tritonintelgpu-legalize-block-io-encoding | FileCheck %s --implicit-check-not=subgroup_2d_block --check-prefix=SEED
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-legalize-block-io-encoding | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if triton %{ xpu-opt %s --split-input-file --pass-pipeline='builtin.module(tritonintelgpu-legalize-block-io-encoding{fold_register_permutations=false})' | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-optimize-block-io-encoding --tritonintelgpu-remove-layout-conversions --tritonintelgpu-legalize-block-io-encoding | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-legalize-block-io-encoding=max-work-per-op=1 --remarks 2>%t.budget | FileCheck %s --check-prefix=BUDGET --implicit-check-not=subgroup_2d_block
// RUN: FileCheck %s --check-prefix=BUDGET-REMARK < %t.budget

// max-work-per-op bounds the pass's work by the module's size; the pass cannot keep its input
// (3.3 cannot read it): past the budget (here one unit per op) each load left takes its
// conversions' layout without a comparison, and a remark says so.
// BUDGET: tt.load
// BUDGET-REMARK: remark: [tritonintelgpu-legalize-block-io-encoding] loads left taken in their conversions' layout without comparing: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1

// Whatever the input, no 2D block layout is left anywhere (--implicit-check-not) and
// triton-xpu 3.3 reads the result.
// ORACLE: tt.func public @gemm_4362
// ORACLE: tt.func public @gemm(
// ORACLE: tt.func public @different_threads
// ORACLE: tt.func public @not_only_conversions
// ORACLE: tt.func public @int8
// ORACLE: tt.func public @tf32

// The seed (Intel issue 4362's GEMM loop, see optimize-block-io-encoding.mlir):
// optimize, then RemoveLayoutConversions, then legalize: A and B are loaded in
// their dot-operand layouts and no conversion to a dot operand is left.
// SEED-LABEL: tt.func public @gemm_4362
// SEED: tt.make_tensor_ptr %arg0, {{.*}} : <tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// SEED: tt.make_tensor_ptr %arg1, {{.*}} : <tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// SEED: %[[LA:.*]] = tt.load {{.*}} : !tt.ptr<tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// SEED-NEXT: %[[LB:.*]] = tt.load {{.*}} : !tt.ptr<tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// SEED-NEXT: tt.dot %[[LA]], %[[LB]], {{.*}}
// SEED-NOT: ttg.convert_layout {{.*}}dot_op
// SEED: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [32, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [16, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 32 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @gemm_4362(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i64 = arith.constant 1 : i64
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<256x256xf32, #mma>
    %6 = arith.extsi %arg3 : i32 to i64
    %7 = arith.extsi %arg5 : i32 to i64
    %8 = arith.extsi %arg6 : i32 to i64
    %9 = tt.make_tensor_ptr %arg0, [%6, %7], [%8, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<256x32xbf16, #blocked>>
    %11 = arith.extsi %arg4 : i32 to i64
    %12 = arith.extsi %arg7 : i32 to i64
    %13 = tt.make_tensor_ptr %arg1, [%7, %11], [%12, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x256xbf16, #blocked1>>
    %14:3 = scf.for %arg9 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg10 = %cst, %arg11 = %9, %arg12 = %13) -> (tensor<256x256xf32, #mma>, !tt.ptr<tensor<256x32xbf16, #blocked>>, !tt.ptr<tensor<32x256xbf16, #blocked1>>)  : i32 {
      %18 = tt.load %arg11 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<256x32xbf16, #blocked>>
      %19 = tt.load %arg12 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x256xbf16, #blocked1>>
      %20 = ttg.convert_layout %18 : tensor<256x32xbf16, #blocked> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %21 = ttg.convert_layout %19 : tensor<32x256xbf16, #blocked1> -> tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %22 = tt.dot %20, %21, %arg10, inputPrecision = tf32 : tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<256x256xf32, #mma>
      %23 = tt.advance %arg11, [%c0_i32, %c32_i32] : <tensor<256x32xbf16, #blocked>>
      %24 = tt.advance %arg12, [%c32_i32, %c0_i32] : <tensor<32x256xbf16, #blocked1>>
      scf.yield %22, %23, %24 : tensor<256x256xf32, #mma>, !tt.ptr<tensor<256x32xbf16, #blocked>>, !tt.ptr<tensor<32x256xbf16, #blocked1>>
    }
    %15 = arith.extsi %arg8 : i32 to i64
    %16 = tt.make_tensor_ptr %arg2, [%6, %11], [%15, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #blocked2>>
    %17 = ttg.convert_layout %14#0 : tensor<256x256xf32, #mma> -> tensor<256x256xf32, #blocked2>
    tt.store %16, %17 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #blocked2>>
    tt.return
  }
}

// -----

// A (8x16 reads x 2 blocks) is placed exactly as the dot operand A: folded with no
// remark. B is read as 32-row blocks (both K tiles stacked), the dot operand puts
// its repCluster's second N tile first: the same elements in every thread, in
// another register order. Folded, with a remark; with
// {fold_register_permutations=false} B keeps its conversion and is loaded in the
// #ttg.linear layout equal to its 2D block layout.
// CHECK-LABEL: tt.func public @gemm(
// CHECK: %[[PA:.*]] = tt.make_tensor_ptr %arg0, {{.*}} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: %[[PB:.*]] = tt.make_tensor_ptr %arg1, {{.*}} : <tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// CHECK: scf.for {{.*}} iter_args(%[[C:[^ ]*]] = %{{[^,]*}}, %[[X:[^ ]*]] = %[[PA]], %[[Y:[^ ]*]] = %[[PB]]) -> (tensor<64x64xf32, #mma>, !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>, !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>)
// CHECK-NEXT: %[[LA:.*]] = tt.load %[[X]] {{.*}} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK-NEXT: %[[LB:.*]] = tt.load %[[Y]] {{.*}} : !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// CHECK-NEXT: tt.dot %[[LA]], %[[LB]], %[[C]]
// CHECK-NEXT: tt.advance %[[X]], {{.*}} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK-NEXT: tt.advance %[[Y]], {{.*}} : <tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// REMARK-NOT: legalize-block-io-encoding.mlir:[[# @LINE + 24]]:7:
// REMARK: legalize-block-io-encoding.mlir:[[# @LINE + 25]]:7: remark: [tritonintelgpu-legalize-block-io-encoding] folded into its conversion's layout: they differ only in the order of each thread's registers (no data moves between threads)
// STRICT: #[[LIN:linear[0-9]*]] = #ttg.linear<{register = {{\[}}[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 16], [0, 32]], lane = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8]], warp = {{\[}}[0, 0], [0, 0]], block = []}>
// STRICT-LABEL: tt.func public @gemm(
// STRICT: scf.for {{.*}} iter_args(%[[C:[^ ]*]] = %{{[^,]*}}, %[[X:[^ ]*]] = %{{[^,]*}}, %[[Y:[^ ]*]] = %{{[^)]*}})
// STRICT: %[[LA:.*]] = tt.load %[[X]] {{.*}} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// STRICT-NEXT: %[[LB:.*]] = tt.load %[[Y]] {{.*}} : !tt.ptr<tensor<32x64xf16, #[[LIN]]>>
// STRICT-NEXT: %[[CB:.*]] = ttg.convert_layout %[[LB]] : tensor<32x64xf16, #[[LIN]]> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// STRICT-NEXT: tt.dot %[[LA]], %[[CB]], %[[C]]
// STRICT-NEXT: tt.advance %[[X]]
// STRICT-NEXT: tt.advance %[[Y]], {{.*}} : <tensor<32x64xf16, #[[LIN]]>>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 2], A = [8, 16], B = [16, 32], C = [8, 32]}>
#sa = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [8, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
#sb = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [32, 16], numBlocks = 2, order = [0, 1], kWidth = 2, threadsPerWarp = 16}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @gemm(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i64, %ld: i64 {tt.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c32 = arith.constant 32 : i32
    %c128 = arith.constant 128 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #sa>>
    %pb = tt.make_tensor_ptr %b, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #sb>>
    %r:3 = scf.for %k = %c0 to %c128 step %c32 iter_args(%c = %acc, %x = %pa, %y = %pb) -> (tensor<64x64xf32, #mma>, !tt.ptr<tensor<64x32xf16, #sa>>, !tt.ptr<tensor<32x64xf16, #sb>>)  : i32 {
      %la = tt.load %x {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #sa>>
      %ca = ttg.convert_layout %la : tensor<64x32xf16, #sa> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %lb = tt.load %y {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #sb>>
      %cb = ttg.convert_layout %lb : tensor<32x64xf16, #sb> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ca, %cb, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %nx = tt.advance %x, [%c0, %c32] : <tensor<64x32xf16, #sa>>
      %ny = tt.advance %y, [%c32, %c0] : <tensor<32x64xf16, #sb>>
      scf.yield %d, %nx, %ny : tensor<64x64xf32, #mma>, !tt.ptr<tensor<64x32xf16, #sa>>, !tt.ptr<tensor<32x64xf16, #sb>>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A 2D block layout that puts the A operand's rows on other warps than the dot
// operand does (16-row reads, one block): not the same placement, so the
// conversion stays and the load is re-expressed as the equal #ttg.linear layout.
// CHECK: #[[LX:linear[0-9]*]] = #ttg.linear<{register = {{\[}}[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]], lane = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8]], warp = {{\[}}[16, 0], [32, 0]], block = []}>
// CHECK-LABEL: tt.func public @different_threads
// CHECK: tt.make_tensor_ptr {{.*}} : <tensor<64x32xf16, #[[LX]]>>
// CHECK-NEXT: %[[L:.*]] = tt.load {{.*}} : !tt.ptr<tensor<64x32xf16, #[[LX]]>>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<64x32xf16, #[[LX]]> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT: tt.dot %[[C]]
// REMARK: legalize-block-io-encoding.mlir:[[# @LINE + 9]]:5: remark: [tritonintelgpu-legalize-block-io-encoding] kept the conversion, load re-expressed as #ttg.linear: the layout algebra shows that they place elements on different threads
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#sx = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [16, 16], numBlocks = 1, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @different_threads(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i64, %ld: i64 {tt.divisibility = 16 : i32}, %b: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) -> tensor<64x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x16xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #sx>>
    %la = tt.load %pa {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #sx>>
    %ca = ttg.convert_layout %la : tensor<64x32xf16, #sx> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d = tt.dot %ca, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    tt.return %d : tensor<64x16xf32, #mma>
  }
}

// -----

// A 2D block load used by an elementwise op, and a value converted into a 2D
// block layout: nothing to fold into; both values (and the exp's result) take the
// equal #ttg.linear layout and the conversions to the dot operand stay.
// CHECK: #[[LY:linear[0-9]*]] = #ttg.linear<{register = {{\[}}[1, 0], [2, 0], [4, 0], [0, 16], [32, 0]], lane = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8]], warp = {{\[}}[8, 0], [16, 0]], block = []}>
// CHECK-LABEL: tt.func public @not_only_conversions
// CHECK: %[[L:.*]] = tt.load {{.*}} : !tt.ptr<tensor<64x32xf16, #[[LY]]>>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[L]] : tensor<64x32xf16, #[[LY]]>
// CHECK-NEXT: ttg.convert_layout %[[E]] : tensor<64x32xf16, #[[LY]]> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK: %[[X:.*]] = ttg.convert_layout %arg4 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #[[LY]]>
// CHECK-NEXT: ttg.convert_layout %[[X]] : tensor<64x32xf16, #[[LY]]> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// REMARK: legalize-block-io-encoding.mlir:[[# @LINE + 10]]:5: remark: [tritonintelgpu-legalize-block-io-encoding] kept the conversion, load re-expressed as #ttg.linear: its users are not all conversions to one layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#sa = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [8, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @not_only_conversions(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i64, %ld: i64 {tt.divisibility = 16 : i32}, %b: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %v: tensor<64x32xf16, #blocked>) -> tensor<64x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x16xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #sa>>
    %la = tt.load %pa {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #sa>>
    %e = math.exp %la : tensor<64x32xf16, #sa>
    %ca = ttg.convert_layout %e : tensor<64x32xf16, #sa> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d = tt.dot %ca, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    %x = ttg.convert_layout %v : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #sa>
    %cx = ttg.convert_layout %x : tensor<64x32xf16, #sa> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d2 = tt.dot %cx, %b, %d, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    tt.return %d2 : tensor<64x16xf32, #mma>
  }
}

// -----

// int8 GEMM (opsPerChan 4). A is read as 16x32 blocks, wider than the 16-lane
// sub-group: each lane holds 2 adjacent bytes in registers (register basis [0, 1]
// first, then the rows; 4 column lanes of stride 2), exactly as the DPAS A operand
// with opsPerChan 4 packs them; B's 32x16 blocks hold K in registers as the operand
// does. Both are the same placement as their dot operands, so both fold with no
// remark, also with {fold_register_permutations=false}. (Before, this test only
// asked that A end in its dot-operand layout somehow, because the algebra could not
// yet be trusted with blocks wider than the sub-group.)
// CHECK-LABEL: tt.func public @int8
// CHECK: %[[PA:.*]] = tt.make_tensor_ptr %arg0, {{.*}} : <tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>>
// CHECK-NEXT: %[[PB:.*]] = tt.make_tensor_ptr %arg1, {{.*}} : <tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>>
// CHECK-NEXT: %[[LA:.*]] = tt.load %[[PA]] {{.*}} : !tt.ptr<tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>>
// CHECK-NEXT: %[[LB:.*]] = tt.load %[[PB]] {{.*}} : !tt.ptr<tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>>
// CHECK-NEXT: tt.dot %[[LA]], %[[LB]]
// STRICT-LABEL: tt.func public @int8
// STRICT: %[[PA:.*]] = tt.make_tensor_ptr %arg0
// STRICT: %[[PB:.*]] = tt.make_tensor_ptr %arg1
// STRICT: %[[LA:.*]] = tt.load %[[PA]] {{.*}} : !tt.ptr<tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>>
// STRICT-NEXT: %[[LB:.*]] = tt.load %[[PB]] {{.*}} : !tt.ptr<tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>>
// STRICT-NEXT: tt.dot %[[LA]], %[[LB]]
// REMARK-NOT: legalize-block-io-encoding.mlir:[[# @LINE + 12]]:
// REMARK-NOT: legalize-block-io-encoding.mlir:[[# @LINE + 13]]:
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 4, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 32], B = [32, 32], C = [16, 32]}>
#sa = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [16, 32], numBlocks = 2, order = [1, 0], kWidth = 2, threadsPerWarp = 16}>
#sb = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [32, 16], numBlocks = 2, order = [0, 1], kWidth = 4, threadsPerWarp = 16}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @int8(%a: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %b: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %m: i64, %ld: i64 {tt.divisibility = 16 : i32}) -> tensor<64x64xi32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %acc = arith.constant dense<0> : tensor<64x64xi32, #mma>
    %pa = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xi8, #sa>>
    %pb = tt.make_tensor_ptr %b, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xi8, #sb>>
    %la = tt.load %pa {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xi8, #sa>>
    %ca = ttg.convert_layout %la : tensor<64x64xi8, #sa> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %lb = tt.load %pb {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xi8, #sb>>
    %cb = ttg.convert_layout %lb : tensor<64x64xi8, #sb> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %d = tt.dot %ca, %cb, %acc : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xi32, #mma>
    tt.return %d : tensor<64x64xi32, #mma>
  }
}

// -----

// tf32 GEMM (opsPerChan 1). A is read as 16x8 blocks, narrower than the sub-group:
// the 8 column lanes take row 0 and lanes 8..15 row 1 (lane basis [1, 0] after the
// column lanes), registers walk the rows 2 at a time, as the DPAS A operand with
// opsPerChan 1 places them. Same placement for A and for B (32x16 reads): both fold
// with no remark. (Before, the algebra refused blocks narrower than the sub-group
// and A was only loaded in its conversion's layout, with a remark that nothing was proven.)
// CHECK-LABEL: tt.func public @tf32
// CHECK: %[[PA:.*]] = tt.make_tensor_ptr %arg0
// CHECK: %[[PB:.*]] = tt.make_tensor_ptr %arg1
// CHECK: %[[LA:.*]] = tt.load %[[PA]] {{.*}} : !tt.ptr<tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK-NEXT: %[[LB:.*]] = tt.load %[[PB]] {{.*}} : !tt.ptr<tensor<32x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>>
// CHECK-NEXT: tt.dot %[[LA]], %[[LB]]
// STRICT-LABEL: tt.func public @tf32
// STRICT: %[[PA:.*]] = tt.make_tensor_ptr %arg0
// STRICT: %[[PB:.*]] = tt.make_tensor_ptr %arg1
// STRICT: %[[LA:.*]] = tt.load %[[PA]] {{.*}} : !tt.ptr<tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// STRICT-NEXT: %[[LB:.*]] = tt.load %[[PB]] {{.*}} : !tt.ptr<tensor<32x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>>
// STRICT-NEXT: tt.dot %[[LA]], %[[LB]]
// REMARK-NOT: legalize-block-io-encoding.mlir:[[# @LINE + 12]]:
// REMARK-NOT: legalize-block-io-encoding.mlir:[[# @LINE + 13]]:
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 1], A = [16, 8], B = [8, 16], C = [16, 16]}>
#sa = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [16, 8], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
#sb = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [4, 1], instrShape = [32, 16], numBlocks = 1, order = [0, 1], kWidth = 1, threadsPerWarp = 16}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @tf32(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i64, %ld: i64 {tt.divisibility = 16 : i32}) -> tensor<64x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x16xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf32, #sa>>
    %pb = tt.make_tensor_ptr %b, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf32, #sb>>
    %la = tt.load %pa {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf32, #sa>>
    %ca = ttg.convert_layout %la : tensor<64x32xf32, #sa> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %lb = tt.load %pb {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x16xf32, #sb>>
    %cb = ttg.convert_layout %lb : tensor<32x16xf32, #sb> -> tensor<32x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x16xf32, #mma>
    tt.return %d : tensor<64x16xf32, #mma>
  }
}
