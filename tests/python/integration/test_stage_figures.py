"""The final TTGIR's figures (integration/stage_figures.py) and the whole-stage comparison with
triton-xpu's own stage (stage_guard.compare_stage)."""

from __future__ import annotations

import dataclasses

from typing import Any

import pytest

from xpu_passes.integration import oracle, pipeline
from xpu_passes.integration.stage_figures import StageFigures, block_io_elements
from xpu_passes.transforms.base import collecting_remarks

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")

# What triton prints after the stage (aliases, locations, indentation), cut to the accesses.
TTGIR = """#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#loc = loc("k.py":1:0)
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 1], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func public @k(%arg0: i32) {
    %1 = tt.load %0 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>> loc(#loc1)
    %2 = tt.load %0 {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<64x32xbf16, #blocked>> loc(#loc2)
    %3 = tt.load %0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xbf16, #mma>> loc(#loc3)
    %4 = scf.for %arg1 = %c0 to %c2 step %c1 iter_args(%arg2 = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %5 = tt.load %0 {triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>> loc(#loc4)
      scf.yield %arg2 : tensor<64x64xf32, #mma> loc(#loc5)
    } loc(#loc6)
    tt.store %6, %4 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #mma>> loc(#loc7)
    tt.store %7, %8 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf32, #blocked>> loc(#loc8)
    tt.store %9, %10 : tensor<64x64x!tt.ptr<f32>, #mma> loc(#loc9)
    tt.return loc(#loc10)
  } loc(#loc)
} loc(#loc)
"""


def test_block_io_counts_what_lowers_to_2d_block_messages() -> None:
    # the tagged dot-operand load (64x32), the one in the loop (16x32, x8), the block-pointer store
    # in the DPAS layout (64x64); not the tagged load in a blocked layout (gathers), the untagged
    # load, the block-pointer store in a blocked layout, nor a store of a tensor of pointers
    assert block_io_elements(TTGIR) == 64 * 32 + 8 * 16 * 32 + 64 * 64


def test_block_io_reads_the_ttig_spelling_and_inline_layouts() -> None:
    text = TTGIR.replace("triton_intel_gpu.dpas", "ttig.dpas").replace("triton_intel_gpu.block_io", "ttig.block_io")
    assert block_io_elements(text) == 64 * 32 + 8 * 16 * 32 + 64 * 64
    inline = TTGIR.split("\n#mma = ")[1].split("\n")[0]
    assert block_io_elements(TTGIR.replace("parent = #mma", f"parent = {inline}")) == 64 * 32 + 8 * 16 * 32 + 64 * 64


def test_losses_are_componentwise_and_a_tie_is_none() -> None:
    native = StageFigures(shared=4096, converts=3, block_io=20480)
    assert native.losses(native) == []
    assert StageFigures(4096, 2, 20480).losses(native) == []
    assert StageFigures(4096, 4, 40960).losses(native) == ["conversions 4 > 3"]
    # more conversions with a strictly smaller largest scratch are no loss; with as large a one, or a
    # scratch not computed (-1), they are; less SLM allocated does not pay for them
    assert StageFigures(4096, 4, 40960, scratch=256).losses(dataclasses.replace(native, scratch=2176)) == []
    assert StageFigures(4096, 4, 40960, scratch=2176).losses(dataclasses.replace(native, scratch=2176)) == [
        "conversions 4 > 3"]
    assert StageFigures(4096, 4, 40960, scratch=256).losses(native) == ["conversions 4 > 3"]
    assert StageFigures(0, 4, 40960).losses(native) == ["conversions 4 > 3"]
    assert StageFigures(8320, 3, 0).losses(native) == ["SLM 8320 > 4096", "2D block read elements 0 < 20480"]
    # reads and writes apart: more reads do not pay for writes lost (an epilogue stored from a blocked layout)
    stores = StageFigures(4096, 3, 20480, block_writes=4096)
    assert StageFigures(4096, 3, 24576).losses(stores) == ["2D block write elements 0 < 4096"]
    assert StageFigures(4096, 3, 8192, block_writes=8192).losses(stores) == ["2D block read elements 0 < 16384"]


