// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: scf.while
// ORACLE-COUNT-2: // -----

// scf.while carries two groups: the before arguments (initial values, yield) and
// the after arguments (scf.condition's operands, results). Here the before region
// carries a flag the after region does not get, and the body converts the tensor
// back and forth: the whole loop moves to #blocked1 (the load's conversion is
// carried through both groups) and no conversion is left, as triton-xpu's pass does.
// CHECK-LABEL: tt.func public @while_extra_before_arg
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.while ({{.*}}) : (tensor<32x64xf32, #blocked>, i1) -> tensor<32x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @while_extra_before_arg(%in: tensor<32x64x!tt.ptr<f32>, #blocked>, %out: tensor<32x64x!tt.ptr<f32>, #blocked>, %go: i1) {
    %x = tt.load %in : tensor<32x64x!tt.ptr<f32>, #blocked>
    %x1 = ttg.convert_layout %x : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
    %r = scf.while (%a = %x1, %f = %go) : (tensor<32x64xf32, #blocked1>, i1) -> tensor<32x64xf32, #blocked1> {
      scf.condition(%f) %a : tensor<32x64xf32, #blocked1>
    } do {
    ^bb0(%b: tensor<32x64xf32, #blocked1>):
      %c = ttg.convert_layout %b : tensor<32x64xf32, #blocked1> -> tensor<32x64xf32, #blocked>
      %m = arith.mulf %c, %c : tensor<32x64xf32, #blocked>
      %back = ttg.convert_layout %m : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
      scf.yield %back, %go : tensor<32x64xf32, #blocked1>, i1
    }
    %o = ttg.convert_layout %r : tensor<32x64xf32, #blocked1> -> tensor<32x64xf32, #blocked>
    tt.store %out, %o : tensor<32x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The condition passes the carried values on in another order (the tensor is the
// before region's first argument and the after region's second): each group is
// retyped at its own position; no conversion is left.
// CHECK-LABEL: tt.func public @while_swapped
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.while ({{.*}}) : (tensor<32x64xf32, #blocked>, i32) -> (i32, tensor<32x64xf32, #blocked>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @while_swapped(%in: tensor<32x64x!tt.ptr<f32>, #blocked>, %out: tensor<32x64x!tt.ptr<f32>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %x = tt.load %in : tensor<32x64x!tt.ptr<f32>, #blocked>
    %x1 = ttg.convert_layout %x : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
    %r:2 = scf.while (%a = %x1, %i = %c0) : (tensor<32x64xf32, #blocked1>, i32) -> (i32, tensor<32x64xf32, #blocked1>) {
      %g = arith.cmpi slt, %i, %n : i32
      scf.condition(%g) %i, %a : i32, tensor<32x64xf32, #blocked1>
    } do {
    ^bb0(%j: i32, %b: tensor<32x64xf32, #blocked1>):
      %c = ttg.convert_layout %b : tensor<32x64xf32, #blocked1> -> tensor<32x64xf32, #blocked>
      %m = arith.mulf %c, %c : tensor<32x64xf32, #blocked>
      %back = ttg.convert_layout %m : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %back, %j1 : tensor<32x64xf32, #blocked1>, i32
    }
    %o = ttg.convert_layout %r#1 : tensor<32x64xf32, #blocked1> -> tensor<32x64xf32, #blocked>
    tt.store %out, %o : tensor<32x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Negative: the body also stores the tensor through pointers in #blocked1 each
// iteration, so the loop needs it in both layouts: one conversion stays, in the
// loop (moving the loop to either layout leaves one there).
// CHECK-LABEL: tt.func public @while_both_layouts
// CHECK: scf.while
// CHECK-COUNT-1: ttg.convert_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept:
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @while_both_layouts(%in: tensor<32x64x!tt.ptr<f32>, #blocked>, %out: tensor<32x64x!tt.ptr<f32>, #blocked>, %out1: tensor<32x64x!tt.ptr<f32>, #blocked1>, %go: i1) {
    %x = tt.load %in : tensor<32x64x!tt.ptr<f32>, #blocked>
    %r = scf.while (%a = %x, %f = %go) : (tensor<32x64xf32, #blocked>, i1) -> tensor<32x64xf32, #blocked> {
      scf.condition(%f) %a : tensor<32x64xf32, #blocked>
    } do {
    ^bb0(%b: tensor<32x64xf32, #blocked>):
      %m = arith.mulf %b, %b : tensor<32x64xf32, #blocked>
      tt.store %out, %m : tensor<32x64x!tt.ptr<f32>, #blocked>
      %c = ttg.convert_layout %m : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
      tt.store %out1, %c : tensor<32x64x!tt.ptr<f32>, #blocked1>
      scf.yield %m, %go : tensor<32x64xf32, #blocked>, i1
    }
    tt.store %out, %r : tensor<32x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
