"""Signs of scalar i32 values and positions: what raising may assume is >= 0 without a run-time check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, scf
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xpu_passes.analysis.values import splat_int
from xpu_passes.dialects import tt

if TYPE_CHECKING:
    from xpu_passes.transforms.raise_block_pointer.poly import Lin


def nonneg_value(v: SSAValue, seen: frozenset[SSAValue] = frozenset()) -> bool:
    """Whether a scalar i32 is provably >= 0 (program ids, constants, loop counters...)."""
    if v in seen:
        return False
    seen = seen | {v}
    op = v.owner
    if isinstance(op, arith.ConstantOp):
        c = splat_int(op)
        return c is not None and c >= 0
    if isinstance(op, tt.GetProgramIdOp | tt.GetNumProgramsOp):
        return True
    if isinstance(op, arith.AddiOp | arith.MuliOp):
        return nonneg_value(op.lhs, seen) and nonneg_value(op.rhs, seen)
    if isinstance(op, arith.RemSIOp | arith.RemUIOp):  # a remainder takes the dividend's sign
        return nonneg_value(op.lhs, seen)
    if isinstance(op, arith.DivSIOp | arith.DivUIOp):
        c = splat_int(op.rhs.owner) if isinstance(op.rhs.owner, arith.ConstantOp) else None
        return nonneg_value(op.lhs, seen) and c is not None and c > 0
    name = op.name if isinstance(op, Operation) else ""
    if name == "arith.select":  # e.g. `x > 0 ? x : 0`, the trip count raising writes
        cond, t, f = op.operands
        return nonneg_value(f, seen) and (nonneg_value(t, seen) or _nonneg_when(cond, t, seen))
    if name == "arith.maxsi":
        return nonneg_value(op.operands[0], seen) or nonneg_value(op.operands[1], seen)
    if name == "arith.minsi":
        return nonneg_value(op.operands[0], seen) and nonneg_value(op.operands[1], seen)
    if isinstance(v, BlockArgument) and isinstance(v.owner, Block):
        loop = v.owner.parent_op()
        if isinstance(loop, scf.ForOp) and v.index == 0:
            step = loop.step.owner
            c = splat_int(step) if isinstance(step, arith.ConstantOp) else None
            return c is not None and c > 0 and nonneg_value(loop.lb, seen)
    return False


def _nonneg_when(cond: SSAValue, t: SSAValue, seen: frozenset[SSAValue]) -> bool:
    """Whether `cond` true implies `t >= 0`: `t > c`, `t >= c`, `c < t` or `c <= t` with c >= 0."""
    op = cond.owner
    if not (isinstance(op, Operation) and op.name == "arith.cmpi"):
        return False
    pred = op.properties["predicate"].value.data  # type: ignore[attr-defined]
    lhs, rhs = op.operands
    if pred in (4, 5):  # sgt, sge
        return lhs is t and nonneg_value(rhs, seen)
    if pred in (2, 3):  # slt, sle
        return rhs is t and nonneg_value(lhs, seen)
    return False


def nonneg(x: Lin) -> bool:
    """Every coefficient positive and every factor provably non-negative."""
    return all(c >= 0 and all(nonneg_value(v) for v in m) for m, c in x.terms)
