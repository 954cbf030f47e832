// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE: tt.assert
// ORACLE-COUNT-2: // -----

// tt.assert and tt.print take their operands in any layout (the lowering reads each
// element where it is), as a store takes its value: forward propagation ends at
// them and the conversion of the loaded flags goes (as triton-xpu's pass does).
// CHECK-LABEL: tt.func public @assert_any_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.assert %{{.*}}, "flags must be set" : tensor<32x64xi1, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @assert_any_layout(%in: tensor<32x64x!tt.ptr<i8>, #blocked>, %m: tensor<32x64xi1, #blocked>) {
    %x = tt.load %in, %m : tensor<32x64x!tt.ptr<i8>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x64xi8, #blocked> -> tensor<32x64xi8, #blocked1>
    %zero = arith.constant dense<0> : tensor<32x64xi8, #blocked1>
    %ok = arith.cmpi ne, %c, %zero : tensor<32x64xi8, #blocked1>
    tt.assert %ok, "flags must be set" : tensor<32x64xi1, #blocked1>
    tt.return
  }
}

// -----

// tt.print of a converted value and of an unconverted one: it reads the loaded
// tile in its own layout; no conversion is left.
// CHECK-LABEL: tt.func public @print_any_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 0, 0>} : %{{.*}}, %{{.*}} : tensor<32x64xf32, #blocked>, tensor<32x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @print_any_layout(%in: tensor<32x64x!tt.ptr<f32>, #blocked>, %m: tensor<32x64xi1, #blocked>) {
    %x = tt.load %in, %m : tensor<32x64x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked1>
    tt.print " x: " {hex = false, isSigned = array<i32: 0, 0>} : %c, %x : tensor<32x64xf32, #blocked1>, tensor<32x64xf32, #blocked>
    tt.return
  }
}

// -----

// Negative: the converted flags are also stored through pointers (a function
// argument) in #blocked1; moving the assert does not remove that conversion, which stays.
// CHECK-LABEL: tt.func public @assert_and_store
// CHECK: ttg.convert_layout %{{.*}} : tensor<32x64xi8, #blocked> -> tensor<32x64xi8, #blocked1>
// CHECK: tt.store
// REMARK: remark: [tritonintelgpu-remove-layout-conversions] kept:
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @assert_and_store(%in: tensor<32x64x!tt.ptr<i8>, #blocked>, %m: tensor<32x64xi1, #blocked>, %out: tensor<32x64x!tt.ptr<i8>, #blocked1>) {
    %x = tt.load %in, %m : tensor<32x64x!tt.ptr<i8>, #blocked>
    %c = ttg.convert_layout %x : tensor<32x64xi8, #blocked> -> tensor<32x64xi8, #blocked1>
    %zero = arith.constant dense<0> : tensor<32x64xi8, #blocked1>
    %ok = arith.cmpi ne, %c, %zero : tensor<32x64xi8, #blocked1>
    tt.assert %ok, "flags must be set" : tensor<32x64xi1, #blocked1>
    tt.store %out, %c : tensor<32x64x!tt.ptr<i8>, #blocked1>
    tt.return
  }
}
