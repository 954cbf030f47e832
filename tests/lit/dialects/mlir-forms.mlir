// RUN: xpu-opt %s --split-input-file | FileCheck %s
// RUN: xpu-opt %s --split-input-file | xpu-opt --split-input-file | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// Forms MLIR reads that real kernels and Intel's lit files use: quoted predicates,
// one result type without parentheses, a while loop without loop-carried values
// (a lock spin), gpu.barrier (tl.debug_barrier), fastmath flags on casts and
// arithmetic, and a function body of several blocks (an early return).

// CHECK-LABEL: tt.func public @early_return
// CHECK: gpu.barrier
// CHECK-NEXT: arith.cmpi sgt, %arg1, %c0_i32 : i32
// CHECK-NEXT: arith.cmpf olt, %arg3, %arg3 : f32
// CHECK-NEXT: arith.extf %arg2 fastmath<contract> : f16 to f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<fast> : f32
// CHECK-NEXT: cf.cond_br %{{.*}}, ^bb1, ^bb2
// CHECK: ^bb1:
// CHECK-NEXT: tt.return
// CHECK: ^bb2:
// CHECK-NEXT: scf.if %{{.*}} -> (i32) {
// CHECK: cf.br ^bb3(%{{.*}} : i32)
// CHECK: ^bb3(%[[X:.*]]: i32):
// CHECK-NEXT: tt.store %arg0, %[[X]] : !tt.ptr<i32>
// ORACLE: gpu.barrier
// ORACLE: fastmath<contract>
// ORACLE: cf.br ^bb3
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @early_return(%arg0: !tt.ptr<i32>, %arg1: i32, %arg2: f16, %arg3: f32) {
    %c0_i32 = arith.constant 0 : i32
    gpu.barrier
    %0 = arith.cmpi "sgt", %arg1, %c0_i32 : i32
    %1 = arith.cmpf "olt", %arg3, %arg3 : f32
    %2 = arith.extf %arg2 fastmath<contract> : f16 to f32
    %3 = arith.addf %2, %2 fastmath<fast> : f32
    cf.cond_br %0, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    tt.return
  ^bb2:  // pred: ^bb0
    %4 = scf.if %1 -> i32 {
      scf.yield %c0_i32 : i32
    } else {
      scf.yield %arg1 : i32
    }
    cf.br ^bb3(%4 : i32)
  ^bb3(%5: i32):  // pred: ^bb2
    tt.store %arg0, %5 : !tt.ptr<i32>
    tt.return
  }
}

// -----

// A lock spin (`while tl.atomic_cas(lock, 0, 1) == 1: pass`): no loop-carried values.
// CHECK-LABEL: tt.func public @lock
// CHECK: scf.while : () -> () {
// CHECK-NEXT: tt.atomic_cas acq_rel, gpu, %arg0, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32
// CHECK: scf.condition(%{{.*}})
// CHECK-NEXT: } do {
// CHECK-NEXT: scf.yield
// ORACLE: // -----
// ORACLE: scf.while : () -> () {
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @lock(%arg0: !tt.ptr<i32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.while : () -> () {
      %0 = tt.atomic_cas acq_rel, gpu, %arg0, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32
      %1 = arith.cmpi eq, %0, %c1_i32 : i32
      scf.condition(%1)
    } do {
      scf.yield
    }
    tt.return
  }
}

// -----

// One loop-carried value, its type without parentheses.
// CHECK-LABEL: tt.func public @for_one
// CHECK: scf.for %{{.*}} = %c0_i32 to %arg0 step %c1_i32 iter_args(%{{.*}} = %cst) -> (f32) : i32 {
// ORACLE: // -----
// ORACLE: scf.for
module {
  tt.func public @for_one(%arg0: i32) -> f32 {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = scf.for %i = %c0_i32 to %arg0 step %c1_i32 iter_args(%acc = %cst) -> f32 : i32 {
      %1 = arith.addf %acc, %acc : f32
      scf.yield %1 : f32
    }
    tt.return %0 : f32
  }
}

// -----

// tt.make_tensor_ptr with the full `!tt.ptr<...>` type (MLIR reads both), printed short.
// CHECK-LABEL: tt.func public @full_ptr_type
// CHECK: tt.make_tensor_ptr %arg0, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
// ORACLE: // -----
// ORACLE: tt.make_tensor_ptr %arg0, {{.*}} : <tensor<64x64xf16>>
module {
  tt.func public @full_ptr_type(%arg0: !tt.ptr<f16>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %0 = tt.make_tensor_ptr %arg0, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x64xf16>>
    %1 = tt.load %0 : !tt.ptr<tensor<64x64xf16>>
    tt.return
  }
}
