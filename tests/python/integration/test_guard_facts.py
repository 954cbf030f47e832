"""What the guards take once and read twice. The positions' guard takes a module's axis facts once for its
figures and its estimate (never_worse._figures_and_facts, isa_estimate.estimate's `facts`): the same answers
as an estimate that analyses the module again, where the facts decide (a store masked by a constant bound:
whole vectors or one element a message), and none handed on where the figures took none. The stage guard's
judge reads the final prints the raising comparison estimated in the same compile (stage_figures.remember),
for that very print only, and only in that compile. A position where ours and native's pass both leave the
input as it was is a tie, not costed (never_worse.apply); one native's pass changes is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import print_module
from xpu_passes.integration import never_worse
from xpu_passes.integration.pipeline import RLC
from xpu_passes.transforms.base import UNCHANGED, collecting_remarks
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions
from xpu_passes.integration import isa_estimate, oracle, parsed_prints
from xpu_passes.integration.isa_estimate import Estimate, estimate, read_print
from xpu_passes.integration.stage_figures import judge_stages, known_texts, remember
from xpu_passes.integration.never_worse import _figures_and_facts
from integration.bound_construct import store
from integration.test_never_worse import MODULE  # (four conversions: native's pass leaves one)

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")


def test_the_figures_facts_give_the_estimate_its_own_would() -> None:
    for bound, scatters in [(128, 32), (3, 128)]:
        module = read_print(store(bound))
        figures, facts = _figures_and_facts(module)
        assert facts is not None and figures == _figures_and_facts(read_print(store(bound)))[0]
        shared, fresh = estimate(module, facts=facts), estimate(read_print(store(bound)))
        assert shared == fresh and shared.scatters == scatters


def test_another_modules_facts_would_be_a_stale_answer() -> None:
    # (why the guard hands on only the facts of the module it estimates: the bound's facts decide)
    _, facts = _figures_and_facts(read_print(store(3)))
    assert estimate(read_print(store(128)), facts=facts).scatters != 32


def test_no_facts_where_the_figures_took_none() -> None:
    module = read_print(store())
    for op in [op for op in module.walk() if isinstance(op, tt.StoreOp)]:
        op.detach()
        op.erase()
    assert _figures_and_facts(module)[1] is None


@needs_triton
def test_the_judge_reads_a_print_the_raising_comparison_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # compare_raising remembers the final prints it estimated; judge_stages takes the kept one from there
    ours, native = store(3), store(128, order=(2, 0, 1))
    parsed: list[str] = []
    read, parse = isa_estimate.read_print, parsed_prints.parse
    monkeypatch.setattr(isa_estimate, "read_print", lambda text: parsed.append(text) or read(text))
    monkeypatch.setattr(parsed_prints, "parse", lambda text: parsed.append(text) or parse(text))  # (the judge's)
    with known_texts():
        remember(ours, estimate(read(ours)), 0)
        assert judge_stages(ours, native, oracle.context())[0] == ["scatters 128 > 32 (estimated)"]
        assert parsed == [native]  # (native's print: not remembered)
        remember(native, estimate(read(native)), 0)
        assert judge_stages(ours, native, oracle.context())[0] == ["scatters 128 > 32 (estimated)"]
        assert parsed == [native]


@needs_triton
def test_what_was_remembered_serves_only_its_own_print_and_compile() -> None:
    ours, native = store(3), store(128, order=(2, 0, 1))
    wrong = Estimate(0, 0)  # (a stale answer would keep ours, 4x the scatters)
    with known_texts():
        remember(store(3, locs=("#loc3", "#loc3")), wrong, 0)  # another print of the same module: not served
        remember(ours.replace("k.py", "j.py"), wrong, 0)
        assert judge_stages(ours, native, oracle.context())[0] == ["scatters 128 > 32 (estimated)"]
    remember(ours, wrong, 0)  # outside a compile's comparison: forgotten
    with known_texts():
        assert judge_stages(ours, native, oracle.context())[0] == ["scatters 128 > 32 (estimated)"]
    assert judge_stages(ours, native, oracle.context())[0] == ["scatters 128 > 32 (estimated)"]


@dataclass(frozen=True)
class IdleRLC(RemoveLayoutConversions):
    """Ours leaving its input as it was, and saying so."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.said(UNCHANGED)


def _no_figures(module: ModuleOp) -> None:
    raise AssertionError("costed")


def test_a_position_both_passes_leave_as_it_was_is_not_costed(monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, m = make_context(), read_print(MODULE)
    before = print_module(m)
    calls: list[str] = []

    def unchanged(text: str, flag: str) -> None:
        calls.append(flag)
        return None

    monkeypatch.setattr(never_worse, "_figures_and_facts", _no_figures)
    assert never_worse.apply(IdleRLC(never_worse_than_native=True), ctx, m, unchanged) == UNCHANGED
    assert calls == [RLC] and print_module(m) == before
    # remarks wanted: costed for the remark
    with collecting_remarks() as sink, pytest.raises(AssertionError, match="costed"):
        never_worse.apply(IdleRLC(never_worse_than_native=True), ctx, m, unchanged)
    sink.drain()


@needs_triton
def test_a_position_native_changes_is_costed_and_natives_better_result_kept() -> None:
    # native's pass leaves one conversion of MODULE's four (ours, idle here, leaves them all)
    ctx, m = make_context(), read_print(MODULE)
    costed: list[ModuleOp] = []
    figures_and_facts = never_worse._figures_and_facts

    def counted(module: ModuleOp) -> Any:
        costed.append(module)
        return figures_and_facts(module)

    run = never_worse.in_process(oracle.context())
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(never_worse, "_figures_and_facts", counted)
        assert never_worse.apply(IdleRLC(never_worse_than_native=True), ctx, m, run) is None
    assert len(costed) == 2 and costed[0] is m  # ours (the input) and native's result
    assert print_module(m).count("ttg.convert_layout") == 1
