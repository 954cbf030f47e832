// RUN: xpu-opt %s --split-input-file --tritonintelgpu-optimize-block-io-encoding --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-optimize-block-io-encoding --tritonintelgpu-legalize-block-io-encoding | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-optimize-block-io-encoding=max-work-per-op=1 --remarks 2>%t.budget | FileCheck %s --check-prefix=BUDGET --implicit-check-not=subgroup_2d_block
// RUN: FileCheck %s --check-prefix=BUDGET-REMARK < %t.budget

// max-work-per-op bounds the pass's work by the module's size: past it (here one unit per op)
// the input is kept (no 2D block layout) and a remark says so.
// BUDGET: tt.func
// BUDGET-REMARK: remark: [tritonintelgpu-optimize-block-io-encoding] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1

// The GEMM loop of Intel issue 4362 as triton-xpu 3.3 prints it after its
// MaterializeBlockPointer (bf16, 256x256x32 tiles, 32 warps): blocked loads of A and
// B through block pointers tagged row_major, converted to dot operands of a DPAS
// layout. A is read as 32x16 blocks (4 DPAS tiles stacked) x 2 (both K tiles); B as
// 32x16 (2 K tiles stacked) x 2 (its repCluster along N). The whole pointer family
// (make_tensor_ptr, loop arguments and results, advance, yield) follows the load;
// one conversion to the dot operand follows each load.
// CHECK-DAG: #[[A:block_io[0-9]*]] = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [8, 4], instrShape = [32, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
// CHECK-DAG: #[[B:block_io[0-9]*]] = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [8, 4], instrShape = [32, 16], numBlocks = 2, order = [0, 1], kWidth = 2, threadsPerWarp = 16}>
// CHECK-LABEL: tt.func public @gemm_4362
// CHECK: %[[PA:.*]] = tt.make_tensor_ptr %arg0, {{.*}} : <tensor<256x32xbf16, #[[A]]>>
// CHECK: %[[PB:.*]] = tt.make_tensor_ptr %arg1, {{.*}} : <tensor<32x256xbf16, #[[B]]>>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[X:.*]] = %[[PA]], %[[Y:.*]] = %[[PB]]) -> (tensor<256x256xf32, #mma>, !tt.ptr<tensor<256x32xbf16, #[[A]]>>, !tt.ptr<tensor<32x256xbf16, #[[B]]>>)
// CHECK-NEXT: %[[LA:.*]] = tt.load %[[X]] {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<256x32xbf16, #[[A]]>>
// CHECK-NEXT: %[[CA:.*]] = ttg.convert_layout %[[LA]] : tensor<256x32xbf16, #[[A]]> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT: %[[LB:.*]] = tt.load %[[Y]] {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x256xbf16, #[[B]]>>
// CHECK-NEXT: %[[CB:.*]] = ttg.convert_layout %[[LB]] : tensor<32x256xbf16, #[[B]]> -> tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.dot %[[CA]], %[[CB]], %{{.*}}
// CHECK-NEXT: tt.advance %[[X]], {{.*}} : <tensor<256x32xbf16, #[[A]]>>
// CHECK-NEXT: tt.advance %[[Y]], {{.*}} : <tensor<32x256xbf16, #[[B]]>>
// CHECK-NEXT: scf.yield {{.*}} : tensor<256x256xf32, #mma>, !tt.ptr<tensor<256x32xbf16, #[[A]]>>, !tt.ptr<tensor<32x256xbf16, #[[B]]>>
// CHECK: tt.store {{.*}} : !tt.ptr<tensor<256x256xf32, #blocked>>
// ORACLE-LABEL: tt.func public @gemm_4362
// ORACLE: tt.load {{.*}} : !tt.ptr<tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// ORACLE: tt.load {{.*}} : !tt.ptr<tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// ORACLE-NOT: ttg.convert_layout {{.*}}dot_op
// ORACLE: tt.return
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

