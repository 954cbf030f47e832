"""One whole solution of RemoveLayoutConversions: block pointers anchored (optionally), then rounds
of trials until one keeps nothing, then the conversions left dead swept."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xpu_passes.ir import clone
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.transforms.base import WorkBudget
from xpu_passes.transforms.remove_layout_conversions import costs, materialize
from xpu_passes.transforms.remove_layout_conversions.anchoring import anchor_block_pointers
from xpu_passes.transforms.remove_layout_conversions.remat_cache import RematCache
from xpu_passes.transforms.remove_layout_conversions.solution import Ledger
from xpu_passes.transforms.remove_layout_conversions.work import Changes, Validity, Work

if TYPE_CHECKING:
    from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions


def solve(p: RemoveLayoutConversions, op: ModuleOp, op_ops: list[Operation], anchor: bool,
          input_valid: Callable[[], bool], loads: set[Operation], undo: list[Journal] | None = None,
          budget: WorkBudget | None = None) -> Work:
    """One whole solution, on a copy of `op` (`op_ops`: its walk; `loads`: its block_loads), or on
    `op` itself when `undo` is given (it gets the journals that can undo what was done). Its trials
    spend `budget` (the run's, shared by its solutions; None: unbounded): past it, OverBudget."""
    budget = budget if budget is not None else WorkBudget(None)
    check = p.check_incremental
    copy = clone.clone(op) if undo is None else op
    ops = walk_list(copy) if undo is None else op_ops
    origin = dict(zip(ops, op_ops))
    anchored, since = 0, (set(), set())
    if anchor:  # recorded: what it changed is judged incrementally like any rewrite
        anchored, since = _anchor(copy, ops, check, undo)
        ops = walk_list(copy)  # (a fresh look at what anchoring left, whatever it did)
    if undo is None:  # the input's axis facts, if taken, are the copy's (they do not depend on layouts)
        costs.copy_facts(op, op_ops, copy, ops, check)
    ledger = Ledger(copy, ops, check)
    loads = {c for c, o in origin.items() if o in loads} if loads else set()
    j = Journal(copy, ops, check)
    if undo is not None:
        undo.append(j.keep_all())
    w = Work(copy, origin, j, ledger, loads, ledger.figures(), RematCache(j.order),
             Validity(copy, check, input_valid, since), budget, anchored=anchored)
    w.changed = bool(since[0] or since[1])  # what anchoring touched
    if not w.changed:  # (the ledger costed the input as given: a copy has the input's facts, see above)
        w.input_figures = w.figures
    for _ in range(max(1, p.max_backward_remat_iterations)):
        hits = w.cache.hits
        if not p._round(w):
            w.settled = w.cache.hits == hits
            break
        w.changed = True
    materialize.erase_dead_converts(w.journal.begin())  # left dead by the rewrites above
    if w.journal.touched:
        w.changed, w.settled = True, False
    w.settle()
    return w


def _anchor(module: ModuleOp, ops: list[Operation], check: bool, undo: list[Journal] | None) -> tuple[int, Changes]:
    """Block pointers take the layout of their accesses, recorded: (families retyped, what changed)."""
    j = Journal(module, ops, check)
    if undo is not None:
        undo.append(j.keep_all())
    j.begin()
    anchored, since = anchor_block_pointers(module), (j.touched, j.reshaped)
    j.commit()
    return anchored, since
