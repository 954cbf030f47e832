"""`--tritonintelgpu-remove-layout-conversions`: remove `ttg.convert_layout` by layout propagation.

Block pointers first take the layout their loads/stores are converted to (a 2D
block access can produce any layout). Then, for each conversion X -> Y, two
rewrites are weighed (`transforms/remove_layout_conversions/remat.py`): backward rematerialization recomputes
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
`costs.least_result`. A safety net keeps the input when the result has more conversions or
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

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.dialects import tt, ttg
from xpu_passes.frontend import record_copies
from xpu_passes.frontend.fast.memo import gc_paused
from xpu_passes.layouts import propagation
from xpu_passes.transforms.remove_layout_conversions import candidates, joint
from xpu_passes.ir import clone
from xpu_passes.transforms.remove_layout_conversions import costs
from xpu_passes.ir import journal
from xpu_passes.transforms.remove_layout_conversions import materialize
from xpu_passes.transforms.remove_layout_conversions import remat
from xpu_passes.transforms.remove_layout_conversions import slice_cost
from xpu_passes.transforms.remove_layout_conversions import solution
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.layouts.memoize import per_class
from xpu_passes.transforms.remove_layout_conversions.pending import Pending
from xpu_passes.transforms.remove_layout_conversions.remat_cache import RematCache
from xpu_passes.transforms.remove_layout_conversions.solution import Figures, Ledger, figures, has_errors, layout_errors
from xpu_passes.transforms.remove_layout_conversions.anchoring import anchor_block_pointers
from xpu_passes.layouts.propagation import encoding
from xpu_passes.dialects.ttig import BLOCK_IO
from xpu_passes.transforms.base import (FIXPOINT, OVER_BUDGET, REMARKS, UNCHANGED, OverBudget, WorkBudget, XpuPass,
                                        register)
from xpu_passes.transforms.materialize_block_pointer import classify_pointer_tensor


def fold(cvt: ttg.ConvertLayoutOp) -> bool:
    """convert(x: L -> L) -> x; convert(convert(x)) -> convert(x) or x."""
    src = cvt.src
    if src.type == cvt.result.type:
        journal.replace_all_uses_with(cvt.result, src)
        journal.erase_op(cvt)
        return True
    inner = src.owner
    if isinstance(inner, ttg.ConvertLayoutOp):
        base = inner.src
        if base.type == cvt.result.type:
            journal.replace_all_uses_with(cvt.result, base)
        else:
            c = journal.created(ttg.ConvertLayoutOp.build(operands=[base], result_types=[cvt.result.type]))
            journal.insert_op(c, InsertPoint.before(cvt))
            journal.replace_all_uses_with(cvt.result, c.result)
        journal.erase_op(cvt)
        if not inner.result.uses:
            journal.erase_op(inner)
        return True
    return False


# What the pass rewrites, directly (conversions) or by anchoring (block pointers).
_rewritable = per_class(ttg.ConvertLayoutOp | tt.MakeTensorPtrOp)
_is_block_ptr = per_class(tt.MakeTensorPtrOp)


def _block_loads(module: ModuleOp, ops: list[Operation] | None = None) -> set[Operation]:
    """Tensor-of-pointer loads that may be recomputed in another layout (Intel's
    isExpensiveLoadOrStore is false): 2D-block-capable ones, loads of one splat address,
    and loads of fewer elements than the CTA has threads (cache hits)."""
    ai: list[AxisInfoAnalysis] = []  # built for the first load that needs it (most modules have none)

    def tile(ld: tt.LoadOp) -> bool:
        if not isinstance(ld.result.type, TensorType) or len(ld.result.type.get_shape()) < 2:
            return False  # what classify_pointer_tensor says of 1D, without the analysis
        if not ai:
            ai.append(AxisInfoAnalysis(module))
        return classify_pointer_tensor(ld, ai[0], check_mask=False).tag is not None

    return {
        ld for ld in (walk_list(module) if ops is None else ops)
        if isinstance(ld, tt.LoadOp) and not ld.is_block_pointer
        and (BLOCK_IO in ld.attributes or remat.cheap_load(ld) or tile(ld))
    }  # fmt: skip


def _less_slm(new: Figures, old: Figures) -> bool:
    """As costly, as many conversions, less SLM (e.g. converting bf16 before an extf, not f32 after)."""
    return (new.cost, new.converts) == (old.cost, old.converts) and new.slm < old.slm


def _adopt(dst: ModuleOp, src: ModuleOp) -> None:
    """`dst` takes `src`'s body (`src` is a rewritten copy of it)."""
    for b in list(dst.body.blocks):
        dst.body.detach_block(b).drop_all_references()
    src.body.move_blocks(dst.body)


