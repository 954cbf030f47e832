// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --verify-semantics="arg0=256,arg1=64" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// SEM-NOT: error
// SEM-COUNT-2: remark: [verify-semantics] equal on
// SEM-NOT: error
// ORACLE-COUNT-1: // -----

// Two row statistics (a max and a sum, reduced into a slice layout where the 8 lanes of a
// row hold the same value) are each converted to a 1D layout and merged (m + log(s)) before
// a store. Forward propagation into the replicated source is refused alone (its users would
// repeat their work), but here it merges the two conversions: the merge is computed in the
// source layout and one conversion is left, at the store (as triton-xpu's pass converts
// before its store anchor).
// CHECK-LABEL: tt.func public @merge_before_store
// CHECK-COUNT-2: "tt.reduce"
// CHECK-NOT: ttg.convert_layout
// CHECK: math.log %{{.*}} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: %[[R:.+]] = arith.addf %{{.*}} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: %[[C:.+]] = ttg.convert_layout %[[R]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %[[C]] : tensor<64x!tt.ptr<f32>, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @merge_before_store(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %cols = arith.constant dense<4> : tensor<64x1xi32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rs = arith.muli %r2, %cols : tensor<64x1xi32, #blocked>
    %c = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x4xi32, #blocked>
    %rb = tt.broadcast %rs : tensor<64x1xi32, #blocked> -> tensor<64x4xi32, #blocked>
    %cb = tt.broadcast %c2 : tensor<1x4xi32, #blocked> -> tensor<64x4xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x4xi32, #blocked>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x4x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %off : tensor<64x4x!tt.ptr<f32>, #blocked>, tensor<64x4xi32, #blocked>
    %t = tt.load %ptrs : tensor<64x4x!tt.ptr<f32>, #blocked>
    %m = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maximumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<64x4xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %s = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %sm = arith.addf %a, %b : f32
      tt.reduce.return %sm : f32
    }) : (tensor<64x4xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cm = ttg.convert_layout %m : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #row>
    %cs = ttg.convert_layout %s : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #row>
    %lg = math.log %cs : tensor<64xf32, #row>
    %res = arith.addf %cm, %lg : tensor<64xf32, #row>
    %o = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %obase = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #row>
    %optrs = tt.addptr %obase, %o : tensor<64x!tt.ptr<f32>, #row>, tensor<64xi32, #row>
    tt.store %optrs, %res : tensor<64x!tt.ptr<f32>, #row>
    tt.return
  }
}

// -----

// The same statistics, each stored on its own: no conversion merges, so the replicated
// source is not taken forward (each store would repeat its writes on 8 lanes) and both
// conversions stay where they are.
// CHECK-LABEL: tt.func public @no_merge_no_forward
// CHECK-COUNT-2: ttg.convert_layout %{{.*}} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>{{$[[:space:]].*}}tt.store %{{.*}} : tensor<64x!tt.ptr<f32>, #blocked1>
// REMARK: remove-layout-conversions-merge-store.mlir:[[# @LINE + 30]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward: the source layout holds more replicas (its users would repeat their work)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @no_merge_no_forward(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %cols = arith.constant dense<4> : tensor<64x1xi32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rs = arith.muli %r2, %cols : tensor<64x1xi32, #blocked>
    %c = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x4xi32, #blocked>
    %rb = tt.broadcast %rs : tensor<64x1xi32, #blocked> -> tensor<64x4xi32, #blocked>
    %cb = tt.broadcast %c2 : tensor<1x4xi32, #blocked> -> tensor<64x4xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x4xi32, #blocked>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x4x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %off : tensor<64x4x!tt.ptr<f32>, #blocked>, tensor<64x4xi32, #blocked>
    %t = tt.load %ptrs : tensor<64x4x!tt.ptr<f32>, #blocked>
    %m = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maximumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<64x4xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %s = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %sm = arith.addf %a, %b : f32
      tt.reduce.return %sm : f32
    }) : (tensor<64x4xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %o = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #row>
    %obase = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #row>
    %optrs = tt.addptr %obase, %o : tensor<64x!tt.ptr<f32>, #row>, tensor<64xi32, #row>
    %cm = ttg.convert_layout %m : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #row>
    tt.store %optrs, %cm : tensor<64x!tt.ptr<f32>, #row>
    %cs = ttg.convert_layout %s : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #row>
    tt.store %optrs, %cs : tensor<64x!tt.ptr<f32>, #row>
    tt.return
  }
}
