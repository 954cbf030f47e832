// RUN: xpu-opt %s --tritonintelgpu-rewrite-tensor-pointer=guard=false --verify-semantics='arg0=960,arg1=960,arg2=40,arg3=24,grid=3,func=tile' 2>&1 | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --tritonintelgpu-rewrite-tensor-pointer=guard=false --verify-semantics='arg0=960,arg1=960,arg2=40,arg3=24,grid=3,func=tile' 2>/dev/null | %python -m xpu_passes.integration.oracle verify | FileCheck %s --check-prefix=ORACLE %}
// RUN: not xpu-opt %s --tritonintelgpu-rewrite-tensor-pointer=guard=false --verify-semantics='M=40,N=24,grid=3,func=tile' 2>&1 | FileCheck %s --check-prefix=NAMES
// RUN: not xpu-opt %s --tritonintelgpu-rewrite-tensor-pointer=guard=false --verify-semantics='arg2=40,arg3=24,grid=3,arg0=900,func=tile' 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not xpu-opt %s --verify-semantics='grid=0' 2>&1 | FileCheck %s --check-prefix=BADGRID
// RUN: not xpu-opt %s --verify-semantics='arg2=40,arg9=1,func=tile' 2>&1 | FileCheck %s --check-prefix=BADARG
// RUN: not xpu-opt %s --verify-semantics=func=address 2>&1 | FileCheck %s --check-prefix=REFUSE
// RUN: not xpu-opt %s --verify-semantics 2>&1 | FileCheck %s --check-prefix=NOFUNC
// --verify-semantics runs the kernel before and after the passes with the NumPy
// interpreter on the same random inputs (ragged 40x24 against 16x16 tiles here)
// and compares every buffer; errors are located in the input.

// CHECK: verify-semantics.mlir:[[# @LINE + 8]]:3: remark: [verify-semantics] equal on 1920 elements
// CHECK: tt.func public @tile
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.load {{.*}}, {{.*}}, {{.*}} : tensor<16x16x!tt.ptr<f32>, #blocked>
// ORACLE: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f32>, #blocked>
// NAMES: error: unknown kernel argument 'M'; names: none (use argN)
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @tile(%a: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %c1_i64 = arith.constant 1 : i64
    %pid = tt.get_program_id x : i32
    %row = arith.muli %pid, %c16 : i32
    %m64 = arith.extsi %m : i32 to i64
    %n64 = arith.extsi %n : i32 to i64
    %pa = tt.make_tensor_ptr %a, [%m64, %n64], [%n64, %c1_i64], [%row, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %pc = tt.make_tensor_ptr %c, [%m64, %n64], [%n64, %c1_i64], [%row, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32, #blocked>>
    %pa2 = tt.advance %pa, [%c0, %c16] : <tensor<16x16xf32, #blocked>>
    %pc2 = tt.advance %pc, [%c0, %c16] : <tensor<16x16xf32, #blocked>>
    // OOB: verify-semantics.mlir:[[# @LINE + 1]]:5: error: --verify-semantics: before the passes: 'tt.load': out-of-bounds load: buffer 0 (size 900) at element 900
    %v = tt.load %pa {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32, #blocked>>
    tt.store %pc, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    %w = tt.load %pa2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf32, #blocked>>
    tt.store %pc2, %w {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32, #blocked>>
    tt.return
  }
// BADGRID: xpu-opt: error: --verify-semantics: grid must have 1 to 3 positive sizes, got '0'
// BADARG: xpu-opt: error: unknown kernel argument 'arg9': 'tile' takes 4 arguments
// NOFUNC: verify-semantics.mlir:21:3: error: --verify-semantics: pick a kernel with func=...: public tt.funcs are tile, address
  // Pointers are (buffer, offset) in the interpreter: an address made from an integer has no buffer.
  tt.func public @address(%i: i64, %v: f32) {
    // REFUSE: verify-semantics.mlir:[[# @LINE + 1]]:5: error: --verify-semantics: before the passes: cannot interpret 'tt.int_to_ptr'
    %p = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}
