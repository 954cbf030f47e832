// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// Intel's lit tests hold NVIDIA's Ampere MMA (#ttg.nvidia_mma version 2), which the layout algebra
// maps (layouts/encodings.py): the pass reads such a module. A GEMM loop carrying its accumulator in
// a blocked layout, converted to the MMA layout before each dot and back after it: the accumulator
// is carried in the MMA layout, no conversion is left in the loop, one after it (the store's).
// CHECK-LABEL: tt.func public @ampere_acc
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #mma>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #mma>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.yield {{.*}} : tensor<64x64xf32, #mma>
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ampere_acc(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #blocked>) : i32 {
      %cm = ttg.convert_layout %c : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %d = tt.dot %a, %b, %cm : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %db = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      scf.yield %db : tensor<64x64xf32, #blocked>
    }
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cols = tt.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %p, %cols : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %q, %acc : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The same loop on a Hopper MMA (version 3), which the algebra does not map: the module is left
// as it is, and the remark says why.
// CHECK-LABEL: tt.func public @hopper_acc
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #blocked>)
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// REMARK: ampere.mlir:[[# @LINE + 4]]:3: remark: [tritonintelgpu-remove-layout-conversions] left alone: #ttg.nvidia_mma is another backend's layout, not modelled here
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hopper_acc(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #blocked>, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #blocked>) : i32 {
      %cm = ttg.convert_layout %c : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %db = ttg.convert_layout %cm : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
      %s = arith.addf %db, %db : tensor<64x64xf32, #blocked>
      scf.yield %s : tensor<64x64xf32, #blocked>
    }
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.store %p, %acc : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
