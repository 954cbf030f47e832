"""`--tritonintelgpu-remove-layout-conversions`: remove `ttg.convert_layout` by layout propagation.

Block pointers first take the layout their loads/stores are converted to (a 2D
block access can produce any layout). Then, for each conversion X -> Y, two
rewrites are weighed (`transforms/remove_layout_conversions/remat.py`, `remat_forward.py`): backward rematerialization recomputes
the source in Y (elementwise ops, splat/broadcast/expand_dims/make_range,
constants, reductions and scans, tt.trans/join/split/reshape (layouts/shape_infer.py) and gathers' indices,
loop-carried values through scf.for and both regions of scf.while, scf.if
results, and loads Intel lets move: 2D-block-capable, one splat address, or fewer
elements than threads); forward propagation lets the users take X (the same ops,
stores and atomics, which Intel runs in blocked or DPAS layouts). Values that
cannot be recomputed get a conversion right after their definition (hoisted out
of loops). A value already recomputed in the layout a slice needs is read from that
copy where it dominates the use (`transforms/remove_layout_conversions/remat_cache.py`, native's remat mapping). A
rewrite is estimated on its slice (`transforms/remove_layout_conversions/candidates.py`), then tried in place (undone by
`ir/journal.py` when not kept) and kept only when the whole module gets cheaper by
`transforms/remove_layout_conversions/solution.py`'s figures (every conversion, scan and reduction costed with the layout
algebra, loop-weighted; never more SLM; updated from the ops the trial touched) and stays
valid IR (checked on those ops); a backward trial that `slice_cost.floor` bounds as no
cheaper is not made. A second solution without anchoring is weighed unless the first reached
`least.least_result`. A safety net keeps the input when the result has more conversions or
SLM. Intel's option `max-backward-remat-iterations` bounds the rounds (ours: 4). A run says
when it keeps its input or leaves a fixpoint (`XpuPass.said`: the round trip skips a repeat).
`max-work-per-op` bounds a run's work (conversions examined, slice values walked, ops rewritten
by trials) by the input's size: past it the input is kept and the run says OVER_BUDGET.
`never-worse-than-native` asks a caller that can run triton-xpu's own pass on the same input
(a compile's round trip, xpu-opt) to keep the better of the two results (`integration/never_worse.py`;
without triton-xpu it has no effect).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xpu_passes.env_defaults import env_flag
from xpu_passes.dialects import tt, ttg
from xpu_passes.ir.gc_pause import gc_paused
from xpu_passes.ir import journal
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.layouts import propagation
from xpu_passes.layouts.memoize import per_class
from xpu_passes.transforms.base import OverBudget, WorkBudget, XpuPass, over_budget, register
from xpu_passes.transforms.remove_layout_conversions import coalesced, costs, decide, slice_cost, solve, trials
from xpu_passes.transforms.remove_layout_conversions.solution import figures, layout_errors
from xpu_passes.transforms.remove_layout_conversions.work import Work, block_loads

__all__ = ["RemoveLayoutConversions", "Work", "block_loads"]

# What the pass rewrites, directly (conversions) or by anchoring (block pointers).
_rewritable = per_class(ttg.ConvertLayoutOp | tt.MakeTensorPtrOp)
_is_block_ptr = per_class(tt.MakeTensorPtrOp)
_access = per_class(tt.LoadOp | tt.StoreOp)


@register
@dataclass(frozen=True)
class RemoveLayoutConversions(XpuPass):
    name = "tritonintelgpu-remove-layout-conversions"
    # Intel's lit tests hold NVIDIA's Ampere MMA, which the layout algebra maps: read, not left alone.
    reads_modelled_foreign: ClassVar[bool] = True
    # Intel's option: rounds of rematerialization (a rewrite can make an earlier refusal possible).
    max_backward_remat_iterations: int = 4
    # Work units (see the module's doc) per op of the input; 0: unbounded. The corpus's most
    # demanding run spends 11 per op (sparsemax_fwd, 1,930 ops), the median 0.8.
    max_work_per_op: int = 100
    # Read by the round trip and xpu-opt (integration/never_worse.py), not by the pass. Off by
    # default, so xpu-opt shows the pass's own decisions; the pipelines turn it on.
    never_worse_than_native: bool = False
    # Check mode (slow; tests): every incremental answer (figures, validity, the journal's keys and
    # conversions) is also computed in full, skipped trials are made, a disagreement raises.
    # Default: XPU_PASSES_RLC_CHECK, read when the pass is made.
    check_incremental: bool = field(default_factory=lambda: env_flag("XPU_PASSES_RLC_CHECK"))
    # Ops that die are retyped in place (off: every slice op is cloned; tests compare the two).
    in_place: bool = True
    # Test-only: called before each trial rewrite (one that raises interrupts the run there).
    trial_hook: Callable[[], None] | None = field(default=None, repr=False, compare=False,
                                                  metadata={"internal": True})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Trials allocate much and free little: no full collections of the process meanwhile.
        # A run has its own journal session slot: one it leaves open (it raised) goes with it.
        with gc_paused(), journal.scope(), costs.facts_scope(), coalesced.dots_scope(self.check_incremental):
            try:
                self._run_on_operation(op)
            except OverBudget as e:  # (what was done is undone: the input is as it was given)
                over_budget(self, op, e, self.max_work_per_op)
            finally:
                propagation.forget(self.check_incremental)  # answers that keep this run's ops alive
                slice_cost.forget()

    def _run_on_operation(self, op: ModuleOp) -> None:
        check = self.check_incremental
        input_valid = functools.cache(lambda: not layout_errors(op, check))  # both solutions start from it
        ops = walk_list(op)

        # 1. Nothing to rewrite (no conversion, no block pointer): the input is the result
        #    (check mode solves anyway, and checks the solution is the input).
        idle = not any(map(_rewritable, ops))
        if idle and not check:
            decide.unchanged(self, op)
            return

        # 2. What every solution starts from: the loads a slice may recompute (anchoring retypes
        #    block pointers only: the same in every copy) and the input's axis facts. Without block
        #    pointers there is one solution, made on the input itself (no copy), every session
        #    kept for undoing if the input is kept; the input's validity judged before.
        #    The run's work budget (the option, per op of the input) is shared by every solution.
        budget = WorkBudget.per_op(self.max_work_per_op, len(ops))
        loads = block_loads(op, ops, lambda: costs.facts_of(op))  # (the input's facts: the ledgers read them too)
        # (the input's figures: the first solution's ledger costs them unless anchoring changed it; check
        # mode costs them here too, and compares)
        start = figures(op, ops) if check else None
        undo: list[Journal] | None = None if any(map(_is_block_ptr, ops)) else []
        if undo is not None:
            input_valid()
        elif any(map(_access, ops)):
            costs.facts_of(op)  # (the facts the ledgers read: taken once, moved to each copy)
        try:
            # 3. A solution with block pointers anchored to their accesses' layouts (solve.py:
            #    anchoring.py, then rounds of trials, trials.py).
            w = self._solve(op, ops, True, input_valid, loads, undo, budget)
            # 4. The solution without anchoring, when it may be better (decide.py).
            if w.anchored and undo is None:
                w = decide.better_unanchored(self, op, ops, loads, w, input_valid)
            if idle:
                decide.check_idle(ops, w)
            # 5. Keep it, or the input when it would be invalid or worse; say what was left (decide.py).
            given = decide.input_figures(op, ops, w, start) if check else None
            decide.keep(self, op, w, lambda: given if given is not None else decide.input_figures(op, ops, w, start), undo)
        except BaseException:
            for j in reversed(undo or []):
                j.undo_all()
            raise
        finally:
            for j in undo or []:
                j.release()

    # Steps as methods: what tests and benchmarks/rlc_solves.py wrap.
    def _solve(self, op: ModuleOp, op_ops: list[Operation], anchor: bool, input_valid: Callable[[], bool],
               loads: set[Operation], undo: list[Journal] | None = None, budget: WorkBudget | None = None) -> Work:
        # (`budget`: trailing and optional, unbounded by default: callers that wrap this keep their signature)
        return solve.solve(self, op, op_ops, anchor, input_valid, loads, undo, budget)

    def _round(self, w: Work) -> bool:
        return trials.one_round(self, w)

    def _remove(self, w: Work, cvt: ttg.ConvertLayoutOp) -> str | None:
        return trials.remove(self, w, cvt)
