// RUN: xpu-opt %s -tritonintelgpu-remove-layout-conversions | FileCheck %s
// A scan whose axis its 1D operand lacks (triton's verifier lets it through): its scratch
// is not sized (it crashed the whole-module cost with an IndexError) and a slice layout
// is not pushed into it, so both conversions stay.
#b2d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [2, 1], order = [0, 1]}>
#b1d = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  // CHECK-LABEL: tt.func @scan_bad_axis
  // CHECK: ttg.convert_layout
  // CHECK: "tt.scan"
  // CHECK: ttg.convert_layout
  // CHECK: tt.return
  tt.func @scan_bad_axis(%x: tensor<256xi32, #ttg.slice<{dim = 1, parent = #b2d}>>) -> tensor<256xi32, #ttg.slice<{dim = 1, parent = #b2d}>> {
    %a = ttg.convert_layout %x : tensor<256xi32, #ttg.slice<{dim = 1, parent = #b2d}>> -> tensor<256xi32, #b1d>
    %s = "tt.scan"(%a) ({
    ^bb0(%l: i32, %r: i32):
      %sum = arith.addi %l, %r : i32
      tt.scan.return %sum : i32
    }) {axis = 1 : i32, reverse = false} : (tensor<256xi32, #b1d>) -> tensor<256xi32, #b1d>
    %b = ttg.convert_layout %s : tensor<256xi32, #b1d> -> tensor<256xi32, #ttg.slice<{dim = 1, parent = #b2d}>>
    tt.return %b : tensor<256xi32, #ttg.slice<{dim = 1, parent = #b2d}>>
  }
}
