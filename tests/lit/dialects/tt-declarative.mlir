// RUN: xpu-opt %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s | xpu-opt | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s -mlir-print-op-generic | xpu-opt | FileCheck %s --match-full-lines --strict-whitespace
// Ops whose syntax is declared from Triton's assemblyFormat (enum keywords and stripped
// types through the custom directives of dialects/_syntax.py), printed as triton-xpu 3.3
// prints them (test_frontend_text.py checks this file against triton-xpu byte for byte).

// CHECK-LABEL:  tt.func public @ops(%arg0: !tt.ptr<f32>, %arg1: tensor<64xf32, #blocked>, %arg2: tensor<64xi32, #blocked>, %arg3: i32) -> tensor<64xf32, #blocked> {
// CHECK-NEXT:    %0 = tt.precise_sqrt %arg1 : tensor<64xf32, #blocked>
// CHECK-NEXT:    %1 = tt.precise_divf %0, %arg1 {zz.tag} : tensor<64xf32, #blocked>
// CHECK-NEXT:    %2 = tt.mulhiui %arg3, %arg3 : i32
// CHECK-NEXT:    %3 = tt.join %arg1, %1 : tensor<64xf32, #blocked> -> tensor<64x2xf32, #blocked1>
// CHECK-NEXT:    %outLHS, %outRHS = tt.split %3 : tensor<64x2xf32, #blocked1> -> tensor<64xf32, #blocked>
// CHECK-NEXT:    %4 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
// CHECK-NEXT:    %5 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT:    %6 = tt.addptr %5, %4 : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
// CHECK-NEXT:    %7 = tt.addptr %arg0, %arg3 : !tt.ptr<f32>, i32
// CHECK-NEXT:    %8 = tt.gather %arg1[%arg2] {axis = 0 : i32} : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> tensor<64xf32, #blocked>
// CHECK-NEXT:    %9 = tt.extern_elementwise %arg1, %1 {libname = "", libpath = "", pure = true, symbol = "__nv_fmaxf"} : (tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
// CHECK-NEXT:    %10 = arith.cmpi slt, %arg2, %arg2 : tensor<64xi32, #blocked>
// CHECK-NEXT:    tt.assert %10, "bad \22x\22" : tensor<64xi1, #blocked>
// CHECK-NEXT:    tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %arg1, %arg2 : tensor<64xf32, #blocked>, tensor<64xi32, #blocked>
// CHECK-NEXT:    tt.print "nothing" {hex = true, isSigned = array<i32>}
// CHECK-NEXT:    %11 = tt.call @callee(%arg1, %arg3) : (tensor<64xf32, #blocked>, i32) -> tensor<64xf32, #blocked>
// CHECK-NEXT:    tt.call @none() : () -> ()
// CHECK-NEXT:    %12 = tt.get_program_id x : i32
// CHECK-NEXT:    %13 = tt.get_num_programs z {zz.tag} : i32
// CHECK-NEXT:    %14 = tt.clampf %arg1, %arg1, %1, propagateNan = all : tensor<64xf32, #blocked>
// CHECK-NEXT:    %15 = tt.clampf %arg1, %arg1, %1, propagateNan = none {zz.tag} : tensor<64xf32, #blocked>
// CHECK-NEXT:    %16 = arith.cmpf olt, %arg1, %1 : tensor<64xf32, #blocked>
// CHECK-NEXT:    %17 = tt.atomic_rmw fadd, acq_rel, gpu, %6, %arg1, %16 : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xi1, #blocked>) -> tensor<64xf32, #blocked>
// CHECK-NEXT:    %18 = tt.bitcast %7 : !tt.ptr<f32> -> !tt.ptr<i32>
// CHECK-NEXT:    %19 = tt.atomic_rmw exch, relaxed, sys, %18, %arg3 {zz.tag} : (!tt.ptr<i32>, i32) -> i32
// CHECK-NEXT:    %20 = tt.atomic_cas acquire, cta, %18, %arg3, %arg3 : (!tt.ptr<i32>, i32, i32) -> i32
// CHECK-NEXT:    %21 = tt.reshape %arg1 allow_reorder efficient_layout {zz.t} : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked>
// CHECK-NEXT:    %22 = tt.reshape %arg1 : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked>
// CHECK-NEXT:    %23 = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg2 : tensor<64xi32, #blocked> -> tensor<64xi32, #blocked>
// CHECK-NEXT:    %24:2 = tt.elementwise_inline_asm "mov $0, $2; mov $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %arg2, %arg2 : tensor<64xi32, #blocked>, tensor<64xi32, #blocked> -> tensor<64xi32, #blocked>, tensor<64xi32, #blocked>
// CHECK-NEXT:    tt.return %11 : tensor<64xf32, #blocked>
// CHECK-NEXT:  }
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @ops(%p: !tt.ptr<f32>, %x: tensor<64xf32, #blocked>, %i: tensor<64xi32, #blocked>, %u: i32) -> tensor<64xf32, #blocked> {
    %0 = tt.precise_sqrt %x : tensor<64xf32, #blocked>
    %1 = tt.precise_divf %0, %x {zz.tag} : tensor<64xf32, #blocked>
    %2 = tt.mulhiui %u, %u : i32
    %3 = tt.join %x, %1 : tensor<64xf32, #blocked> -> tensor<64x2xf32, #blocked2>
    %4, %5 = tt.split %3 : tensor<64x2xf32, #blocked2> -> tensor<64xf32, #blocked>
    %6 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %7 = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %8 = tt.addptr %7, %6 : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    %9 = tt.addptr %p, %u : !tt.ptr<f32>, i32
    %10 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> tensor<64xf32, #blocked>
    %11 = tt.extern_elementwise %x, %1 {libname = "", libpath = "", pure = true, symbol = "__nv_fmaxf"} : (tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    %c = arith.cmpi slt, %i, %i : tensor<64xi32, #blocked>
    tt.assert %c, "bad \"x\"" : tensor<64xi1, #blocked>
    tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %x, %i : tensor<64xf32, #blocked>, tensor<64xi32, #blocked>
    tt.print "nothing" {hex = true, isSigned = array<i32>}
    %12 = tt.call @callee(%x, %u) : (tensor<64xf32, #blocked>, i32) -> tensor<64xf32, #blocked>
    tt.call @none() : () -> ()
    %13 = tt.get_program_id x : i32
    %14 = tt.get_num_programs z {zz.tag} : i32
    %15 = tt.clampf %x, %x, %1, propagateNan = all : tensor<64xf32, #blocked>
    %16 = tt.clampf %x, %x, %1, propagateNan = none {zz.tag} : tensor<64xf32, #blocked>
    %mk = arith.cmpf olt, %x, %1 : tensor<64xf32, #blocked>
    %17 = tt.atomic_rmw fadd, acq_rel, gpu, %8, %x, %mk : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xi1, #blocked>) -> tensor<64xf32, #blocked>
    %pi = tt.bitcast %9 : !tt.ptr<f32> -> !tt.ptr<i32>
    %18 = tt.atomic_rmw exch, relaxed, sys, %pi, %u {zz.tag} : (!tt.ptr<i32>, i32) -> i32
    %19 = tt.atomic_cas acquire, cta, %pi, %u, %u : (!tt.ptr<i32>, i32, i32) -> i32
    %r0 = tt.reshape %x allow_reorder efficient_layout {zz.t} : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked>
    %r1 = tt.reshape %x : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked>
    %a0 = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %i : tensor<64xi32, #blocked> -> tensor<64xi32, #blocked>
    %a1:2 = tt.elementwise_inline_asm "mov $0, $2; mov $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %i, %i : tensor<64xi32, #blocked>, tensor<64xi32, #blocked> -> tensor<64xi32, #blocked>, tensor<64xi32, #blocked>
    tt.return %12 : tensor<64xf32, #blocked>
  }
  tt.func private @callee(%x: tensor<64xf32, #blocked>, %u: i32) -> tensor<64xf32, #blocked> {
    tt.return %x : tensor<64xf32, #blocked>
  }
  tt.func private @none() {
    tt.return
  }
}
