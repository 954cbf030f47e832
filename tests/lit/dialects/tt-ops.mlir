// RUN: xpu-opt %s --split-input-file | FileCheck %s
// RUN: xpu-opt %s --split-input-file | xpu-opt --split-input-file | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// Every tt op family in Triton 3.3's printed syntax; triton-xpu must read back what we print.

// ORACLE-COUNT-12: // -----

// CHECK-LABEL: tt.func @loads(
// CHECK: tt.load %arg0 : !tt.ptr<f32>
// CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f16>>
// CHECK-NEXT: tt.load %arg2 {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
// CHECK-NEXT: tt.load %arg2 {boundaryCheck = array<i32: 1>, ttig.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16>>
module {
  tt.func @loads(%arg0: !tt.ptr<f32>, %arg1: tensor<128x!tt.ptr<f16>>, %arg2: !tt.ptr<tensor<64x32xf16>>, %m: tensor<128xi1>, %o: tensor<128xf16>) {
    %0 = tt.load %arg0 : !tt.ptr<f32>
    %1 = tt.load %arg1, %m, %o cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f16>>
    %2 = tt.load %arg2 {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
    %3 = tt.load %arg2 {boundaryCheck = array<i32: 1>, ttig.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16>>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @stores(
// CHECK: tt.store %arg0, %arg1, %arg2 cacheModifier = wb : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg3, %arg4 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16x16xf32>>
module {
  tt.func @stores(%arg0: tensor<16x!tt.ptr<f32>>, %arg1: tensor<16xf32>, %arg2: tensor<16xi1>, %arg3: !tt.ptr<tensor<16x16xf32>>, %arg4: tensor<16x16xf32>) {
    tt.store %arg0, %arg1, %arg2 cacheModifier = wb : tensor<16x!tt.ptr<f32>>
    tt.store %arg3, %arg4 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16x16xf32>>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @block_pointers(
// CHECK: %[[P:.*]] = tt.make_tensor_ptr %arg0, [%arg1, %arg1], [%arg1, %c1_i64], [%arg2, %arg2] {order = array<i32: 1, 0>} : <tensor<32x64xbf16>>
// CHECK-NEXT: tt.advance %[[P]], [%arg2, %arg2] : <tensor<32x64xbf16>>
// CHECK: tt.make_tensor_ptr %{{.*}} : <tensor<8x16xf32>, 3>
module {
  tt.func @block_pointers(%arg0: !tt.ptr<bf16>, %arg1: i64, %arg2: i32, %arg3: !tt.ptr<f32, 3>) {
    %c1_i64 = arith.constant 1 : i64
    %0 = tt.make_tensor_ptr %arg0, [%arg1, %arg1], [%arg1, %c1_i64], [%arg2, %arg2] {order = array<i32: 1, 0>} : <tensor<32x64xbf16>>
    %1 = tt.advance %0, [%arg2, %arg2] : <tensor<32x64xbf16>>
    %2 = tt.make_tensor_ptr %arg3, [%arg1, %arg1], [%arg1, %c1_i64], [%arg2, %arg2] {order = array<i32: 0, 1>} : <tensor<8x16xf32>, 3>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @dots(
// CHECK: tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32 : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
// CHECK-NEXT: tt.dot %arg0, %arg1, %arg2 {maxNumImpreciseAcc = 32 : i32} : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
module {
  tt.func @dots(%arg0: tensor<32x16xf16>, %arg1: tensor<16x32xf16>, %arg2: tensor<32x32xf32>) {
    %0 = tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32 : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
    %1 = tt.dot %arg0, %arg1, %arg2, inputPrecision = ieee {maxNumImpreciseAcc = 32 : i32} : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @pointer_tensors(
// CHECK: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[R]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<64x1xi32> -> tensor<64x32xi32>
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
// CHECK-NEXT: tt.addptr %[[S]], %[[B]] : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
// CHECK-NEXT: tt.get_program_id z : i32
// CHECK-NEXT: tt.get_num_programs y : i32
module {
  tt.func @pointer_tensors(%arg0: !tt.ptr<f32>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = tt.broadcast %1 : tensor<64x1xi32> -> tensor<64x32xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
    %4 = tt.addptr %3, %2 : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %5 = tt.get_program_id z : i32
    %6 = tt.get_num_programs y : i32
    tt.return
  }
}

// -----

// Reductions and scans are printed in generic form with a combine region.
// CHECK-LABEL: tt.func @reduce_scan(
// CHECK: %[[M:.*]] = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[X:.*]] = arith.maxnumf %[[A]], %[[B]] : f32
// CHECK-NEXT: tt.reduce.return %[[X]] : f32
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8xf32>
// CHECK: "tt.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
// CHECK: tt.scan.return %{{.*}} : f32
module {
  tt.func @reduce_scan(%arg0: tensor<8x16xf32>) {
    %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<8x16xf32>) -> tensor<8xf32>
    %1 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.scan.return %s : f32
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @shapes(
// CHECK: tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<8x16xf32> -> tensor<16x8xf32>
// CHECK-NEXT: tt.reshape %arg0 allow_reorder : tensor<8x16xf32> -> tensor<128xf32>
// CHECK-NEXT: %[[J:.*]] = tt.join %arg0, %arg0 : tensor<8x16xf32> -> tensor<8x16x2xf32>
// CHECK-NEXT: %outLHS, %outRHS = tt.split %[[J]] : tensor<8x16x2xf32> -> tensor<8x16xf32>
// CHECK-NEXT: tt.cat %arg0, %arg0 : tensor<8x16xf32> -> tensor<16x16xf32>
module {
  tt.func @shapes(%arg0: tensor<8x16xf32>) {
    %0 = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<8x16xf32> -> tensor<16x8xf32>
    %1 = tt.reshape %arg0 allow_reorder : tensor<8x16xf32> -> tensor<128xf32>
    %2 = tt.join %arg0, %arg0 : tensor<8x16xf32> -> tensor<8x16x2xf32>
    %3, %4 = tt.split %2 : tensor<8x16x2xf32> -> tensor<8x16xf32>
    %5 = tt.cat %arg0, %arg0 : tensor<8x16xf32> -> tensor<16x16xf32>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @casts(
// CHECK: tt.fp_to_fp %arg0, rounding = rtne : tensor<16xf32> -> tensor<16xf8E5M2>
// CHECK-NEXT: tt.bitcast %arg0 : tensor<16xf32> -> tensor<16xi32>
// CHECK-NEXT: %[[I:.*]] = tt.ptr_to_int %arg1 : !tt.ptr<f32> -> i64
// CHECK-NEXT: tt.int_to_ptr %[[I]] : i64 -> !tt.ptr<f32>
module {
  tt.func @casts(%arg0: tensor<16xf32>, %arg1: !tt.ptr<f32>) {
    %0 = tt.fp_to_fp %arg0, rounding = rtne : tensor<16xf32> -> tensor<16xf8E5M2>
    %1 = tt.bitcast %arg0 : tensor<16xf32> -> tensor<16xi32>
    %2 = tt.ptr_to_int %arg1 : !tt.ptr<f32> -> i64
    %3 = tt.int_to_ptr %2 : i64 -> !tt.ptr<f32>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @math(
// CHECK: tt.clampf %arg0, %arg0, %arg0, propagateNan = all : tensor<16xf32>
// CHECK-NEXT: tt.precise_sqrt %arg0 : tensor<16xf32>
// CHECK-NEXT: tt.precise_divf %arg0, %arg0 : tensor<16xf32>
// CHECK-NEXT: tt.mulhiui %arg1, %arg1 : tensor<16xi32>
// CHECK-NEXT: tt.extern_elementwise %arg0 {libname = "", libpath = "", pure = true, symbol = "__imf_erff"} : (tensor<16xf32>) -> tensor<16xf32>
module {
  tt.func @math(%arg0: tensor<16xf32>, %arg1: tensor<16xi32>) {
    %0 = tt.clampf %arg0, %arg0, %arg0, propagateNan = all : tensor<16xf32>
    %1 = tt.precise_sqrt %arg0 : tensor<16xf32>
    %2 = tt.precise_divf %arg0, %arg0 : tensor<16xf32>
    %3 = tt.mulhiui %arg1, %arg1 : tensor<16xi32>
    %4 = tt.extern_elementwise %arg0 {libname = "", libpath = "", pure = true, symbol = "__imf_erff"} : (tensor<16xf32>) -> tensor<16xf32>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @atomics(
// CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %arg0, %arg1, %arg2 : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
// CHECK-NEXT: tt.atomic_cas relaxed, cta, %arg3, %arg4, %arg4 : (!tt.ptr<i32>, i32, i32) -> i32
module {
  tt.func @atomics(%arg0: tensor<16x!tt.ptr<f32>>, %arg1: tensor<16xf32>, %arg2: tensor<16xi1>, %arg3: !tt.ptr<i32>, %arg4: i32) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %arg0, %arg1, %arg2 : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
    %1 = tt.atomic_cas relaxed, cta, %arg3, %arg4, %arg4 : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @debug(
// CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %arg0 : tensor<16xi32>
// CHECK-NEXT: tt.assert %arg1, "boom" : tensor<16xi1>
module {
  tt.func @debug(%arg0: tensor<16xi32>, %arg1: tensor<16xi1>) {
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %arg0 : tensor<16xi32>
    tt.assert %arg1, "boom" : tensor<16xi1>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func private @callee(
// CHECK-SAME: -> i32
// CHECK: tt.return %arg0 : i32
// CHECK-LABEL: tt.func public @caller(
// CHECK: tt.call @callee(%arg0) : (i32) -> i32
module {
  tt.func private @callee(%arg0: i32) -> i32 attributes {noinline = true} {
    tt.return %arg0 : i32
  }
  tt.func public @caller(%arg0: i32) {
    %0 = tt.call @callee(%arg0) : (i32) -> i32
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @gather(
// CHECK: tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<16x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
// CHECK: tt.histogram %{{.*}} : tensor<16xi32> -> tensor<8xi32>
module {
  tt.func @gather(%arg0: tensor<16x8xf32>, %arg1: tensor<4x8xi32>, %arg2: tensor<16xi32>) {
    %0 = tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<16x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
    %1 = tt.histogram %arg2 : tensor<16xi32> -> tensor<8xi32>
    tt.return
  }
}
