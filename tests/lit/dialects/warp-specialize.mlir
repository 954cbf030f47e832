// RUN: xpu-opt %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s | xpu-opt | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s -mlir-print-op-generic | xpu-opt | FileCheck %s --match-full-lines --strict-whitespace
// RUN: xpu-opt %s -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// ttg.warp_specialize in MLIR's custom form (TritonGPU/IR/Ops.cpp), as triton-xpu 3.3 and
// Triton main print it: captures, `attributes {...}` without partitionNumWarps, the default
// region, each partition region with its arguments and warps, the capture -> result types.
// Each partition's arguments are numbered from where the op stands, as in MLIR.

// CHECK-LABEL:  tt.func @two_partitions(%arg0: i32, %arg1: i64) -> (i64, i32) {
// CHECK-NEXT:    %0:2 = ttg.warp_specialize(%arg0, %arg1) attributes {requestedRegisters = array<i32: 48, 24>, zz.tag = 1 : i32}
// CHECK-NEXT:    default {
// CHECK-NEXT:      %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:      ttg.warp_yield %arg1, %c7_i32 : i64, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    partition0(%arg2: i32, %arg3: i64) num_warps(4) {
// CHECK-NEXT:      %1 = arith.addi %arg2, %arg2 : i32
// CHECK-NEXT:      ttg.warp_return
// CHECK-NEXT:    }
// CHECK-NEXT:    partition1(%arg2: i32, %arg3: i64) num_warps(1) {
// CHECK-NEXT:      %1 = arith.extsi %arg2 : i32 to i64
// CHECK-NEXT:      ttg.warp_return
// CHECK-NEXT:    } : (i32, i64) -> (i64, i32)
// CHECK-NEXT:    tt.return %0#0, %0#1 : i64, i32
// CHECK-NEXT:  }
// CHECK-LABEL:  tt.func @nothing() {
// CHECK-NEXT:    ttg.warp_specialize()
// CHECK-NEXT:    default {
// CHECK-NEXT:      ttg.warp_yield
// CHECK-NEXT:    } : () -> ()
// CHECK-NEXT:    tt.return
// CHECK-NEXT:  }

// LOC: partition0(%arg2: i32 loc("{{.*}}warp-specialize.mlir":[[L:[0-9]+]]:16), %arg3: i64 loc("{{.*}}warp-specialize.mlir":[[L]]:25)) num_warps(4) {
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @two_partitions(%a: i32, %b: i64) -> (i64, i32) {
    %r:2 = ttg.warp_specialize(%a, %b) attributes {zz.tag = 1 : i32, requestedRegisters = array<i32: 48, 24>}
    default {
      %c = arith.constant 7 : i32
      ttg.warp_yield %b, %c : i64, i32
    }
    partition0(%x: i32, %y: i64) num_warps(4) {
      %s = arith.addi %x, %x : i32
      ttg.warp_return
    }
    partition1(%x: i32, %y: i64) num_warps(1) {
      %e = arith.extsi %x : i32 to i64
      ttg.warp_return
    } : (i32, i64) -> (i64, i32)
    tt.return %r#0, %r#1 : i64, i32
  }
  tt.func @nothing() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return
  }
}
