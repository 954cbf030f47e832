"""Facts about a loop-invariant mask conjunct `i < r` on the dim a step-1 loop moves (DimPlan.hull).

`single_trip_when_short`: the loop runs at most once whenever the conjunct masks anything (r < size), as in
gemlite's `for k in range(cdiv(K, BLOCK_K))` with `offs_k < K`: then the hull's shape alone is the mask
(the one iteration that may be masked reads columns < r of the first tile; every later one needs r >= size),
and the checked load with padding is exact without a select.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from xpu_passes.transforms.raise_block_pointer.plan_types import Access, key, tile_shape
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Decomposer, Lin


def single_trip_when_short(dec: Decomposer, loop: scf.ForOp, r: Lin, size: int) -> bool:
    """Whether the loop's bound is `(X + c) / d` (arith.divsi, d > 0) with X = r and size - 1 + c < 2d:
    then r <= size - 1 gives a bound < 2, so at most one iteration (lb 0, step 1: the caller's)."""
    div = loop.ub.owner
    if not isinstance(div, arith.DivSIOp):
        return False
    d = dec.scalar(div.rhs).constant
    num = dec.scalar(div.lhs)
    c = num.as_dict().get((), 0)
    return d is not None and d > 0 and key(num - Lin.const(c)) == key(r) and size - 1 + c < 2 * d


def broadcastable(cond: SSAValue, op: Access) -> bool:
    """Whether `cond` (a mask conjunct) has the tile's rank and its size or 1 on every dim."""
    t = cond.type
    return isinstance(t, TensorType) and len(t.get_shape()) == len(tile_shape(op)) and all(
        a in (1, b) for a, b in zip(t.get_shape(), tile_shape(op)))
