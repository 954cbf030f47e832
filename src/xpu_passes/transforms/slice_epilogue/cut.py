"""Register slices of a tensor: cuts on register bits (tt.reshape/tt.trans/tt.split, no data moved)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import from_linear
from xpu_passes.layouts.linear import IN_DIMS, LinearLayout
from xpu_passes.layouts.shape_infer import reshape_linear


def _permute(ll: LinearLayout, perm: list[int]) -> LinearLayout:
    return LinearLayout(tuple(ll.shape[p] for p in perm),
                        **{d: tuple(tuple(b[p] for p in perm) for b in ll.bases(d)) for d in IN_DIMS})  # fmt: skip


@lru_cache(maxsize=256)
def _encoding(ll: LinearLayout) -> Attribute:
    """(Keyed by value, an immutable attribute: a slicing makes the same few layouts many times.)"""
    return from_linear(ll)


def tensor_of(elem: Attribute, ll: LinearLayout) -> TensorType:
    return TensorType(elem, list(ll.shape), _encoding(ll))


@dataclass(frozen=True)
class Cut:
    """How a tensor in layout `whole` is cut in two on one register bit, and the layouts on the way."""

    whole: LinearLayout
    reshaped: LinearLayout  # the bit's dim split as [hi, 2, lo]
    perm: list[int]  # the 2 moved last
    moved: LinearLayout  # the 2 last, its register basis first (tt.split's rule)
    half: LinearLayout  # each half

    @staticmethod
    def on(ll: LinearLayout, reg: int) -> Cut:
        basis = ll.register[reg]
        d = next(i for i, c in enumerate(basis) if c)
        p = basis[d].bit_length() - 1
        hi, lo = ll.shape[d] >> (p + 1), 1 << p
        shape = [*ll.shape[:d], *([hi] if hi > 1 else []), 2, lo, *ll.shape[d + 1:]]
        two = d + (1 if hi > 1 else 0)
        reshaped = reshape_linear(ll, shape)
        perm = [i for i in range(len(shape)) if i != two] + [two]
        t = _permute(reshaped, perm)
        unit = tuple([0] * (len(shape) - 1) + [1])
        i = t.register.index(unit)
        regs = (t.register[i], *t.register[:i], *t.register[i + 1:])
        moved = LinearLayout(t.shape, register=regs, lane=t.lane, warp=t.warp, block=t.block)
        half = LinearLayout(t.shape[:-1], **{k: tuple(b[:-1] for b in moved.bases(k)) for k in IN_DIMS
                                             if k != "register"}, register=tuple(b[:-1] for b in regs[1:]))  # fmt: skip
        return Cut(ll, reshaped, perm, moved, half)

    def split(self, b: Builder, v: SSAValue) -> tuple[SSAValue, SSAValue]:
        elem = v.type.element_type  # type: ignore[attr-defined]
        r = b.add(tt.ReshapeOp.build(operands=[v], result_types=[tensor_of(elem, self.reshaped)]))
        t = b.add(tt.TransOp.build(operands=[r], result_types=[tensor_of(elem, _permute(self.reshaped, self.perm))],
                                   properties={"order": DenseArrayBase.from_list(i32, self.perm)}))  # fmt: skip
        c = t if self.moved == _permute(self.reshaped, self.perm) else \
            b.add(ttg.ConvertLayoutOp.build(operands=[t], result_types=[tensor_of(elem, self.moved)]))
        s = tt.SplitOp.build(operands=[c], result_types=[tensor_of(elem, self.half)] * 2)
        b.add(s)
        return s.results[0], s.results[1]

    def join(self, b: Builder, lo: SSAValue, hi: SSAValue) -> SSAValue:
        elem = lo.type.element_type  # type: ignore[attr-defined]
        j = b.add(tt.JoinOp.build(operands=[lo, hi], result_types=[tensor_of(elem, self.moved)]))
        c = j if self.moved == _permute(self.reshaped, self.perm) else \
            b.add(ttg.ConvertLayoutOp.build(operands=[j], result_types=[tensor_of(elem, _permute(self.reshaped, self.perm))]))
        inv = [self.perm.index(i) for i in range(len(self.perm))]
        t = b.add(tt.TransOp.build(operands=[c], result_types=[tensor_of(elem, self.reshaped)],
                                   properties={"order": DenseArrayBase.from_list(i32, inv)}))  # fmt: skip
        return b.add(tt.ReshapeOp.build(operands=[t], result_types=[tensor_of(elem, self.whole)]))


class Builder:
    """Appends to `block`; an op made here takes `loc` (the store's) unless given its own."""

    def __init__(self, block: Block, loc: Attribute) -> None:
        self.block, self.loc = block, loc

    def add(self, op: Operation, loc: Attribute | None = None) -> SSAValue:
        op.location = loc or self.loc
        self.block.add_op(op)
        return op.results[0]


def cut_bits(ll: LinearLayout, slice_registers: int) -> list[tuple[int, ...]]:
    """The register bases to cut on (highest first) so each slice holds at most `slice_registers`."""
    live = [b for b in ll.register if any(b)]  # (a zero basis repeats values: nothing to cut)
    keep = max(slice_registers, 1).bit_length() - 1
    return list(reversed(live))[: max(len(ll.register) - keep, 0)]


def splat(v: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The value of a splat constant tensor (re-made in each slice's layout: nothing to split)."""
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr) and op.value.is_splat():
        return op.value
    return None


def splat_as(value: DenseIntOrFPElementsAttr, t: TensorType) -> DenseIntOrFPElementsAttr:
    """Splat `value`'s one element as a dense attribute of type `t` (another shape or layout)."""
    size = value.type.element_type.compile_time_size  # type: ignore[attr-defined]
    n = 1
    for d in t.get_shape():
        n *= d
    return DenseIntOrFPElementsAttr(t, type(value.data)(value.data.data[:size] * n))


def splat_in(value: DenseIntOrFPElementsAttr, ll: LinearLayout) -> arith.ConstantOp:
    t = tensor_of(value.type.element_type, ll)
    return arith.ConstantOp(splat_as(value, t), t)
