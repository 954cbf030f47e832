// RUN: xpu-opt %s --split-input-file --xpu-slice-epilogue --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --xpu-slice-epilogue=gather-slice-registers=64 | FileCheck %s --check-prefix=HALVES
// RUN: %if triton %{ xpu-opt %s --split-input-file --xpu-slice-epilogue | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}

// ORACLE-COUNT-8: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8x32x!tt.ptr<f32>
// ORACLE: tt.store

// A residual D added to the accumulator, read through a masked tensor of pointers (a gather, 128
// registers per thread): the gather moves down under the bounds guard with the epilogue, and its
// pointers, offsets and masks are cut with the accumulator into 8 slices of 16 registers (2 of 64
// with gather-slice-registers=64); each slice gathers and adds in turn. The masks use bounds of
// their own: tests/python/transforms/test_slice_epilogue.py runs both on the interpreter.
// CHECK-LABEL: tt.func public @add_gathered
// CHECK: %[[D:.*]] = tt.broadcast %{{.*}} : tensor<128x1x!tt.ptr<f32>, #mma> -> tensor<128x64x!tt.ptr<f32>, #mma>
// CHECK-NOT: tt.load %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: arith.cmpi slt
// CHECK-NEXT: scf.if
// CHECK: ttg.convert_layout %[[D]] : tensor<128x64x!tt.ptr<f32>, #mma> -> tensor<128x64x!tt.ptr<f32>, #linear>
// CHECK-COUNT-8: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8x32x!tt.ptr<f32>, #linear{{[0-9]+}}>
// CHECK-NOT: tt.load
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>}
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// HALVES-LABEL: tt.func public @add_gathered
// HALVES-COUNT-2: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32x!tt.ptr<f32>
// HALVES-NOT: tt.load %{{.*}}, %{{.*}}, %{{.*}} :
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @add_gathered(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32, %N: i32, %ld: i64 {tt.divisibility = 16 : i32}, %ldd: i32, %Mm: i32, %Nm: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %pid = tt.get_program_id x : i32
    %m0 = arith.muli %pid, %c128 : i32
    %Mi = arith.extsi %M : i32 to i64
    %Ni = arith.extsi %N : i32 to i64
    %pa = tt.make_tensor_ptr %a, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<128x64xf32, #mma>>
    %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %sm = tt.splat %m0 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %om = arith.addi %sm, %rm : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %em = tt.expand_dims %om {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xi32, #mma>
    %en = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %Ms = tt.splat %Mm : i32 -> tensor<128x1xi32, #mma>
    %Ns = tt.splat %Nm : i32 -> tensor<1x64xi32, #mma>
    %km = arith.cmpi slt, %em, %Ms : tensor<128x1xi32, #mma>
    %kn = arith.cmpi slt, %en, %Ns : tensor<1x64xi32, #mma>
    %bm = tt.broadcast %km : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
    %bn = tt.broadcast %kn : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
    %mask = arith.andi %bm, %bn : tensor<128x64xi1, #mma>
    %lds = tt.splat %ldd : i32 -> tensor<128x1xi32, #mma>
    %row = arith.muli %em, %lds : tensor<128x1xi32, #mma>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #mma>
    %prow = tt.addptr %ds, %row : tensor<128x1x!tt.ptr<f32>, #mma>, tensor<128x1xi32, #mma>
    %pb = tt.broadcast %prow : tensor<128x1x!tt.ptr<f32>, #mma> -> tensor<128x64x!tt.ptr<f32>, #mma>
    %cb = tt.broadcast %en : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
    %pd = tt.addptr %pb, %cb : tensor<128x64x!tt.ptr<f32>, #mma>, tensor<128x64xi32, #mma>
    %dv = tt.load %pd, %mask, %zero : tensor<128x64x!tt.ptr<f32>, #mma>
    %sum = arith.addf %acc, %dv : tensor<128x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    tt.store %pc, %sum {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
}

// -----

// The same residual gathered in a blocked layout and converted to the accumulator's (through SLM,
// all 128 gathers in flight beside it): its addresses, masks and `other` come from scalars through
// placing ops and arith only, so the chain is re-made in #mma (the same values, each element read
// straight into its thread), the conversion goes and the gathers are sliced with the epilogue.
// CHECK-LABEL: tt.func public @add_converted_gather
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked>
// CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK: tt.broadcast %{{.*}} : tensor<128x1x!tt.ptr<f32>, #mma> -> tensor<128x64x!tt.ptr<f32>, #mma>
// CHECK: scf.if
// CHECK-COUNT-8: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8x32x!tt.ptr<f32>, #linear{{[0-9]+}}>
// CHECK-NOT: tt.load
// CHECK: tt.return
// HALVES-LABEL: tt.func public @add_converted_gather
// HALVES-COUNT-2: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32x!tt.ptr<f32>
// HALVES-NOT: tt.load %{{.*}}, %{{.*}}, %{{.*}} :
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @add_converted_gather(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32, %N: i32, %ld: i64 {tt.divisibility = 16 : i32}, %ldd: i32, %Mm: i32, %Nm: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked>
    %pid = tt.get_program_id x : i32
    %m0 = arith.muli %pid, %c128 : i32
    %Mi = arith.extsi %M : i32 to i64
    %Ni = arith.extsi %N : i32 to i64
    %pa = tt.make_tensor_ptr %a, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<128x64xf32, #mma>>
    %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %sm = tt.splat %m0 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %om = arith.addi %sm, %rm : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %em = tt.expand_dims %om {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %en = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %Ms = tt.splat %Mm : i32 -> tensor<128x1xi32, #blocked>
    %Ns = tt.splat %Nm : i32 -> tensor<1x64xi32, #blocked>
    %km = arith.cmpi slt, %em, %Ms : tensor<128x1xi32, #blocked>
    %kn = arith.cmpi slt, %en, %Ns : tensor<1x64xi32, #blocked>
    %bm = tt.broadcast %km : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %bn = tt.broadcast %kn : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %mask = arith.andi %bm, %bn : tensor<128x64xi1, #blocked>
    %lds = tt.splat %ldd : i32 -> tensor<128x1xi32, #blocked>
    %row = arith.muli %em, %lds : tensor<128x1xi32, #blocked>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %ds, %row : tensor<128x1x!tt.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<128x1x!tt.ptr<f32>, #blocked> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %cb = tt.broadcast %en : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %pd = tt.addptr %pb, %cb : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %dvb = tt.load %pd, %mask, %zero : tensor<128x64x!tt.ptr<f32>, #blocked>
    %dv = ttg.convert_layout %dvb : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
    %sum = arith.addf %acc, %dv : tensor<128x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    tt.store %pc, %sum {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
}

// -----

// Offsets gathered from memory (an indirect gather): the chain is not re-made (a load in it), the
// conversion stays and the epilogue is left alone.
// CHECK-LABEL: tt.func public @indirect_offsets
// HALVES-LABEL: tt.func public @indirect_offsets
// CHECK-NOT: scf.if
// CHECK: ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
// CHECK-NOT: scf.if
// CHECK: tt.return
// REMARK: remark: [xpu-slice-epilogue] a converted gather stays as it is: an address or mask of the converted gather is computed by tt.load
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: no op in it branches per element or gathers (nothing to slice for)
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @indirect_offsets(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32, %N: i32, %ld: i64 {tt.divisibility = 16 : i32}, %ldd: i32, %Mm: i32, %Nm: i32, %ix: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked>
    %pid = tt.get_program_id x : i32
    %m0 = arith.muli %pid, %c128 : i32
    %Mi = arith.extsi %M : i32 to i64
    %Ni = arith.extsi %N : i32 to i64
    %pa = tt.make_tensor_ptr %a, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<128x64xf32, #mma>>
    %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %sm = tt.splat %m0 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %om = arith.addi %sm, %rm : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %em = tt.expand_dims %om {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %en = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %Ms = tt.splat %Mm : i32 -> tensor<128x1xi32, #blocked>
    %Ns = tt.splat %Nm : i32 -> tensor<1x64xi32, #blocked>
    %km = arith.cmpi slt, %em, %Ms : tensor<128x1xi32, #blocked>
    %kn = arith.cmpi slt, %en, %Ns : tensor<1x64xi32, #blocked>
    %bm = tt.broadcast %km : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %bn = tt.broadcast %kn : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %mask = arith.andi %bm, %bn : tensor<128x64xi1, #blocked>
    %lds = tt.splat %ldd : i32 -> tensor<128x1xi32, #blocked>
    %row = arith.muli %em, %lds : tensor<128x1xi32, #blocked>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked>
    %prow = tt.addptr %ds, %row : tensor<128x1x!tt.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %pb = tt.broadcast %prow : tensor<128x1x!tt.ptr<f32>, #blocked> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %cbb = tt.broadcast %en : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %ip = tt.splat %ix : !tt.ptr<i32> -> tensor<128x64x!tt.ptr<i32>, #blocked>
    %ipp = tt.addptr %ip, %cbb : tensor<128x64x!tt.ptr<i32>, #blocked>, tensor<128x64xi32, #blocked>
    %cb = tt.load %ipp : tensor<128x64x!tt.ptr<i32>, #blocked>
    %pd = tt.addptr %pb, %cb : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %dvb = tt.load %pd, %mask, %zero : tensor<128x64x!tt.ptr<f32>, #blocked>
    %dv = ttg.convert_layout %dvb : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
    %sum = arith.addf %acc, %dv : tensor<128x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%Mi, %Ni], [%ld, %c1], [%m0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    tt.store %pc, %sum {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
}

// -----

// Left alone, each with its reason: a store between the gather and the epilogue's store (the
// gather cannot move past it), a volatile gather, a residual read through a block pointer (no
// gather in the epilogue: the add alone has nothing to slice for).
// CHECK-LABEL: tt.func public @store_between
// CHECK-NOT: scf.if
// CHECK: tt.load %{{.*}} : tensor<128x64x!tt.ptr<f32>, #mma>
// CHECK-NEXT: tt.store
// CHECK-LABEL: tt.func public @volatile
// CHECK-NOT: scf.if
// CHECK: tt.load %{{.*}} {isVolatile = true}
// CHECK-LABEL: tt.func public @block_residual
// CHECK-NOT: scf.if
// CHECK: tt.return
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: the store is not the function's last op
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: a load of the epilogue would move past tt.store, which may write memory
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: no op in it branches per element or gathers (nothing to slice for)
// REMARK: remark: [xpu-slice-epilogue] epilogue left alone: no op in it branches per element or gathers (nothing to slice for)
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @store_between(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i64, %N: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %en = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %off = tt.broadcast %en : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #mma>
    %pd = tt.addptr %ds, %off : tensor<128x64x!tt.ptr<f32>, #mma>, tensor<128x64xi32, #mma>
    %pa = tt.make_tensor_ptr %a, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %dv = tt.load %pd : tensor<128x64x!tt.ptr<f32>, #mma>
    tt.store %pa, %acc {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %sum = arith.addf %acc, %dv : tensor<128x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    tt.store %pc, %sum {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
  tt.func public @volatile(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i64, %N: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %en = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %off = tt.broadcast %en : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #mma>
    %pd = tt.addptr %ds, %off : tensor<128x64x!tt.ptr<f32>, #mma>, tensor<128x64xi32, #mma>
    %pa = tt.make_tensor_ptr %a, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %dv = tt.load %pd {isVolatile = true} : tensor<128x64x!tt.ptr<f32>, #mma>
    %sum = arith.addf %acc, %dv : tensor<128x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    tt.store %pc, %sum {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
  tt.func public @block_residual(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i64, %N: i64, %ld: i64 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %en = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %off = tt.broadcast %en : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #mma>
    %pd = tt.addptr %ds, %off : tensor<128x64x!tt.ptr<f32>, #mma>, tensor<128x64xi32, #mma>
    %pa = tt.make_tensor_ptr %a, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %acc = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %pr = tt.make_tensor_ptr %d, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    %dv = tt.load %pr {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    %sum = arith.addf %acc, %dv : tensor<128x64xf32, #mma>
    %pc = tt.make_tensor_ptr %c, [%M, %N], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<128x64xf32, #mma>>
    tt.store %pc, %sum {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf32, #mma>>
    tt.return
  }
}
