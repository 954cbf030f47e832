"""The rewrite: every value of a class with its dims narrowed; then a layout that spread the narrowed dim
over lanes holds it in one lane (else the lanes would replicate the narrowed values)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.pressure import tensor_bytes
from xpu_passes.layouts.propagation import gathered_off, slice_layout, with_encoding
from xpu_passes.transforms.slice_epilogue.cut import splat, splat_as


@dataclass(frozen=True)
class Narrowing:
    pairs: list[tuple[SSAValue, int]]  # every (value, dim) of the class
    extent: int  # from
    keep: int  # to
    anchor: Operation  # where a remark about it goes


def narrowed_type(t: TensorType, dims: set[int], keep: int, gathered: bool = False) -> TensorType:
    """`t` with `dims` of extent `keep`; `gathered`: in the layout `respread` would give it (the dims held
    in one lane)."""
    shape = [keep if d in dims else s for d, s in enumerate(t.get_shape())]
    enc = t.encoding
    root, sliced = slice_chain(enc)
    if gathered and isinstance(root, ttg.BlockedEncodingAttr):
        for d in {_root_dims(len(root.order), sliced)[d] for d in dims}:
            root = gathered_off(root, d)
        enc = _rewrapped(enc, root)
    return TensorType(t.element_type, shape, enc)


def narrow(n: Narrowing) -> None:
    """Every value of the class with its dims narrowed; ranges and splat constants remade, broadcasts
    that no longer broadcast dropped."""
    dims: dict[int, set[int]] = {}
    vals: dict[int, SSAValue] = {}
    for v, d in n.pairs:
        dims.setdefault(id(v), set()).add(d)
        vals[id(v)] = v
    broadcasts = [v.owner for v in vals.values() if isinstance(v.owner, tt.BroadcastOp)]
    for i, v in vals.items():
        new_t = narrowed_type(v.type, dims[i], n.keep)  # type: ignore[arg-type]
        op = v.owner
        if isinstance(op, Operation) and op.name == "arith.constant":
            Rewriter.replace_op(op, _splat_constant(op, v, new_t))
            continue
        if isinstance(op, tt.MakeRangeOp):
            start = op.start.value.data
            op.properties["end"] = IntegerAttr(start + n.keep, op.properties["end"].type)  # type: ignore[attr-defined]
        Rewriter.replace_value_with_new_type(v, new_t)
    for b in broadcasts:  # (along the narrowed dims only: now the identity)
        if b.operands[0].type == b.results[0].type:
            b.results[0].replace_all_uses_with(b.operands[0])
            Rewriter.erase_op(b)


def _splat_constant(op: Operation, v: SSAValue, t: TensorType) -> Operation:
    """Splat constant `v` (of `op`) remade with type `t`."""
    value = splat(v)
    assert value is not None
    return op.__class__.create(result_types=[t], properties={"value": splat_as(value, t)},
                               attributes=dict(op.attributes))


def slice_chain(enc: Attribute) -> tuple[Attribute, list[int]]:
    """The layout a (nested) slice layout slices, and the dims it slices away, innermost first."""
    dims: list[int] = []
    while isinstance(enc, ttg.SliceEncodingAttr):
        dims.append(enc.dim)
        enc = enc.parent
    return enc, dims[::-1]


def _root_dims(rank: int, sliced: list[int]) -> list[int]:
    """The root layout's dim of each dim of a tensor in a slice of it (`sliced`: innermost first)."""
    dims = list(range(rank))
    for k in sliced:
        del dims[k]
    return dims


def _rewrapped(enc: Attribute, root: Attribute) -> Attribute:
    base, sliced = slice_chain(enc)
    for k in sliced:
        root = slice_layout(k, root)
    return root


def _values(module: Operation) -> Iterator[SSAValue]:
    for op in module.walk():
        yield from op.results
        for region in op.regions:
            for block in region.blocks:
                yield from block.args


def respread(module: Operation, narrowed: list[Attribute]) -> list[tuple[ttg.BlockedEncodingAttr, int]]:
    """A blocked layout of the narrowed values whose every tensor now has extent 1 along a dim it spreads
    over lanes or warps, with them moved to another dim (`gathered_off`), where its tensors then hold fewer
    register bytes per lane: the layouts changed, each with the dim."""
    by_root: dict[Attribute, list[tuple[SSAValue, list[int]]]] = {}
    for v in _values(module):
        t = v.type
        if isinstance(t, TensorType):
            root, sliced = slice_chain(t.encoding)
            if isinstance(root, ttg.BlockedEncodingAttr):
                by_root.setdefault(root, []).append((v, _root_dims(len(root.order), sliced)))
    changed = []
    for root in dict.fromkeys(slice_chain(e)[0] for e in narrowed):
        if not isinstance(root, ttg.BlockedEncodingAttr) or root not in by_root:
            continue
        users = by_root[root]
        for d in range(len(root.order)):
            spread = root.threads_per_warp[d] * root.warps_per_cta[d] * root.size_per_thread[d] > 1
            if not spread or any(v.type.get_shape()[i] != 1 for v, dims in users  # type: ignore[attr-defined]
                                 for i, rd in enumerate(dims) if rd == d):
                continue
            new_root = gathered_off(root, d)
            if new_root == root:
                break
            types = [(v, _rewrapped(v.type.encoding, new_root)) for v, _ in users]  # type: ignore[attr-defined]
            before = sum(tensor_bytes(v.type) for v, _ in users)
            after = sum(tensor_bytes(with_encoding(v.type, e)) for v, e in types)
            consts = [v for v, _ in users if isinstance(v.owner, Operation) and v.owner.name == "arith.constant"]
            if after < before and all(splat(v) is not None for v in consts):
                for v, e in types:
                    if v in consts:
                        Rewriter.replace_op(v.owner, _splat_constant(v.owner, v, with_encoding(v.type, e)))
                    else:
                        Rewriter.replace_value_with_new_type(v, with_encoding(v.type, e))
                changed.append((root, d))
            break
    return changed