@dataclass
class _Work:
    """The module being rewritten: a copy of the input, rewritten in place; a trial that is
    not kept is undone (`journal`). `origin` maps its ops to the input's (remarks are located there)."""

    module: ModuleOp
    origin: dict[Operation, Operation]
    journal: Journal
    ledger: Ledger  # the module's figures, per op
    block_loads: set[Operation]
    figures: Figures
    cache: RematCache
    budget: WorkBudget
    tried: set[Operation] = field(default_factory=set)
    kept: dict[Operation, str] = field(default_factory=dict)
    anchored: int = 0  # block-pointer families anchor_block_pointers retyped
    valid: bool | None = None  # whether `module` has no layout_errors (None: not known)
    input_valid: Callable[[], bool] = lambda: False  # whether the pass's input has none (asked once)
    # While `valid` is None: what changed since the input (journal.Journal's touched, reshaped).
    since: tuple[set[Operation], set[Operation]] = field(default_factory=lambda: (set(), set()))
    changed: bool = False  # anything kept (a rewrite, a fold, anchoring, the sweep)
    # The last round changed nothing and read no copy, and nothing was swept after it: a run on
    # the result (given the same block loads, no block pointers) makes that round again.
    settled: bool = False

    def errors(self, now: bool) -> bool:
        """Whether `module` has layout_errors, `now`: with the journal's open change."""
        touched, reshaped = (self.journal.touched, self.journal.reshaped) if now else (set(), set())
        if self.valid is None:
            if not self.input_valid():
                return bool(layout_errors(self.module))
            return has_errors(self.module, self.since[0] | touched, True, self.since[1] | reshaped)
        return has_errors(self.module, touched, self.valid, reshaped, self.ledger.attached if now else None)

    def settle(self) -> None:
        """Keep the change made since `journal.begin()` (a fold, the final clean-up)."""
        self.figures = self.ledger.update(self.journal.touched)
        if self.valid is None:
            self.since[0].update(self.journal.touched)
            self.since[1].update(self.journal.reshaped)
        elif self.valid:
            self.valid = not self.errors(now=True)
        self.ledger.commit()
        self.journal.commit()
        if solution.CHECK_INCREMENTAL:
            self.journal.check()

    def undo(self) -> None:
        self.ledger.rollback()
        self.journal.rollback()


