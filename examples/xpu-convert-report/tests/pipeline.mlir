// REQUIRES: triton
// RUN: xpu-opt %examples/gemm_add_tensor_ptr.ttgir --pass-pipeline='builtin.module(tritonintelgpu-remove-layout-conversions, report-layout-conversions, native-tritonintelgpu-materialize-block-pointer, canonicalize)' | FileCheck %s --check-prefix=OURS
// RUN: xpu-opt %examples/gemm_add_tensor_ptr.ttgir --pass-pipeline='builtin.module(native-tritonintelgpu-remove-layout-conversions, report-layout-conversions, cse)' | FileCheck %s --check-prefix=NATIVE

// In a pipeline text with ours and triton-xpu's native passes. After our
// RemoveLayoutConversions the epilogue's add is done in the DPAS layout (its
// conversion is gone) and native MaterializeBlockPointer then tags the operand
// loads; native RemoveLayoutConversions keeps the 263,168-byte conversion.
// OURS-NOT: convert_report.slm_bytes = 263168
// OURS: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"}
// OURS-NOT: convert_report.slm_bytes = 263168
// OURS: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// OURS-NOT: convert_report.slm_bytes = 263168
// NATIVE-NOT: triton_intel_gpu.block_io
// NATIVE: ttg.convert_layout %{{.*}} {convert_report.slm_bytes = 263168 : i64} : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>
