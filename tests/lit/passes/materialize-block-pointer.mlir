// RUN: xpu-opt %s --split-input-file --tritonintelgpu-materialize-block-pointer --remarks 2>%t.remarks | FileCheck %s --implicit-check-not=block_io
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-materialize-block-pointer | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: triton_intel_gpu.block_io = "row_major"
// ORACLE: triton_intel_gpu.block_io = "column_major"

// GEMM loop: A and B block pointers advanced through scf.for, loaded in dot-operand
// layouts; unit stride on the last dim and a 16-byte divisible pitch: row major.
// CHECK-LABEL: tt.func public @gemm_loop
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @gemm_loop(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %M: i64, %K: i64, %lda: i64 {tt.divisibility = 16 : i32}, %ldb: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c32 = arith.constant 32 : i32
    %c128 = arith.constant 128 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%M, %K], [%lda, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %pb = tt.make_tensor_ptr %b, [%K, %M], [%ldb, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    %r:3 = scf.for %k = %c0 to %c128 step %c32 iter_args(%c = %acc, %x = %pa, %y = %pb) -> (tensor<64x64xf32, #mma>, !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>, !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>)  : i32 {
      %la = tt.load %x {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
      %lb = tt.load %y {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
      %d = tt.dot %la, %lb, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %nx = tt.advance %x, [%c0, %c32] : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
      %ny = tt.advance %y, [%c32, %c0] : <tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
      scf.yield %d, %nx, %ny : tensor<64x64xf32, #mma>, !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>, !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    }
    tt.return
  }
}

// -----

// Transposed B (unit stride on dim 0): column major. The same access for the A
// operand is left alone: A's registers run along K.
// CHECK-LABEL: tt.func public @transposed
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "column_major"} : !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0
// REMARK: materialize-block-pointer.mlir:51:5: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: A operand of a dot stored column major
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @transposed(%b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pb = tt.make_tensor_ptr %b, [%n, %n], [%c1, %ld], [%c0, %c0] {order = array<i32: 0, 1>} : <tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    %lb = tt.load %pb : !tt.ptr<tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
    %pa = tt.make_tensor_ptr %b, [%n, %n], [%c1, %ld], [%c0, %c0] {order = array<i32: 0, 1>} : <tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    %la = tt.load %pa : !tt.ptr<tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
    tt.return
  }
}

// -----

// 8-bit elements with the unit stride on dim 0, and a pitch with no known
// divisibility, are left alone, each with its reason.
// CHECK-LABEL: tt.func public @rejected
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<32x64xi8, #{{blocked[0-9]*}}>>
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<32x64xf32, #{{blocked[0-9]*}}>>
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<32x64xf32, #{{blocked[0-9]*}}>>
// REMARK: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: 8-bit elements with the unit stride on dim rank-2
// REMARK: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: pitch not provably a multiple of 16 bytes (4 elements)
// REMARK: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: no dimension has a constant unit stride
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @rejected(%p: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %odd: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %p8 = tt.make_tensor_ptr %p, [%n, %n], [%c1, %ld], [%c0, %c0] {order = array<i32: 0, 1>} : <tensor<32x64xi8, #blocked>>
    %l8 = tt.load %p8 : !tt.ptr<tensor<32x64xi8, #blocked>>
    %pf = tt.make_tensor_ptr %q, [%n, %n], [%odd, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #blocked>>
    %lf = tt.load %pf : !tt.ptr<tensor<32x64xf32, #blocked>>
    %pg = tt.make_tensor_ptr %q, [%n, %n], [%ld, %ld], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #blocked>>
    %lg = tt.load %pg : !tt.ptr<tensor<32x64xf32, #blocked>>
    tt.return
  }
}

// -----

// Without `support_sg_2d_block` on the module the pass does nothing.
// CHECK-LABEL: tt.func public @no_support
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #{{blocked[0-9]*}}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @no_support(%q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pf = tt.make_tensor_ptr %q, [%n, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf32, #blocked>>
    %lf = tt.load %pf {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf32, #blocked>>
    tt.return
  }
}

// RUN: xpu-opt %s --split-input-file --tritonintelgpu-materialize-block-pointer=max-work-per-op=1 --remarks 2>%t.budget | FileCheck %s --check-prefix=BUDGET --implicit-check-not=block_io
// RUN: FileCheck %s --check-prefix=BUDGET-REMARK < %t.budget
// max-work-per-op bounds the pass's work by the module's size: past it (here one unit per op)
// the input is kept (in a pipeline, triton-xpu's pass runs instead) and a remark says so.
// BUDGET: tt.func
// BUDGET-REMARK: remark: [tritonintelgpu-materialize-block-pointer] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
// BUDGET-REMARK-NOT: not a 2D block
