"""A conversion's candidate rewrites for RemoveLayoutConversions, and why none is taken.

For one `ttg.convert_layout`, `options` walks the backward and the forward slice
(`transforms/remove_layout_conversions/remat.py`), estimates each (`transforms/remove_layout_conversions/slice_cost.py`) and lists the rewrites
worth trying, cheapest first; `Plan.why` says why none makes the module cheaper.

A forward slice that cannot sort before the backward one is estimated only if the
backward trial is not kept (on sparsemax_fwd most forward slices span the rest of the
network and tie with a small backward one): what its estimate reads (the slice, use
lists, types) is what it was, since a trial not kept is undone exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xdsl.dialects import scf
from xdsl.ir import Operation

from xpu_passes.dialects import tt, ttg
from xpu_passes.transforms.remove_layout_conversions import costs
from xpu_passes.transforms.remove_layout_conversions import remat, remat_forward, remat_loads
from xpu_passes.transforms.remove_layout_conversions import slice_cost
from xpu_passes.layouts.propagation import encoding

Estimate = tuple[int, int]  # (weighted cost net of the conversions left dead, -conversions saved)


def least(s: remat.Slice, target: Operation) -> Estimate:
    """A lower bound of `slice_cost.estimate(s, target)` when `s` reads through no conversion
    but `target`: then none is left dead, boundaries and foreign users cost >= 0 and add
    conversions, and only scan/reduce scratch can lower the cost."""
    layout = s.layout
    low = 0
    for op in slice_cost.scratch_ops(s.ops):
        if op.results[0] in layout:
            change = slice_cost.change_of(op, layout[op.results[0]])  # type: ignore[arg-type]
            if change < 0:
                low += change * costs.weight(op.results[0])
    return low, -1


def _reads_through(s: remat.Slice, target: Operation) -> bool:
    """Whether `s` recomputes a value through a conversion other than `target`."""
    return any(type(v.owner) is ttg.ConvertLayoutOp and v.owner is not target for v in s.layout)


class Plan:
    """The rewrites to try for one conversion, cheapest first by their slices' estimates."""

    def __init__(self, cvt: ttg.ConvertLayoutOp, saved: int, found: list, later: remat.Slice | None,
                 refused: bool, back: remat.Slice, fwd: remat.Slice) -> None:
        self.cvt, self.saved, self.found, self.later, self.refused = cvt, saved, found, later, refused
        self.slices = {"backward": back, "forward": fwd}

    def good(self) -> list[str]:
        """Those worth trying (their cost at most what the conversion costs), estimated so far."""
        return [o[2] for o in self.found if o[0] <= self.saved]

    def estimate_of(self, how: str) -> Estimate | None:
        return next((o[:2] for o in self.found if o[2] == how), None)

    def rival(self, how: str) -> str | None:
        """The other of `how` and its cut variant, when both are worth trying."""
        other = how[:-4] if how.endswith("-cut") else how + "-cut"
        return other if other in self.slices and other in self.good() else None

    def ties(self) -> set[str]:
        return {o[2] for o in self.found if o[0] == self.saved and o[1] >= 0}

    def tries(self) -> Iterator[str]:
        """`good()` in order; a deferred forward slice is estimated when the ones before it are done
        (none kept: the module is as it was)."""
        done = 0
        while True:
            hows = self.good()
            if done < len(hows):
                done += 1
                yield hows[done - 1]
            elif self.later is not None:
                self._estimate_later()
            else:
                return

    def _estimate_later(self) -> None:
        fwd, self.later = self.later, None
        assert fwd is not None
        self.found.append((*slice_cost.estimate(fwd, self.cvt), "forward", fwd))
        self.found.sort(key=lambda o: o[:2])

    def why(self) -> str:
        """Why none is cheaper, on the module as it is now (trials not kept are undone)."""
        if self.later is not None:
            self._estimate_later()
        walked = self.slices["forward"]
        if self.refused:
            walked = remat.Slice(load_ok=walked.load_ok, reuse=walked.reuse)
            remat_forward.forward(self.cvt, walked)
        return why(self.slices["backward"], walked, self.found, self.saved)


def options(cvt: ttg.ConvertLayoutOp, block_loads: set[Operation], reuse: remat.Reuse | None = None,
            check: bool = False) -> Plan | str:
    """The rewrites worth trying (`Plan`), or why none (`reuse`: copies slices may read, `Slice.reuse`;
    `check`: the pass's check mode also walks what it skips, and holds the skipping to it)."""
    target = encoding(cvt.result.type)
    saved = costs.conversion_cost(cvt.src.type, target) * costs.weight(cvt.result) if target else 0
    back = remat.Slice(load_ok=block_loads.__contains__, reuse=reuse)
    fwd = remat.Slice(load_ok=block_loads.__contains__, reuse=reuse)
    found = []  # (weighted cost, -conversions saved, how, slice): cheapest first, then fewest conversions
    # A slice's cost is net of the other conversions it leaves dead (a chain goes as one).
    if target is not None and remat.backward(cvt.src, target, back, cvt):
        found.append((*slice_cost.estimate(back, cvt), "backward", back))
    # A forward walk bound to fail is skipped: only its reason needs it, asked for when nothing is kept.
    refused = remat_forward.forward_refused(cvt)
    if refused and check and remat_forward.forward(cvt, remat.Slice(load_ok=back.load_ok)):
        raise AssertionError("RLC: forward_refused refused a forward propagation that succeeds")
    later = None
    merged = _merged_forward(cvt, back.load_ok, reuse)
    if merged is not None:
        fwd = merged
        found.append((*slice_cost.estimate(fwd, cvt), "forward", fwd))
    elif not refused and remat_forward.forward(cvt, fwd, admitted=True):
        # Sorted after a backward slice worth trying whatever its estimate: estimated when reached.
        if found and found[0][0] <= saved and not _reads_through(fwd, cvt) and found[0][:2] <= least(fwd, cvt):
            later = fwd
            if check and slice_cost.estimate(fwd, cvt) < found[0][:2]:
                raise AssertionError("RLC: a deferred forward slice is cheaper than the backward one")
        else:
            found.append((*slice_cost.estimate(fwd, cvt), "forward", fwd))
    cuts = _cut_variants(cvt, found, back.load_ok, reuse)
    found.sort(key=lambda o: o[:2])
    # Ties are tried too: the same elements moved in a narrower type need less SLM.
    plan = Plan(cvt, saved, found, later, refused, back, fwd)
    plan.slices.update(cuts)
    return plan if plan.good() else plan.why()


