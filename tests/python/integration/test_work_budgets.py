"""Work budgets of our passes (`max-work-per-op`) and the text pre-check of the epilogue slicing.

Past its budget a pass keeps its input and says OVER_BUDGET; in a compile's round trip the
position then runs triton-xpu's pass of the same flag, where there is one (docs/passes.md,
"Work budgets"). The lit files of the passes check each one's output over budget (BUDGET).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.integration import oracle
from xpu_passes.integration.pipeline import NEEDS_MATCH, NMD, RVL, SFD, SLICE, named_stages, pipeline_text, plan
from xpu_passes.registry import MBP
from xpu_passes.transforms.base import OVER_BUDGET, XpuPass, collecting_remarks, run_reporting
from xpu_passes.transforms.legalize_block_io_encoding import LegalizeBlockIOEncoding
from xpu_passes.transforms.materialize_block_pointer import MaterializeBlockPointer
from xpu_passes.transforms.optimize_block_io_encoding import OptimizeBlockIOEncoding
from xpu_passes.transforms.optimize_reduction_locality import OptimizeReductionLocality
from xpu_passes.transforms.early_slm_conversions import EarlySlmConversions
from xpu_passes.transforms.narrow_masked_dims import NarrowMaskedDims
from xpu_passes.transforms.split_fma_dots import SplitFmaDots
from xpu_passes.transforms.order_store_values import OrderStoreValues
from xpu_passes.transforms.reduce_variable_liveness import ReduceVariableLiveness
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions
from xpu_passes.transforms.rewrite_tensor_pointer import RewriteTensorPointer
from xpu_passes.transforms.slice_epilogue import SliceEpilogue
from xpu_passes.transforms.slice_reduction import SliceReduction

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "gemm_add_tensor_ptr.ttgir"
BUDGETED = (MaterializeBlockPointer, RewriteTensorPointer, OptimizeBlockIOEncoding, LegalizeBlockIOEncoding,
            OptimizeReductionLocality, SliceEpilogue, SliceReduction, RemoveLayoutConversions,
            ReduceVariableLiveness, OrderStoreValues, EarlySlmConversions, NarrowMaskedDims,
            SplitFmaDots)


def _print(m: Any) -> str:
    return print_module(m, Spelling.choose("triton-3.3"))


def test_every_pass_of_the_pipeline_has_a_budget_option() -> None:
    ours = {s.name for s in named_stages("xpu", rewrite_tensor_pointer=True, reduction_locality=True) if s.python}
    assert ours - {"triton-raise-block-pointer"} <= {c.name for c in BUDGETED}
    for cls in BUDGETED:
        field = {f.name: f for f in dataclasses.fields(cls)}["max_work_per_op"]
        assert field.default > 0, cls.name  # bounded by default


@pytest.mark.parametrize("p", [MaterializeBlockPointer(), RewriteTensorPointer(guard=False)], ids=lambda p: p.name)
def test_over_budget_the_input_is_kept_and_said(p: XpuPass) -> None:
    """On the example (where each pass changes the module by default), one unit per op is too little."""
    text = EXAMPLE.read_text()
    ctx, m = make_context(), parse_module(make_context(), text, "<ex>").module
    before = _print(m)
    p.apply(ctx, m)
    assert _print(m) != before  # (the default budget rewrites it)
    m = parse_module(make_context(), text, "<ex>").module
    with collecting_remarks() as sink:
        said = run_reporting(dataclasses.replace(p, max_work_per_op=1), ctx, m)  # type: ignore[type-var]
    assert said == OVER_BUDGET and _print(m) == before
    got = [r.message for r in sink.drain()]
    assert any(re.fullmatch(r"input kept: work budget spent \(\d+ > \d+ units\), max-work-per-op=1", g) for g in got), got


def test_the_slicing_needs_a_bounded_store_and_an_erf_or_a_gather() -> None:
    """NEEDS_MATCH: without a branchy op or a tensor-of-pointer load the round trip is skipped."""
    has_work = NEEDS_MATCH[SLICE]
    text = EXAMPLE.read_text()  # a boundary-checked store of an epilogue that gathers D
    assert has_work(text)
    gather = next(ln for ln in text.splitlines() if re.search(r"tt\.load .*: tensor<", ln))
    no_gather = text.replace(gather, "")
    assert not has_work(no_gather)  # (block-pointer loads, A and B, are not gathers)
    assert has_work(no_gather.replace("arith.addf", "math.erf"))
    store = next(ln for ln in text.splitlines() if "tt.store" in ln)
    assert not has_work(text.replace(store, ""))  # (the loads' boundaryCheck is not the store's)


def test_the_narrowing_needs_a_compare_below_a_constant_smaller_than_a_range() -> None:
    """NEEDS_MATCH[NMD]: `x < K` with K a splat constant under a range's length (a mask against a
    runtime extent compares with a tt.splat, which has nothing to narrow)."""
    has_work = NEEDS_MATCH[NMD]
    text = ("%cst = arith.constant dense<1> : tensor<16xi64, #blocked>\n"
            "%0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>\n"
            "%1 = arith.cmpi slt, %x, %cst : tensor<16xi64, #blocked>\n")
    assert has_work(text)
    assert not has_work(text.replace("dense<1>", "dense<16>"))  # (no index past 16 to drop)
    assert not has_work(text.replace("%x, %cst", "%x, %n"))  # (a runtime bound)
    assert has_work(text.replace("slt, %x, %cst", "sgt, %cst, %x"))  # (mirrored)


def test_the_fma_split_needs_a_dot_with_a_blocked_result() -> None:
    has_work = NEEDS_MATCH[SFD]
    fma = "%d = tt.dot %a, %b, %c : tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * T -> tensor<64x32xf32, #blocked>"
    assert has_work(fma) and has_work(fma.replace("#blocked>", "#blocked2>"))
    assert not has_work(fma.replace("-> tensor<64x32xf32, #blocked>", "-> tensor<64x32xf32, #mma>"))  # (DPAS)


@needs_triton
def test_reduce_variable_liveness_with_step_5_has_work_in_straight_line_code() -> None:
    """Its step 5 (`sink_straight_loads`, a pipeline option) moves loads outside loops: a module with a tt.dot
    and no scf.for is not idle for it, while without the step it is (its other steps work in loops)."""
    from xpu_passes.integration.prefilters import idle

    straight = "%d = tt.dot %a, %b, %c : T\n%e = tt.load %p : T\ntt.store %q, %d : T\n"
    for on in (True, False):
        stages = [s for s in plan("xpu", sink_straight_loads=on).stages if s.name == RVL]
        assert len(stages) == 1 and stages[0].instance.sink_straight_loads is on  # type: ignore[union-attr]
        assert idle(stages, straight) is not on
        assert idle(stages, straight.replace("tt.dot", "tt.load"))  # (no dot: nothing either way)


def test_a_compile_skips_the_slicing_round_trip_when_nothing_gathers(monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py

    for kernel, more in ((("gemm_block_ptr", None), 0), (("gemm_add_tensor_ptr", "64x128x32-w4-s3"), 1)):
        # (without raising: raised, D is a block pointer and nothing gathers)
        out, times = compile_timed(pipeline_text("xpu", raise_block_pointer=False), kernel, monkeypatch)
        out_off, times_off = compile_timed(pipeline_text("xpu", slice_epilogue=False, raise_block_pointer=False),
                                           kernel, monkeypatch)
        assert times["round_trips"] == times_off["round_trips"] + more, kernel
        if not more:
            assert out == out_off


@needs_triton
def test_over_budget_a_compile_runs_natives_pass_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    """MaterializeBlockPointer with one unit per op: triton-xpu's MaterializeBlockPointer tags the
    block-pointer loads (not the epilogue's tensor-of-pointer load ours may tag)."""
    from support import compile_timed  # tests/python/support.py

    kernel = ("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    text = pipeline_text("xpu").replace(f"{MBP},", f"{MBP}{{max-work-per-op=1}},")
    assert text != pipeline_text("xpu")
    with collecting_remarks() as sink:
        out, times = compile_timed(text, kernel, monkeypatch)
    assert times["native_instead"] >= 1
    got = [r.message for r in sink.drain() if r.pass_name == MBP]
    assert "triton-xpu's pass run instead (ours ran out of its work budget)" in got
    assert any(g.startswith("input kept: work budget spent") for g in got)
    assert re.search(r"tt\.load [^\n]*block_io = \"row_major\"[^\n]*: !tt\.ptr<tensor<", out)
