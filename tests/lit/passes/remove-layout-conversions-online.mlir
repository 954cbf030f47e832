// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: scf.for
// ORACLE-COUNT-1: // -----

// An online max over column blocks (softmax, attention, cross entropy): the running
// max %m is carried in a 1D layout, and two values computed from it (the rescale
// factor and the new max) are broadcast over the 2D block. Removing either
// conversion alone retypes %m and leaves a conversion back for the other (as
// costly as before); the second conversion's removal would be made in the same
// trial (the loop carrying %m in the slice layout, as triton-xpu's pass does), but
// the row max's load would follow into the slice layout, where each lane holds 2 of
// the 16 rows: every warp would send 2 gathers instead of 1 in each iteration,
// which costs more (costs.memory_cost) than the two 64-byte conversions: kept.
// CHECK-LABEL: tt.func public @online_max
// CHECK: scf.for {{.*}} -> (tensor<16x64xf32, #blocked>, tensor<16xf32, #blocked1>)
// CHECK: tt.load %{{.*}} : tensor<16x!tt.ptr<f32>, #blocked1>
// CHECK-COUNT-2: ttg.convert_layout %{{.*}} : tensor<16xf32, #blocked1> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: scf.yield
// REMARK: remove-layout-conversions-online.mlir:[[# @LINE + 19]]:7: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would not make the module cheaper
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @online_max(%rowptr: !tt.ptr<f32>, %tile: tensor<16x64x!tt.ptr<f32>, #blocked>, %out: tensor<16x64x!tt.ptr<f32>, #blocked>, %mout: tensor<16x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #blocked>
    %ninf = arith.constant dense<0xFF800000> : tensor<16xf32, #blocked1>
    %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked1>
    %base = tt.splat %rowptr : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #blocked1>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %m = %ninf) -> (tensor<16x64xf32, #blocked>, tensor<16xf32, #blocked1>) : i32 {
      %off = tt.splat %i : i32 -> tensor<16xi32, #blocked1>
      %idx = arith.addi %rows, %off : tensor<16xi32, #blocked1>
      %rowmax = tt.addptr %base, %idx : tensor<16x!tt.ptr<f32>, #blocked1>, tensor<16xi32, #blocked1>
      %x = tt.load %rowmax : tensor<16x!tt.ptr<f32>, #blocked1>
      %mn = arith.maximumf %m, %x : tensor<16xf32, #blocked1>
      %d = arith.subf %m, %mn : tensor<16xf32, #blocked1>
      %alpha = math.exp %d : tensor<16xf32, #blocked1>
      %ca = ttg.convert_layout %alpha : tensor<16xf32, #blocked1> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %ea = tt.expand_dims %ca {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xf32, #blocked>
      %ba = tt.broadcast %ea : tensor<16x1xf32, #blocked> -> tensor<16x64xf32, #blocked>
      %scaled = arith.mulf %acc, %ba : tensor<16x64xf32, #blocked>
      %cm = ttg.convert_layout %mn : tensor<16xf32, #blocked1> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %em = tt.expand_dims %cm {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xf32, #blocked>
      %bm = tt.broadcast %em : tensor<16x1xf32, #blocked> -> tensor<16x64xf32, #blocked>
      %t = tt.load %tile : tensor<16x64x!tt.ptr<f32>, #blocked>
      %s = arith.subf %t, %bm : tensor<16x64xf32, #blocked>
      %p = math.exp %s : tensor<16x64xf32, #blocked>
      %acc2 = arith.addf %scaled, %p : tensor<16x64xf32, #blocked>
      scf.yield %acc2, %mn : tensor<16x64xf32, #blocked>, tensor<16xf32, #blocked1>
    }
    tt.store %out, %r#0 : tensor<16x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Negative: the running max is also stored each iteration through pointers (a
// function argument) in its 1D layout, so moving the loop to the slice layout
// leaves a conversion in it all the same: the conversions stay where they are.
// CHECK-LABEL: tt.func public @online_max_stored
// CHECK: scf.for
// CHECK: ttg.convert_layout
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept:
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @online_max_stored(%rowmax: tensor<16x!tt.ptr<f32>, #blocked1>, %tile: tensor<16x64x!tt.ptr<f32>, #blocked>, %out: tensor<16x64x!tt.ptr<f32>, #blocked>, %mout: tensor<16x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x64xf32, #blocked>
    %ninf = arith.constant dense<0xFF800000> : tensor<16xf32, #blocked1>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %m = %ninf) -> (tensor<16x64xf32, #blocked>, tensor<16xf32, #blocked1>) : i32 {
      %x = tt.load %rowmax : tensor<16x!tt.ptr<f32>, #blocked1>
      %mn = arith.maximumf %m, %x : tensor<16xf32, #blocked1>
      tt.store %mout, %mn : tensor<16x!tt.ptr<f32>, #blocked1>
      %cm = ttg.convert_layout %mn : tensor<16xf32, #blocked1> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %em = tt.expand_dims %cm {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xf32, #blocked>
      %bm = tt.broadcast %em : tensor<16x1xf32, #blocked> -> tensor<16x64xf32, #blocked>
      %t = tt.load %tile : tensor<16x64x!tt.ptr<f32>, #blocked>
      %s = arith.subf %t, %bm : tensor<16x64xf32, #blocked>
      %acc2 = arith.addf %acc, %s : tensor<16x64xf32, #blocked>
      scf.yield %acc2, %mn : tensor<16x64xf32, #blocked>, tensor<16xf32, #blocked1>
    }
    tt.store %out, %r#0 : tensor<16x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
