// RUN: xpu-opt %s --split-input-file --tritonintelgpu-rewrite-tensor-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --pass-pipeline='builtin.module(tritonintelgpu-rewrite-tensor-pointer{guard=false})' | FileCheck %s --check-prefix=ALL
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-rewrite-tensor-pointer | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-rewrite-tensor-pointer=max-work-per-op=1 --remarks 2>%t.budget | FileCheck %s --check-prefix=BUDGET
// RUN: FileCheck %s --check-prefix=BUDGET-REMARK < %t.budget

// max-work-per-op bounds the pass's work by the module's size: past it (here one unit per op)
// the input is kept, every block pointer with it, and a remark says so.
// BUDGET-COUNT-4: tt.make_tensor_ptr
// BUDGET-NOT: tt.make_tensor_ptr
// BUDGET-REMARK: remark: [tritonintelgpu-rewrite-tensor-pointer] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1

// ORACLE: tt.make_tensor_ptr
// ORACLE-COUNT-3: // -----

// The 256x256 GEMM epilogue: D read through a block pointer in the DPAS layout,
// 16-byte pitch. The guard keeps it (a 2D block read, no SLM); without the guard
// it becomes a masked gather.
// CHECK-LABEL: tt.func public @epilogue_dpas
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %arg0
// CHECK: tt.load %[[P]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<256x256xf32, #mma>>
// REMARK: remark: [tritonintelgpu-rewrite-tensor-pointer] kept: every load/store through it can be a 2D block access
// ALL-LABEL: tt.func public @epilogue_dpas
// ALL-NOT: tt.make_tensor_ptr
// ALL: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 32 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @epilogue_dpas(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i64, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %row: i32, %col: i32, %acc: tensor<256x256xf32, #mma>) -> tensor<256x256xf32, #mma> {
    %c1 = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %d, [%m, %n], [%ld, %c1], [%row, %col] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #mma>>
    %x = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<256x256xf32, #mma>>
    %y = arith.addf %acc, %x : tensor<256x256xf32, #mma>
    tt.return %y : tensor<256x256xf32, #mma>
  }
}

// -----

// The same read in a blocked layout cannot be a 2D block read here: rewritten to
// a tensor of pointers, offsets = (row + i) * ld + (col + j), masked on both dims,
// `other` zero from the padding.
// CHECK-LABEL: tt.func public @epilogue_blocked
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: %[[R0:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: %[[ROW:.*]] = arith.extsi %arg4 : i32 to i64
// CHECK: arith.muli %{{.*}}, %{{.*}} : tensor<64xi64, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xi64, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi64, #blocked>
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi64, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi64, #blocked>
// CHECK: %[[PTRS:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi64, #blocked>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #blocked>
// CHECK: tt.load %[[PTRS]], %{{.*}}, %[[ZERO]] : tensor<64x32x!tt.ptr<f32>, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @epilogue_blocked(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i64, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %row: i32, %col: i32) -> tensor<64x32xf32, #blocked> {
    %c1 = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %d, [%m, %n], [%ld, %c1], [%row, %col] {order = array<i32: 1, 0>} : <tensor<64x32xf32, #blocked>>
    %x = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf32, #blocked>>
    tt.return %x : tensor<64x32xf32, #blocked>
  }
}

// -----

// Mixed: one load through the pointer qualifies (tagged block_io), the other
// does not (same blocked layout, untagged). Both must read the same addresses, so
// the whole family is rewritten, tag dropped.
// CHECK-LABEL: tt.func public @mixed
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<32x32x!tt.ptr<f16>, #blocked>
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<32x32x!tt.ptr<f16>, #blocked>
// CHECK-NOT: block_io
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @mixed(%d: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %i: i32) {
    %c1 = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %d, [%n, %n], [%ld, %c1], [%i, %i] {order = array<i32: 1, 0>} : <tensor<32x32xf16, #blocked>>
    %x = tt.load %p {boundaryCheck = array<i32: 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<32x32xf16, #blocked>>
    %y = tt.load %p {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<32x32xf16, #blocked>>
    tt.return
  }
}

// -----

// Loop-carried: the pointer becomes two i32 offsets in iter_args; tt.advance
// becomes additions; the store after the loop uses the loop's final offsets.
// CHECK-LABEL: tt.func public @loop
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %[[O0:[^ ]*]] = %arg3, %[[O1:[^ ]*]] = %arg3) -> (tensor<16x16xf32, #blocked>, i32, i32)  : i32 {
// CHECK: tt.load %{{.*}} : tensor<16x16x!tt.ptr<f32>, #blocked>
// CHECK: %[[N0:.*]] = arith.addi %[[O0]], %{{.*}} : i32
// CHECK: scf.yield %{{.*}}, %[[N0]], %{{.*}} : tensor<16x16xf32, #blocked>, i32, i32
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f32>, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @loop(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}, %i: i32) {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %c1 = arith.constant 1 : i64
    %z = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked>
    %p = tt.make_tensor_ptr %a, [%n, %n], [%ld, %c1], [%i, %i] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %r:2 = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %z, %q = %p) -> (tensor<16x16xf32, #blocked>, !tt.ptr<tensor<16x16xf32, #blocked>>)  : i32 {
      %x = tt.load %q : !tt.ptr<tensor<16x16xf32, #blocked>>
      %s = arith.addf %acc, %x : tensor<16x16xf32, #blocked>
      %nq = tt.advance %q, [%c16, %c0] : <tensor<16x16xf32, #blocked>>
      scf.yield %s, %nq : tensor<16x16xf32, #blocked>, !tt.ptr<tensor<16x16xf32, #blocked>>
    }
    tt.store %r#1, %r#0 : !tt.ptr<tensor<16x16xf32, #blocked>>
    tt.return
  }
}
