// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: arith.extf
// ORACLE-COUNT-2: // -----

// Conversions cost bytes, not elements: two f32 values computed from one extended
// bf16 load are both wanted in #blocked1. Converting the bf16 load once (8 KB) and
// recomputing extf/mulf/addf in #blocked1 is cheaper than the two f32 conversions
// (32 KB); counted in elements it was a tie per conversion and both f32 ones stayed
// (triton-xpu's pass converts the bf16 load twice).
// CHECK-LABEL: tt.func public @extf_two_users
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[X]] : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.extf %[[C]] : tensor<64x64xbf16, #blocked1> to tensor<64x64xf32, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @extf_two_users(%in: tensor<64x64x!tt.ptr<bf16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %out: tensor<64x64x!tt.ptr<f32>, #blocked1>, %out2: tensor<64x64x!tt.ptr<f32>, #blocked1>) {
    %x = tt.load %in, %m : tensor<64x64x!tt.ptr<bf16>, #blocked>
    %e = arith.extf %x : tensor<64x64xbf16, #blocked> to tensor<64x64xf32, #blocked>
    %y = arith.mulf %e, %e : tensor<64x64xf32, #blocked>
    %z = arith.addf %e, %e : tensor<64x64xf32, #blocked>
    %c = ttg.convert_layout %y : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %c2 = ttg.convert_layout %z : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    tt.store %out, %c : tensor<64x64x!tt.ptr<f32>, #blocked1>
    tt.store %out2, %c2 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// The same inside a loop, where the f32 values are stored each iteration: the
// conversions go on the bf16 tile (2 bytes an element), none on an f32 value.
// CHECK-LABEL: tt.func public @extf_in_loop
// CHECK: scf.for
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: ttg.convert_layout %[[X]] : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blocked1>
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<64x64xf32
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @extf_in_loop(%in: tensor<64x64x!tt.ptr<bf16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %out: tensor<64x64x!tt.ptr<f32>, #blocked1>, %out2: tensor<64x64x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %in, %m : tensor<64x64x!tt.ptr<bf16>, #blocked>
      %e = arith.extf %x : tensor<64x64xbf16, #blocked> to tensor<64x64xf32, #blocked>
      %y = arith.mulf %e, %e : tensor<64x64xf32, #blocked>
      %z = arith.subf %e, %y : tensor<64x64xf32, #blocked>
      %c = ttg.convert_layout %y : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
      %c2 = ttg.convert_layout %z : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
      tt.store %out, %c : tensor<64x64x!tt.ptr<f32>, #blocked1>
      tt.store %out2, %c2 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    }
    tt.return
  }
}

// -----

// Negative: the f32 value is truncated before it is converted; the conversion
// stays on the bf16 result (half the bytes of the f32 product), and the gather
// load keeps its layout.
// CHECK-LABEL: tt.func public @truncf_then_convert
// CHECK: arith.truncf %{{.*}} : tensor<64x64xf32, #blocked> to tensor<64x64xbf16, #blocked>
// CHECK-NEXT: ttg.convert_layout %{{.*}} : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blocked1>
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept: backward would convert 16384 weighted bytes to save 8192
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @truncf_then_convert(%in: tensor<64x64x!tt.ptr<f32>, #blocked>, %m: tensor<64x64xi1, #blocked>, %out: tensor<64x64x!tt.ptr<bf16>, #blocked1>) {
    %x = tt.load %in, %m : tensor<64x64x!tt.ptr<f32>, #blocked>
    %y = arith.mulf %x, %x : tensor<64x64xf32, #blocked>
    %t = arith.truncf %y : tensor<64x64xf32, #blocked> to tensor<64x64xbf16, #blocked>
    %c = ttg.convert_layout %t : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blocked1>
    tt.store %out, %c : tensor<64x64x!tt.ptr<bf16>, #blocked1>
    tt.return
  }
}