// Flash attention's loads (f16, 8 warps, DPAS repCluster [2, 2]): Q (A operand,
// loaded once before the loop, converted inside it) gets 16x16 x 2 reads and its
// conversion moves up next to the load; K is stored column major (B read
// transposed: K rows in registers, N in lanes, 2 lane groups side by side); V is a
// row-major B. A conversion chain (blocked -> blocked -> dot_op) becomes one
// conversion.
// CHECK-DAG: #[[Q:block_io[0-9]*]] = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [8, 1], instrShape = [16, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
// CHECK-DAG: #[[K:block_io[0-9]*]] = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [8, 1], instrShape = [16, 16], numBlocks = 2, order = [0, 1], kWidth = 2, threadsPerWarp = 16}>
// CHECK-DAG: #[[V:block_io[0-9]*]] = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [8, 1], instrShape = [32, 16], numBlocks = 2, order = [0, 1], kWidth = 2, threadsPerWarp = 16}>
// CHECK-LABEL: tt.func public @attention
// CHECK: %[[LQ:.*]] = tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<128x64xf16, #[[Q]]>>
// CHECK-NEXT: %[[CQ:.*]] = ttg.convert_layout %[[LQ]] : tensor<128x64xf16, #[[Q]]> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK: scf.for
// CHECK-NEXT: %[[LK:.*]] = tt.load %{{.*}} {triton_intel_gpu.block_io = "column_major"} : !tt.ptr<tensor<64x64xf16, #[[K]]>>
// CHECK-NEXT: %[[CK:.*]] = ttg.convert_layout %[[LK]] : tensor<64x64xf16, #[[K]]> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[S:.*]] = tt.dot %[[CQ]], %[[CK]], %{{.*}}
// CHECK: %[[LV:.*]] = tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xf16, #[[V]]>>
// CHECK-NEXT: %[[CV:.*]] = ttg.convert_layout %[[LV]] : tensor<64x64xf16, #[[V]]> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT: tt.dot %[[P]], %[[CV]], %{{.*}}
// CHECK-NOT: #blocked1
// ORACLE-LABEL: tt.func public @attention
// ORACLE: tt.load {{.*}} : !tt.ptr<tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// ORACLE: tt.load {{.*}} : !tt.ptr<tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// ORACLE: tt.load {{.*}} : !tt.ptr<tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 2], warpsPerCTA = [1, 8], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @attention(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %len: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c1 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %pq = tt.make_tensor_ptr %q, [%n, %c64_i64], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf16, #blocked>>
    %pk = tt.make_tensor_ptr %k, [%c64_i64, %n], [%c1, %ld], [%c0, %c0] {order = array<i32: 0, 1>} : <tensor<64x64xf16, #blocked1>>
    %pv = tt.make_tensor_ptr %v, [%n, %c64_i64], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #blocked>>
    %lq = tt.load %pq {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<128x64xf16, #blocked>>
    %r:3 = scf.for %i = %c0 to %len step %c64 iter_args(%acc = %zero, %xk = %pk, %xv = %pv) -> (tensor<128x64xf32, #mma>, !tt.ptr<tensor<64x64xf16, #blocked1>>, !tt.ptr<tensor<64x64xf16, #blocked>>)  : i32 {
      %lk = tt.load %xk {triton_intel_gpu.block_io = "column_major"} : !tt.ptr<tensor<64x64xf16, #blocked1>>
      %cq = ttg.convert_layout %lq : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %ck = ttg.convert_layout %lk : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %s = tt.dot %cq, %ck, %zero, inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      %p = arith.truncf %s : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %lv = tt.load %xv {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xf16, #blocked>>
      %bv = ttg.convert_layout %lv : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked2>
      %cp = ttg.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %cv = ttg.convert_layout %bv : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %o = tt.dot %cp, %cv, %acc, inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      %nk = tt.advance %xk, [%c0, %c64] : <tensor<64x64xf16, #blocked1>>
      %nv = tt.advance %xv, [%c64, %c0] : <tensor<64x64xf16, #blocked>>
      scf.yield %o, %nk, %nv : tensor<128x64xf32, #mma>, !tt.ptr<tensor<64x64xf16, #blocked1>>, !tt.ptr<tensor<64x64xf16, #blocked>>
    }
    tt.return
  }
}

