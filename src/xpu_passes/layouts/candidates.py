"""A conversion's candidate rewrites for RemoveLayoutConversions, and why none is taken.

For one `ttg.convert_layout`, `options` walks the backward and the forward slice
(`layouts/remat.py`), estimates each (`layouts/slice_cost.py`) and lists the rewrites
worth trying, cheapest first; `why` says why none makes the module cheaper.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation

from xpu_passes.dialects import ttg
from xpu_passes.layouts import costs, remat, slice_cost, solution
from xpu_passes.layouts.propagation import encoding

Options = tuple[list[str], set[str], Callable[[], str], dict[str, remat.Slice]]


def options(cvt: ttg.ConvertLayoutOp, block_loads: set[Operation]) -> Options | str:
    """The rewrites worth trying, cheapest first by the slice's own estimate (those that only
    tie, and why none is cheaper (asked for before any trial or after all are undone), and the
    slices), or why none."""
    target = encoding(cvt.result.type)
    saved = costs.conversion_cost(cvt.src.type, target) * costs.weight(cvt.result) if target else 0
    back = remat.Slice(load_ok=block_loads.__contains__)
    fwd = remat.Slice(load_ok=block_loads.__contains__)
    found = []  # (weighted cost, -conversions saved, how, slice): cheapest first, then fewest conversions
    # A slice's cost is net of the other conversions it leaves dead (a chain goes as one).
    if target is not None and remat.backward(cvt.src, target, back):
        found.append((*slice_cost.estimate(back, cvt), "backward", back))
    # A forward walk bound to fail is skipped: only its reason needs it, asked for when nothing is kept.
    refused = remat.forward_refused(cvt)
    if refused and solution.CHECK_INCREMENTAL and remat.forward(cvt, remat.Slice(load_ok=back.load_ok)):
        raise AssertionError("RLC: forward_refused refused a forward propagation that succeeds")
    if not refused and remat.forward(cvt, fwd):
        found.append((*slice_cost.estimate(fwd, cvt), "forward", fwd))
    found.sort(key=lambda o: o[:2])
    # Ties are tried too: the same elements moved in a narrower type need less SLM.
    good = [o[2] for o in found if o[0] <= saved]
    ties = {o[2] for o in found if o[0] == saved and o[1] >= 0}

    def why_not() -> str:  # on the module as it is now (trials not kept are undone)
        walked = fwd
        if refused:
            walked = remat.Slice(load_ok=back.load_ok)
            remat.forward(cvt, walked)
        return why(back, walked, found, saved)

    return (good, ties, why_not, {"backward": back, "forward": fwd}) if good else why_not()


def why(back: remat.Slice, fwd: remat.Slice, found: list, saved: int) -> str:
    """Why neither slice is taken (`found`: the (cost, tie-breaker, how, slice) of those walked)."""
    cost_of = {how: cost for cost, _, how, _ in found}
    parts = []
    for how, sl in (("backward", back), ("forward", fwd)):
        if how not in cost_of:
            parts.append(f"{how}: {sl.why or 'no target layout'}")
            continue
        because = f" ({'; '.join(dict.fromkeys(sl.notes))})" if sl.notes else ""
        parts.append(f"{how} would convert {cost_of[how]} weighted elements to save {saved}{because}")
    return "; ".join(parts)
