// RUN: xpu-opt %s | FileCheck %s
// RUN: xpu-opt %s | xpu-opt | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --mlir-print-debuginfo > %t.ours && %python -m xpu_passes.integration.oracle verify %s > %t.triton && diff %t.triton %t.ours %}
// Float literals as MLIR prints them: six significant digits in exponent form when
// that reads back to the same value of the type, with APFloat's digits (truncated,
// then rounded half up: the f16 nearest 0.1 is 9.997550e-02, not ...60e-02); else
// APFloat's natural precision (f32 9 digits), in E form far from the decimal point;
// else (no '.', inf, nan) the bits in hexadecimal.

// CHECK: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: %cst_1 = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %cst_2 = arith.constant 9.997550e-02 : f16
// CHECK-NEXT: %cst_3 = arith.constant 1.000980e-01 : bf16
// CHECK-NEXT: %cst_4 = arith.constant 1.000000e-01 : f64
// CHECK-NEXT: %cst_5 = arith.constant 1.44269502 : f32
// CHECK-NEXT: %cst_6 = arith.constant 0.0883883461 : f32
// CHECK-NEXT: %cst_7 = arith.constant 9.99999974E-6 : f32
// CHECK-NEXT: %cst_8 = arith.constant 9.99999968E+37 : f32
// CHECK-NEXT: %cst_9 = arith.constant 3.140630e+00 : f16
// CHECK-NEXT: %cst_10 = arith.constant 0.0073099999999999997 : f64
// CHECK-NEXT: %cst_11 = arith.constant 1.23456705 : f32
// CHECK-NEXT: %cst_12 = arith.constant 0x4CEB79A3 : f32
// CHECK-NEXT: %cst_13 = arith.constant 2.802600e-45 : f32
// CHECK-NEXT: %cst_14 = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %cst_15 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_16 = arith.constant dense<[9.997550e-02, 2.500000e-01]> : tensor<2xf16>
// CHECK-NOT: 0x{{[0-9A-F]*[a-f]}}

module {
  tt.func @floats() {
    %0 = arith.constant 0.000000e+00 : f32 loc("k.py":1:0)
    %1 = arith.constant -0.000000e+00 : f32 loc("k.py":2:0)
    %2 = arith.constant 1.000000e-01 : f32 loc("k.py":3:0)
    %3 = arith.constant 1.000000e-01 : f16 loc("k.py":4:0)
    %4 = arith.constant 1.000000e-01 : bf16 loc("k.py":5:0)
    %5 = arith.constant 1.000000e-01 : f64 loc("k.py":6:0)
    %6 = arith.constant 1.44269504 : f32 loc("k.py":7:0)
    %7 = arith.constant 0.0883883476 : f32 loc("k.py":8:0)
    %8 = arith.constant 1.000000e-05 : f32 loc("k.py":9:0)
    %9 = arith.constant 1.000000e+38 : f32 loc("k.py":10:0)
    %10 = arith.constant 3.14159265 : f16 loc("k.py":11:0)
    %11 = arith.constant 7.310000e-03 : f64 loc("k.py":12:0)
    %12 = arith.constant 1.234567e+00 : f32 loc("k.py":13:0)
    %13 = arith.constant 123456789.0 : f32 loc("k.py":14:0)
    %14 = arith.constant 3.000000e-45 : f32 loc("k.py":15:0)
    %15 = arith.constant 0xFF800000 : f32 loc("k.py":16:0)
    %16 = arith.constant 0x7FC00000 : f32 loc("k.py":17:0)
    %17 = arith.constant dense<[1.000000e-01, 2.500000e-01]> : tensor<2xf16> loc("k.py":18:0)
    tt.return loc("k.py":19:0)
  } loc("k.py":0:0)
} loc("k.py":0:0)
