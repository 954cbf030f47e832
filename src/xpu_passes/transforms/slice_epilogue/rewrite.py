"""The rewrite: the epilogue under its bounds guard, computed slice by slice."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, TensorType, i1, i64
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import arith as arith_compat
from xpu_passes.dialects import ttg
from xpu_passes.layouts.linear import LinearLayout
from xpu_passes.transforms.slice_epilogue.cut import Builder, Cut, splat, splat_in, tensor_of
from xpu_passes.transforms.slice_epilogue.find import Epilogue


def sliced(b: Builder, ep: Epilogue, splats: dict[SSAValue, DenseIntOrFPElementsAttr], ll: LinearLayout,
           values: dict[SSAValue, SSAValue], bits: list[tuple[int, ...]]) -> SSAValue:  # fmt: skip
    """The stored value computed on `values` (roots -> tensors in layout `ll`), slice by slice;
    `splats`: the roots that are splat constants (re-made in each slice)."""
    if not bits:
        out = dict(values)
        for r, value in splats.items():
            out[r] = b.add(splat_in(value, ll), r.owner.location)  # type: ignore[union-attr]
        for op in ep.ops:
            new = type(op).create(operands=[out.get(v, v) for v in op.operands],
                                  result_types=[tensor_of(r.type.element_type, ll) for r in op.results],  # type: ignore[attr-defined]
                                  properties=dict(op.properties), attributes=dict(op.attributes))  # fmt: skip
            b.add(new, op.location)
            out.update(zip(op.results, new.results))
        return out[ep.store.value]
    cut = Cut.on(ll, ll.register.index(bits[0]))
    kept = [i for i in range(len(ll.register)) if ll.register[i] != bits[0]]
    rest = [cut.half.register[kept.index(ll.register.index(x))] for x in bits[1:]]
    parts = {v: cut.split(b, w) for v, w in values.items()}
    lo = sliced(b, ep, splats, cut.half, {v: p[0] for v, p in parts.items()}, rest)
    hi = sliced(b, ep, splats, cut.half, {v: p[1] for v, p in parts.items()}, rest)
    return cut.join(b, lo, hi)


def rewrite(ep: Epilogue, bits: list[tuple[int, ...]], ll: LinearLayout) -> None:
    store = ep.store
    vt = store.value.type
    assert isinstance(vt, TensorType)
    off, bound = ep.cond_from
    at = InsertPoint.before(store)
    ext = arith_compat.cast("arith.extsi", off, i64) if off.type != i64 else None
    if ext is not None:
        ext.location = store.location
        Rewriter.insert_op(ext, at)
    cond = arith_compat.CmpiOp.build(operands=[ext.results[0] if ext else off, bound], result_types=[i1],
                                     properties={"predicate": IntegerAttr(arith_compat.CMPI["slt"], i64)})  # fmt: skip
    cond.location = store.location
    Rewriter.insert_op(cond, at)
    then = Block()
    b = Builder(then, store.location)
    splats = {r: value for r in ep.roots if (value := splat(r)) is not None}
    # registers renumbered once, the cut bits first (tt.split takes register 0), then as they were
    ordered = LinearLayout(ll.shape, register=(*bits, *(x for x in ll.register if x not in bits)),
                           lane=ll.lane, warp=ll.warp, block=ll.block)  # fmt: skip
    values = {r: b.add(ttg.ConvertLayoutOp.build(operands=[r], result_types=[tensor_of(r.type.element_type, ordered)]))  # type: ignore[attr-defined]
              for r in ep.roots if r not in splats}  # fmt: skip
    out = sliced(b, ep, splats, ordered, values, [ordered.register[i] for i in range(len(bits))])
    back = b.add(ttg.ConvertLayoutOp.build(operands=[out], result_types=[vt]))
    if_op = scf.IfOp(cond.results[0], [], Region([then]))
    if_op.location = store.location
    Rewriter.insert_op(if_op, at)
    store.detach()
    store.operands[1] = back
    yield_op = scf.YieldOp()
    yield_op.location = store.location
    then.add_ops([store, yield_op])
    for op in reversed(ep.ops):
        Rewriter.erase_op(op)
    for r in ep.roots:  # constants only the epilogue read
        if r in splats and not r.uses:
            Rewriter.erase_op(r.owner)
