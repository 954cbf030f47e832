// RUN: xpu-opt %s -split-input-file --tritonintelgpu-remove-layout-conversions=check-incremental=true --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s -split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// ORACLE: tt.func public @shared_scale
// ORACLE: tt.func public @shared_scale_advanced
// ORACLE: tt.func public @shared_scale_in_loop

// A row scale loaded through a 1D block pointer, broadcast once and multiplied into two
// tiles that each feed a dot as operand B (a chunked kernel's `k * beta[:, None]` and
// `v * beta[:, None]`). Recomputing the first product in the dot-operand layout copies the
// scale's chain, load included, while the original chain still feeds the second product:
// the copy of the load needs a block pointer of its own (native's remat copies the
// tt.make_tensor_ptr too), or the original load would read a pointer retyped under it.
// Then the second product reads the copy, and neither tile is converted.
// CHECK-LABEL: tt.func public @shared_scale
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %{{.*}} : <tensor<64xbf16, #ttg.slice<{dim = 1, parent = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>}>>>
// CHECK: tt.load %[[P]] {{.*}} : !tt.ptr<tensor<64xbf16, #ttg.slice<{dim = 1, parent = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>}>>>
// CHECK-COUNT-2: tt.load %{{.*}} : !tt.ptr<tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @shared_scale(%s: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %a: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %ps = tt.make_tensor_ptr %s, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
    %beta = tt.load %ps {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
    %e = tt.expand_dims %beta {axis = 1 : i32} : tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xbf16, #blocked>
    %bb = tt.broadcast %e : tensor<64x1xbf16, #blocked> -> tensor<64x64xbf16, #blocked>
    %pk = tt.make_tensor_ptr %k, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xbf16, #blocked>>
    %xk = tt.load %pk {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xbf16, #blocked>>
    %mk = arith.mulf %xk, %bb : tensor<64x64xbf16, #blocked>
    %ck = ttg.convert_layout %mk : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %dk = tt.dot %a, %ck, %acc, inputPrecision = tf32 : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %pv = tt.make_tensor_ptr %v, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xbf16, #blocked>>
    %xv = tt.load %pv {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xbf16, #blocked>>
    %mv = arith.mulf %xv, %bb : tensor<64x64xbf16, #blocked>
    %cv = ttg.convert_layout %mv : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %dv = tt.dot %a, %cv, %dk, inputPrecision = tf32 : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %po = tt.make_tensor_ptr %o, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #mma>>
    tt.store %po, %dv {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #mma>>
    tt.return
  }
}

// -----

// The same, but the scale's block pointer is advanced before its load: a family with
// advances is not copied, so the rewrite is abandoned (said) and both conversions stay.
// CHECK-LABEL: tt.func public @shared_scale_advanced
// CHECK: tt.advance
// CHECK-COUNT-2: ttg.convert_layout %{{.*}} : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: tt.return
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] backward rewrite abandoned: RuntimeError: a block pointer family with advances or loops would be shared by a load in two layouts
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @shared_scale_advanced(%s: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %i: i32, %a: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %ps0 = tt.make_tensor_ptr %s, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
    %ps = tt.advance %ps0, [%i] : <tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
    %beta = tt.load %ps {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
    %e = tt.expand_dims %beta {axis = 1 : i32} : tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xbf16, #blocked>
    %bb = tt.broadcast %e : tensor<64x1xbf16, #blocked> -> tensor<64x64xbf16, #blocked>
    %pk = tt.make_tensor_ptr %k, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xbf16, #blocked>>
    %xk = tt.load %pk {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xbf16, #blocked>>
    %mk = arith.mulf %xk, %bb : tensor<64x64xbf16, #blocked>
    %ck = ttg.convert_layout %mk : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %dk = tt.dot %a, %ck, %acc, inputPrecision = tf32 : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %pv = tt.make_tensor_ptr %v, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xbf16, #blocked>>
    %xv = tt.load %pv {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xbf16, #blocked>>
    %mv = arith.mulf %xv, %bb : tensor<64x64xbf16, #blocked>
    %cv = ttg.convert_layout %mv : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %dv = tt.dot %a, %cv, %dk, inputPrecision = tf32 : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %po = tt.make_tensor_ptr %o, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #mma>>
    tt.store %po, %dv {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #mma>>
    tt.return
  }
}

// -----

// The same in a loop, the scale's block pointer made in the loop body: a copy of it there is not
// made (triton-xpu 3.3's pipeliner aborts on block pointers made in a loop that it did not carry:
// 'ArrayRef.h:446 Invalid index'), so the rewrite is abandoned (said) and both conversions stay.
// CHECK-LABEL: tt.func public @shared_scale_in_loop
// CHECK: scf.for
// CHECK-COUNT-1: tt.make_tensor_ptr %{{.*}} : <tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
// CHECK-COUNT-2: ttg.convert_layout %{{.*}} : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: scf.yield
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] backward rewrite abandoned: RuntimeError: a block pointer made in a loop is not copied
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @shared_scale_in_loop(%s: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %steps: i32, %a: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
    %c0 = arith.constant 0 : i32
    %c1i = arith.constant 1 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %res = scf.for %i = %c0 to %steps step %c1i iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>)  : i32 {
      %ps = tt.make_tensor_ptr %s, [%n], [%c1], [%i] {order = array<i32: 0>} : <tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
      %beta = tt.load %ps {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>>>
      %e = tt.expand_dims %beta {axis = 1 : i32} : tensor<64xbf16, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xbf16, #blocked>
      %bb = tt.broadcast %e : tensor<64x1xbf16, #blocked> -> tensor<64x64xbf16, #blocked>
      %pk = tt.make_tensor_ptr %k, [%n, %c64], [%c64, %c1], [%i, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xbf16, #blocked>>
      %xk = tt.load %pk {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xbf16, #blocked>>
      %mk = arith.mulf %xk, %bb : tensor<64x64xbf16, #blocked>
      %ck = ttg.convert_layout %mk : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %dk = tt.dot %a, %ck, %acc, inputPrecision = tf32 : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %pv = tt.make_tensor_ptr %v, [%n, %c64], [%c64, %c1], [%i, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xbf16, #blocked>>
      %xv = tt.load %pv {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x64xbf16, #blocked>>
      %mv = arith.mulf %xv, %bb : tensor<64x64xbf16, #blocked>
      %cv = ttg.convert_layout %mv : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %dv = tt.dot %a, %cv, %dk, inputPrecision = tf32 : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %dv : tensor<64x64xf32, #mma>
    }
    %po = tt.make_tensor_ptr %o, [%n, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #mma>>
    tt.store %po, %res {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #mma>>
    tt.return
  }
}
