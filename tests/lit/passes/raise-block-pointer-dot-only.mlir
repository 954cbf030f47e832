// Which accesses are raised with dot-only=true (the plugin's pipeline; Intel's default, off, raises all): those moving a tt.dot's data. triton-xpu 3.3 gives only
// those 2D block I/O; any other block-pointer load keeps the default blocked layout where its gather got
// Coalesce's, and a reduction over it then needs more scratch (issue 13: attention-backward preprocess
// 512 -> 1,024 bytes of SLM, a 2D softmax 16 -> 32). Kernels from Triton's frontend (TTIR).
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=true --remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=false | FileCheck %s --check-prefix=ALL
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=true --verify-semantics="grid=3x3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SEM
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="ignore-masks=true dot-only=true" | FileCheck %s --check-prefix=IGN
// RUN: xpu-opt %s --split-input-file --triton-raise-block-pointer="ignore-masks=true dot-only=true" --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=IGNR
// RUN: %if triton %{ xpu-opt %s --split-input-file --triton-raise-block-pointer=dot-only=true | %python -c "import re, sys; from xpu_passes.integration import oracle as o; from triton._C.libtriton import ir, passes as p; ms = [o.parse(c) for c in re.split(r'(?m)^// -----.*$', sys.stdin.read())]; [(pm := ir.pass_manager(m.context), p.common.add_canonicalizer(pm), pm.run(m)) for m in ms]; print('// -----'.join(str(m) for m in ms))" | FileCheck %s --check-prefix=CANON %}

// SEM-NOT: error
// SEM-COUNT-2: remark: [verify-semantics] equal on
// SEM-NOT: error

