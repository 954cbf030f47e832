"""RemoveLayoutConversions solves a module without block pointers on the input itself (no copy):
every journal session is kept, so a result the safety net rejects, or a failure half-way, leaves
the input exactly as it was; a module with block pointers is still solved on copies (two solutions)."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from xpu_passes.integration import oracle
from xpu_passes.integration import roundtrip
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.ir import clone
from xpu_passes.ir import journal
from xpu_passes.transforms.remove_layout_conversions import materialize
from xpu_passes.transforms.remove_layout_conversions import solution
from xpu_passes.transforms import remove_layout_conversions as rlc
from xpu_passes.transforms.base import UNCHANGED, run_reporting

from support import rlc_dump
from samples import TTGIR

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]


def _module(text: str) -> tuple[Context, ModuleOp]:
    ctx = make_context()
    return ctx, parse_module(ctx, text, "<test>").module


def _copies(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    made: list[object] = []
    real = clone.clone

    def counted(op: object) -> object:
        made.append(op)
        return real(op)  # type: ignore[arg-type]

    monkeypatch.setattr(clone, "clone", counted)
    return made


@pytest.mark.parametrize("check", [False, True])
def test_a_rejected_result_restores_the_input(check: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """layer_norm_fwd's first input (rewrites kept over several rounds), its result rejected by the
    safety net: every session is undone, last first (check mode also compares the module with the
    one at keep_all)."""
    text = rlc_dump("layer_norm_fwd", "1024-w8-s1", 0).read_text()
    ctx, m = _module(text)
    rlc.RemoveLayoutConversions(check_incremental=check).apply(ctx, m)
    rewritten = roundtrip.content(m)
    ctx, m = _module(text)
    before = roundtrip.content(m)
    assert rewritten != before  # (the pass does rewrite this input)
    made = _copies(monkeypatch)
    monkeypatch.setattr(solution.Figures, "worse_than", lambda self, other: True)
    said = run_reporting(rlc.RemoveLayoutConversions(check_incremental=check), ctx, m)
    assert not made and said == UNCHANGED
    assert roundtrip.content(m) == before


def test_a_failure_half_way_restores_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep after the rounds raises: what the rounds kept is undone before the error goes on."""
    ctx, m = _module(TTGIR)
    before = roundtrip.content(m)

    def broken(j: object) -> None:
        raise RuntimeError("a bug in the sweep")

    monkeypatch.setattr(materialize, "erase_dead_converts", broken)
    with pytest.raises(RuntimeError, match="a bug in the sweep"):
        rlc.RemoveLayoutConversions().apply(ctx, m)
    assert roundtrip.content(m) == before and journal.active() is None


def test_only_block_pointer_modules_are_copied(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _copies(monkeypatch)
    ctx, m = _module(TTGIR)
    rlc.RemoveLayoutConversions().apply(ctx, m)
    assert not made  # solved on the input: no copy, nothing adopted
    assert "ttg.convert_layout" not in str(m)
    ctx, m = _module(rlc_dump("gemm_block_ptr", "8x128x64-w4-s3", 0).read_text())
    rlc.RemoveLayoutConversions().apply(ctx, m)
    assert made  # anchoring block pointers weighs two solutions, each on a copy


def test_undo_all_finds_a_lost_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check mode: a committed session whose undo record went missing is caught by undo_all."""
    ctx, m = _module(TTGIR)
    j = journal.Journal(m, check=True).keep_all()
    j.begin()
    cvt = next(o for o in m.walk() if o.name == "ttg.convert_layout")
    journal.replace_all_uses_with(cvt.results[0], cvt.operands[0]) if cvt.results[0].uses else None
    journal.erase_op(cvt)
    j.commit()
    j._kept.pop()  # type: ignore[union-attr]  # the erasure's record lost
    with pytest.raises(AssertionError, match="did not restore"):
        j.undo_all()


def test_no_journal_is_left_to_the_cyclic_collector() -> None:
    """The kept undo records refer to their journal: released once the pass has decided, the
    journal and its records are freed at once (they were most of the collector's work after the pass)."""
    import gc

    ctx, m = _module(rlc_dump("layer_norm_fwd", "1024-w8-s1", 0).read_text())
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        rlc.RemoveLayoutConversions().apply(ctx, m)
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, journal.Journal)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not left


@pytest.mark.parametrize("solved", ["anchored", "unanchored", "no block pointer"])
def test_the_input_figures_come_from_a_ledger_only_where_it_costed_the_input(solved: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net compares a result with the input's figures, taken from a solution's ledger only
    where that ledger costed the input as given: gemm_add_block_ptr's anchoring changes its input and
    its anchored solution reaches the least result (no second solve), so they are costed from the
    input; the solution without anchoring, or one on a module without block pointers (on the input
    itself, before any trial), gives them. The rejection's remark names what the input has."""
    from xpu_passes.transforms.base import collecting_remarks
    from xpu_passes.transforms.remove_layout_conversions import costs, decide, least
    from xpu_passes.transforms.remove_layout_conversions.work import block_loads

    text = TTGIR if solved == "no block pointer" else rlc_dump("gemm_add_block_ptr", None, 0).read_text()
    ctx, m = _module(text)
    want = solution.figures(m)
    with journal.scope(), costs.facts_scope():
        ops = journal.walk_list(m)
        w = rlc.RemoveLayoutConversions()._solve(m, ops, solved != "unanchored", lambda: True, block_loads(m, ops),
                                                 [] if solved == "no block pointer" else None)
        assert (w.input_figures is None) == (solved == "anchored") and w.changed
        assert decide.input_figures(m, ops, w, None) == want  # (the anchored: costed from `m`, the input)
    if solved == "unanchored":
        monkeypatch.setattr(least, "least_result", lambda ops: (-1, 0))  # (the second solve runs)
    ctx, m = _module(text)
    monkeypatch.setattr(solution.Figures, "worse_than", lambda self, other: True)
    with collecting_remarks() as sink:
        rlc.RemoveLayoutConversions().apply(ctx, m)
    rejected = [r.message for r in sink.remarks if r.message.startswith("input kept: the rewrite would leave")]
    assert len(rejected) == 1 and rejected[0].endswith(f", the input has {want}")
