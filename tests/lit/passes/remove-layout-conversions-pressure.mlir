// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// The incremental figures (Ledger: accesses added and removed by trials) agree with the full ones:
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions=check-incremental=true | FileCheck %s

// Register pressure (costs.pressure_cost, layouts/pressure.py). A GEMM epilogue adds D,
// loaded through a tensor of pointers masked per row and per column (one f32 per message
// in any layout), to a 64x128 f32 accumulator over 4 warps: 128 accumulator registers per
// lane, half of the large GRF. Forwarding the load into the DPAS layout would hold D's 128
// values beside the accumulator (plus 128 addresses and predicates), 512 bytes per lane more
// than the blocked load, whose values go to SLM as they arrive; that spill costs more than the
// 32 KB conversion it saves: the conversion stays.
// CHECK-LABEL: tt.func public @acc_live_masked_load
// CHECK: %[[X:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %[[Y:.*]] = ttg.convert_layout %[[X]] : tensor<64x128xf32, #blocked> -> tensor<64x128xf32, #mma>
// CHECK-NEXT: arith.addf %arg4, %[[Y]] : tensor<64x128xf32, #mma>
// REMARK: remove-layout-conversions-pressure.mlir:[[# @LINE + 25]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would not make the module cheaper
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @acc_live_masked_load(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %n: i32, %ld: i32 {tt.divisibility = 16 : i32}, %acc: tensor<64x128xf32, #mma>) -> tensor<64x128xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #blocked>
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %lds = tt.splat %ld : i32 -> tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %lds : tensor<64x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x128x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x128x!tt.ptr<f32>, #blocked>, tensor<64x128xi32, #blocked>
    %rlim = tt.splat %m : i32 -> tensor<64x1xi32, #blocked>
    %rin = arith.cmpi slt, %rows, %rlim : tensor<64x1xi32, #blocked>
    %clim = tt.splat %n : i32 -> tensor<1x128xi32, #blocked>
    %cin = arith.cmpi slt, %cols, %clim : tensor<1x128xi32, #blocked>
    %rm = tt.broadcast %rin : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %cm = tt.broadcast %cin : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %mask = arith.andi %rm, %cm : tensor<64x128xi1, #blocked>
    %x = tt.load %ptrs, %mask, %zero : tensor<64x128x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<64x128xf32, #blocked> -> tensor<64x128xf32, #mma>
    %z = arith.addf %acc, %y : tensor<64x128xf32, #mma>
    tt.return %z : tensor<64x128xf32, #mma>
  }
}

// -----

// Negative: the same epilogue on a 32x64 tile (32 accumulator values per lane): D in the
// DPAS layout, its addresses and predicates fit the register file beside the accumulator, so
// nothing is spilled and the conversion (an SLM round trip) is gone.
// CHECK-LABEL: tt.func public @small_tile_masked_load
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64x!tt.ptr<f32>, #mma>
// CHECK-NEXT: arith.addf %arg4, %[[D]] : tensor<32x64xf32, #mma>
// CHECK-NOT: ttg.convert_layout
// REMARK-NOT: small_tile
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 1], A = [16, 16], B = [16, 16], C = [16, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @small_tile_masked_load(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %n: i32, %ld: i32 {tt.divisibility = 16 : i32}, %acc: tensor<32x64xf32, #mma>) -> tensor<32x64xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #blocked>
    %r0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %lds = tt.splat %ld : i32 -> tensor<32x1xi32, #blocked>
    %roff = arith.muli %rows, %lds : tensor<32x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<32x1x!tt.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<32x1x!tt.ptr<f32>, #blocked> -> tensor<32x64x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<32x64x!tt.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
    %rlim = tt.splat %m : i32 -> tensor<32x1xi32, #blocked>
    %rin = arith.cmpi slt, %rows, %rlim : tensor<32x1xi32, #blocked>
    %clim = tt.splat %n : i32 -> tensor<1x64xi32, #blocked>
    %cin = arith.cmpi slt, %cols, %clim : tensor<1x64xi32, #blocked>
    %rm = tt.broadcast %rin : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
    %cm = tt.broadcast %cin : tensor<1x64xi1, #blocked> -> tensor<32x64xi1, #blocked>
    %mask = arith.andi %rm, %cm : tensor<32x64xi1, #blocked>
    %x = tt.load %ptrs, %mask, %zero : tensor<32x64x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #mma>
    %z = arith.addf %acc, %y : tensor<32x64xf32, #mma>
    tt.return %z : tensor<32x64xf32, #mma>
  }
}

// -----

// Negative: the same epilogue before AccelerateMatmul, the accumulator a tt.dot's result in a
// blocked layout (a placeholder: what a lane will hold is not known yet), so no spill is priced
// and the conversion is gone as before.
// CHECK-LABEL: tt.func public @before_accelerate_matmul
// CHECK: tt.dot {{.*}} -> tensor<64x128xf32, #[[L:.*]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128x!tt.ptr<f32>, #[[L]]>
// CHECK-NEXT: arith.addf %{{.*}}, %[[D]] : tensor<64x128xf32, #[[L]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @before_accelerate_matmul(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %n: i32, %ld: i32 {tt.divisibility = 16 : i32}, %a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma}>>, %b: tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma}>>, %c0: tensor<64x128xf32, #mma>) -> tensor<64x128xf32, #mma> {
    %acc = tt.dot %a, %b, %c0 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma}>> -> tensor<64x128xf32, #mma>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #blocked>
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %lds = tt.splat %ld : i32 -> tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %lds : tensor<64x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x128x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x128x!tt.ptr<f32>, #blocked>, tensor<64x128xi32, #blocked>
    %rlim = tt.splat %m : i32 -> tensor<64x1xi32, #blocked>
    %rin = arith.cmpi slt, %rows, %rlim : tensor<64x1xi32, #blocked>
    %clim = tt.splat %n : i32 -> tensor<1x128xi32, #blocked>
    %cin = arith.cmpi slt, %cols, %clim : tensor<1x128xi32, #blocked>
    %rm = tt.broadcast %rin : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %cm = tt.broadcast %cin : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %mask = arith.andi %rm, %cm : tensor<64x128xi1, #blocked>
    %x = tt.load %ptrs, %mask, %zero : tensor<64x128x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<64x128xf32, #blocked> -> tensor<64x128xf32, #mma>
    %z = arith.addf %acc, %y : tensor<64x128xf32, #mma>
    tt.return %z : tensor<64x128xf32, #mma>
  }
}

