"""A repeated run of a pass in one round trip (RoundTripOptions.repeats) is skipped only when the module
is, in content, what the previous run was given and left unchanged; any change between the runs
(a conversion added, an op of a conversion's slice changed, a type, an operand, a name) runs it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xpu_passes.integration import oracle
from xpu_passes.integration import pipeline
from xpu_passes.integration import roundtrip
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.frontend.parser import ParsedModule
from xpu_passes.ir import clone
from xpu_passes.integration.pipeline import RLC, plan

from samples import TTGIR, Counted, add_conversion as _add_conversion, change_slice as _change_slice, op_named as _op
from support import compile_timed  # noqa: E402  (tests/python/support.py)

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")



def _parse() -> tuple[Context, ParsedModule]:
    ctx = make_context()
    return ctx, parse_module(ctx, TTGIR, "<test>")


def _swap_operands(module: ModuleOp) -> None:
    add = _op(module, "arith.addi")
    add.operands = [add.operands[1], add.operands[0]]


def _rename(module: ModuleOp) -> None:
    _op(module, "arith.addi").results[0].name_hint = "sum"


def _retype(module: ModuleOp) -> None:
    from xdsl.rewriter import Rewriter

    cvt = _op(module, "ttg.convert_layout")
    Rewriter.replace_value_with_new_type(cvt.results[0], cvt.operands[0].type)


CHANGES: dict[str, Callable[[ModuleOp], None]] = {"conversion added": _add_conversion, "slice changed": _change_slice,
                                                  "operands swapped": _swap_operands, "name hint": _rename,
                                                  "result type": _retype}


def test_a_clone_has_the_same_content() -> None:
    _, parsed = _parse()
    assert roundtrip.content(clone.clone(parsed.module)) == roundtrip.content(parsed.module)
    assert roundtrip.content(_parse()[1].module) == roundtrip.content(parsed.module)  # another parse


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_changes_the_content(change: str) -> None:
    _, parsed = _parse()
    before = roundtrip.content(parsed.module)
    CHANGES[change](parsed.module)
    assert roundtrip.content(parsed.module) != before


@dataclass(frozen=True)
class Between(ModulePass):
    name = "test-between"
    change: Callable[[ModuleOp], None] | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.change is not None:
            self.change(op)


def _runs(passes: list[ModulePass], monkeypatch: pytest.MonkeyPatch, skip: bool = True) -> dict[str, float]:
    ctx, parsed = _parse()
    options = roundtrip.RoundTripOptions(skip_repeats=skip, repeats=frozenset({Counted.name}))
    with roundtrip.timing() as times:
        roundtrip._apply([(p.name, p) for p in passes], ctx, parsed, options)
    return times


def test_an_idle_run_on_the_same_module_is_not_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    r = Counted(calls)
    times = _runs([r, r, Between(), r, r], monkeypatch)
    # the first run is not watched; the second is idle; the others see what it saw and left
    assert len(calls) == 2 and times["repeats_skipped"] == 2


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_between_the_runs_runs_it_again(change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    r = Counted(calls)
    times = _runs([r, r, Between(CHANGES[change]), r], monkeypatch)
    assert len(calls) == 3 and "repeats_skipped" not in times


def test_a_run_that_changed_the_module_is_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # the second run adds a conversion: the third runs (and is idle: the fourth is skipped); the
    # third changes a slice too: the fourth runs
    for changing, runs in (((2,), 3), ((2, 3), 4)):
        calls: list[int] = []
        r = Counted(calls, changing)
        _runs([r, r, r, r], monkeypatch)
        assert len(calls) == runs, changing


def test_other_options_or_remarks_run_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from xpu_passes.transforms.base import collecting_remarks

    calls: list[int] = []
    _runs([Counted(calls), Counted(calls), Counted(calls, option=1)], monkeypatch)
    assert len(calls) == 3
    calls.clear()
    with collecting_remarks():
        _runs([Counted(calls)] * 3, monkeypatch)
    assert len(calls) == 3


def test_off_runs_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    _runs([Counted(calls)] * 3, monkeypatch, skip=False)
    assert len(calls) == 3


def _compile(pipe: str, skip: bool, kernel: tuple[str, str], monkeypatch: pytest.MonkeyPatch
             ) -> tuple[str, dict[str, float]]:
    return compile_timed(pipe, kernel, monkeypatch, skip_repeats=skip)


@needs_triton
def test_the_xpu_pipeline_skips_the_idle_third_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """rms_norm_block_fwd (no tt.dot): our three RLC runs share one round trip; the second leaves the
    module as it is and MaterializeBlockPointer/OptimizeBlockIOEncoding change nothing, so the third is
    skipped, and the TTGIR is the one running it gives."""
    kernel = ("rms_norm_block_fwd", "16x512-w8-s1")
    ours, times = _compile("xpu", True, kernel, monkeypatch)
    every, times_every = _compile("xpu", False, kernel, monkeypatch)
    assert ours == every
    assert times["repeats_skipped"] == 1 and times[f"runs:{RLC}"] == times_every[f"runs:{RLC}"] - 1


@needs_triton
def test_a_native_pass_between_runs_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A native pass between our runs ends the round trip: what the runs before it left is not kept
    (cse merges ops of the conversion's slice here), so the run after it is never skipped."""
    text = ("builtin.module(triton-annotate-module{target-arch=spir64}, convert-triton-to-tritongpu{target=xpu}, "
            f"tritonintelgpu-coalesce, {RLC}, {RLC}, cse, {RLC})")
    ours, times = _compile(text, True, ("rms_norm_block_fwd", "16x512-w8-s1"), monkeypatch)
    assert times[f"runs:{RLC}"] == 3 and "repeats_skipped" not in times
    assert ours == _compile(text, False, ("rms_norm_block_fwd", "16x512-w8-s1"), monkeypatch)[0]
