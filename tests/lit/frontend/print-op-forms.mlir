// RUN: xpu-opt %s --split-input-file --mlir-print-debuginfo | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --mlir-print-debuginfo > %t.ours && %python -m xpu_passes.integration.oracle verify %s --split-input-file > %t.triton && diff %t.triton %t.ours %}
// Custom forms of tt and ttg ops the corpus kernels do not produce, printed back
// byte for byte (the input is triton-xpu's own print of them).

// CHECK: %4 = tt.load %2 evictionPolicy = evict_last {isVolatile = true} : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc
// CHECK: %6 = "tt.reduce"(%3) <{axis = 0 : i32}> ({
// CHECK: tt.reduce.return %{{.*}} : f32 loc(#loc
// CHECK: }) : (tensor<64xf32, #blocked>) -> f32 loc(#loc
// CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
// CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = none : tensor<64xf32, #blocked>
// CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<64xf32, #blocked> -> tensor<64xf16, #blocked>
// CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %{{.*}} : tensor<64xf32, #blocked>
// CHECK: ttg.local_alloc  : () -> !ttg.memdesc<2x16x16xf16, #shared, #smem, mutable>
// CHECK: tt.reshape %arg1 allow_reorder : tensor<16x16xf16, #blocked> -> tensor<256xf16, #blocked1>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#loc2 = loc("ops.py":4:27)
#loc5 = loc("ops.py":7:23)
#loc6 = loc("ops.py":7:70)
#loc7 = loc("ops.py":7:79)
#loc8 = loc("ops.py":7:88)
#loc16 = loc("ops.py":15:10)
#loc17 = loc("ops.py":15:19)
#loc21 = loc("ops.py":20:10)
#loc22 = loc("ops.py":20:19)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func private @callee(%arg0: i32 loc("ops.py":4:27)) -> i32 {
    tt.return %arg0 : i32 loc(#loc3)
  } loc(#loc1)
  tt.func public @ops(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("ops.py":7:23), %arg1: i32 loc("ops.py":7:70), %arg2: f32 loc("ops.py":7:79), %arg3: !tt.ptr<i32> loc("ops.py":7:88)) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked> loc(#loc9)
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked> loc(#loc10)
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked> loc(#loc11)
    %3 = tt.load %2 : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc12)
    %4 = tt.load %2 evictionPolicy = evict_last {isVolatile = true} : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc13)
    %5 = tt.load %2 cacheModifier = ca : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc14)
    %6 = "tt.reduce"(%3) <{axis = 0 : i32}> ({
    ^bb0(%arg4: f32 loc("ops.py":15:10), %arg5: f32 loc("ops.py":15:19)):
      %22 = arith.maxnumf %arg4, %arg5 : f32 loc(#loc18)
      tt.reduce.return %22 : f32 loc(#loc19)
    }) : (tensor<64xf32, #blocked>) -> f32 loc(#loc15)
    %7 = "tt.scan"(%3) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%arg4: f32 loc("ops.py":20:10), %arg5: f32 loc("ops.py":20:19)):
      %22 = arith.addf %arg4, %arg5 : f32 loc(#loc23)
      tt.scan.return %22 : f32 loc(#loc24)
    }) : (tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> loc(#loc20)
    %8 = tt.atomic_rmw fadd, acq_rel, gpu, %2, %3 : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> loc(#loc25)
    %9 = tt.atomic_cas acq_rel, gpu, %arg3, %arg1, %arg1 : (!tt.ptr<i32>, i32, i32) -> i32 loc(#loc26)
    %10 = tt.call @callee(%arg1) : (i32) -> i32 loc(#loc27)
    %11 = tt.bitcast %3 : tensor<64xf32, #blocked> -> tensor<64xi32, #blocked> loc(#loc28)
    %12 = tt.ptr_to_int %arg0 : !tt.ptr<f32> -> i64 loc(#loc29)
    %13 = tt.int_to_ptr %12 : i64 -> !tt.ptr<f32> loc(#loc30)
    %14 = tt.clampf %3, %3, %3, propagateNan = none : tensor<64xf32, #blocked> loc(#loc31)
    %15 = tt.precise_sqrt %3 : tensor<64xf32, #blocked> loc(#loc32)
    %16 = tt.precise_divf %3, %3 : tensor<64xf32, #blocked> loc(#loc33)
    %17 = tt.mulhiui %0, %0 : tensor<64xi32, #blocked> loc(#loc34)
    %18 = tt.extern_elementwise %3 {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> loc(#loc35)
    %19 = tt.histogram %0 : tensor<64xi32, #blocked> -> tensor<64xi32, #blocked> loc(#loc36)
    %20 = tt.fp_to_fp %3, rounding = rtne : tensor<64xf32, #blocked> -> tensor<64xf16, #blocked> loc(#loc37)
    tt.store %2, %3 cacheModifier = wb : tensor<64x!tt.ptr<f32>, #blocked> loc(#loc38)
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %3 : tensor<64xf32, #blocked> loc(#loc39)
    %21 = arith.cmpi sgt, %arg1, %arg1 : i32 loc(#loc40)
    tt.assert %21, "oops" : i1 loc(#loc41)
    tt.return loc(#loc42)
  } loc(#loc4)
} loc(#loc)
#loc = loc("ops.py":3:1)
#loc1 = loc("ops.py":4:3)
#loc3 = loc("ops.py":5:5)
#loc4 = loc("ops.py":7:3)
#loc9 = loc("ops.py":8:10)
#loc10 = loc("ops.py":9:10)
#loc11 = loc("ops.py":10:10)
#loc12 = loc("ops.py":11:10)
#loc13 = loc("ops.py":12:11)
#loc14 = loc("ops.py":13:11)
#loc15 = loc("ops.py":14:12)
#loc18 = loc("ops.py":16:12)
#loc19 = loc("ops.py":17:7)
#loc20 = loc("ops.py":19:11)
#loc23 = loc("ops.py":21:12)
#loc24 = loc("ops.py":22:7)
#loc25 = loc("ops.py":24:12)
#loc26 = loc("ops.py":25:12)
#loc27 = loc("ops.py":26:10)
#loc28 = loc("ops.py":27:11)
#loc29 = loc("ops.py":28:11)
#loc30 = loc("ops.py":29:11)
#loc31 = loc("ops.py":30:11)
#loc32 = loc("ops.py":31:11)
#loc33 = loc("ops.py":32:11)
#loc34 = loc("ops.py":33:11)
#loc35 = loc("ops.py":34:12)
#loc36 = loc("ops.py":35:10)
#loc37 = loc("ops.py":36:11)
#loc38 = loc("ops.py":37:5)
#loc39 = loc("ops.py":38:5)
#loc40 = loc("ops.py":39:12)
#loc41 = loc("ops.py":40:5)
#loc42 = loc("ops.py":41:5)
// -----
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#loc2 = loc("ops2.py":7:24)
#loc3 = loc("ops2.py":7:66)
#loc4 = loc("ops2.py":7:99)
#loc5 = loc("ops2.py":7:130)
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @ops2(%arg0: tensor<16x16x!tt.ptr<f16>, #blocked> loc("ops2.py":7:24), %arg1: tensor<16x16xf16, #blocked> loc("ops2.py":7:66), %arg2: tensor<16xf16, #blocked1> loc("ops2.py":7:99), %arg3: i32 loc("ops2.py":7:130)) {
    %0 = ttg.local_alloc  : () -> !ttg.memdesc<2x16x16xf16, #shared, #smem, mutable> loc(#loc6)
    %1 = ttg.memdesc_subview %0[%arg3, %arg3, %arg3] : !ttg.memdesc<2x16x16xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable> loc(#loc7)
    %2 = ttg.local_load %1 : !ttg.memdesc<16x16xf16, #shared, #smem, mutable> -> tensor<16x16xf16, #blocked> loc(#loc8)
    ttg.local_store %arg1, %1 : tensor<16x16xf16, #blocked> -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable> loc(#loc9)
    ttg.local_dealloc %0 : !ttg.memdesc<2x16x16xf16, #shared, #smem, mutable> loc(#loc10)
    %3 = tt.trans %arg1 {order = array<i32: 1, 0>} : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #blocked2> loc(#loc11)
    %4 = tt.join %arg1, %arg1 : tensor<16x16xf16, #blocked> -> tensor<16x16x2xf16, #blocked3> loc(#loc12)
    %5 = tt.cat %arg2, %arg2 : tensor<16xf16, #blocked1> -> tensor<32xf16, #blocked1> loc(#loc13)
    %6 = tt.reshape %arg1 allow_reorder : tensor<16x16xf16, #blocked> -> tensor<256xf16, #blocked1> loc(#loc14)
    %7 = tt.reshape %arg1 : tensor<16x16xf16, #blocked> -> tensor<256xf16, #blocked1> loc(#loc15)
    %8 = tt.broadcast %arg2 : tensor<16xf16, #blocked1> -> tensor<16xf16, #blocked1> loc(#loc16)
    tt.return loc(#loc17)
  } loc(#loc1)
} loc(#loc)
#loc = loc("ops2.py":6:1)
#loc1 = loc("ops2.py":7:3)
#loc6 = loc("ops2.py":8:10)
#loc7 = loc("ops2.py":9:11)
#loc8 = loc("ops2.py":10:10)
#loc9 = loc("ops2.py":11:5)
#loc10 = loc("ops2.py":12:5)
#loc11 = loc("ops2.py":13:11)
#loc12 = loc("ops2.py":14:10)
#loc13 = loc("ops2.py":15:10)
#loc14 = loc("ops2.py":16:11)
#loc15 = loc("ops2.py":17:12)
#loc16 = loc("ops2.py":18:10)
#loc17 = loc("ops2.py":19:5)
