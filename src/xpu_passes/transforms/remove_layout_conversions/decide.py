"""What RemoveLayoutConversions keeps: the anchored solution, the one without anchoring when it is
better, or the input (a safety net: never invalid IR, never worse figures); and what a run says."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xpu_passes.frontend import record_copies
from xpu_passes.ir.clone import adopt_body
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.transforms.base import FIXPOINT, UNCHANGED, remarks_wanted
from xpu_passes.transforms.remove_layout_conversions import dot_order, least
from xpu_passes.transforms.remove_layout_conversions.solution import Figures, figures, layout_errors
from xpu_passes.transforms.remove_layout_conversions.work import Work, block_loads

if TYPE_CHECKING:
    from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions


def better_unanchored(p: RemoveLayoutConversions, op: ModuleOp, ops: list[Operation], loads: set[Operation],
                      w: Work, input_valid: Callable[[], bool]) -> Work:
    """Anchoring block pointers can block a better forward propagation: `w`, or the solution without
    anchoring when it is better (not solved when `w` is at the least any can reach)."""
    floor = least.least_result(ops)
    if (w.figures.cost, w.figures.converts) <= floor and not p.check_incremental:
        return w
    alt = p._solve(op, ops, False, input_valid, loads, None, w.budget)
    if (w.figures.cost, w.figures.converts) <= floor and alt.figures.better_than(w.figures):  # (check mode)
        raise AssertionError(f"RLC: a solution ({alt.figures}) below the least one {floor}")
    kept = alt if alt.figures.better_than(w.figures) else w
    if kept.input_figures is None:  # (alt started from the input as given)
        kept.input_figures = alt.input_figures
    return kept


def input_figures(op: ModuleOp, ops: list[Operation], w: Work, start: Figures | None) -> Figures:
    """The input's figures (the safety net's `start`): a solution's, when it costed the input as given,
    else costed now (`op` is still the input: solutions that changed it were made on copies). `start`:
    costed before solving (check mode), compared with the solution's."""
    if w.input_figures is not None and start is not None and w.input_figures != start:
        raise AssertionError(f"RLC: the input's figures {start}, a solution's {w.input_figures}")
    if start is not None:
        return start
    return w.input_figures if w.input_figures is not None else figures(op, ops)


def keep(p: RemoveLayoutConversions, op: ModuleOp, w: Work, start: Callable[[], Figures],
         undo: list[Journal] | None) -> None:
    """`op` takes `w`'s solution, or stays the input when that would be invalid or worse (`undo`:
    the journals that undo a solution made on the input itself; `start()`: the input's figures)."""
    for cvt, why in w.kept.items():
        if cvt.parent is not None and cvt.result.uses:
            p.remark(w.origin.get(cvt, cvt), f"kept: {why}")
    if not w.changed:  # the copy is the input
        unchanged(p, op)
        return
    why = None
    for bad, err in [] if w.validity.now() else layout_errors(w.module, p.check_incremental):
        p.remark(w.origin.get(bad, op), why := f"input kept: the rewrite would leave invalid IR ({err})")
        break
    if why is None and w.figures.worse_than(given := start()):
        p.remark(op, why := f"input kept: the rewrite would leave {w.figures}, the input has {given}")
    if why is not None:
        for j in reversed(undo or []):
            j.undo_all()
        p.said(UNCHANGED)
        return
    fixpoint = undo is not None and _fixpoint(w)  # (solved on the input: no block pointer)
    if w.module is not op:
        record_copies(w.origin)  # diagnostics of later passes still point into the input
        adopt_body(op, w.module)
    if dot_order.sink_b_operands(op):  # (a move may change a rerun's order of trials)
        fixpoint = False
    if fixpoint:
        p.said(FIXPOINT)


def unchanged(p: RemoveLayoutConversions, op: ModuleOp) -> None:
    """The input is kept as it is; with remarks on, what a solution would say of an invalid input."""
    if remarks_wanted():
        for bad, why in layout_errors(op, p.check_incremental):
            p.remark(bad, f"input kept: the rewrite would leave invalid IR ({why})")
            break
    p.said(UNCHANGED)


def check_idle(ops: list[Operation], w: Work) -> None:
    """Check mode, on a module with nothing to rewrite: the solution is the input."""
    if [(o.name, o.result_types) for o in walk_list(w.module)] != [(o.name, o.result_types) for o in ops]:
        raise AssertionError("RLC: a module without conversions or block pointers was rewritten")


def _fixpoint(w: Work) -> bool:
    """Whether a run on `w.module`, which has no block pointer (so neither anchoring nor a second
    solution), leaves it as it is: its first round is `w`'s last (the same module, conversions in
    the same order, the same block loads; no copy read, as none is known to a new run)."""
    return w.settled and block_loads(w.module) == {ld for ld in w.block_loads if ld.parent is not None}