def test_only_named_pipelines_with_never_worse_compare_their_stage() -> None:
    assert pipeline.plan("xpu").native_twin == pipeline.named_stages("native")
    assert pipeline.plan("xpu", never_worse=False).native_twin is None
    assert pipeline.plan("native").native_twin is None
    assert pipeline.plan(pipeline.pipeline_text("xpu")).native_twin is None  # a text is run as written


@needs_triton
def test_a_stage_worse_than_natives_gives_way_and_a_tie_keeps_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py
    from xpu_passes.transforms.materialize_block_pointer import MaterializeBlockPointer
    from xpu_passes.transforms.slice_epilogue import SliceEpilogue

    kernel = ("gemm_add_tensor_ptr", "64x128x32-w4-s3")  # block pointers: 2D block reads and writes
    native, _ = compile_timed("native", kernel, monkeypatch)
    with collecting_remarks() as sink:
        ours, times = compile_timed("xpu", kernel, monkeypatch)
    said = [r.message for r in sink.drain() if "stage kept" in r.message]
    assert len(said) == 1 and said[0].startswith("our stage kept: "), said
    assert times["native_stage_kept"] == 0

    def untagged(self: Any, ctx: Any, op: Any) -> None:  # ours made worse on purpose: no 2D block I/O
        return None

    monkeypatch.setattr(MaterializeBlockPointer, "apply", untagged)
    # the epilogue slicing runs after the comparison on whichever stage is kept: off, native's is native's
    monkeypatch.setattr(SliceEpilogue, "apply", untagged)
    with collecting_remarks() as sink:
        out, times = compile_timed("xpu", kernel, monkeypatch)
    said = [r.message for r in sink.drain() if "stage kept" in r.message]
    assert len(said) == 1 and said[0].startswith("triton-xpu's stage kept: ours would leave 2D block read elements "), said
    assert times["native_stage_kept"] == 1 and out == native


def test_a_print_without_an_op_that_may_allocate_allocates_nothing() -> None:
    from xpu_passes.integration.stage_figures import allocates_nothing

    plain = TTGIR.replace('#loc = loc("k.py":1:0)', '#loc = loc("reduce_call_atomic.py":1:0)')
    assert allocates_nothing(plain)  # (words in locations do not count)
    for op in ('%11 = "tt.reduce"(%4) <{axis = 1 : i32}> ({', "%11 = ttg.convert_layout %4 : tensor<64x64xf32, #mma>",
               "%11 = tt.atomic_rmw fadd, acq_rel, gpu, %9, %4 : tensor<64x64x!tt.ptr<f32>, #mma>",
               "%11 = ttg.local_alloc %4 : (tensor<64x64xf32, #mma>)", "%11 = tt.call @helper(%4)"):
        assert not allocates_nothing(plain.replace("    tt.return", f"    {op} loc(#loc11)\n    tt.return")), op


@needs_triton
def test_the_allocation_skipped_gives_no_slm(monkeypatch: pytest.MonkeyPatch) -> None:
    """allocated_shared skips triton-xpu's allocation only where it would give 0 bytes."""
    from support import compile_timed  # tests/python/support.py
    from xpu_passes.integration import stage_figures

    swiglu, _ = compile_timed("native", ("swiglu_fwd", None), monkeypatch)  # elementwise
    softmax, _ = compile_timed("native", ("softmax", "1024-w4-s1"), monkeypatch)  # row reductions
    assert stage_figures.allocates_nothing(swiglu) and not stage_figures.allocates_nothing(softmax)
    context = oracle.context()
    monkeypatch.setattr(stage_figures, "allocates_nothing", lambda text: False)  # the allocation itself, on both
    assert stage_figures.allocated_shared(swiglu, context) == 0
    assert stage_figures.allocated_shared(softmax, context) > 0
