// MLIR's command line: one dash or two for every long option, pass options as
// -pass=opt=v, -pass="a=1 b=2" and pass{a=1 b=2} in -pass-pipeline, -o, -split-input-file.
// RUN: xpu-opt %s -split-input-file -tritonintelgpu-rewrite-tensor-pointer=guard=false | FileCheck %s --check-prefix=LOWERED
// RUN: xpu-opt %s --split-input-file --tritonintelgpu-rewrite-tensor-pointer="guard=false" | FileCheck %s --check-prefix=LOWERED
// RUN: xpu-opt %s -split-input-file -pass-pipeline='builtin.module(tritonintelgpu-rewrite-tensor-pointer{guard=false})' -o %t && FileCheck %s --check-prefix=LOWERED < %t
// RUN: xpu-opt %s -split-input-file -tritonintelgpu-rewrite-tensor-pointer | FileCheck %s --check-prefix=GUARDED
// RUN: xpu-opt %s -split-input-file -tritonintelgpu-rewrite-tensor-pointer=guard=true | FileCheck %s --check-prefix=GUARDED
// RUN: xpu-opt -split-input-file %s -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=DEBUG
// Errors: one line naming the closest flags or passes, or the pass and its options; exit 1.
// RUN: not xpu-opt %s -split-input-fle 2>&1 | FileCheck %s --check-prefix=BADFLAG
// RUN: not xpu-opt %s -tritonintelgpu-rewrite-tensor-pointers 2>&1 | FileCheck %s --check-prefix=BADPASS
// RUN: not xpu-opt %s '-pass-pipeline=builtin.module(tritonintelgpu-rewrite-tensor-pointer{gard=false})' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not xpu-opt %s -tritonintelgpu-rewrite-tensor-pointer=guard=perhaps 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not xpu-opt %s '-pass-pipeline=builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=BADTEXT
// RUN: not xpu-opt %s -split-input-file -tritonintelgpu-legalize-block-io-encoding -tritonintelgpu-optimize-block-io-encoding 2>&1 | FileCheck %s --check-prefix=ORDER

// LOWERED-LABEL: tt.func @copy
// LOWERED-NOT: tt.make_tensor_ptr
// LOWERED: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x16x!tt.ptr<f32>, #mma>
// LOWERED: // -----
// LOWERED-LABEL: tt.func @second
// GUARDED-LABEL: tt.func @copy
// GUARDED: tt.make_tensor_ptr
// GUARDED: // -----
// DEBUG: tt.return %{{.*}} : tensor<32x16xf32, #triton_intel_gpu.dpas<{{.*}}>> loc(
// BADFLAG: xpu-opt: error: unknown option or pass '-split-input-fle'; did you mean -split-input-file
// BADFLAG-NOT: Traceback
// BADPASS: xpu-opt: error: unknown option or pass '-tritonintelgpu-rewrite-tensor-pointers'; did you mean -tritonintelgpu-rewrite-tensor-pointer
// BADOPT: xpu-opt: error: pass 'tritonintelgpu-rewrite-tensor-pointer': unknown option 'gard' (options: guard, max-work-per-op)
// BADVALUE: xpu-opt: error: pass 'tritonintelgpu-rewrite-tensor-pointer': option 'guard=perhaps': expected true or false, got 'perhaps'
// BADTEXT: xpu-opt: error: expected ',' or ')', found end of text (column 19)
// ORDER: xpu-opt: error: 'tritonintelgpu-legalize-block-io-encoding' must run after 'tritonintelgpu-optimize-block-io-encoding'

#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func @copy(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i64, %ld: i64 {tt.divisibility = 16 : i32}) -> tensor<32x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %ptr = tt.make_tensor_ptr %p, [%n, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf32, #mma>>
    %v = tt.load %ptr {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x16xf32, #mma>>
    tt.return %v : tensor<32x16xf32, #mma>
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @second() {
    tt.return
  }
}