@register
@dataclass(frozen=True)
class RemoveLayoutConversions(XpuPass):
    name = "tritonintelgpu-remove-layout-conversions"
    # Intel's option: rounds of rematerialization (a rewrite can make an earlier refusal possible).
    max_backward_remat_iterations: int = 4
    # Work units (see the module's doc) per op of the input; 0: unbounded. The corpus's most
    # demanding run spends 11 per op (sparsemax_fwd, 1,930 ops), the median 0.8.
    max_work_per_op: int = 100
    # Read by the round trip and xpu-opt (integration/never_worse.py), not by the pass. Off by
    # default, so xpu-opt shows the pass's own decisions; the pipelines turn it on.
    never_worse_than_native: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Trials allocate much and free little: no full collections of the process meanwhile.
        with gc_paused():
            try:
                self._apply(op)
            except OverBudget as e:  # (what was done is undone: the input is as it was given)
                self.remark(op, f"input kept: {e}, max-work-per-op={self.max_work_per_op}")
                self.said(OVER_BUDGET)
            finally:  # a failure leaves no session open (the input is only changed at the end)
                journal.close_active()
                propagation.forget(solution.CHECK_INCREMENTAL)  # answers that keep this run's ops alive
                slice_cost.forget()

    def _apply(self, op: ModuleOp) -> None:
        input_valid = functools.cache(lambda: not layout_errors(op))  # both solutions start from it
        ops = walk_list(op)
        idle = not any(map(_rewritable, ops))  # nothing any step rewrites: the copy would be the input
        if idle and not solution.CHECK_INCREMENTAL:  # (check mode solves, and checks the copy is the input)
            self._unchanged(op)
            return
        budget = WorkBudget.per_op(self.max_work_per_op, len(ops))
        loads = _block_loads(op, ops)  # anchoring retypes block pointers only: the same loads in both copies
        start = figures(op, ops)
        # Without block pointers there is one solution: solved on the input itself (no copy), every
        # session kept for undoing if the input is kept; the input's validity judged before.
        undo: list[Journal] | None = None if any(map(_is_block_ptr, ops)) else []
        if undo is not None:
            input_valid()
        try:
            w = self._solve(op, ops, True, input_valid, loads, undo, budget)
            self._decide(op, ops, loads, w, start, idle, undo)
        except BaseException:
            for j in reversed(undo or []):
                j.undo_all()
            raise
        finally:
            for j in undo or []:
                j.release()

    def _decide(self, op: ModuleOp, ops: list[Operation], loads: set[Operation], w: _Work, start: Figures,
                idle: bool, undo: list[Journal] | None) -> None:
        """Keep `w`'s solution, or the better one without anchoring, or the input (`undo`: the
        journals that undo a solution made on the input itself)."""
        input_valid = w.input_valid
        # Anchoring block pointers can block a better forward propagation: weigh both solutions,
        # unless the first is at the least any can reach (nothing is strictly better).
        if w.anchored and undo is None:
            floor = costs.least_result(ops)
            if (w.figures.cost, w.figures.converts) > floor or solution.CHECK_INCREMENTAL:
                alt = self._solve(op, ops, False, input_valid, loads, None, w.budget)
                if (w.figures.cost, w.figures.converts) <= floor and alt.figures.better_than(w.figures):
                    raise AssertionError(f"RLC: a solution ({alt.figures}) below the least one {floor}")
                if alt.figures.better_than(w.figures):
                    w = alt
        for cvt, why in w.kept.items():
            if cvt.parent is not None and cvt.result.uses:
                self.remark(w.origin.get(cvt, cvt), f"kept: {why}")
        if idle and [(o.name, o.result_types) for o in walk_list(w.module)] != [(o.name, o.result_types) for o in ops]:
            raise AssertionError("RLC: a module without conversions or block pointers was rewritten")
        if not w.changed:  # the copy is the input
            self._unchanged(op)
            return
        if w.valid is None:
            w.valid = not w.errors(now=False)
        why = None
        for bad, err in [] if w.valid else layout_errors(w.module):  # valid: known free of them
            self.remark(w.origin.get(bad, op), why := f"input kept: the rewrite would leave invalid IR ({err})")
            break
        if why is None and w.figures.worse_than(start):
            self.remark(op, why := f"input kept: the rewrite would leave {w.figures}, the input has {start}")
        if why is not None:
            for j in reversed(undo or []):
                j.undo_all()
            self.said(UNCHANGED)
            return
        fixpoint = undo is not None and self._fixpoint(w)  # (solved on the input: no block pointer)
        if w.module is not op:
            record_copies(w.origin)  # diagnostics of later passes still point into the input
            _adopt(op, w.module)
        if fixpoint:
            self.said(FIXPOINT)

    def _unchanged(self, op: ModuleOp) -> None:
        """The input is kept as it is; with remarks on, what a solution would say of an invalid input."""
        if REMARKS.enabled:
            for bad, why in layout_errors(op):
                self.remark(bad, f"input kept: the rewrite would leave invalid IR ({why})")
                break
        self.said(UNCHANGED)

    @staticmethod
    def _fixpoint(w: _Work) -> bool:
        """Whether a run on `w.module`, which has no block pointer (so neither anchoring nor a second
        solution), leaves it as it is: its first round is `w`'s last (the same module, conversions in
        the same order, the same block loads; no copy read, as none is known to a new run)."""
        return w.settled and _block_loads(w.module) == {ld for ld in w.block_loads if ld.parent is not None}

    def _solve(self, op: ModuleOp, op_ops: list[Operation], anchor: bool, input_valid: Callable[[], bool],
               loads: set[Operation], undo: list[Journal] | None = None, budget: WorkBudget | None = None) -> _Work:
        """One whole solution, on a copy of `op` (`op_ops`: its walk; `loads`: its _block_loads), or on
        `op` itself when `undo` is given (it gets the journals that can undo what was done)."""
        budget = budget if budget is not None else WorkBudget(None)
        copy = clone.clone(op) if undo is None else op
        ops = walk_list(copy) if undo is None else op_ops
        origin = dict(zip(ops, op_ops))
        anchored, since = 0, (set(), set())
        if anchor:  # recorded: what it changed is judged incrementally like any rewrite
            j = Journal(copy, ops)
            if undo is not None:
                undo.append(j.keep_all())
            j.begin()
            anchored, since = anchor_block_pointers(copy), (j.touched, j.reshaped)
            j.commit()
            ops = walk_list(copy)  # (a fresh look at what anchoring left, whatever it did)
        ledger = Ledger(copy, ops)
        loads = {c for c, o in origin.items() if o in loads} if loads else set()
        j = Journal(copy, ops)
        if undo is not None:
            undo.append(j.keep_all())
        w = _Work(copy, origin, j, ledger, loads, ledger.figures(), RematCache(j.order), budget, anchored=anchored,
                  input_valid=input_valid, since=since)
        w.changed = bool(since[0] or since[1])  # what anchoring touched
        for _ in range(max(1, self.max_backward_remat_iterations)):
            hits = w.cache.hits
            if not self._round(w):
                w.settled = w.cache.hits == hits
                break
            w.changed = True
        materialize.erase_dead_converts(w.journal.begin())  # left dead by the rewrites above
        if w.journal.touched:
            w.changed, w.settled = True, False
        w.settle()
        return w

    def _round(self, w: _Work) -> bool:
        changed = False
        w.tried = set()
        j = w.journal
        # The live conversions in walk order, again after each kept rewrite (as a restart of the walk).
        pending = Pending(j, w.tried)
        while (cvt := pending.next()) is not None or pending.refresh() or (cvt := pending.next()) is not None:
            w.tried.add(cvt)
            if not pending.live(cvt):
                continue
            j.begin()
            if fold(cvt):
                changed = True
                w.settle()
                continue
            j.commit()  # nothing was changed
            why = self._remove(w, cvt)
            if why is None:  # a rewrite was kept: look at the conversions again
                changed = True
                pending.refresh()
                continue
            w.kept[cvt] = why
            w.cache.put(cvt.src, encoding(cvt.result.type), cvt.result)  # a copy later slices may read
        return changed

    @staticmethod
    def _floor(w: _Work, cvt: ttg.ConvertLayoutOp, s: remat.Slice) -> tuple[int, int, bool] | None:
        """`slice_cost.floor` of the backward trial of `s` on `w`'s module."""
        f, j = w.figures, w.journal
        unused = j.converts if j.maybe_dead is None else j.maybe_dead & j.converts  # what a sweep would find
        return slice_cost.floor(s, cvt, w.ledger.parts, w.ledger.scratch, (f.cost, f.converts, f.slm), unused)

    def _remove(self, w: _Work, cvt: ttg.ConvertLayoutOp) -> str | None:
        """Backward rematerialization or forward propagation, the cheaper one that makes the whole
        module cheaper; None when done (w.module rewritten), else why not."""
        found = candidates.options(cvt, w.block_loads, w.cache.lookup)
        w.budget.spend(1 if isinstance(found, str) else 1 + sum(len(s.layout) for s in found.slices.values()))
        if isinstance(found, str):
            return found
        for how in found.tries():
            # A trial whose result is bounded as no cheaper (or as needing more SLM) would be
            # rejected: not made (check mode makes it, and holds the bounds against its figures).
            low = self._floor(w, cvt, found.slices[how]) if how == "backward" else None
            rises = slice_cost.slm_rises(found.slices[how], w.figures.slm)
            # Retyped loop-carried values: the follow-ups (`joint`) may win what the bound says it cannot.
            carried = how == "backward" and bool(found.slices[how].inplace)
            if (rises or low is not None and slice_cost.loses(low, w.figures) and not carried
                    ) and not solution.CHECK_INCREMENTAL:
                continue
            new_loads: set[Operation] = set()
            w.budget.spend(len(found.slices[how].ops) + 1)
            w.journal.begin()
            try:
                materialize.rewrite(w.journal, cvt, found.slices[how], how, w.block_loads, new_loads, w.cache)
            except Exception as e:  # a rewrite we cannot complete is not taken (it is undone)
                w.undo()
                self.remark(w.origin.get(cvt, cvt), f"{how} rewrite abandoned: {type(e).__name__}: {e}")
                continue
            fig = w.ledger.update(w.journal.touched)  # before the (costly) verification: decides alike, both must hold
            if solution.CHECK_INCREMENTAL and (low is not None and (
                    fig.cost < low[0] or fig.converts < low[1] or low[2] and fig.slm < w.figures.slm)
                    or rises and fig.slm <= w.figures.slm):
                raise AssertionError(f"RLC: a trial's figures {fig} below its bound {low, rises} (from {w.figures})")
            wins = fig.better_than(w.figures) or _less_slm(fig, w.figures)
            if carried and not wins:
                try:
                    if joint.follow_up(w.journal, w.block_loads, new_loads, w.cache):
                        fig = w.ledger.update(w.journal.touched)
                        wins = fig.better_than(w.figures) or _less_slm(fig, w.figures)
                except Exception as e:  # (undone below, like a trial that does not win)
                    self.remark(w.origin.get(cvt, cvt), f"{how} follow-up abandoned: {type(e).__name__}: {e}")
            bad = wins and w.errors(now=True)
            if wins and not bad:
                w.ledger.commit()
                w.journal.commit()
                if solution.CHECK_INCREMENTAL:
                    w.journal.check()
                w.figures, w.valid = fig, True
                w.block_loads |= new_loads
                return None
            w.undo()
            if bad and w.valid is None:  # learn whether the module itself is valid
                w.valid = not w.errors(now=False)
        options, ties = found.good(), found.ties()
        if all(how in ties for how in options):  # only ties were tried: say why nothing beat them
            return found.why()
        return f"{' and '.join(o for o in options if o not in ties)} would not make the module cheaper ({w.figures})"
