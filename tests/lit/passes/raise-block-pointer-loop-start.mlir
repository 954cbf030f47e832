// A loop-carried pointer in a loop that starts at a loop-invariant value `lo` (not 0): the causal
// diagonal's `for s in range(lo, hi, BN)` with a pointer made at `lo` and a mask `s + offs < N`. At induction
// value s the position is `pos0 + (s - lo) * adv / step` (exact: s - lo is a multiple of the step), so the
// mask is the bounds check of its dim and an unmasked moving dim reaches `pos0 + (hi - 1 - lo) * k + size`.
// Bit-identical on the interpreter (n 10: ragged against the 4-row tiles; grid 3).
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer --verify-semantics="arg2=16,arg3=10,grid=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM

// SEM-NOT: error
// SEM-COUNT-3: remark: [verify-semantics] equal on
// SEM-NOT: error

// Rows lo = pid*4 .. lo+8 step 4, the pointer made at row lo and advanced 4 rows an iteration, masked with
// `s + rows < n`: boundaryCheck on dim 0 against n (the shape does not depend on lo), padding zero.
// CHECK-LABEL: tt.func public @rows_from_lo
// CHECK: %[[LO:.*]] = arith.muli %{{.*}}, %c4_i32 : i32
// CHECK: %[[N:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %arg0, [%[[N]], %c16_i64], [%{{.*}}, %c1_i64], [%[[LO]], %c0_i32]
// CHECK: scf.for %{{.*}} = %[[LO]] to %{{.*}} step %{{.*}} iter_args(%[[BP:.*]] = %[[P]], %{{.*}} = %{{.*}}) -> (!tt.ptr<tensor<4x16xf32>>, tensor<4x16xf32>)
// CHECK: tt.load %[[BP]] {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.advance %[[BP]]
// REMARK: loop-start.mlir:[[# @LINE + 32]]:7: remark: [triton-raise-block-pointer] raised; dim 1 has no bound in the IR: shape = the extent the loop reaches, unchecked
module {
  tt.func public @rows_from_lo(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32) {
    %c4_i32 = arith.constant 4 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
    %pid = tt.get_program_id x : i32
    %lo = arith.muli %pid, %c4_i32 : i32
    %hi = arith.addi %lo, %c8_i32 : i32
    %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r1 = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %st = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %ro = arith.muli %r1, %st : tensor<4x1xi32>
    %rb = tt.broadcast %ro : tensor<4x1xi32> -> tensor<4x16xi32>
    %c1 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %cb = tt.broadcast %c1 : tensor<1x16xi32> -> tensor<4x16xi32>
    %off = arith.addi %rb, %cb : tensor<4x16xi32>
    %base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %p0 = tt.addptr %base, %off : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %lo_off = arith.muli %lo, %arg2 : i32
    %lo_s = tt.splat %lo_off : i32 -> tensor<4x16xi32>
    %p1 = tt.addptr %p0, %lo_s : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %adv = arith.muli %arg2, %c4_i32 : i32
    %adv_s = tt.splat %adv : i32 -> tensor<4x16xi32>
    %n = tt.splat %arg3 : i32 -> tensor<4xi32>
    %r:2 = scf.for %s = %lo to %hi step %c4_i32 iter_args(%p = %p1, %acc = %cst) -> (tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>)  : i32 {
      %ss = tt.splat %s : i32 -> tensor<4xi32>
      %sr = arith.addi %ss, %rows : tensor<4xi32>
      %m = arith.cmpi slt, %sr, %n : tensor<4xi32>
      %m1 = tt.expand_dims %m {axis = 1 : i32} : tensor<4xi1> -> tensor<4x1xi1>
      %mb = tt.broadcast %m1 : tensor<4x1xi1> -> tensor<4x16xi1>
      %x = tt.load %p, %mb, %cst : tensor<4x16x!tt.ptr<f32>>
      %a = arith.addf %acc, %x : tensor<4x16xf32>
      %pn = tt.addptr %p, %adv_s : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %pn, %a : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>
    }
    %o16 = arith.constant dense<16> : tensor<4x1xi32>
    %pid4 = tt.splat %lo : i32 -> tensor<4x1xi32>
    %orow2 = arith.addi %r1, %pid4 : tensor<4x1xi32>
    %oro = arith.muli %orow2, %o16 : tensor<4x1xi32>
    %orb = tt.broadcast %oro : tensor<4x1xi32> -> tensor<4x16xi32>
    %ooff = arith.addi %orb, %cb : tensor<4x16xi32>
    %obase = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %optr = tt.addptr %obase, %ooff : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %optr, %r#1 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Columns lo = pid*16 .. lo+32 step 16, the pointer made at column lo and advanced 16 columns an iteration,
// rows masked with `rows < n` and columns not at all: dim 0 checked against n, dim 1's shape the extent the
// loop reaches from lo (lo + (hi - 1 - lo) + 16), unchecked.
// CHECK-LABEL: tt.func public @cols_from_lo
// CHECK: tt.make_tensor_ptr %arg0,
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<4x16xf32>>
// CHECK: tt.advance
// REMARK: loop-start.mlir:[[# @LINE + 28]]:7: remark: [triton-raise-block-pointer] raised; dim 1 has no bound in the IR: shape = the extent the loop reaches, unchecked
module {
  tt.func public @cols_from_lo(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32) {
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
    %pid = tt.get_program_id x : i32
    %lo = arith.muli %pid, %c16_i32 : i32
    %hi = arith.addi %lo, %c32_i32 : i32
    %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r1 = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %st = arith.constant dense<64> : tensor<4x1xi32>
    %ro = arith.muli %r1, %st : tensor<4x1xi32>
    %rb = tt.broadcast %ro : tensor<4x1xi32> -> tensor<4x16xi32>
    %c1 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %cb = tt.broadcast %c1 : tensor<1x16xi32> -> tensor<4x16xi32>
    %off = arith.addi %rb, %cb : tensor<4x16xi32>
    %base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %p0 = tt.addptr %base, %off : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %lo_s = tt.splat %lo : i32 -> tensor<4x16xi32>
    %p1 = tt.addptr %p0, %lo_s : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %adv_s = arith.constant dense<16> : tensor<4x16xi32>
    %n = tt.splat %arg3 : i32 -> tensor<4xi32>
    %m = arith.cmpi slt, %rows, %n : tensor<4xi32>
    %m1 = tt.expand_dims %m {axis = 1 : i32} : tensor<4xi1> -> tensor<4x1xi1>
    %mb = tt.broadcast %m1 : tensor<4x1xi1> -> tensor<4x16xi1>
    %r:2 = scf.for %s = %lo to %hi step %c16_i32 iter_args(%p = %p1, %acc = %cst) -> (tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>)  : i32 {
      %x = tt.load %p, %mb, %cst : tensor<4x16x!tt.ptr<f32>>
      %a = arith.addf %acc, %x : tensor<4x16xf32>
      %pn = tt.addptr %p, %adv_s : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %pn, %a : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>
    }
    %o16 = arith.constant dense<16> : tensor<4x1xi32>
    %pid4 = tt.splat %pid : i32 -> tensor<4x1xi32>
    %o4 = arith.constant dense<4> : tensor<4x1xi32>
    %orow = arith.muli %pid4, %o4 : tensor<4x1xi32>
    %orow2 = arith.addi %r1, %orow : tensor<4x1xi32>
    %oro = arith.muli %orow2, %o16 : tensor<4x1xi32>
    %orb = tt.broadcast %oro : tensor<4x1xi32> -> tensor<4x16xi32>
    %ooff = arith.addi %orb, %cb : tensor<4x16xi32>
    %obase = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %optr = tt.addptr %obase, %ooff : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %optr, %r#1 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Negative: the same rows loop with a run-time step: no closed form for the position at s, so the mask
// `s + rows < n` is no bounds check and the load stays a gather.
// CHECK-LABEL: tt.func public @rows_runtime_step
// CHECK: scf.for
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x16x!tt.ptr<f32>>
// REMARK: loop-start.mlir:[[# @LINE + 32]]:7: remark: [triton-raise-block-pointer] left alone: mask is not a bounds check of the block, and the block load may read outside the kernel's bounds along dim 0
module {
  tt.func public @rows_runtime_step(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32) {
    %c4_i32 = arith.constant 4 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
    %pid = tt.get_program_id x : i32
    %lo = arith.muli %pid, %c4_i32 : i32
    %hi = arith.addi %lo, %c8_i32 : i32
    %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r1 = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %st = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %ro = arith.muli %r1, %st : tensor<4x1xi32>
    %rb = tt.broadcast %ro : tensor<4x1xi32> -> tensor<4x16xi32>
    %c1 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %cb = tt.broadcast %c1 : tensor<1x16xi32> -> tensor<4x16xi32>
    %off = arith.addi %rb, %cb : tensor<4x16xi32>
    %base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %p0 = tt.addptr %base, %off : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %lo_off = arith.muli %lo, %arg2 : i32
    %lo_s = tt.splat %lo_off : i32 -> tensor<4x16xi32>
    %p1 = tt.addptr %p0, %lo_s : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %adv = arith.muli %arg2, %c4_i32 : i32
    %adv_s = tt.splat %adv : i32 -> tensor<4x16xi32>
    %n = tt.splat %arg3 : i32 -> tensor<4xi32>
    %r:2 = scf.for %s = %lo to %hi step %arg4 iter_args(%p = %p1, %acc = %cst) -> (tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>)  : i32 {
      %ss = tt.splat %s : i32 -> tensor<4xi32>
      %sr = arith.addi %ss, %rows : tensor<4xi32>
      %m = arith.cmpi slt, %sr, %n : tensor<4xi32>
      %m1 = tt.expand_dims %m {axis = 1 : i32} : tensor<4xi1> -> tensor<4x1xi1>
      %mb = tt.broadcast %m1 : tensor<4x1xi1> -> tensor<4x16xi1>
      %x = tt.load %p, %mb, %cst : tensor<4x16x!tt.ptr<f32>>
      %a = arith.addf %acc, %x : tensor<4x16xf32>
      %pn = tt.addptr %p, %adv_s : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
      scf.yield %pn, %a : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>
    }
    %o16 = arith.constant dense<16> : tensor<4x1xi32>
    %pid4 = tt.splat %lo : i32 -> tensor<4x1xi32>
    %orow2 = arith.addi %r1, %pid4 : tensor<4x1xi32>
    %oro = arith.muli %orow2, %o16 : tensor<4x1xi32>
    %orb = tt.broadcast %oro : tensor<4x1xi32> -> tensor<4x16xi32>
    %ooff = arith.addi %orb, %cb : tensor<4x16xi32>
    %obase = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %optr = tt.addptr %obase, %ooff : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %optr, %r#1 : tensor<4x16x!tt.ptr<f32>>
    tt.return
  }
}
