// RUN: xpu-opt %examples/gemm_add_tensor_ptr.ttgir --report-layout-conversions --remarks 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: xpu-opt %examples/gemm_add_tensor_ptr.ttgir --report-layout-conversions | FileCheck %s --check-prefix=ATTR
// RUN: xpu-opt %examples/gemm_add_tensor_ptr.ttgir --report-layout-conversions=annotate=false | FileCheck %s --check-prefix=PLAIN
// RUN: not xpu-opt %examples/gemm_add_tensor_ptr.ttgir --report-layout-conversions=budget=131072 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: xpu-opt %examples/gemm_add_tensor_ptr.ttgir --pass-pipeline='builtin.module(report-layout-conversions{budget=300000})' | FileCheck %s --check-prefix=ATTR
// RUN: xpu-opt %s --report-layout-conversions --remarks 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not xpu-opt %s --pass-pipeline='builtin.module(report-layout-conversions{budgett=1})' 2>&1 | FileCheck %s --check-prefix=BADOPT

// The GEMM + masked add-matrix (256x256x32, 32 warps) before triton-xpu's
// MaterializeBlockPointer: two operand conversions in the K loop, one epilogue
// conversion of the accumulator that does not fit PVC's 128 KB of SLM.
// REMARK: gemm_add_tensor_ptr.ttgir:32:7: remark: [report-layout-conversions] 256x32xbf16: 16384 bytes of SLM, in 1 loop
// REMARK: gemm_add_tensor_ptr.ttgir:33:7: remark: [report-layout-conversions] 32x256xbf16: 16384 bytes of SLM, in 1 loop
// REMARK: gemm_add_tensor_ptr.ttgir:62:5: remark: [report-layout-conversions] 256x256xf32: 263168 bytes of SLM, outside loops

// ATTR: scf.for
// ATTR: ttg.convert_layout %{{.*}} {convert_report.slm_bytes = 16384 : i64} : tensor<256x32xbf16, #blocked1> -> tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// ATTR: ttg.convert_layout %{{.*}} {convert_report.slm_bytes = 16384 : i64} : tensor<32x256xbf16
// ATTR: scf.yield
// ATTR: ttg.convert_layout %{{.*}} {convert_report.slm_bytes = 263168 : i64} : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>

// PLAIN-NOT: convert_report
// PLAIN: ttg.convert_layout %{{.*}} : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>

// BUDGET: gemm_add_tensor_ptr.ttgir:62:5: error: [report-layout-conversions] this conversion needs 263168 bytes of SLM, over the budget of 131072

// No conversion: nothing reported, nothing tagged.
// NONE-NOT: remark
// NONE-NOT: convert_report
// NONE: tt.func @add
// NONE-NOT: remark
// NONE-NOT: convert_report
// BADOPT: unknown option 'budgett'
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @add(%x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %0 = arith.addf %x, %x : tensor<256xf32, #blocked>
    tt.return %0 : tensor<256xf32, #blocked>
  }
}
