"""RemoveLayoutConversions' rounds: each live conversion in walk order is folded, or removed by the
cheaper of its rewrites (backward rematerialization, forward propagation) that makes the whole
module cheaper and keeps it valid, tried in place and undone when not kept; or kept, with why."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint

from xpu_passes.dialects import ttg
from xpu_passes.ir import journal
from xpu_passes.layouts.propagation import encoding
from xpu_passes.transforms.remove_layout_conversions import candidates, joint, materialize, remat, slice_cost
from xpu_passes.transforms.remove_layout_conversions.pending import Pending
from xpu_passes.transforms.remove_layout_conversions.solution import Figures
from xpu_passes.transforms.remove_layout_conversions.work import Work

if TYPE_CHECKING:
    from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions


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


def one_round(p: RemoveLayoutConversions, w: Work) -> bool:
    """One walk over the live conversions; whether anything was kept."""
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
            w.settle(costed=False)  # (costed before the next trial, once for folds in a row)
            continue
        j.commit()  # nothing was changed
        w.fresh()
        why = p._remove(w, cvt)
        if why is None:  # a rewrite was kept: look at the conversions again
            changed = True
            pending.refresh()
            continue
        w.kept[cvt] = why
        w.cache.put(cvt.src, encoding(cvt.result.type), cvt.result)  # a copy later slices may read
    w.fresh()
    return changed


def remove(p: RemoveLayoutConversions, w: Work, cvt: ttg.ConvertLayoutOp) -> str | None:
    """Backward rematerialization or forward propagation, the cheaper one that makes the whole
    module cheaper; else backward with loop-carried values copied (`candidates.duplicating`).
    None when done (w.module rewritten), else why not."""
    check = p.check_incremental
    found = candidates.options(cvt, w.block_loads, w.cache.lookup, check)
    # the run's work budget (max-work-per-op): the conversion examined and its slices' values walked
    w.budget.spend(1 if isinstance(found, str) else 1 + sum(len(s.layout) for s in found.slices.values()))
    invalid: list[str] = []  # cheaper, but not IR triton-xpu takes (validity.py)
    dup: list = [None]  # (estimate, slice) of the trial copying loop-carried values, once asked for
    paired: set[str] = set()  # tried already, as the rival of a slice or of its cut variant
    for how in () if isinstance(found, str) else found.tries():
        if how in paired:
            continue
        # Copying loop-carried values before a costlier forward propagation (after retyping them failed).
        way = candidates.direction(how)
        if way == "forward" and _duplicated(p, w, cvt, dup, found.estimate_of(how)) is None:  # type: ignore[union-attr]
            return None
        # A trial whose result is bounded as no cheaper (or as needing more SLM) would be
        # rejected: not made (check mode makes it, and holds the bounds against its figures).
        low = _floor(w, cvt, found.slices[how]) if way == "backward" else None  # type: ignore[union-attr]
        rises = slice_cost.slm_rises(found.slices[how], w.figures.slm)  # type: ignore[union-attr]
        # Retyped loop-carried values: the follow-ups (`joint`) may win what the bound says it cannot.
        carried = way == "backward" and bool(found.slices[how].inplace)  # type: ignore[union-attr]
        if (rises or low is not None and slice_cost.loses(low, w.figures) and not carried) and not check:
            continue
        # A slice and its cut variant (candidates._cut_variants): the better of the two is kept, not
        # the first that wins (the cheaper estimate misses what re-laying a reduction costs there).
        rival = found.rival(how)  # type: ignore[union-attr]
        if rival is not None and not slice_cost.slm_rises(found.slices[rival], w.figures.slm):  # type: ignore[union-attr]
            paired.add(rival)
            first = _probe(p, w, cvt, found.slices[how], how)  # type: ignore[union-attr]
            got = _trial(p, w, cvt, found.slices[rival], rival, None, False, False, beat=first)  # type: ignore[union-attr]
            if got is None:
                return None
            if got:
                invalid.append(rival)
            if first is None:
                continue
        got = _trial(p, w, cvt, found.slices[how], how, low, rises, carried)  # type: ignore[union-attr]
        if got is None:
            return None
        if got:
            invalid.append(how)
    if _duplicated(p, w, cvt, dup, None) is None:
        return None
    if isinstance(found, str):
        return found
    if invalid:
        return f"{' and '.join(invalid)} would leave IR triton-xpu rejects or cannot lower; {found.why()}"
    options, ties = found.good(), found.ties()
    if all(how in ties for how in options):  # only ties were tried: say why nothing beat them
        return found.why()
    return f"{' and '.join(o for o in options if o not in ties)} would not make the module cheaper ({w.figures})"


def _duplicated(p: RemoveLayoutConversions, w: Work, cvt: ttg.ConvertLayoutOp, dup: list,
                before: tuple[int, int] | None) -> bool | None:
    """The backward trial that copies loop-carried values (`candidates.duplicating`), made once
    (`dup[0]`: its estimate and slice) when estimated cheaper than `before` (None: whatever);
    None when kept (as `_trial`), else False."""
    if dup[0] is None:
        dup[0] = candidates.duplicating(cvt, w.block_loads, w.cache.lookup) or ()
        if dup[0]:
            w.budget.spend(1 + len(dup[0][1].layout))
    if not dup[0] or before is not None and dup[0][0] >= before:
        return False
    (_, s), dup[0] = dup[0], ()
    rises = slice_cost.slm_rises(s, w.figures.slm)
    if rises and not p.check_incremental:
        return False
    loops = {op for op, _ in s.dups}
    return _trial(p, w, cvt, s, "backward", None, rises, False, lambda: not any(map(_converts_in, loops))) and False


def _converts_in(loop: Operation) -> bool:
    """Whether a conversion is left in `loop`'s body. Copying carried values is kept only when it
    leaves none: with one left, both copies stay alive beside it, and later rounds or runs may
    find one layout for all (flash_attention_fwd 128x64x64: its copy of the running max, kept at
    the first run, cost 99 ISA instructions more than the final conversion-free loop without it)."""
    return any(type(o) is ttg.ConvertLayoutOp for o in loop.walk())


def _trial(p: RemoveLayoutConversions, w: Work, cvt: ttg.ConvertLayoutOp, s: remat.Slice, how: str,
           low: tuple[int, int, bool] | None, rises: bool, carried: bool,
           also: Callable[[], bool] | None = None, beat: Figures | None = None) -> bool | None:
    """Rewrite by `s` in place and keep it when the module gets cheaper (than `beat` too, if given),
    stays valid (and `also` holds on the result): None; else undone, and whether it was cheaper but invalid."""
    check = p.check_incremental
    new_loads: set[Operation] = set()
    w.budget.spend(len(s.ops) + 1)  # the ops the trial rewrites (before its session opens)
    w.journal.begin()
    if p.trial_hook is not None:  # (test-only: what it raises ends the run, mid-session)
        p.trial_hook()
    try:
        materialize.rewrite(w.journal, cvt, s, candidates.direction(how), w.block_loads, new_loads, w.cache,
                            p.in_place)
    except Exception as e:  # a rewrite we cannot complete is not taken (it is undone)
        w.undo()
        p.remark(w.origin.get(cvt, cvt), f"{how} rewrite abandoned: {type(e).__name__}: {e}")
        return False
    # Before the (costly) verification: decides alike, both must hold. None: it cannot win.
    fig = w.ledger.update_unless_losing(w.journal.touched, w.figures)
    if check:
        _check_bounds(fig, low, rises, w.figures)  # type: ignore[arg-type]  # (check mode: always costed)
    wins = _wins(fig, w.figures)
    if carried and not wins:
        try:
            if joint.follow_up(w.journal, w.block_loads, new_loads, w.cache):
                fig = w.ledger.update_unless_losing(w.journal.touched, w.figures)
                wins = _wins(fig, w.figures)
        except Exception as e:  # (undone below, like a trial that does not win)
            p.remark(w.origin.get(cvt, cvt), f"{how} follow-up abandoned: {type(e).__name__}: {e}")
    wins = wins and (also is None or also()) and (beat is None or fig.better_than(beat))  # type: ignore[union-attr]
    bad = wins and w.errors(now=True)
    if wins and not bad:
        w.commit()
        w.figures = fig  # type: ignore[assignment]  # (it wins: costed)
        w.validity.learn(True)
        w.block_loads |= new_loads
        return None
    w.undo()
    if bad and not w.validity.judged():  # learn whether the module itself is valid
        w.validity.learn(not w.errors(now=False))
    return bool(bad)


def _probe(p: RemoveLayoutConversions, w: Work, cvt: ttg.ConvertLayoutOp, s: remat.Slice, how: str) -> Figures | None:
    """The figures rewriting by `s` gives when it would be kept (cheaper and valid), always undone."""
    w.budget.spend(len(s.ops) + 1)
    w.journal.begin()
    try:
        materialize.rewrite(w.journal, cvt, s, candidates.direction(how), w.block_loads, set(), w.cache, p.in_place)
    except Exception:  # (as `_trial`: not taken; it says why when tried for real)
        w.undo()
        return None
    fig = w.ledger.update_unless_losing(w.journal.touched, w.figures)
    wins = _wins(fig, w.figures) and not w.errors(now=True)
    w.undo()
    return fig if wins else None


def _floor(w: Work, cvt: ttg.ConvertLayoutOp, s: remat.Slice) -> tuple[int, int, bool] | None:
    """`slice_cost.floor` of the backward trial of `s` on `w`'s module."""
    f, j = w.figures, w.journal
    unused = j.converts if j.maybe_dead is None else j.maybe_dead & j.converts  # what a sweep would find
    return slice_cost.floor(s, cvt, w.ledger.parts, w.ledger.scratch, (f.cost, f.converts, f.slm), unused)


def _wins(new: Figures | None, old: Figures) -> bool:
    """Whether a trial's figures beat the module's (None: costed as losing, `update_unless_losing`)."""
    return new is not None and (new.better_than(old) or _less_slm(new, old))


def _less_slm(new: Figures, old: Figures) -> bool:
    """As costly, as many conversions, less SLM (e.g. converting bf16 before an extf, not f32 after)."""
    return (new.cost, new.converts) == (old.cost, old.converts) and new.slm < old.slm


def _check_bounds(fig: Figures, low: tuple[int, int, bool] | None, rises: bool, before: Figures) -> None:
    """Check mode: a trial made although bounded as a loss has figures within its bounds."""
    if low is not None and (fig.cost < low[0] or fig.converts < low[1] or low[2] and fig.slm < before.slm) or (
            rises and fig.slm <= before.slm):
        raise AssertionError(f"RLC: a trial's figures {fig} below its bound {low, rises} (from {before})")
