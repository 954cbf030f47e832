// REQUIRES: triton
// RUN: xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttir --xpu-pipeline="num-warps=32 num-stages=3 raise-block-pointer=false" | FileCheck %s
// RUN: xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttir --xpu-pipeline="num-warps=32 num-stages=3 pipeline=native" | FileCheck %s --check-prefix=NATIVE
// RUN: not xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttir --xpu-pipeline="num-warps=32 pipeline=fast" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttir --xpu-pipeline="num-warps=32 fast=true" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttir --xpu-pipeline="num-warps=32 num-stages=3 rlc=last block-io-encoding=false raise-block-pointer=false" | FileCheck %s
// RUN: xpu-opt %S/../../../examples/gemm_add_tensor_ptr.ttir --xpu-pipeline="num-warps=32 num-stages=3" | FileCheck %s --check-prefix=RAISED
// triton-xpu's TTIR -> TTGIR stage with our passes in it, on the TTIR of a GEMM
// with a masked tensor-of-pointer epilogue (256x256x32, 32 warps). Without raising (on by default): the epilogue
// load takes the DPAS layout and no conversion through SLM is left (natively one
// stays); -xpu-slice-epilogue then gathers it in 8 register slices under a bounds
// guard (its conversions to and from #linear only rename registers).

// CHECK: #[[MMA:mma]] = #triton_intel_gpu.dpas<
// CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.broadcast %{{.*}} -> tensor<256x256x!tt.ptr<f32>, #[[MMA]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.if
// CHECK: ttg.convert_layout %{{.*}} : tensor<256x256x!tt.ptr<f32>, #[[MMA]]> -> tensor<256x256x!tt.ptr<f32>, #linear>
// CHECK-COUNT-8: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x8x128x!tt.ptr<f32>, #linear{{[0-9]+}}>
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<256x256xf32, #blocked
// NATIVE: ttg.convert_layout %{{.*}} : tensor<256x256xf32, #{{blocked[0-9]*}}> -> tensor<256x256xf32, #mma>
// BAD: error: --xpu-pipeline: unknown pipeline 'fast' (choose from xpu, native, or give a pass-pipeline text)
// BADOPT: error: unknown --xpu-pipeline options: fast (choose from num-warps, num-stages, pipeline, {{.*}}rlc, never-worse{{.*}})
// With raising (the default), the masked epilogue load becomes a 2D block read of a block
// pointer whose mask became its boundary check (zero padding), in the DPAS layout.
// RAISED: %[[D:.*]] = tt.make_tensor_ptr %{{.*}} : <tensor<256x256xf32, #mma>>
// RAISED: tt.load %[[D]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<256x256xf32, #mma>>
// RAISED-NOT: ttg.convert_layout