def _cut_variants(cvt: ttg.ConvertLayoutOp, found: list, load_ok: Callable[[Operation], bool],
                  reuse: remat.Reuse | None) -> dict[str, remat.Slice]:
    """A forward slice in `found` that recomputes reductions' operand chains to have their results
    in its layout (`Slice.crossed`) gets a variant converting some of those results instead, added
    as "forward-cut": each reduction whose price rises there, in the order reached, is cut when that
    lowers the estimate.
    Which of the two is kept is the figures' call (trials). celoss BLOCK_D=16: re-laying a one-hot
    sum carried in a loop to meet a 1x16 vector after it moves its reduction's rows across all
    lanes, 16 SLM round trips per lane instead of 1, where converting the 16 sums costs one; the
    running max and sum beside it are re-laid (that removes the loop's conversion of its load)."""
    for est, tie, how, full in list(found):
        if how != "forward" or not full.crossed:
            continue
        best, best_est = None, (est, tie)
        # Only a reduction whose price rises in the slice's layout is worth cutting (a walk each).
        rising = [r for r in dict.fromkeys(full.crossed)
                  if (at := full.layout.get(r.results[0])) is not None and slice_cost.change_of(r, at) > 0]
        for red in rising:
            if best is not None and red not in best.crossed:
                continue  # reached only through a reduction cut already
            trial = remat.Slice(load_ok=load_ok, reuse=reuse, cut=(best.cut if best else frozenset()) | {red})
            if remat_forward.forward(cvt, trial, admitted=True, frontier=bool(full.frontier)):
                got = slice_cost.estimate(trial, cvt)
                if got < best_est:
                    best, best_est = trial, got
        if best is not None:
            found.append((*best_est, "forward-cut", best))
            return {"forward-cut": best}
    return {}


def direction(how: str) -> str:
    """"backward" or "forward": how a candidate (`Plan.tries`) rewrites."""
    return how.partition("-")[0]


def duplicating(cvt: ttg.ConvertLayoutOp, block_loads: set[Operation],
                reuse: remat.Reuse | None = None) -> tuple[Estimate, remat.Slice] | None:
    """The backward slice that gives an scf.for a new iter_arg in the target layout for each
    carried value it reaches (`Slice.dup_loops`), the old ones left to their other users, when
    it reaches one and is estimated worth trying (what triton's pass does to loop arguments:
    tried when neither rewrite that retypes them in place was kept); else None."""
    target = encoding(cvt.result.type)
    if target is None or not _in_or_after_loop(cvt):
        return None
    s = remat.Slice(load_ok=block_loads.__contains__, reuse=reuse, dup_loops=True)
    if not remat.backward(cvt.src, target, s, cvt) or not s.dups:
        return None
    if any(type(o) is tt.LoadOp and not remat_loads.cheap_load(o) for o in s.ops):  # (the old chain keeps its load)
        return None  # a copy would read memory twice
    saved = costs.conversion_cost(cvt.src.type, target) * costs.weight(cvt.result)
    est = slice_cost.estimate(s, cvt)
    return (est, s) if est[0] <= saved else None


def _in_or_after_loop(op: Operation) -> bool:
    """Whether an scf.for encloses `op` or precedes it in its block or an enclosing one (what a
    backward slice must reach for a loop-carried value)."""
    while op is not None:
        prev = op.prev_op
        while prev is not None:
            if isinstance(prev, scf.ForOp):
                return True
            prev = prev.prev_op
        op = op.parent_op()  # type: ignore[assignment]
        if isinstance(op, scf.ForOp):
            return True
    return False


def _merged_forward(cvt: ttg.ConvertLayoutOp, load_ok: Callable[[Operation], bool],
                    reuse: remat.Reuse | None) -> remat.Slice | None:
    """More replicas in the source (forward refused alone): the forward slice that stops at stores
    (converted there) when it merges conversions on their way to a store (users of two converted
    values computed once in the source layout, as triton's pass does), else None."""
    if encoding(cvt.src.type) is None or not remat_forward.more_replicas(cvt):
        return None
    merged = remat.Slice(load_ok=load_ok, reuse=reuse)
    if remat_forward.forward(cvt, merged, admitted=True, frontier=True) and merged.frontier and _reads_through(merged, cvt):
        return merged
    return None


def why(back: remat.Slice, fwd: remat.Slice, found: list, saved: int) -> str:
    """Why neither slice is taken (`found`: the (cost, tie-breaker, how, slice) of those walked)."""
    cost_of = {how: cost for cost, _, how, _ in found}
    parts = []
    for how, sl in (("backward", back), ("forward", fwd)):
        if how not in cost_of:
            parts.append(f"{how}: {sl.why or 'no target layout'}")
            continue
        because = f" ({'; '.join(dict.fromkeys(sl.notes))})" if sl.notes else ""
        parts.append(f"{how} would convert {cost_of[how]} weighted bytes to save {saved}{because}")
    return "; ".join(parts)
