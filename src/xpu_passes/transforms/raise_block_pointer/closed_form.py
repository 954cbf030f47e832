"""Where a loop-carried pointer is at each iteration (`Planner._carried`): its closed form per dim.

A pointer advanced `adv` rows (or columns) per iteration of `scf.for iv = lb to ub step s` (s a positive
constant dividing adv) is at `pos0 + (iv - lb) * k` with k = adv / s, exact since iv - lb is a multiple of
s. lb is any loop-invariant i32 value, not only 0: the causal attention's diagonal loop
`for start_n in range(lo, hi, BLOCK_N)` starts at `lo = start_m * BLOCK_M` with pointers made at row lo, and
its mask `start_n + offs_n < N` is then the bounds check of that dim (plan.Planner._match).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import i32

from xpu_passes.transforms.raise_block_pointer.plan_types import DimPlan
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Decomposer, Lin


def closed_form(dec: Decomposer, loop: scf.ForOp, dims: list[DimPlan]) -> tuple[Lin | None, list[int]]:
    """(lb as a polynomial, or None where no closed form holds; k per dim: 0 where the dim does not move,
    -1 where it moves with no closed form, so that no mask on it can be matched)."""
    lb: Lin | None = dec.scalar(loop.lb)
    if loop.lb.type != i32 and lb.constant != 0:  # (the mask's i32 positions against an i64 lb)
        lb = None
    stp = dec.scalar(loop.step).constant
    ks = [0] * len(dims)
    for d, dp in enumerate(dims):
        if dp.adv and lb is not None and stp and stp > 0 and dp.adv % stp == 0:
            ks[d] = dp.adv // stp
        elif dp.adv:
            ks[d] = -1
    return lb, ks
