// RUN: xpu-opt %s --split-input-file --tritonintelgpu-materialize-block-pointer --remarks 2>%t.remarks | FileCheck %s --implicit-check-not=block_io
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %if triton %{ xpu-opt %s --split-input-file --tritonintelgpu-materialize-block-pointer | %python -m xpu_passes.integration.oracle verify --split-input-file | FileCheck %s --check-prefix=ORACLE %}
// Beyond triton-xpu 3.3: tensor-of-pointer loads and stores whose addresses the
// axis analysis proves to be a strided 2D tile get the tag (3.3 reads it back).

// ORACLE: tt.load %{{.*}} {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<f16>>
// ORACLE-COUNT-1: // -----

// A GEMM's A tile: a + m[:, None] * lda + k[None, :], lda 16-divisible: row major.
// Its transpose (k along rows): column major. A store masked per row: row major.
// CHECK-LABEL: tt.func public @tiles
// CHECK: tt.load %[[A:.*]] {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<f16>>
// CHECK: tt.load %{{.*}} {triton_intel_gpu.block_io = "column_major"} : tensor<32x64x!tt.ptr<f16>>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} {triton_intel_gpu.block_io = "row_major"} : tensor<64x32x!tt.ptr<f16>>
module attributes {"ttg.num-warps" = 4 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @tiles(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %lda: i32 {tt.divisibility = 16 : i32}, %M: i32) {
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %em = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %sl = tt.splat %lda : i32 -> tensor<64x1xi32>
    %om = arith.muli %em, %sl : tensor<64x1xi32>
    %ek = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %bm = tt.broadcast %om : tensor<64x1xi32> -> tensor<64x32xi32>
    %bk = tt.broadcast %ek : tensor<1x32xi32> -> tensor<64x32xi32>
    %off = arith.addi %bm, %bk : tensor<64x32xi32>
    %base = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %ptrs = tt.addptr %base, %off : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %x = tt.load %ptrs : tensor<64x32x!tt.ptr<f16>>
    %tk = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %tm = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %stl = tt.splat %lda : i32 -> tensor<1x64xi32>
    %tmo = arith.muli %tm, %stl : tensor<1x64xi32>
    %tkb = tt.broadcast %tk : tensor<32x1xi32> -> tensor<32x64xi32>
    %tmb = tt.broadcast %tmo : tensor<1x64xi32> -> tensor<32x64xi32>
    %toff = arith.addi %tkb, %tmb : tensor<32x64xi32>
    %tbase = tt.splat %a : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %tptrs = tt.addptr %tbase, %toff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %y = tt.load %tptrs : tensor<32x64x!tt.ptr<f16>>
    %sM = tt.splat %M : i32 -> tensor<64x1xi32>
    %rows_in = arith.cmpi slt, %em, %sM : tensor<64x1xi32>
    %mask = tt.broadcast %rows_in : tensor<64x1xi1> -> tensor<64x32xi1>
    tt.store %ptrs, %x, %mask : tensor<64x32x!tt.ptr<f16>>
    tt.return
  }
}

// -----

// Left alone, with the reason: wrap-around rows (% M), a mask along K,
// a pitch of unknown divisibility, and a 1D access.
// CHECK-LABEL: tt.func public @not_tiles
// REMARK: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: the pitch (stride across rows) is not uniform or not known
// REMARK: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: the mask varies along the contiguous dim (not a row/column bound)
// REMARK: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: pitch not provably a multiple of 16 bytes (8 elements)
// REMARK: remark: [tritonintelgpu-materialize-block-pointer] not a 2D block read: 1D access: 2D block I/O needs rank >= 2
module attributes {"ttg.num-warps" = 4 : i32, triton_intel_gpu.support_sg_2d_block} {
  tt.func public @not_tiles(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %lda: i32 {tt.divisibility = 16 : i32}, %M: i32, %K: i32, %odd: i32) {
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %sM = tt.splat %M : i32 -> tensor<64xi32>
    %wm = arith.remsi %rm, %sM : tensor<64xi32>
    %em = tt.expand_dims %wm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %sl = tt.splat %lda : i32 -> tensor<64x1xi32>
    %om = arith.muli %em, %sl : tensor<64x1xi32>
    %ek = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %bm = tt.broadcast %om : tensor<64x1xi32> -> tensor<64x32xi32>
    %bk = tt.broadcast %ek : tensor<1x32xi32> -> tensor<64x32xi32>
    %off = arith.addi %bm, %bk : tensor<64x32xi32>
    %base = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %ptrs = tt.addptr %base, %off : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %x = tt.load %ptrs : tensor<64x32x!tt.ptr<f16>>
    %em2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %om2 = arith.muli %em2, %sl : tensor<64x1xi32>
    %bm2 = tt.broadcast %om2 : tensor<64x1xi32> -> tensor<64x32xi32>
    %off2 = arith.addi %bm2, %bk : tensor<64x32xi32>
    %ptrs2 = tt.addptr %base, %off2 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %sK = tt.splat %K : i32 -> tensor<1x32xi32>
    %kin = arith.cmpi slt, %ek, %sK : tensor<1x32xi32>
    %kmask = tt.broadcast %kin : tensor<1x32xi1> -> tensor<64x32xi1>
    %y = tt.load %ptrs2, %kmask : tensor<64x32x!tt.ptr<f16>>
    %so = tt.splat %odd : i32 -> tensor<64x1xi32>
    %oo = arith.muli %em2, %so : tensor<64x1xi32>
    %bo = tt.broadcast %oo : tensor<64x1xi32> -> tensor<64x32xi32>
    %off3 = arith.addi %bo, %bk : tensor<64x32xi32>
    %ptrs3 = tt.addptr %base, %off3 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %z = tt.load %ptrs3 : tensor<64x32x!tt.ptr<f16>>
    %b1 = tt.splat %a : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>>
    %p1 = tt.addptr %b1, %rk : tensor<32x!tt.ptr<f16>>, tensor<32xi32>
    %w = tt.load %p1 : tensor<32x!tt.ptr<f16>>
    tt.return
  }
}