// Attention-backward preprocess (16x16 tiles): two 2D loads, multiplied and reduced along rows. No tt.dot:
// left alone by default, raised with dot-only=false.
// CHECK-LABEL: tt.func public @bwd_preprocess
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: tt.return
// REMARK: remark: [triton-raise-block-pointer] left alone: the tile neither feeds nor comes from a tt.dot (the coalesced gather is kept; dot-only)
// REMARK-NEXT: remark: [triton-raise-block-pointer] left alone: the tile neither feeds nor comes from a tt.dot (the coalesced gather is kept; dot-only)
// REMARK-NEXT: remark: [triton-raise-block-pointer] left alone: 1D access (2D block I/O needs a 2D tile)
// ALL-LABEL: tt.func public @bwd_preprocess
// ALL-COUNT-2: tt.load %{{.*}} : !tt.ptr<tensor<16x16xf16>>
// IGN-LABEL: tt.func public @bwd_preprocess
// IGN-NOT: tt.make_tensor_ptr
module {
  tt.func public @bwd_preprocess(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) attributes {noinline = false} {
    %cst = arith.constant dense<16> : tensor<16x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tt.splat %1 : i32 -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = tt.get_program_id y : i32
    %6 = arith.muli %5, %c16_i32 : i32
    %7 = arith.muli %6, %arg3 : i32
    %8 = tt.addptr %arg0, %7 : !tt.ptr<f16>, i32
    %9 = tt.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %10 = arith.muli %9, %cst : tensor<16x1xi32>
    %11 = tt.splat %8 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %12 = tt.addptr %11, %10 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %13 = tt.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %14 = tt.broadcast %12 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %15 = tt.broadcast %13 : tensor<1x16xi32> -> tensor<16x16xi32>
    %16 = tt.addptr %14, %15 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %17 = tt.load %16 : tensor<16x16x!tt.ptr<f16>>
    %18 = tt.addptr %arg1, %7 : !tt.ptr<f16>, i32
    %19 = tt.splat %18 : !tt.ptr<f16> -> tensor<16x1x!tt.ptr<f16>>
    %20 = tt.addptr %19, %10 : tensor<16x1x!tt.ptr<f16>>, tensor<16x1xi32>
    %21 = tt.broadcast %20 : tensor<16x1x!tt.ptr<f16>> -> tensor<16x16x!tt.ptr<f16>>
    %22 = tt.addptr %21, %15 : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %23 = tt.load %22 : tensor<16x16x!tt.ptr<f16>>
    %24 = arith.extf %23 : tensor<16x16xf16> to tensor<16x16xf32>
    %25 = arith.extf %17 : tensor<16x16xf16> to tensor<16x16xf32>
    %26 = arith.mulf %25, %24 : tensor<16x16xf32>
    %27 = "tt.reduce"(%26) <{axis = 1 : i32}> ({
    ^bb0(%arg4: f32, %arg5: f32):
      %28 = arith.addf %arg4, %arg5 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %29 = arith.muli %5, %arg3 : i32
    %30 = tt.addptr %arg2, %29 : !tt.ptr<f32>, i32
    %31 = tt.splat %30 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %32 = tt.addptr %31, %4 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %32, %27 : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A GEMM whose K loop is unmasked (K // 16 trips) and whose loop-carried A/B pointers are used after the
// loop by a masked tail step (issue 13: such a GEMM was not raised at all), then a masked C store. All
// raised: A/B carried as block pointers (base %arg0/%arg1, positions [pid_m*16, 0] / [0, pid_n*16]),
// the tail's pointers rebuilt from the trip count with K masks as boundaryCheck, C with (M, N) bounds.
// CHECK-LABEL: tt.func public @gemm_tail
// CHECK-NOT: !tt.ptr<bf16>>
// CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
// CANON-LABEL: tt.func public @gemm_tail
// CANON: %[[PM:.*]] = tt.get_program_id x : i32
// CANON: %[[PN:.*]] = tt.get_program_id y : i32
// The kernel's own `pid * 16` values are the offsets (as Intel's pass reuses them).
// CANON: %[[R:.*]] = arith.muli %[[PM]], %c16_i32 : i32
// CANON: %[[C:.*]] = arith.muli %[[PN]], %c16_i32 : i32
// CANON: %[[A:.*]] = tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], [%{{.*}}, %c1_i64], [%[[R]], %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xbf16>>
// CANON: %[[B:.*]] = tt.make_tensor_ptr %arg1, [%{{.*}}, %{{.*}}], [%{{.*}}, %c1_i64], [%c0_i32, %[[C]]] {order = array<i32: 1, 0>} : <tensor<16x16xbf16>>
// CANON: scf.for %{{.*}} iter_args(%{{.*}} = %cst, %[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CANON: tt.advance %[[X]], [%c0_i32, %c16_i32] : <tensor<16x16xbf16>>
// CANON: tt.advance %[[Y]], [%c16_i32, %c0_i32] : <tensor<16x16xbf16>>
// The tail: the trip count `T = K/16 > 0 ? K/16 : 0` (>= 0, so the K position T*16 stays an offset and the
// kernel's pointer the base), the K shape T*16 + K%16 from the tail's mask `i < K%16`.
// CANON: arith.select %{{.*}}, %{{.*}}, %c0_i32 : i32
// CANON-NOT: tt.addptr
// CANON: %[[TA:.*]] = tt.make_tensor_ptr %arg0, [%{{.*}}, %{{.*}}], [%{{.*}}, %c1_i64], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x16xbf16>>
// CANON: tt.load %[[TA]] {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xbf16>>
// CANON-NOT: tt.addptr
// CANON: %[[TB:.*]] = tt.make_tensor_ptr %arg1, [%{{.*}}, %{{.*}}], [%{{.*}}, %c1_i64], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x16xbf16>>
// CANON: tt.load %[[TB]] {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x16xbf16>>
// CANON: %[[M:.*]] = arith.extsi %arg3 : i32 to i64
// CANON: %[[N:.*]] = arith.extsi %arg4 : i32 to i64
// CANON: tt.make_tensor_ptr %arg2, [%[[M]], %[[N]]], [%{{.*}}, %c1_i64], [%[[R]], %[[C]]] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
// REMARK: remark: [triton-raise-block-pointer] raised; dims 0, 1 have no bound in the IR: shape = the extent the loop reaches, unchecked
// With ignore-masks (Intel's meaning, not exact): every mask is dropped first, then raised without checks.
// IGN-LABEL: tt.func public @gemm_tail
// IGN-COUNT-2: tt.load %{{.*}} : !tt.ptr<tensor<16x16xbf16>>
// IGN: tt.dot
// IGN-COUNT-2: tt.load %{{.*}} : !tt.ptr<tensor<16x16xbf16>>
// IGN: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<16x16xf32>>
// IGNR-COUNT-3: dot-only.mlir:{{[0-9]+}}:5: remark: [triton-raise-block-pointer] ignoring the mask (ignore-masks)
// IGNR-NOT: ignoring the mask
module {
  tt.func public @gemm_tail(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xbf16>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<16> : tensor<16x16xi32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tt.splat %2 : i32 -> tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = arith.muli %1, %c16_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<16xi32>
    %8 = arith.addi %7, %3 : tensor<16xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %10 = tt.splat %arg6 : i32 -> tensor<16x1xi32>
    %11 = arith.muli %9, %10 : tensor<16x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %13 = tt.addptr %12, %11 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %15 = tt.broadcast %13 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %16 = tt.broadcast %14 : tensor<1x16xi32> -> tensor<16x16xi32>
    %17 = tt.addptr %15, %16 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %19 = tt.splat %arg7 : i32 -> tensor<16x1xi32>
    %20 = arith.muli %18, %19 : tensor<16x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<16x1x!tt.ptr<bf16>>
    %22 = tt.addptr %21, %20 : tensor<16x1x!tt.ptr<bf16>>, tensor<16x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %24 = tt.broadcast %22 : tensor<16x1x!tt.ptr<bf16>> -> tensor<16x16x!tt.ptr<bf16>>
    %25 = tt.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
    %26 = tt.addptr %24, %25 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %27 = arith.divsi %arg5, %c16_i32 : i32
    %28 = arith.muli %arg7, %c16_i32 : i32
    %29 = tt.splat %28 : i32 -> tensor<16x16xi32>
    %30, %31, %32 = scf.for %arg9 = %c0_i32 to %27 step %c1_i32 iter_args(%arg10 = %cst_2, %arg11 = %17, %arg12 = %26) -> (tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>) : i32 {
      %33 = tt.load %arg11 : tensor<16x16x!tt.ptr<bf16>>
      %34 = tt.load %arg12 : tensor<16x16x!tt.ptr<bf16>>
      %35 = tt.dot %33, %34, %arg10, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
      %36 = tt.addptr %arg11, %cst_1 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      %37 = tt.addptr %arg12, %29 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
      scf.yield %35, %36, %37 : tensor<16x16xf32>, tensor<16x16x!tt.ptr<bf16>>, tensor<16x16x!tt.ptr<bf16>>
    }
    %38 = arith.remsi %arg5, %c16_i32 : i32
    %39 = tt.splat %38 : i32 -> tensor<1x16xi32>
    %40 = arith.cmpi slt, %14, %39 : tensor<1x16xi32>
    %41 = tt.broadcast %40 : tensor<1x16xi1> -> tensor<16x16xi1>
    %42 = tt.load %31, %41, %cst : tensor<16x16x!tt.ptr<bf16>>
    %43 = tt.splat %38 : i32 -> tensor<16x1xi32>
    %44 = arith.cmpi slt, %18, %43 : tensor<16x1xi32>
    %45 = tt.broadcast %44 : tensor<16x1xi1> -> tensor<16x16xi1>
    %46 = tt.load %32, %45, %cst : tensor<16x16x!tt.ptr<bf16>>
    %47 = tt.dot %42, %46, %30, inputPrecision = tf32 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
    %48 = tt.splat %arg8 : i32 -> tensor<16x1xi32>
    %49 = arith.muli %9, %48 : tensor<16x1xi32>
    %50 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %51 = tt.addptr %50, %49 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %52 = tt.broadcast %51 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x16x!tt.ptr<f32>>
    %53 = tt.addptr %52, %25 : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %54 = tt.splat %arg3 : i32 -> tensor<16x1xi32>
    %55 = arith.cmpi slt, %9, %54 : tensor<16x1xi32>
    %56 = tt.splat %arg4 : i32 -> tensor<1x16xi32>
    %57 = arith.cmpi slt, %23, %56 : tensor<1x16xi32>
    %58 = tt.broadcast %55 : tensor<16x1xi1> -> tensor<16x16xi1>
    %59 = tt.broadcast %57 : tensor<1x16xi1> -> tensor<16x16xi1>
    %60 = arith.andi %58, %59 : tensor<16x16xi1>
    tt.store %53, %47, %60 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
