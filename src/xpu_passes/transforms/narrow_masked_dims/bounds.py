"""Where a store mask is false: the index along a dim past which it is false whatever the inputs.

`masked_past(mask, d)` is K when the mask is false at every index j >= K along dim d: a conjunct
`x < K` (or `x <= K - 1`, either signedness, or mirrored) where x[j] >= j along d. That holds for a
range from a non-negative start plus any non-negative value, carried through casts that keep the
value (`extsi`), expand_dims, broadcasts and layout conversions; the sum must not overflow its
integer type, which an interval of each value proves (program ids are in [0, 2**31 - 1])."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Operation, SSAValue

from xpu_passes.analysis.values import splat_int
from xpu_passes.dialects.arith import CMPI
from xpu_passes.transforms.base import WorkBudget

Interval = tuple[int, int]
_PID_MAX = 2**31 - 1
_SAME = ("tt.splat", "tt.broadcast", "tt.expand_dims", "ttg.convert_layout", "arith.extsi")


def _width(v: SSAValue) -> int | None:
    t = v.type.element_type if isinstance(v.type, TensorType) else v.type
    return t.width.data if isinstance(t, IntegerType) else None


def _fits(v: SSAValue, r: Interval) -> Interval | None:
    w = _width(v)
    if w is None or w < 2:
        return None
    return r if -(1 << (w - 1)) <= r[0] and r[1] < (1 << (w - 1)) else None


def _constant(v: SSAValue) -> int | None:
    return splat_int(v.owner) if isinstance(v.owner, arith.ConstantOp) else None


def interval(v: SSAValue, budget: WorkBudget) -> Interval | None:
    """Bounds of every element of `v` (integers, signed), when known."""
    budget.spend(1)
    c = _constant(v)
    if c is not None:
        return (c, c)
    op = v.owner
    if not isinstance(op, Operation):
        return None
    if op.name == "tt.get_program_id":
        return (0, _PID_MAX)
    if op.name == "tt.make_range":
        return (op.properties["start"].value.data, op.properties["end"].value.data - 1)  # type: ignore[attr-defined]
    if op.name in _SAME:
        return interval(op.operands[0], budget)
    if op.name in ("arith.addi", "arith.muli"):
        a, b = interval(op.operands[0], budget), interval(op.operands[1], budget)
        if a is None or b is None:
            return None
        if op.name == "arith.addi":
            return _fits(v, (a[0] + b[0], a[1] + b[1]))
        if a[0] >= 0 and b[0] >= 0:
            return _fits(v, (a[0] * b[0], a[1] * b[1]))
    return None


def at_least_index(x: SSAValue, d: int, budget: WorkBudget) -> bool:
    """x[..., j, ...] >= j along dim d (and x >= 0), for every index j."""
    budget.spend(1)
    op = x.owner
    if not isinstance(op, Operation) or not isinstance(x.type, TensorType):
        return False
    if op.name == "tt.make_range":
        return d == 0 and op.properties["start"].value.data >= 0  # type: ignore[attr-defined]
    if op.name in ("arith.extsi", "ttg.convert_layout"):
        return at_least_index(op.operands[0], d, budget)
    if op.name == "tt.expand_dims":
        axis = op.properties["axis"].value.data  # type: ignore[attr-defined]
        return d != axis and at_least_index(op.operands[0], d - (d > axis), budget)
    if op.name == "tt.broadcast":
        src = op.operands[0]
        return (src.type.get_shape()[d] == x.type.get_shape()[d]  # type: ignore[attr-defined]
                and at_least_index(src, d, budget))
    if op.name == "arith.addi" and interval(x, budget) is not None:  # (the sum does not overflow)
        for a, b in (op.operands, reversed(op.operands)):
            r = interval(b, budget)
            if r is not None and r[0] >= 0 and at_least_index(a, d, budget):
                return True
    return False


_BELOW = {CMPI["slt"]: 0, CMPI["ult"]: 0, CMPI["sle"]: 1, CMPI["ule"]: 1}  # x < K + this
_ABOVE = {CMPI["sgt"]: 0, CMPI["ugt"]: 0, CMPI["sge"]: 1, CMPI["uge"]: 1}  # K > x (mirrored)


def masked_past(m: SSAValue, d: int, budget: WorkBudget) -> int | None:
    """K >= 0 when mask `m` is false at every index >= K along dim d; None when not proven."""
    budget.spend(1)
    op = m.owner
    if not isinstance(op, Operation) or not isinstance(m.type, TensorType):
        return None
    if _constant(m) == 0:
        return 0
    if op.name == "arith.andi":
        ks = [k for v in op.operands if (k := masked_past(v, d, budget)) is not None]
        return min(ks) if ks else None
    if op.name == "ttg.convert_layout":
        return masked_past(op.operands[0], d, budget)
    if op.name == "tt.expand_dims":
        axis = op.properties["axis"].value.data  # type: ignore[attr-defined]
        return None if d == axis else masked_past(op.operands[0], d - (d > axis), budget)
    if op.name == "tt.broadcast":
        src = op.operands[0]
        same = src.type.get_shape()[d] == m.type.get_shape()[d]  # type: ignore[attr-defined]
        return masked_past(src, d, budget) if same else None
    if op.name == "arith.cmpi":
        pred = op.properties["predicate"].value.data  # type: ignore[attr-defined]
        lhs, rhs = op.operands
        if pred in _BELOW:
            x, k, extra = lhs, _constant(rhs), _BELOW[pred]
        elif pred in _ABOVE:
            x, k, extra = rhs, _constant(lhs), _ABOVE[pred]
        else:
            return None
        unsigned = pred >= CMPI["ult"]  # (a negative K is a large unsigned bound)
        if k is not None and (k >= 0 or not unsigned) and at_least_index(x, d, budget):
            return max(k + extra, 0)
    return None