// -----

// A load already in the dot-operand layout and used by the dot directly (8x128x64,
// 4 warps): it gets its read layout (A: one 8-row tile, 2 of its 4 K tiles per
// read, 64 bytes per row) and a conversion.
// CHECK-DAG: #[[A8:block_io[0-9]*]] = #triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [1, 4], instrShape = [8, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
// CHECK-LABEL: tt.func public @direct
// CHECK: %[[L:.*]] = tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<8x64xbf16, #[[A8]]>>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<8x64xbf16, #[[A8]]> -> tensor<8x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NEXT: tt.dot %[[C]], %{{.*}}
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 4], repCluster = [1, 2], A = [8, 16], B = [16, 32], C = [8, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @direct(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %m: i64, %ld: i64 {tt.divisibility = 16 : i32}, %b: tensor<64x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<8x128xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<8x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %la = tt.load %pa {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<8x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %d = tt.dot %la, %b, %acc, inputPrecision = tf32 : tensor<8x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<8x128xf32, #mma>
    tt.return
  }
}

// -----

// Loads that stay, each with its reason: not tagged; stored; used by an elementwise
// op before the conversion; a pointer family with a second load; a tensor of
// pointers; a dot whose operands have no DPAS parent; no user at all.
// CHECK-LABEL: tt.func public @kept
// CHECK-NOT: block_io<
// CHECK-NOT: subgroup_2d_block
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK: math.exp
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<f16>, #blocked>
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 18]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: not tagged ttig.block_io (no 2D block read proven)
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 21]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: used by 'tt.store', not only by conversions to tt.dot operands
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 23]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: used by 'math.exp', not only by conversions to tt.dot operands
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 27]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: the block pointer family has other accesses ('tt.load')
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 27]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: the block pointer family has other accesses ('tt.load')
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 31]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: a tensor-of-pointer load (only block-pointer loads are given 2D block layouts)
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 34]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: the dot operand layout has no #ttig.dpas parent
// REMARK: optimize-block-io-encoding.mlir:[[# @LINE + 37]]:5: remark: [tritonintelgpu-optimize-block-io-encoding] kept: no tt.dot uses the loaded value
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @kept(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i64, %ld: i64 {tt.divisibility = 16 : i32}, %b: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %out: !tt.ptr<tensor<64x32xf16, #blocked>>, %ptrs: tensor<64x32x!tt.ptr<f16>, #blocked>, %bb: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x16xf32, #mma>
    %accb = arith.constant dense<0.000000e+00> : tensor<64x16xf32, #blocked3>
    %p0 = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
    %l0 = tt.load %p0 : !tt.ptr<tensor<64x32xf16, #blocked>>
    %c0a = ttg.convert_layout %l0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d0 = tt.dot %c0a, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    %p1 = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
    %l1 = tt.load %p1 {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
    tt.store %out, %l1 : !tt.ptr<tensor<64x32xf16, #blocked>>
    %p2 = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
    %l2 = tt.load %p2 {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
    %e2 = math.exp %l2 : tensor<64x32xf16, #blocked>
    %c2 = ttg.convert_layout %e2 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d2 = tt.dot %c2, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    %p3 = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
    %l3 = tt.load %p3 {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
    %l4 = tt.load %p3 {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
    %c3 = ttg.convert_layout %l3 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d3 = tt.dot %c3, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    %c4 = ttg.convert_layout %l4 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d4 = tt.dot %c4, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    %l5 = tt.load %ptrs {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<f16>, #blocked>
    %c5 = ttg.convert_layout %l5 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d5 = tt.dot %c5, %b, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x16xf32, #mma>
    %p6 = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
    %l6 = tt.load %p6 {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
    %c6 = ttg.convert_layout %l6 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>>
    %d6 = tt.dot %c6, %bb, %accb : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>> -> tensor<64x16xf32, #blocked3>
    %p7 = tt.make_tensor_ptr %a, [%m, %m], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #blocked>>
    %l7 = tt.load %p7 {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #blocked>>
    tt.return
  }
}
