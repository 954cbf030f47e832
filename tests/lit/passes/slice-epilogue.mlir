// RUN: xpu-opt %s --split-input-file --xpu-slice-epilogue --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --xpu-slice-epilogue=slice-registers=16 | FileCheck %s --check-prefix=EIGHTHS
// RUN: xpu-opt %s --split-input-file --xpu-slice-epilogue=min-registers=256 --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALL
// RUN: %if triton %{ xpu-opt %s --split-input-file --xpu-slice-epilogue | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE-COUNT-2: math.erf
// ORACLE: tt.store

// GELU on a 128x64 f32 DPAS tile (128 registers per thread): the epilogue moves under
// `scf.if (offset < shape)` of the store's first checked dim, the tile is cut on its highest
// register bit (2 slices of 64 registers; 8 of 16 with slice-registers=16), each slice computed
// in turn and joined.
// CHECK-LABEL: tt.func public @gelu
// CHECK-NOT: math.erf
// CHECK: tt.make_tensor_ptr %{{.*}}, [%[[M:.*]], %{{.*}}], [%{{.*}}, %{{.*}}], [%[[OFF32:.*]], %{{.*}}]
// CHECK: %[[OFF:.*]] = arith.extsi %[[OFF32]] : i32 to i64
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[OFF]], %[[M]] : i64
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: ttg.convert_layout %{{.*}} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #linear>
// CHECK: tt.split
// CHECK-COUNT-2: math.erf %{{.*}} : tensor<{{.*}}xf32, #linear{{[0-9]+}}>
// CHECK-NOT: math.erf
// CHECK: %[[BACK:.*]] = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #linear> -> tensor<128x64xf32, #mma>
// CHECK: tt.store %{{.*}}, %[[BACK]] {boundaryCheck = array<i32: 0, 1>}
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// EIGHTHS-LABEL: tt.func public @gelu
// EIGHTHS-COUNT-8: math.erf %{{.*}} : tensor<4x8x32xf32
// EIGHTHS-NOT: math.erf
// EIGHTHS: tt.return
// SMALL: remark: [xpu-slice-epilogue] epilogue left alone: 128 registers per thread (< min-registers=256)
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @gelu(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32, %N: i32, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %half = arith.constant dense<5.000000e-01> : tensor<128x64xf32, #mma>
    %one = arith.constant dense<1.000000e+00> : tensor<128x64xf32, #mma>
    %rsqrt2 = arith.constant dense<0.707106769> : tensor<128x64xf32, #mma>
    %pid = tt.get_program_id x : i32
    %m0 = arith.muli %pid, %c0 : i32
    %Mi = arith.extsi %M : i32 to i64
    %Ni = arith.extsi %N : i32 to i64
    %pa = tt.make_tensor_ptr %a, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %x1 = arith.mulf %acc, %half : tensor<128x64xf32, #mma>
    %x2 = arith.mulf %acc, %rsqrt2 : tensor<128x64xf32, #mma>
    %x3 = math.erf %x2 : tensor<128x64xf32, #mma>
    %x4 = arith.addf %x3, %one : tensor<128x64xf32, #mma>
    %x5 = arith.mulf %x1, %x4 : tensor<128x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    tt.store %pc, %x5 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
}

// -----

// No op that branches per element (a ReLU): nothing to slice for.
// CHECK-LABEL: tt.func public @relu
// CHECK-NOT: scf.if
// CHECK: arith.maximumf
// CHECK-NOT: tt.split
// CHECK: tt.store
// REMARK: slice-epilogue.mlir:76:5: remark: [xpu-slice-epilogue] epilogue left alone: no op in it branches per element or gathers (nothing to slice for)
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @relu(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i64, %N: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %r = arith.maximumf %acc, %zero : tensor<128x64xf32, #mma>
    tt.store %pa, %r {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
}

// -----

// The store is not the function's last op, it has no boundary check, or a value of the epilogue
// has another use: each left alone, with its reason.
// CHECK-LABEL: tt.func public @not_last
// CHECK-NOT: scf.if
// CHECK: math.erf
// CHECK-NOT: tt.split
// CHECK-LABEL: tt.func public @unchecked
// CHECK-NOT: scf.if
// CHECK-LABEL: tt.func public @shared
// CHECK-NOT: scf.if
// CHECK: tt.return
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: the store is not the function's last op
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: the store has no boundary check (no bounds guard is exact)
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: a value of the epilogue (math.erf) is used elsewhere
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @not_last(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i64, %N: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = tt.make_tensor_ptr %a, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %e = math.erf %acc : tensor<128x64xf32, #mma>
    tt.store %pa, %e {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.store %pa, %acc {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
  tt.func public @unchecked(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i64, %N: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = tt.make_tensor_ptr %a, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa : !tt.ptr<tensor<128x64xf32, #mma>>
    %e = math.erf %acc : tensor<128x64xf32, #mma>
    tt.store %pa, %e : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
  tt.func public @shared(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i64, %N: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = tt.make_tensor_ptr %a, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %e = math.erf %acc : tensor<128x64xf32, #mma>
    %f = arith.addf %e, %acc : tensor<128x64xf32, #mma>
    %s = scf.for %i = %c0 to %c0 step %c0 iter_args(%t = %e) -> (tensor<128x64xf32, #mma>) : i32 {
      scf.yield %t : tensor<128x64xf32, #mma>
    }
    tt.store %pa, %f {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
}

// RUN: xpu-opt %s --split-input-file --xpu-slice-epilogue=max-work-per-op=1 --remarks 2>%t.budget | FileCheck %s --check-prefix=BUDGET --implicit-check-not=scf.if
// RUN: FileCheck %s --check-prefix=BUDGET-REMARK < %t.budget
// max-work-per-op bounds the pass's work by the module's size: past it (here one unit per op)
// the input is kept (nothing sliced) and a remark says so.
// BUDGET: tt.store
// BUDGET-REMARK: remark: [xpu-slice-epilogue] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
