// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle lower --split-input-file | FileCheck %s --check-prefix=LOWER %}

// An FMA dot (a blocked parent, no DPAS): triton-xpu 3.3 lowers loads, loops, elementwise ops
// and reductions in its operands' dot-operand layouts, but no conversion FROM such a layout
// (it and its SLM allocation abort: "getThreadsPerWarp not implemented for DotOperandEncodingAttr").
// Each chunk's output is lowered to LLVM IR for PVC.
// LOWER: lowered: dpas 0, 2D block reads 0, 2D block writes 0, SLM 1024
// LOWER: lowered: dpas 0, 2D block reads 0, 2D block writes 0, SLM 0

// A loop-carried tile converted to the dot's B operand after the loop and also added to the
// result: retyping the loop into the operand layout would leave a conversion from it for the
// add. The loop keeps its layout and the conversion to the operand stays.
// CHECK-LABEL: tt.func public @fma_operand_carried
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> ->
// CHECK: scf.for {{.*}} -> (tensor<16x16xf32, #blocked1>)
// CHECK: %[[B:.*]] = ttg.convert_layout %{{.*}} : tensor<16x16xf32, #blocked1> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: tt.dot %{{.*}}, %[[B]]
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> ->
// REMARK: fma-operand.mlir:40:5: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would leave IR triton-xpu rejects or cannot lower;
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @fma_operand_carried(%pa: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked1>
    %a = tt.make_tensor_ptr %pa, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %x = tt.load %a {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    %b = tt.make_tensor_ptr %pb, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %xb = tt.load %b {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    %y = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %xb) -> (tensor<16x16xf32, #blocked>) : i32 {
      %m = arith.addf %acc, %acc : tensor<16x16xf32, #blocked>
      scf.yield %m : tensor<16x16xf32, #blocked>
    }
    %lhs = ttg.convert_layout %x : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %rhs = ttg.convert_layout %y : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %d = tt.dot %lhs, %rhs, %zero, inputPrecision = ieee : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x16xf32, #blocked1>
    %c = tt.make_tensor_ptr %pc, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %dc = ttg.convert_layout %d : tensor<16x16xf32, #blocked1> -> tensor<16x16xf32, #blocked>
    %s = arith.addf %dc, %y : tensor<16x16xf32, #blocked>
    tt.store %c, %s {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    tt.return
  }
}

// -----

// The same loop whose result feeds only the dot: the loop moves into the operand layout (with
// the load of its initial value) and no conversion is left before the dot.
// CHECK-LABEL: tt.func public @fma_operand_carried_only_for_dot
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>>
// CHECK: scf.for {{.*}} -> (tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>)
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> ->
// CHECK: tt.dot
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> ->
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_bf16_conversion, triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @fma_operand_carried_only_for_dot(%pa: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked1>
    %a = tt.make_tensor_ptr %pa, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %x = tt.load %a {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    %b = tt.make_tensor_ptr %pb, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %xb = tt.load %b {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    %y = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %xb) -> (tensor<16x16xf32, #blocked>) : i32 {
      %m = arith.addf %acc, %acc : tensor<16x16xf32, #blocked>
      scf.yield %m : tensor<16x16xf32, #blocked>
    }
    %lhs = ttg.convert_layout %x : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %rhs = ttg.convert_layout %y : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %d = tt.dot %lhs, %rhs, %zero, inputPrecision = ieee : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x16xf32, #blocked1>
    %c = tt.make_tensor_ptr %pc, [%c16_i64, %c16_i64], [%c16_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %dc = ttg.convert_layout %d : tensor<16x16xf32, #blocked1> -> tensor<16x16xf32, #blocked>
    tt.store %c, %dc {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    tt.return
  }
}
