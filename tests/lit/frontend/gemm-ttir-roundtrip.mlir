// RUN: xpu-opt %s | FileCheck %s
// RUN: xpu-opt %s | xpu-opt | FileCheck %s
// TTIR of a block-pointer GEMM as triton-xpu 3.3 prints it (with its trailing
// location aliases); the round trip keeps every op in Triton's syntax.

// CHECK-LABEL: tt.func public @matmul(
// CHECK-SAME: %arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}
// CHECK-SAME: attributes {noinline = false}
// CHECK: %[[PID:.*]] = tt.get_program_id x : i32
// CHECK: %[[A:.*]] = tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<256x32xbf16>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg4 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[AP:.*]] = %[[A]], %[[BP:.*]] = %{{.*}}) -> (tensor<256x256xf32>, !tt.ptr<tensor<256x32xbf16>>, !tt.ptr<tensor<32x256xbf16>>) : i32 {
// CHECK-NEXT: %[[LA:.*]] = tt.load %[[AP]] {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x32xbf16>>
// CHECK-NEXT: %[[LB:.*]] = tt.load %[[BP]] {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x256xbf16>>
// CHECK-NEXT: %{{.*}} = tt.dot %[[LA]], %[[LB]], %[[ACC]], inputPrecision = tf32 : tensor<256x32xbf16> * tensor<32x256xbf16> -> tensor<256x256xf32>
// CHECK-NEXT: tt.advance %[[AP]], [%{{.*}}, %{{.*}}] : <tensor<256x32xbf16>>
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32>>
// CHECK-NEXT: tt.return
// CHECK-NOT: loc(

#loc = loc("gemm.py":9:0)
module {
  tt.func public @matmul(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32} loc("gemm.py":9:0), %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32} loc("gemm.py":9:0), %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("gemm.py":9:0), %arg3: i32 loc("gemm.py":9:0), %arg4: i32 loc("gemm.py":9:0), %arg5: i32 loc("gemm.py":9:0), %arg6: i32 loc("gemm.py":9:0)) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256x256xf32> loc(#loc1)
    %c32_i32 = arith.constant 32 : i32 loc(#loc1)
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %c1_i64 = arith.constant 1 : i64 loc(#loc1)
    %c256_i32 = arith.constant 256 : i32 loc(#loc1)
    %0 = tt.get_program_id x : i32 loc(#loc2)
    %1 = arith.muli %0, %c256_i32 : i32 loc(#loc3)
    %2 = arith.extsi %arg3 : i32 to i64 loc(#loc4)
    %3 = arith.extsi %arg4 : i32 to i64 loc(#loc4)
    %4 = arith.extsi %arg6 : i32 to i64 loc(#loc4)
    %5 = tt.make_tensor_ptr %arg0, [%2, %3], [%4, %c1_i64], [%1, %c0_i32] {order = array<i32: 1, 0>} : <tensor<256x32xbf16>> loc(#loc4)
    %6 = arith.extsi %arg5 : i32 to i64 loc(#loc5)
    %7 = tt.make_tensor_ptr %arg1, [%3, %6], [%6, %c1_i64], [%c0_i32, %1] {order = array<i32: 1, 0>} : <tensor<32x256xbf16>> loc(#loc5)
    %8:3 = scf.for %arg7 = %c0_i32 to %arg4 step %c32_i32 iter_args(%arg8 = %cst, %arg9 = %5, %arg10 = %7) -> (tensor<256x256xf32>, !tt.ptr<tensor<256x32xbf16>>, !tt.ptr<tensor<32x256xbf16>>)  : i32 {
      %11 = tt.load %arg9 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x32xbf16>> loc(#loc7)
      %12 = tt.load %arg10 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x256xbf16>> loc(#loc8)
      %13 = tt.dot %11, %12, %arg8, inputPrecision = tf32 : tensor<256x32xbf16> * tensor<32x256xbf16> -> tensor<256x256xf32> loc(#loc9)
      %14 = tt.advance %arg9, [%c0_i32, %c32_i32] : <tensor<256x32xbf16>> loc(#loc10)
      %15 = tt.advance %arg10, [%c32_i32, %c0_i32] : <tensor<32x256xbf16>> loc(#loc11)
      scf.yield %13, %14, %15 : tensor<256x256xf32>, !tt.ptr<tensor<256x32xbf16>>, !tt.ptr<tensor<32x256xbf16>> loc(#loc12)
    } loc(#loc6)
    %9 = tt.make_tensor_ptr %arg2, [%2, %6], [%6, %c1_i64], [%1, %1] {order = array<i32: 1, 0>} : <tensor<256x256xf32>> loc(#loc13)
    tt.store %9, %8#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32>> loc(#loc14)
    tt.return loc(#loc15)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("gemm.py":11:24)
#loc3 = loc("gemm.py":12:20)
#loc4 = loc("gemm.py":14:75)
#loc5 = loc("gemm.py":15:75)
#loc6 = loc("gemm.py":17:25)
#loc7 = loc("gemm.py":18:30)
#loc8 = loc("gemm.py":18:65)
#loc9 = loc("gemm.py":18:57)
#loc10 = loc("gemm.py":19:26)
#loc11 = loc("gemm.py":19:54)
#loc12 = loc("gemm.py":19:4)
#loc13 = loc("gemm.py":20:79)
#loc14 = loc("gemm.py":23:16)
#loc15 = loc("gemm.py":23:4)
