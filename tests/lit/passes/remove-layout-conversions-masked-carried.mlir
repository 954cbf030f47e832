// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle lower --split-input-file | FileCheck %s --check-prefix=LOWER %}

// A GEMM step loading its A tile through a loop-carried tensor of pointers with a bounds mask
// (`offs_m < M & offs_k < K`). In the blocked layout each lane reads 8 contiguous f16 at once;
// in the dot-operand layout one element per message (IGC: gathers x4, spill). What decides is
// what the cost model knows of the access: the mask is constant over runs of 16 when M and K
// are multiples of 16 (triton's rule for a range compared with a splat), and the pointer
// retyped in place (a new loop argument) keeps the facts of the one it replaces.
// LOWER: lowered: dpas 8
// LOWER: lowered: dpas 8

// K divisible by 16: the masked load stays a vector load; the conversion stays.
// CHECK-LABEL: tt.func public @masked_a_tile(
// CHECK: scf.for
// CHECK: %[[A:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32x!tt.ptr<f16>, #blocked1>
// CHECK: ttg.convert_layout %[[A]] : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// REMARK: masked-carried.mlir:51:7: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would not make the module cheaper
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @masked_a_tile(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: tensor<32x32xf16, #blocked1>, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %em = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ek = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %c32 = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %em, %c32 : tensor<64x1xi32, #blocked>
    %br = tt.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %bk = tt.broadcast %ek : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %off = arith.addi %br, %bk : tensor<64x32xi32, #blocked>
    %sa = tt.splat %pa : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %a0 = tt.addptr %sa, %off : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %sM = tt.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %mm = arith.cmpi slt, %em, %sM : tensor<64x1xi32, #blocked>
    %sK = tt.splat %K : i32 -> tensor<1x32xi32, #blocked>
    %mk = arith.cmpi slt, %ek, %sK : tensor<1x32xi32, #blocked>
    %bm = tt.broadcast %mm : tensor<64x1xi1, #blocked> -> tensor<64x32xi1, #blocked>
    %bmk = tt.broadcast %mk : tensor<1x32xi1, #blocked> -> tensor<64x32xi1, #blocked>
    %mask = arith.andi %bm, %bmk : tensor<64x32xi1, #blocked>
    %bd = ttg.convert_layout %b : tensor<32x32xf16, #blocked1> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa_i = %a0) -> (tensor<64x32xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>)  : i32 {
      %a = tt.load %pa_i, %mask, %zero : tensor<64x32x!tt.ptr<f16>, #blocked>
      %ad = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %d = tt.dot %ad, %bd, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x32xf32, #mma>
      %next = tt.addptr %pa_i, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %next : tensor<64x32xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %cp = tt.make_tensor_ptr %pc, [%c64_i64, %c32_i64], [%c32_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf32, #mma>>
    tt.store %cp, %r#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf32, #mma>>
    tt.return
  }
}

// -----

// K of unknown divisibility: the mask may change at any element, so the load is read element by
// element in either layout and moving it into the dot-operand layout saves the conversion.
// CHECK-LABEL: tt.func public @masked_a_tile_any_k(
// CHECK-NOT: ttg.convert_layout %{{.*}} -> tensor<64x32xf16, #ttg.dot_op
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK-NOT: ttg.convert_layout %{{.*}} -> tensor<64x32xf16, #ttg.dot_op
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @masked_a_tile_any_k(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: tensor<32x32xf16, #blocked1>, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32 {tt.divisibility = 16 : i32}, %K: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
    %step = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %em = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %ek = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %c32 = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %rows = arith.muli %em, %c32 : tensor<64x1xi32, #blocked>
    %br = tt.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %bk = tt.broadcast %ek : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %off = arith.addi %br, %bk : tensor<64x32xi32, #blocked>
    %sa = tt.splat %pa : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %a0 = tt.addptr %sa, %off : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %sM = tt.splat %M : i32 -> tensor<64x1xi32, #blocked>
    %mm = arith.cmpi slt, %em, %sM : tensor<64x1xi32, #blocked>
    %sK = tt.splat %K : i32 -> tensor<1x32xi32, #blocked>
    %mk = arith.cmpi slt, %ek, %sK : tensor<1x32xi32, #blocked>
    %bm = tt.broadcast %mm : tensor<64x1xi1, #blocked> -> tensor<64x32xi1, #blocked>
    %bmk = tt.broadcast %mk : tensor<1x32xi1, #blocked> -> tensor<64x32xi1, #blocked>
    %mask = arith.andi %bm, %bmk : tensor<64x32xi1, #blocked>
    %bd = ttg.convert_layout %b : tensor<32x32xf16, #blocked1> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa_i = %a0) -> (tensor<64x32xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>)  : i32 {
      %a = tt.load %pa_i, %mask, %zero : tensor<64x32x!tt.ptr<f16>, #blocked>
      %ad = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %d = tt.dot %ad, %bd, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x32xf32, #mma>
      %next = tt.addptr %pa_i, %step : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      scf.yield %d, %next : tensor<64x32xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
    }
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %cp = tt.make_tensor_ptr %pc, [%c64_i64, %c32_i64], [%c32_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf32, #mma>>
    tt.store %cp, %r#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf32, #mma>>
    tt.return
  }
}
