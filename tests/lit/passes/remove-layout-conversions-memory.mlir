// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked>
// ORACLE: // -----
// ORACLE: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// ORACLE: // -----
// ORACLE: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>

// The memory messages a layout costs (costs.memory_cost). A GEMM epilogue stores
// its f16 result through a tensor of pointers masked per row: in the blocked
// layout each lane writes 4 contiguous f16 per message; forwarded into the DPAS
// layout (one column per lane) it would write one per message, 3,072 more
// lane-messages than the conversion it saves is worth: the conversion stays.
// CHECK-LABEL: tt.func public @row_masked_store
// CHECK: %[[B:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: %[[T:.*]] = arith.truncf %[[B]] : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
// CHECK: tt.store %{{.*}}, %[[T]], %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked>
// REMARK: remove-layout-conversions-memory.mlir:[[# @LINE + 19]]:5: remark: [tritonintelgpu-remove-layout-conversions] kept: forward would not make the module cheaper
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @row_masked_store(%c: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32, %ld: i32 {tt.divisibility = 16 : i32}, %d: tensor<64x64xf32, #mma>) {
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %lds = tt.splat %ld : i32 -> tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %lds : tensor<64x1xi32, #blocked>
    %base = tt.splat %c : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %lim = tt.splat %m : i32 -> tensor<64x1xi32, #blocked>
    %in = arith.cmpi slt, %rows, %lim : tensor<64x1xi32, #blocked>
    %mask = tt.broadcast %in : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %b = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %t = arith.truncf %b : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tt.store %ptrs, %t, %mask : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Negative: the same epilogue loads D through a tensor of pointers masked per row
// and per column (a bound checked on each column), so every layout reads one f32
// per message: recomputing the load in the DPAS layout adds no message, and the
// conversion (an SLM round trip) is gone.
// CHECK-LABEL: tt.func public @both_masked_load
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK-NEXT: arith.addf %arg4, %[[D]] : tensor<64x64xf32, #mma>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @both_masked_load(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %n: i32, %ld: i32 {tt.divisibility = 16 : i32}, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %lds = tt.splat %ld : i32 -> tensor<64x1xi32, #blocked>
    %roff = arith.muli %rows, %lds : tensor<64x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %rlim = tt.splat %m : i32 -> tensor<64x1xi32, #blocked>
    %rin = arith.cmpi slt, %rows, %rlim : tensor<64x1xi32, #blocked>
    %clim = tt.splat %n : i32 -> tensor<1x64xi32, #blocked>
    %cin = arith.cmpi slt, %cols, %clim : tensor<1x64xi32, #blocked>
    %rm = tt.broadcast %rin : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %cm = tt.broadcast %cin : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %mask = arith.andi %rm, %cm : tensor<64x64xi1, #blocked>
    %x = tt.load %ptrs, %mask, %zero : tensor<64x64x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %z = arith.addf %acc, %y : tensor<64x64xf32, #mma>
    tt.return %z : tensor<64x64xf32, #mma>
  }
}

// -----

// Negative: the epilogue masked per row as in @row_masked_store, at 256x256 with 32
// warps: the DPAS layout reads one f32 per message, but the conversion would need
// 263,168 bytes of SLM, more than PVC has (the kernel could not launch), so the
// load takes the DPAS layout and the conversion is gone.
// CHECK-LABEL: tt.func public @big_row_masked_load
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// CHECK-NEXT: arith.addf %arg3, %[[D]] : tensor<256x256xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 32 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @big_row_masked_load(%d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %ld: i32 {tt.divisibility = 16 : i32}, %acc: tensor<256x256xf32, #mma>) -> tensor<256x256xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<256x256xf32, #blocked>
    %r0 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r1 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<256xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<256x1xi32, #blocked>
    %lds = tt.splat %ld : i32 -> tensor<256x1xi32, #blocked>
    %roff = arith.muli %rows, %lds : tensor<256x1xi32, #blocked>
    %base = tt.splat %d : !tt.ptr<f32> -> tensor<256x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %base, %roff : tensor<256x1x!tt.ptr<f32>, #blocked>, tensor<256x1xi32, #blocked>
    %cols = tt.expand_dims %r1 {axis = 0 : i32} : tensor<256xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x256xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<256x1x!tt.ptr<f32>, #blocked> -> tensor<256x256x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %cols : tensor<1x256xi32, #blocked> -> tensor<256x256xi32, #blocked>
    %ptrs = tt.addptr %pb, %cb : tensor<256x256x!tt.ptr<f32>, #blocked>, tensor<256x256xi32, #blocked>
    %lim = tt.splat %m : i32 -> tensor<256x1xi32, #blocked>
    %in = arith.cmpi slt, %rows, %lim : tensor<256x1xi32, #blocked>
    %mask = tt.broadcast %in : tensor<256x1xi1, #blocked> -> tensor<256x256xi1, #blocked>
    %x = tt.load %ptrs, %mask, %zero : tensor<256x256x!tt.ptr<f32>, #blocked>
    %y = ttg.convert_layout %x : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>
    %z = arith.addf %acc, %y : tensor<256x256xf32, #mma>
    tt.return %z : tensor<256x256xf32, #mma>
  }
}
