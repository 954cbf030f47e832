// RUN: xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | FileCheck %s
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-remove-layout-conversions | %python -m xpu_passes.integration.oracle lower --split-input-file | FileCheck %s --check-prefix=LOWER %}

// A kernel that returns early (`if y == skip: zero the row; return`): the body is split by
// cf.cond_br into blocks after the first, and the row is zeroed in a loop there, through a
// masked store whose addresses are 16-byte aligned (pointer divisible by 16, loop step 256,
// bound divisible by 16). Coalesce gives the store 4 contiguous f16 a lane (one message);
// the values come in 1 a lane (4 messages). The axis facts of the blocks after the first
// (the loop's induction variable) decide which layout the pass keeps: with them, the store
// stays in 4 a lane (triton-xpu's choice); without them (facts of the first block only, as
// before) it was moved to 1 a lane, 4 scatters instead of 1 (liger's cross-entropy kernel,
// IGC scatters 3 -> 6).
// LOWER: lowered: dpas 0, 2D block reads 0, 2D block writes 0, SLM 0
// LOWER: lowered: dpas 0, 2D block reads 0, 2D block writes 0, SLM 0

// CHECK: #[[B4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @zero_row_aligned(
// CHECK: ^bb1:
// CHECK: scf.for
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f16>, #[[B4]]>
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @zero_row_aligned(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: i32, %n: i32 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf16, #blocked1>
    %skip = arith.cmpi eq, %y, %c0 : i32
    cf.cond_br %skip, ^bb1, ^bb2
  ^bb1:
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked1>
    %bound = tt.splat %n : i32 -> tensor<256xi32, #blocked1>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked1>
    scf.for %i = %c0 to %n step %c256 : i32 {
      %start = tt.splat %i : i32 -> tensor<256xi32, #blocked1>
      %offs = arith.addi %start, %range : tensor<256xi32, #blocked1>
      %mask = arith.cmpi slt, %offs, %bound : tensor<256xi32, #blocked1>
      %ptrs = tt.addptr %base, %offs : tensor<256x!tt.ptr<f16>, #blocked1>, tensor<256xi32, #blocked1>
      %p = ttg.convert_layout %ptrs : tensor<256x!tt.ptr<f16>, #blocked1> -> tensor<256x!tt.ptr<f16>, #blocked>
      %v = ttg.convert_layout %zero : tensor<256xf16, #blocked1> -> tensor<256xf16, #blocked>
      %m = ttg.convert_layout %mask : tensor<256xi1, #blocked1> -> tensor<256xi1, #blocked>
      tt.store %p, %v, %m : tensor<256x!tt.ptr<f16>, #blocked>
    }
    tt.return
  ^bb2:
    tt.return
  }
}

// -----

// The same with a pointer of unknown alignment: no layout stores more than one f16 a message,
// so 1 a lane costs the same and the pass keeps it (no conversion left either way).
// CHECK: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @zero_row_unaligned(
// CHECK: ^bb1:
// CHECK: scf.for
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f16>, #[[B1]]>
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @zero_row_unaligned(%x: !tt.ptr<f16>, %y: i32, %n: i32 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf16, #blocked1>
    %skip = arith.cmpi eq, %y, %c0 : i32
    cf.cond_br %skip, ^bb1, ^bb2
  ^bb1:
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked1>
    %bound = tt.splat %n : i32 -> tensor<256xi32, #blocked1>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked1>
    scf.for %i = %c0 to %n step %c256 : i32 {
      %start = tt.splat %i : i32 -> tensor<256xi32, #blocked1>
      %offs = arith.addi %start, %range : tensor<256xi32, #blocked1>
      %mask = arith.cmpi slt, %offs, %bound : tensor<256xi32, #blocked1>
      %ptrs = tt.addptr %base, %offs : tensor<256x!tt.ptr<f16>, #blocked1>, tensor<256xi32, #blocked1>
      %p = ttg.convert_layout %ptrs : tensor<256x!tt.ptr<f16>, #blocked1> -> tensor<256x!tt.ptr<f16>, #blocked>
      %v = ttg.convert_layout %zero : tensor<256xf16, #blocked1> -> tensor<256xf16, #blocked>
      %m = ttg.convert_layout %mask : tensor<256xi1, #blocked1> -> tensor<256xi1, #blocked>
      tt.store %p, %v, %m : tensor<256x!tt.ptr<f16>, #blocked>
    }
    tt.return
  ^bb2:
    tt.return
  }
}
