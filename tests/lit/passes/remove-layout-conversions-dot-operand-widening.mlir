// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.dot
// ORACLE: // -----
// ORACLE: tt.dot
// ORACLE: // -----
// ORACLE: tt.dot

// A tf32 dot's B is an f16 tile extended to f32, in a loop carrying two 128x128 f32 DPAS
// accumulators on 4 warps: 1 KB per lane each, 2 KB of a 1 KB register file (256 GRF, 16 lanes).
// Converting the f16 tile (half the SLM bytes) would read it into 32-bit slots of the operand
// layout and extend it there: the lane holds B twice at the f32 size, and spills it
// (registers.widening_price). The f32 extension is converted; the extf stays in the load's layout.
// CHECK-LABEL: tt.func public @two_accumulators
// CHECK: scf.for
// CHECK: %[[BF:.*]] = arith.extf %{{.*}} : tensor<32x128xf16, #blocked> to tensor<32x128xf32, #blocked>
// CHECK: ttg.convert_layout %[[BF]] : tensor<32x128xf32, #blocked> -> tensor<32x128xf32, #ttg.dot_op<{opIdx = 1
// CHECK-NOT: tensor<32x128xf16, #ttg.dot_op
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 1], A = [32, 8], B = [8, 16], C = [32, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @two_accumulators(%pb: tensor<32x128x!tt.ptr<f16>, #blocked>, %s: tensor<128x32xf32, #mma>, %acc: tensor<128x128xf32, #mma>, %n: i32, %out: tensor<128x128x!tt.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %acc, %a1 = %acc) -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>) : i32 {
      %b = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #blocked>
      %p = arith.mulf %s, %s : tensor<128x32xf32, #mma>
      %bf = arith.extf %b : tensor<32x128xf16, #blocked> to tensor<32x128xf32, #blocked>
      %ca = ttg.convert_layout %p : tensor<128x32xf32, #mma> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %cb = ttg.convert_layout %bf : tensor<32x128xf32, #blocked> -> tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
      %d = tt.dot %ca, %cb, %a0, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<128x128xf32, #mma>
      %cs = ttg.convert_layout %s : tensor<128x32xf32, #mma> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %e = tt.dot %cs, %cb, %a1, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<128x128xf32, #mma>
      scf.yield %d, %e : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
    }
    %sum = arith.addf %r#0, %r#1 : tensor<128x128xf32, #mma>
    tt.store %out, %sum : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// The same on 8 warps: the accumulators hold 512 B per lane each, 1 KB together: not more than the
// register file. The f16 tile is converted (half the bytes) and extended in the dot's layout.
// CHECK-LABEL: tt.func public @accumulators_fit
// CHECK: scf.for
// CHECK: %[[B:.*]] = ttg.convert_layout %{{.*}} : tensor<32x128xf16, #blocked> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1
// CHECK: arith.extf %[[B]] : tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> to tensor<32x128xf32, #ttg.dot_op<{opIdx = 1
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<32x128xf32, #blocked>
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [8, 1], repCluster = [2, 1], A = [16, 8], B = [8, 16], C = [16, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @accumulators_fit(%pb: tensor<32x128x!tt.ptr<f16>, #blocked>, %s: tensor<128x32xf32, #mma>, %acc: tensor<128x128xf32, #mma>, %n: i32, %out: tensor<128x128x!tt.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %acc, %a1 = %acc) -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>) : i32 {
      %b = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #blocked>
      %p = arith.mulf %s, %s : tensor<128x32xf32, #mma>
      %bf = arith.extf %b : tensor<32x128xf16, #blocked> to tensor<32x128xf32, #blocked>
      %ca = ttg.convert_layout %p : tensor<128x32xf32, #mma> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %cb = ttg.convert_layout %bf : tensor<32x128xf32, #blocked> -> tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
      %d = tt.dot %ca, %cb, %a0, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<128x128xf32, #mma>
      %cs = ttg.convert_layout %s : tensor<128x32xf32, #mma> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %e = tt.dot %cs, %cb, %a1, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<128x128xf32, #mma>
      scf.yield %d, %e : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
    }
    %sum = arith.addf %r#0, %r#1 : tensor<128x128xf32, #mma>
    tt.store %out, %sum : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// One such accumulator on 4 warps (1 KB per lane; the loop's other carried value is not a dot's
// accumulator): within the register file. The f16 tile is converted and extended in the dot's layout.
// CHECK-LABEL: tt.func public @one_accumulator
// CHECK: scf.for
// CHECK: %[[B:.*]] = ttg.convert_layout %{{.*}} : tensor<32x128xf16, #blocked> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1
// CHECK: arith.extf %[[B]] : tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> to tensor<32x128xf32, #ttg.dot_op<{opIdx = 1
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<32x128xf32, #blocked>
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 1], A = [32, 8], B = [8, 16], C = [32, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @one_accumulator(%pb: tensor<32x128x!tt.ptr<f16>, #blocked>, %s: tensor<128x32xf32, #mma>, %acc: tensor<128x128xf32, #mma>, %n: i32, %out: tensor<128x128x!tt.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %acc, %a1 = %s) -> (tensor<128x128xf32, #mma>, tensor<128x32xf32, #mma>) : i32 {
      %b = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #blocked>
      %p = arith.mulf %s, %s : tensor<128x32xf32, #mma>
      %bf = arith.extf %b : tensor<32x128xf16, #blocked> to tensor<32x128xf32, #blocked>
      %ca = ttg.convert_layout %p : tensor<128x32xf32, #mma> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %cb = ttg.convert_layout %bf : tensor<32x128xf32, #blocked> -> tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
      %d = tt.dot %ca, %cb, %a0, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<128x128xf32, #mma>
      %e = arith.addf %a1, %p : tensor<128x32xf32, #mma>
      scf.yield %d, %e : tensor<128x128xf32, #mma>, tensor<128x32xf32, #mma>
    }
    tt.store %out, %r#0 : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}
