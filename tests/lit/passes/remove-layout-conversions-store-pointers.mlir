// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --verify-semantics="arg0=20000,arg1=1024,arg2=3,arg3=1024" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// SEM-NOT: error
// SEM-COUNT-2: remark: [verify-semantics] equal on
// SEM-NOT: error
// ORACLE-COUNT-1: // -----

// A loop carries a tensor of pointers; two addresses derived from it are converted to the
// layout of the stores they feed, whose value (a constant) can be made in any layout. A store
// runs in any layout its operands share: the pointers' conversion goes forward (the store and
// its value follow the pointers), for each store. Backward, the loop-carried pointers would be
// retyped and the other store's pointers converted back: as costly, so neither went before.
// CHECK-LABEL: tt.func public @store_follows_pointers
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<128x64x!tt.ptr<f16>, #blocked>)
// CHECK: tt.store %{{.*}} : tensor<128x64x!tt.ptr<f16>, #blocked>
// CHECK: tt.store %{{.*}} : tensor<128x64x!tt.ptr<f16>, #blocked>
// CHECK-NOT: ttg.convert_layout
#b0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @store_follows_pointers(%p: !tt.ptr<f16>, %unused: !tt.ptr<i64>, %n: i32, %unused2: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %w = arith.constant dense<64> : tensor<128x1xi32, #b0>
    %step = arith.constant dense<1> : tensor<128x64xi32, #b0>
    %far = arith.constant dense<8192> : tensor<128x64xi32, #b0>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #b0}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #b0}>> -> tensor<128x1xi32, #b0>
    %rw = arith.muli %r2, %w : tensor<128x1xi32, #b0>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b0}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b0}>> -> tensor<1x64xi32, #b0>
    %rb = tt.broadcast %rw : tensor<128x1xi32, #b0> -> tensor<128x64xi32, #b0>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #b0> -> tensor<128x64xi32, #b0>
    %off = arith.addi %rb, %cb : tensor<128x64xi32, #b0>
    %base = tt.splat %p : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #b0>
    %ptrs = tt.addptr %base, %off : tensor<128x64x!tt.ptr<f16>, #b0>, tensor<128x64xi32, #b0>
    %v = arith.constant dense<1.0> : tensor<128x64xf16, #b1>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%q = %ptrs) -> (tensor<128x64x!tt.ptr<f16>, #b0>) : i32 {
      %a = tt.addptr %q, %step : tensor<128x64x!tt.ptr<f16>, #b0>, tensor<128x64xi32, #b0>
      %ca = ttg.convert_layout %a : tensor<128x64x!tt.ptr<f16>, #b0> -> tensor<128x64x!tt.ptr<f16>, #b1>
      tt.store %ca, %v : tensor<128x64x!tt.ptr<f16>, #b1>
      %b = tt.addptr %q, %far : tensor<128x64x!tt.ptr<f16>, #b0>, tensor<128x64xi32, #b0>
      %cb2 = ttg.convert_layout %b : tensor<128x64x!tt.ptr<f16>, #b0> -> tensor<128x64x!tt.ptr<f16>, #b1>
      tt.store %cb2, %v : tensor<128x64x!tt.ptr<f16>, #b1>
      scf.yield %a : tensor<128x64x!tt.ptr<f16>, #b0>
    }
    tt.return
  }
}

// -----

// The pointers' offsets are gathered (backward would convert them: as costly as the pointers)
// and so is the stored value, in the store's layout: following the pointers would convert the
// gathered values instead, so the pointers' conversion is not taken forward and stays.
// CHECK-LABEL: tt.func public @stored_gather_keeps_layout
// CHECK: %[[C:.+]] = ttg.convert_layout %{{.*}} : tensor<32x32x!tt.ptr<f32>, #blocked> -> tensor<32x32x!tt.ptr<f32>, #blocked1>
// CHECK: tt.store %[[C]], %{{.*}} : tensor<32x32x!tt.ptr<f32>, #blocked1>
// REMARK: remove-layout-conversions-store-pointers.mlir:[[# @LINE + 29]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward: a stored value would be converted to follow its pointers
#b0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @stored_gather_keeps_layout(%p: !tt.ptr<f32>, %ix: !tt.ptr<i64>, %n: i32, %vs: !tt.ptr<f32>) {
    %eight0 = arith.constant dense<8> : tensor<32x32xi64, #b0>
    %c0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b0}>>
    %c0e = tt.expand_dims %c0 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b0}>> -> tensor<1x32xi32, #b0>
    %c0b = tt.broadcast %c0e : tensor<1x32xi32, #b0> -> tensor<32x32xi32, #b0>
    %ibase = tt.splat %ix : !tt.ptr<i64> -> tensor<32x32x!tt.ptr<i64>, #b0>
    %ip = tt.addptr %ibase, %c0b : tensor<32x32x!tt.ptr<i64>, #b0>, tensor<32x32xi32, #b0>
    %i1 = tt.load %ip : tensor<32x32x!tt.ptr<i64>, #b0>
    %i2 = arith.addi %i1, %eight0 : tensor<32x32xi64, #b0>
    %gp = tt.addptr %ibase, %i2 : tensor<32x32x!tt.ptr<i64>, #b0>, tensor<32x32xi64, #b0>
    %g = tt.load %gp : tensor<32x32x!tt.ptr<i64>, #b0>
    %off = arith.addi %g, %eight0 : tensor<32x32xi64, #b0>
    %pbase = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #b0>
    %ptrs = tt.addptr %pbase, %off : tensor<32x32x!tt.ptr<f32>, #b0>, tensor<32x32xi64, #b0>
    %eight1 = arith.constant dense<8> : tensor<32x32xi64, #b1>
    %c1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b1}>>
    %c1e = tt.expand_dims %c1 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b1}>> -> tensor<1x32xi32, #b1>
    %c1b = tt.broadcast %c1e : tensor<1x32xi32, #b1> -> tensor<32x32xi32, #b1>
    %jbase = tt.splat %ix : !tt.ptr<i64> -> tensor<32x32x!tt.ptr<i64>, #b1>
    %jp = tt.addptr %jbase, %c1b : tensor<32x32x!tt.ptr<i64>, #b1>, tensor<32x32xi32, #b1>
    %j1 = tt.load %jp : tensor<32x32x!tt.ptr<i64>, #b1>
    %j2 = arith.addi %j1, %eight1 : tensor<32x32xi64, #b1>
    %vbase = tt.splat %vs : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #b1>
    %vp = tt.addptr %vbase, %j2 : tensor<32x32x!tt.ptr<f32>, #b1>, tensor<32x32xi64, #b1>
    %v = tt.load %vp : tensor<32x32x!tt.ptr<f32>, #b1>
    %cp = ttg.convert_layout %ptrs : tensor<32x32x!tt.ptr<f32>, #b0> -> tensor<32x32x!tt.ptr<f32>, #b1>
    tt.store %cp, %v : tensor<32x32x!tt.ptr<f32>, #b1>
    tt.return
  }
}
