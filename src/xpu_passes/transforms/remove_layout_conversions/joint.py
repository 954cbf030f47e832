"""Joint rewrites: follow-ups judged with the backward rewrite that made them possible.

A backward rewrite that retypes loop-carried values leaves their other users reading a
conversion back to the old layout. Alone it may cost what it saves: the online max and
sum of softmax, attention and cross entropy carry vectors whose uses need them in a
slice layout in several places, and removing one of those conversions leaves another
back. Triton's pass moves such loops whole. Here the conversions the trial added are
rewritten in the same trial, each by its cheapest option, and the whole is judged once
(kept only when the module gets cheaper, like any trial).
"""

from __future__ import annotations

from xdsl.ir import Operation

from xpu_passes.dialects import ttg
from xpu_passes.ir.journal import Journal
from xpu_passes.transforms.remove_layout_conversions import candidates, materialize
from xpu_passes.transforms.remove_layout_conversions.remat_cache import RematCache


def follow_up(j: Journal, loads: set[Operation], new_loads: set[Operation], cache: RematCache) -> bool:
    """Rewrite the live conversions this session built (in the order built) by their cheapest
    option; whether any was rewritten. A rewrite that fails raises (the caller undoes the trial)."""
    done = False
    for c in j.created_ops():
        if type(c) is not ttg.ConvertLayoutOp or c.parent is None or c.results[0].first_use is None:
            continue
        found = candidates.options(c, loads, cache.lookup)  # type: ignore[arg-type]
        if isinstance(found, str):
            continue
        for how in found.tries():
            s = found.slices[how]
            materialize.rewrite(j, c, s, candidates.direction(how), loads, new_loads, cache)  # type: ignore[arg-type]
            done = True
            break
    return done
