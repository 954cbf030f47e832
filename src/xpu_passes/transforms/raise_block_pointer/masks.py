"""Masks of tensor-of-pointer accesses read as conjunctions (`Decomposer.mask`, raise_block_pointer).

A mask is split at `arith.andi` (through broadcasts, layout conversions, expand_dims and unit-dim reshapes) into
per-dim bounds `pos + i < bound` (`arith.cmpi slt`, or `sgt` mirrored, of an index with one unit-stride dim
against a uniform value) and the rest; conjuncts true everywhere (`x >= 0`, x provably >= 0) are dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from xpu_passes.dialects import tt
from xpu_passes.transforms.raise_block_pointer.forms import Bound, MaskParts, Unsupported
from xpu_passes.transforms.raise_block_pointer.poly import ONE
from xpu_passes.transforms.raise_block_pointer.signs import nonneg

if TYPE_CHECKING:
    from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Decomposer

_CONVERT = "ttg.convert_layout"  # moves values between layouts; does not change them


def _shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(v.type.get_shape()) if isinstance(v.type, TensorType) else ()


def read_mask(dec: Decomposer, v: SSAValue) -> MaskParts:
    """A mask as conjunction: per-dim bounds `pos + i < bound`, and the rest."""
    parts = MaskParts()
    _conj(dec, v, list(range(len(_shape(v)))), parts)
    return parts


def _conj(dec: Decomposer, v: SSAValue, dim_map: list[int], parts: MaskParts) -> None:
    op = v.owner
    if isinstance(op, arith.AndIOp):
        _conj(dec, op.lhs, dim_map, parts)
        _conj(dec, op.rhs, dim_map, parts)
        return
    if isinstance(op, tt.BroadcastOp) or (isinstance(op, Operation) and op.name == _CONVERT):
        _conj(dec, op.operands[0], dim_map, parts)
        return
    if isinstance(op, tt.ExpandDimsOp):
        ax = op.axis.value.data
        _conj(dec, op.src, dim_map[:ax] + dim_map[ax + 1 :], parts)
        return
    if isinstance(op, tt.ReshapeOp) and op.allow_reorder is None:
        src, dst = _shape(op.src), _shape(v)
        if [a for a in src if a != 1] == [b for b in dst if b != 1]:  # only unit dims added or removed
            live = [dim_map[e] for e, b in enumerate(dst) if b != 1]
            it = iter(live)
            _conj(dec, op.src, [next(it) if a != 1 else -1 for a in src], parts)
            return
    if isinstance(op, Operation) and op.name == "arith.cmpi":
        if _always_true(dec, op):
            return
        b = _bound(dec, op, dim_map)
        if b is not None:
            parts.bounds.append(b)
            return
    parts.others.append(v)


def _always_true(dec: Decomposer, op: Operation) -> bool:
    """`x >= 0` (or `0 <= x`) with x provably non-negative: a conjunct that masks nothing."""
    pred = op.properties["predicate"].value.data  # type: ignore[attr-defined]
    lhs, rhs = op.operands
    if pred == 3:  # sle: 0 <= x
        lhs, rhs = rhs, lhs
    elif pred != 5:  # sge
        return False
    try:
        x, zero = dec.index(lhs), dec.index(rhs)
    except Unsupported:
        return False
    if not zero.uniform or zero.base.constant != 0:
        return False
    return nonneg(x.base) and all(t is None or (nonneg(t.pos) and nonneg(t.stride)) for t in x.dims)


def _bound(dec: Decomposer, op: Operation, dim_map: list[int]) -> Bound | None:
    pred = op.properties["predicate"].value.data  # type: ignore[attr-defined]
    lhs, rhs = op.operands
    if pred == 4:  # sgt: bound > idx
        lhs, rhs = rhs, lhs
    elif pred != 2:  # slt only: signed, strict, as Triton's tutorials write it
        return None
    try:
        idx, bnd = dec.index(lhs), dec.index(rhs)
    except Unsupported:
        return None
    live = [d for d, t in enumerate(idx.dims) if t is not None]
    if not bnd.uniform or len(live) != 1 or idx.base.terms:
        return None
    t = idx.dims[live[0]]
    assert t is not None
    if t.stride != ONE:
        return None
    if dim_map[live[0]] < 0:  # a unit dim a reshape removed
        return None
    return Bound(dim_map[live[0]], t.pos, bnd.base, t.wrap, op)
