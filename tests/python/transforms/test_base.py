"""What our passes say of a run (`XpuPass.said`: the module unchanged, or a fixpoint of the pass) and
how a round trip uses it (roundtrip._apply): a repeated RemoveLayoutConversions is skipped with no
content compared, and the check mode (RoundTripOptions.check_reports) catches a report that is wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation

from xpu_passes.integration import oracle
from xpu_passes.integration import roundtrip
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.transforms.remove_layout_conversions.remat_cache import RematCache
from xpu_passes.transforms.base import (FIXPOINT, OVER_BUDGET, UNCHANGED, WorkBudget, XpuPass, collecting_remarks,
                                        run_reporting, within_budget)
from xpu_passes.transforms.legalize_block_io_encoding import LegalizeBlockIOEncoding
from xpu_passes.transforms.materialize_block_pointer import MaterializeBlockPointer
from xpu_passes.transforms.optimize_block_io_encoding import OptimizeBlockIOEncoding
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

from support import rlc_dump, step_dump
from samples import TTGIR, Counted, op_named as _op

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
RLC = RemoveLayoutConversions.name
CHECKED = roundtrip.RoundTripOptions(check_reports=True)  # every report verified


def _module(text: str) -> tuple[Context, ModuleOp]:
    ctx = make_context()
    return ctx, parse_module(ctx, text, "<test>").module


def _run(p: XpuPass, ctx: Context, m: ModuleOp) -> str | None:
    return run_reporting(p, ctx, m)


def test_rlc_says_fixpoint_then_unchanged() -> None:
    """A conversion recomputed backward: the last round changed nothing, read no copy, no block
    pointer: a second run is idle, and says so."""
    ctx, m = _module(TTGIR)
    assert _run(RemoveLayoutConversions(), ctx, m) == FIXPOINT
    after = roundtrip.content(m)
    assert _run(RemoveLayoutConversions(), ctx, m) == UNCHANGED
    assert roundtrip.content(m) == after


@needs_triton
@pytest.mark.triton
def test_rlc_says_nothing_when_its_last_round_read_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new run knows no copy: a round that read one is not the new run's first round. On
    gemm_tensor_ptr (a fixpoint) the last round looks copies up and finds none; counted as found,
    the run says nothing."""
    text = rlc_dump("gemm_tensor_ptr", "64x128x32-w4-s3", 0).read_text()
    ctx, m = _module(text)
    assert _run(RemoveLayoutConversions(), ctx, m) == FIXPOINT
    real = RematCache.lookup

    def lookup(self: RematCache, *args: object) -> object:
        self.hits += 1  # counted as read, decisions unchanged
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(RematCache, "lookup", lookup)
    ctx, m = _module(text)
    assert _run(RemoveLayoutConversions(), ctx, m) is None


@needs_triton
@pytest.mark.triton
@pytest.mark.parametrize(("kernel", "config", "specs", "why"), [
    ("gemm_block_ptr", "8x128x64-w4-s3", "core", "block pointers: anchoring and a second solution"),
])
def test_rlc_says_nothing_when_a_new_run_starts_elsewhere(kernel: str, config: str, specs: str, why: str) -> None:
    ctx, m = _module(step_dump(kernel, config, "ttgir.tritonintelgpu-remove-layout-conversions", 0, specs).read_text())
    assert _run(RemoveLayoutConversions(), ctx, m) is None, why


@needs_triton
@pytest.mark.triton
def test_block_io_passes_say_unchanged_on_their_own_result() -> None:
    """MaterializeBlockPointer tags, OptimizeBlockIOEncoding retypes, LegalizeBlockIOEncoding folds
    or re-expresses: each changes the GEMM once (says nothing) and then says it left it unchanged."""
    ctx, m = _module(step_dump("gemm_block_ptr", "8x128x64-w4-s3", f"ttgir.{MaterializeBlockPointer.name}").read_text())
    for p in (MaterializeBlockPointer(), OptimizeBlockIOEncoding(), LegalizeBlockIOEncoding()):
        before = roundtrip.content(m)
        assert _run(p, ctx, m) is None and roundtrip.content(m) != before, p.name
        before = roundtrip.content(m)
        assert _run(p, ctx, m) == UNCHANGED and roundtrip.content(m) == before, p.name


@dataclass(frozen=True)
class Says(XpuPass):
    """Changes the module (or not) and says `what` of it."""

    name = "test-says"
    what: str | None = None
    change: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.change:
            _op(op, "arith.constant").properties["value"] = IntegerAttr(7, i32)
        if self.what is not None:
            self.said(self.what)


def _apply(passes: list[object], monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, float], int]:
    """The passes in one round trip (Counted's repeats skipped): (roundtrip.timing's, contents computed)."""
    computed = [0]
    real = roundtrip.content

    def content(module: object) -> object:
        computed[0] += 1
        return real(module)  # type: ignore[arg-type]

    monkeypatch.setattr(roundtrip, "content", content)
    ctx = make_context()
    parsed = parse_module(ctx, TTGIR, "<test>")
    with roundtrip.timing() as times:
        roundtrip._apply([(p.name, p) for p in passes], ctx, parsed,  # type: ignore[attr-defined]
                         roundtrip.RoundTripOptions(repeats=frozenset({Counted.name})))
    return times, computed[0]


