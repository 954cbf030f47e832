// RUN: xpu-opt %s | FileCheck %s --implicit-check-not=ttg.convert_layout
// RUN: xpu-opt %s | FileCheck %s --check-prefix=BOTH -implicit-check-not '{{ttg\.convert_layout|tt\.trans}}'
// RUN: xpu-opt %s | not FileCheck %s --check-prefix=FIRST --implicit-check-not=ttg.convert_layout 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: xpu-opt %s | not FileCheck %s --check-prefix=FIRST --implicit-check-not=ttg.convert_layout --implicit-check-not=tt.return 2>&1 | FileCheck %s --check-prefix=ERR
// lit's FileCheck (tests/lit/filecheck_wrapper.py) takes LLVM's --implicit-check-not: the
// pattern may occur only inside what a positive check matched. The last two runs must
// fail: FIRST leaves the second conversion unmatched.

// CHECK-LABEL: tt.func @two
// CHECK: %[[A:.+]] = ttg.convert_layout %arg0 : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked1>
// CHECK: ttg.convert_layout %[[A]] : tensor<16x16xf32, #blocked1> -> tensor<16x16xf32, #blocked>
// BOTH-COUNT-2: ttg.convert_layout
// FIRST: ttg.convert_layout %arg0
// FIRST: tt.return
// ERR: error: IMPLICIT-CHECK-NOT: excluded string found in input ('ttg.convert_layout')
// ERR-NEXT: Matching at:
// ERR-NEXT: %{{[0-9]+}} = ttg.convert_layout %0 : tensor<16x16xf32, #blocked1> -> tensor<16x16xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @two(%arg0: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    %0 = ttg.convert_layout %arg0 : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked1>
    %1 = ttg.convert_layout %0 : tensor<16x16xf32, #blocked1> -> tensor<16x16xf32, #blocked>
    tt.return %1 : tensor<16x16xf32, #blocked>
  }
}
