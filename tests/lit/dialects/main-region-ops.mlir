// RUN: xpu-opt %s -spelling=new | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s -spelling=new | xpu-opt -spelling=new | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s -spelling=new -mlir-print-op-generic | xpu-opt -spelling=new | FileCheck %s --match-full-lines --strict-whitespace
// Ops of Triton's main branch (2026) that triton-xpu 3.3 lacks, so checked by exact round
// trip against their TableGen formats and the text Triton's lit files show:
// tt.map_elementwise (no assemblyFormat: generic form) and its terminator, the grid
// dependency ops, ttg.predicate_stage, ttg.mask (generic) / ttg.mask.return and
// ttg.local_atomic_scatter_rmw; tt.atomic_poll with and without its timeout.

// CHECK:  tt.func @map(%arg0: tensor<256xi32, #blocked>, %arg1: tensor<256xf32, #blocked>) -> tensor<256xi32, #blocked> {
// CHECK-NEXT:    %0 = "tt.map_elementwise"(%arg0, %arg1) <{pack = 2 : i32}> ({
// CHECK-NEXT:    ^bb0(%arg2: i32, %arg3: i32, %arg4: f32, %arg5: f32):
// CHECK-NEXT:      %1 = arith.addi %arg2, %arg3 : i32
// CHECK-NEXT:      tt.map_elementwise.return %1, %arg3 : i32, i32
// CHECK-NEXT:    }) : (tensor<256xi32, #blocked>, tensor<256xf32, #blocked>) -> tensor<256xi32, #blocked>
// CHECK-NEXT:    "tt.map_elementwise"(%arg1) <{pack = 1 : i32}> ({
// CHECK-NEXT:    ^bb0(%arg2: f32):
// CHECK-NEXT:      tt.map_elementwise.return
// CHECK-NEXT:    }) : (tensor<256xf32, #blocked>) -> ()
// CHECK-NEXT:    tt.grid_dependency_wait
// CHECK-NEXT:    tt.grid_dependency_launch_dependents {zz.tag}
// CHECK-NEXT:    tt.return %0 : tensor<256xi32, #blocked>
// CHECK-NEXT:  }
// CHECK:  tt.func @pipeliner(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: index) -> i32 {
// CHECK-NEXT:    %0 = ttg.predicate_stage %arg0, %arg1, %arg2 maxStage 2 stage 0 : i32 -> i1
// CHECK-NEXT:    %1 = ttg.predicate_stage %arg3, %arg3, %arg3 maxStage 3 stage 1 {zz.tag} : index -> i1
// CHECK-NEXT:    %2 = "ttg.mask"(%0) ({
// CHECK-NEXT:      %3 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:      ttg.mask.return %3 : i32
// CHECK-NEXT:    }) : (i1) -> i32
// CHECK-NEXT:    tt.return %2 : i32
// CHECK-NEXT:  }
// CHECK:  tt.func @scatter_rmw(%arg0: !ttg.memdesc<128xi32, #shared, #smem, mutable>, %arg1: tensor<128xi32, #blocked>, %arg2: tensor<128xi1, #blocked>) {
// CHECK-NEXT:    %0 = ttg.local_atomic_scatter_rmw add, %arg0[%arg1], %arg1 {axis = 0 : i32} : (!ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
// CHECK-NEXT:    %1 = ttg.local_atomic_scatter_rmw umax, %arg0[%arg1], %arg1, %arg2 {axis = 0 : i32} : (!ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xi32, #blocked>
// CHECK-NEXT:    tt.return
// CHECK-NEXT:  }
// CHECK:  tt.func @poll(%arg0: !tt.ptr<i32>, %arg1: i32, %arg2: i64) {
// CHECK-NEXT:    %0 = tt.atomic_poll acquire, cta, %arg0, %arg1 : !tt.ptr<i32>, i32 -> i1
// CHECK-NEXT:    %1 = tt.atomic_poll relaxed, gpu, %arg0, %arg1 timeout %arg2 {zz.tag} : !tt.ptr<i32>, i32 -> i1
// CHECK-NEXT:    tt.return
// CHECK-NEXT:  }
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @map(%a: tensor<256xi32, #blocked>, %b: tensor<256xf32, #blocked>) -> tensor<256xi32, #blocked> {
    %0 = "tt.map_elementwise" (%a, %b) <{pack = 2 : i32}> ({
    ^bb0(%a0: i32, %a1: i32, %b0: f32, %b1: f32):
      %s = arith.addi %a0, %a1 : i32
      tt.map_elementwise.return %s, %a1 : i32, i32
    }) : (tensor<256xi32, #blocked>, tensor<256xf32, #blocked>) -> (tensor<256xi32, #blocked>)
    "tt.map_elementwise"(%b) <{pack = 1 : i32}> ({
    ^bb0(%x: f32):
      tt.map_elementwise.return
    }) : (tensor<256xf32, #blocked>) -> ()
    tt.grid_dependency_wait
    tt.grid_dependency_launch_dependents {zz.tag}
    tt.return %0 : tensor<256xi32, #blocked>
  }
  tt.func @pipeliner(%iv: i32, %ub: i32, %step: i32, %i: index) -> i32 {
    %p = ttg.predicate_stage %iv, %ub, %step maxStage 2 stage 0 : i32 -> i1
    %q = ttg.predicate_stage %i, %i, %i maxStage 3 stage 1 {zz.tag} : index -> i1
    %m = "ttg.mask"(%p) ({
      %s = arith.addi %iv, %ub : i32
      ttg.mask.return %s : i32
    }) : (i1) -> i32
    tt.return %m : i32
  }
  tt.func @scatter_rmw(%m: !ttg.memdesc<128xi32, #shared, #smem, mutable>, %idx: tensor<128xi32, #blocked>, %k: tensor<128xi1, #blocked>) {
    %0 = ttg.local_atomic_scatter_rmw add, %m[%idx], %idx {axis = 0 : i32} : (!ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %1 = ttg.local_atomic_scatter_rmw umax, %m[%idx], %idx, %k {axis = 0 : i32} : (!ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xi32, #blocked>
    tt.return
  }
  tt.func @poll(%p: !tt.ptr<i32>, %v: i32, %t: i64) {
    %0 = tt.atomic_poll acquire, cta, %p, %v : !tt.ptr<i32>, i32 -> i1
    %1 = tt.atomic_poll relaxed, gpu, %p, %v timeout %t {zz.tag} : !tt.ptr<i32>, i32 -> i1
    tt.return
  }
}
