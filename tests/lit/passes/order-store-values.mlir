// -xpu-order-store-values (transforms/order_store_values.py): a block's stored values computed narrowest
// first. A loss (f32) and a gradient truncated to bf16 are computed from the same inputs and stored in that
// order: the gradient's own ops (through its truncf) move before the loss's, the stores keep their order.
// RUN: xpu-opt %s --split-input-file --xpu-order-store-values --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --xpu-order-store-values --verify-semantics="arg0=1024,arg1=1024,arg2=1024,grid=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// RUN: xpu-opt %s --split-input-file --xpu-order-store-values=max-work-per-op=1 --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET

// BUDGET: remark: [xpu-order-store-values] input kept: work budget spent ({{[0-9]+}} > {{[0-9]+}} units), max-work-per-op=1
// SEM-NOT: error
// SEM-COUNT-4: remark: [verify-semantics] equal on
// SEM-NOT: error

// CHECK-LABEL: tt.func public @loss_then_grad
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]]
// CHECK-NEXT: %[[G:.*]] = arith.subf %[[X]], %[[E]]
// CHECK-NEXT: %[[GS:.*]] = arith.mulf %[[G]], %[[X]]
// CHECK-NEXT: %[[GB:.*]] = arith.truncf %[[GS]]
// CHECK-NEXT: %[[L:.*]] = arith.mulf %[[E]], %[[X]]
// CHECK-NEXT: %[[LS:.*]] = arith.addf %[[L]], %[[E]]
// CHECK: tt.store %{{.*}}, %[[LS]]
// CHECK: tt.store %{{.*}}, %[[GB]]
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @loss_then_grad(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: !tt.ptr<bf16>) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = tt.load %2 : tensor<1024x!tt.ptr<f32>, #blocked>
    %4 = math.exp %3 : tensor<1024xf32, #blocked>
    %5 = arith.mulf %4, %3 : tensor<1024xf32, #blocked>
    %6 = arith.addf %5, %4 : tensor<1024xf32, #blocked>
    %7 = arith.subf %3, %4 : tensor<1024xf32, #blocked>
    %8 = arith.mulf %7, %3 : tensor<1024xf32, #blocked>
    %9 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %10 = tt.addptr %9, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %10, %6 : tensor<1024x!tt.ptr<f32>, #blocked>
    %11 = tt.splat %arg2 : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %12 = tt.addptr %11, %0 : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    %13 = arith.truncf %8 : tensor<1024xf32, #blocked> to tensor<1024xbf16, #blocked>
    tt.store %12, %13 : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}

// -----

// Both stored values f32 (one width): nothing moves.
// CHECK-LABEL: tt.func public @same_width
// CHECK: %[[L:.*]] = arith.mulf
// CHECK-NEXT: arith.addf %[[L]]
// CHECK-NEXT: arith.subf
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @same_width(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: !tt.ptr<f32>) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = tt.load %2 : tensor<1024x!tt.ptr<f32>, #blocked>
    %4 = math.exp %3 : tensor<1024xf32, #blocked>
    %5 = arith.mulf %4, %3 : tensor<1024xf32, #blocked>
    %6 = arith.addf %5, %4 : tensor<1024xf32, #blocked>
    %7 = arith.subf %3, %4 : tensor<1024xf32, #blocked>
    %9 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %10 = tt.addptr %9, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %10, %6 : tensor<1024x!tt.ptr<f32>, #blocked>
    %11 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %12 = tt.addptr %11, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %12, %7 : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The gradient reads a second load made after the loss's ops: its chain cannot move above that load.
// CHECK-LABEL: tt.func public @grad_reads_a_later_load
// CHECK: arith.addf
// CHECK: %[[Y:.*]] = tt.load
// CHECK-NEXT: arith.subf %{{.*}}, %[[Y]]
// REMARK: remark: [xpu-order-store-values] stored values not reordered: a stored value reads 'tt.load', made among the chains by an op that stays
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @grad_reads_a_later_load(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: !tt.ptr<bf16>) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = tt.load %2 : tensor<1024x!tt.ptr<f32>, #blocked>
    %4 = math.exp %3 : tensor<1024xf32, #blocked>
    %5 = arith.mulf %4, %3 : tensor<1024xf32, #blocked>
    %6 = arith.addf %5, %4 : tensor<1024xf32, #blocked>
    %9 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %10 = tt.addptr %9, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %14 = tt.load %10 : tensor<1024x!tt.ptr<f32>, #blocked>
    %7 = arith.subf %3, %14 : tensor<1024xf32, #blocked>
    %8 = arith.mulf %7, %4 : tensor<1024xf32, #blocked>
    tt.store %10, %6 : tensor<1024x!tt.ptr<f32>, #blocked>
    %11 = tt.splat %arg2 : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %12 = tt.addptr %11, %0 : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    %13 = arith.truncf %8 : tensor<1024xf32, #blocked> to tensor<1024xbf16, #blocked>
    tt.store %12, %13 : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}

// -----

// A 16-row f32 vector (4 B per lane) stored beside a 16x64 bf16 tile (64 B): narrower by its element
// count, not its type (attention's lse beside its output). Left alone, said why.
// CHECK-LABEL: tt.func public @vector_beside_tile
// CHECK: %[[O:.*]] = arith.truncf
// CHECK: tt.store %{{.*}}, %[[O]]
// CHECK-NEXT: %[[L:.*]] = math.log
// REMARK: remark: [xpu-order-store-values] stored values not reordered: the stored values are tiles of different shapes
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#vec = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @vector_beside_tile(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<bf16>, %arg2: !tt.ptr<f32>) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #vec>
    %vp = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #vec>
    %vptr = tt.addptr %vp, %r : tensor<16x!tt.ptr<f32>, #vec>, tensor<16xi32, #vec>
    %v = tt.load %vptr : tensor<16x!tt.ptr<f32>, #vec>
    %x = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>, #blocked>
    %t = tt.load %x : tensor<16x64x!tt.ptr<f32>, #blocked>
    %o = arith.truncf %t : tensor<16x64xf32, #blocked> to tensor<16x64xbf16, #blocked>
    %op = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x64x!tt.ptr<bf16>, #blocked>
    tt.store %op, %o : tensor<16x64x!tt.ptr<bf16>, #blocked>
    %l = math.log %v : tensor<16xf32, #vec>
    %lp = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #vec>
    %lptr = tt.addptr %lp, %r : tensor<16x!tt.ptr<f32>, #vec>, tensor<16xi32, #vec>
    tt.store %lptr, %l : tensor<16x!tt.ptr<f32>, #vec>
    tt.return
  }
}
