// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.reshape {{.*}} allow_reorder
// ORACLE-COUNT-2: // -----

// An absmax over a tile flattened by tt.reshape {allow_reorder} (per-token
// quantization): the reshape may put the elements anywhere, so it reads the extended
// tile in the load's layout and keeps its result type (each thread holds 16 elements
// before and after: a register renaming). No conversion is left and extf is not
// duplicated (before: the loaded tile was converted for the reshape, 8 KB of SLM).
// CHECK-LABEL: tt.func public @absmax_flatten
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[E:.*]] = arith.extf
// CHECK-NOT: arith.extf
// CHECK: tt.reshape %[[E]] allow_reorder : tensor<1x4096xf32, #blocked> -> tensor<4096xf32, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @absmax_flatten(%in: tensor<1x4096x!tt.ptr<bf16>, #blocked>, %m: tensor<1x4096xi1, #blocked>, %out: tensor<1x4096x!tt.ptr<i8>, #blocked>, %sp: !tt.ptr<f32>) {
    %x = tt.load %in, %m : tensor<1x4096x!tt.ptr<bf16>, #blocked>
    %c = ttg.convert_layout %x : tensor<1x4096xbf16, #blocked> -> tensor<1x4096xbf16, #blocked3>
    %e = arith.extf %c : tensor<1x4096xbf16, #blocked3> to tensor<1x4096xf32, #blocked3>
    %c2 = ttg.convert_layout %e : tensor<1x4096xf32, #blocked3> -> tensor<1x4096xf32, #blocked>
    %r = tt.reshape %c2 allow_reorder : tensor<1x4096xf32, #blocked> -> tensor<4096xf32, #blocked1>
    %a = math.absf %r : tensor<4096xf32, #blocked1>
    %mx = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.maxnumf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<4096xf32, #blocked1>) -> f32
    %s = tt.splat %mx : f32 -> tensor<1x4096xf32, #blocked>
    %d = arith.divf %c2, %s : tensor<1x4096xf32, #blocked>
    %i = arith.fptosi %d : tensor<1x4096xf32, #blocked> to tensor<1x4096xi8, #blocked>
    tt.store %out, %i, %m : tensor<1x4096x!tt.ptr<i8>, #blocked>
    tt.store %sp, %mx : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The other way: a reshape {allow_reorder} whose result is converted produces the
// conversion's layout itself (4 elements per thread in #blocked1 and in #blocked2).
// CHECK-LABEL: tt.func public @reorder_result
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reshape %{{.*}} allow_reorder : tensor<16x64xf32, #blocked> -> tensor<1024xf32, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reorder_result(%in: tensor<16x64x!tt.ptr<f32>, #blocked>, %m: tensor<16x64xi1, #blocked>, %sp: !tt.ptr<f32>) {
    %x = tt.load %in, %m : tensor<16x64x!tt.ptr<f32>, #blocked>
    %r = tt.reshape %x allow_reorder : tensor<16x64xf32, #blocked> -> tensor<1024xf32, #blocked2>
    %c = ttg.convert_layout %r : tensor<1024xf32, #blocked2> -> tensor<1024xf32, #blocked1>
    %a = math.absf %c : tensor<1024xf32, #blocked1>
    %mx = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.maxnumf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<1024xf32, #blocked1>) -> f32
    tt.store %sp, %mx : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Negative: each thread holds one element of the loaded tile but 4 of the reshape's
// result (its layout repeats the 256 elements), so reading the tile in its own
// layout would not be a register renaming; the conversion before the reshape stays.
// CHECK-LABEL: tt.func public @reorder_not_free
// CHECK: ttg.convert_layout %{{.*}} : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked1>
// CHECK: tt.reshape %{{.*}} allow_reorder : tensor<16x16xf32, #blocked1> -> tensor<256xf32, #blocked2>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: {{.*}}forward: a user 'tt.reshape' cannot take the source layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 8], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reorder_not_free(%in: tensor<16x16x!tt.ptr<f32>, #blocked>, %m: tensor<16x16xi1, #blocked>, %sp: !tt.ptr<f32>) {
    %x = tt.load %in, %m : tensor<16x16x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %x : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked1>
    %r = tt.reshape %c allow_reorder : tensor<16x16xf32, #blocked1> -> tensor<256xf32, #blocked2>
    %mx = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %t = arith.maxnumf %p, %q : f32
      tt.reduce.return %t : f32
    }) : (tensor<256xf32, #blocked2>) -> f32
    tt.store %sp, %mx : !tt.ptr<f32>
    tt.return
  }
}
