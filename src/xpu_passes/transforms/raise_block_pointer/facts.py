"""Facts about values the decomposition asks: whether a value is loaded from memory, reaches a
loop's induction variable, or is defined outside a loop.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import arith
from xdsl.ir import Block, Operation, SSAValue

from xpu_passes.dialects import tt


# ------------------------------------------------------------------ facts


def _loads_from_memory(op: Operation, budget: int = 64) -> bool:
    """Whether `op`'s value depends on a `tt.load` (a short walk up its operands)."""
    work, seen = [op], set()
    while work and budget > 0:
        o = work.pop()
        budget -= 1
        if isinstance(o, tt.LoadOp):
            return True
        for v in o.operands:
            if isinstance(v.owner, Operation) and v.owner not in seen:
                seen.add(v.owner)
                work.append(v.owner)
    return False


def _reaches(v: SSAValue, arg: SSAValue, budget: int = 32) -> bool:
    """Whether `v` is `arg` or an `arith.addi` chain over it (the carried side of an increment)."""
    while budget > 0:
        if v is arg:
            return True
        op = v.owner
        if not isinstance(op, arith.AddiOp):
            return False
        v = op.lhs if _reaches(op.lhs, arg, budget - 1) else op.rhs
        budget -= 1
    return False


def defined_outside(x: Iterable[SSAValue], op: Operation) -> bool:
    """Whether every value is defined outside (and so dominates) `op`'s regions."""
    for v in x:
        owner = v.owner
        o = owner.parent_op() if isinstance(owner, Block) else owner
        while o is not None:
            if o is op:
                return False
            o = o.parent_op()
    return True