def test_our_unchanged_pass_between_runs_costs_no_content(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    r = Counted(calls)
    times, computed = _apply([r, r, Says(UNCHANGED), r], monkeypatch)
    assert len(calls) == 2 and times["repeats_skipped"] == 1
    assert computed == 2  # around the second run only (Counted says nothing)
    calls.clear()
    times, computed = _apply([r, r, Says(None, change=True), r], monkeypatch)  # says nothing: may have changed
    assert len(calls) == 3 and "repeats_skipped" not in times


def test_a_fixpoint_skips_the_next_run(monkeypatch: pytest.MonkeyPatch) -> None:
    p = Says(FIXPOINT, change=True)
    ctx = make_context()
    parsed = parse_module(ctx, TTGIR, "<test>")
    with roundtrip.timing() as times:
        roundtrip._apply([(p.name, p), (p.name, p), (p.name, Says(FIXPOINT, change=False))], ctx, parsed,
                         roundtrip.RoundTripOptions(repeats=frozenset({Says.name})))
    assert times["repeats_skipped"] == 1 and times[f"runs:{Says.name}"] == 2  # other options: run


@pytest.mark.parametrize(("what", "change", "lie"), [(UNCHANGED, True, "changed it"), (FIXPOINT, True, "a second run")])
def test_check_mode_catches_a_wrong_report(what: str, change: bool, lie: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass that changes the constant on every run and says UNCHANGED or FIXPOINT of it."""

    @dataclass(frozen=True)
    class Bumps(Says):
        def apply(self, ctx: Context, op: ModuleOp) -> None:
            c = _op(op, "arith.constant")
            c.properties["value"] = IntegerAttr(c.value.value.data + 1, i32)
            self.said(self.what)  # type: ignore[arg-type]

    ctx = make_context()
    parsed = parse_module(ctx, TTGIR, "<test>")
    with pytest.raises(AssertionError, match=lie):
        roundtrip._apply([("test-says", Bumps(what, change))], ctx, parsed, CHECKED)


def test_check_mode_accepts_true_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = make_context()
    parsed = parse_module(ctx, TTGIR, "<test>")
    roundtrip._apply([(RLC, RemoveLayoutConversions()), (RLC, RemoveLayoutConversions()),
                      ("test-says", Says(UNCHANGED))], ctx, parsed, CHECKED)


@needs_triton
@pytest.mark.triton
def test_the_xpu_pipeline_skips_the_run_after_a_fixpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """softmax (no tt.dot): our three RLC runs share one round trip; the first says its result is a
    fixpoint, MaterializeBlockPointer and OptimizeBlockIOEncoding say they changed nothing: both
    later runs leave our side alone (the second still compares native's, never_worse), and the TTGIR
    is the one running them gives."""
    from support import compile_timed

    from xpu_passes.integration import pipeline

    plan = pipeline.plan
    # (native_first off: softmax's native stage leaves ours nothing to win, and ours would not run at all)
    monkeypatch.setattr(pipeline, "plan", lambda text: plan(text, native_first=False))
    kernel = ("softmax", "1024-w4-s1")
    every, times_every = compile_timed("xpu", kernel, monkeypatch, skip_repeats=False)
    ours, times = compile_timed("xpu", kernel, monkeypatch, skip_repeats=True)
    assert ours == every
    # no tt.dot: the first two positions are not compared (never_worse_positions=dot), so the second
    # and the third runs are both skipped
    assert times["repeats_skipped"] == 2 and times.get("repeats_compared", 0) == 0
    assert times[f"runs:{RLC}"] == times_every[f"runs:{RLC}"] - 2 == 1


def test_rlc_says_unchanged_on_a_module_it_does_not_solve() -> None:
    """No conversion and no block pointer: nothing to solve; the module is as it was given."""
    text = "\n".join(line for line in TTGIR.splitlines() if "ttg.convert_layout" not in line)
    ctx, m = _module(text)
    before = roundtrip.content(m)
    assert _run(RemoveLayoutConversions(), ctx, m) == UNCHANGED
    assert roundtrip.content(m) == before


@dataclass(frozen=True)
class Judges(XpuPass):
    """Judges every op twice (two work units per op) within a budget of `per_op` units per op."""

    name = "test-judges"
    per_op: int = 2

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        def judge(ops: list[Operation], budget: WorkBudget) -> list[Operation]:
            budget.spend(2 * len(ops))
            return ops

        chosen = within_budget(self, op, list(op.walk()), self.per_op, judge)
        self.remark(op, f"chose {len(chosen)}" if chosen is not None else "chose nothing")


@pytest.mark.parametrize(("per_op", "said", "remark"), [
    (2, None, r"chose (\d+)"),  # the budget is exactly what the judge spends
    (0, None, r"chose (\d+)"),  # 0: unbounded
    (1, OVER_BUDGET, r"input kept: work budget spent \((\d+) > \d+ units\), max-work-per-op=1"),
])  # fmt: skip
def test_within_budget_gives_the_choice_or_keeps_the_input(per_op: int, said: str | None, remark: str) -> None:
    text = "module {\n  tt.func @f() {\n    %c = arith.constant 1 : i32\n    tt.return\n  }\n}\n"
    ctx, m = _module(text)
    n = sum(1 for _ in m.walk())
    with collecting_remarks() as sink:
        assert _run(Judges(per_op=per_op), ctx, m) == said
    got = [r.message for r in sink.drain()]
    assert len(got) == (2 if said else 1), got
    match = re.fullmatch(remark, got[0])
    assert match and int(match.group(1)) == (2 * n if said else n), got
    if said:
        assert got[1] == "chose nothing"
