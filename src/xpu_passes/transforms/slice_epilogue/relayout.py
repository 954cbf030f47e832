"""A gather the epilogue reads through a layout conversion, re-made in the epilogue's layout.

`%d = tt.load %ptrs, %mask, %other : #blocked; %e = ttg.convert_layout %d -> #mma` moves every
gathered element through SLM to its thread in the accumulator's layout, and all of them are in
flight beside the accumulator. When the addresses, masks and `other` are computed from scalars
by ops that only place elements (tt.make_range, tt.splat, tt.expand_dims, tt.broadcast) or compute
each element from the same elements of their operands (arith, tt.addptr), the same ops give the
same values in any layout: the chain is cloned with `#blocked` (and its slices) replaced by `#mma`,
the load reads each element straight into its thread, and the conversion goes. The gather is then
part of the epilogue, which slices it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import ttg
from xpu_passes.transforms.slice_epilogue.find import Epilogue, is_gather, moves_past

PLACING = ("tt.make_range", "tt.splat", "tt.expand_dims", "tt.broadcast", "tt.addptr")


@dataclass(frozen=True)
class Relayout:
    convert: ttg.ConvertLayoutOp
    ops: list[Operation]  # the gather and every tensor op it reads, in block order
    source: Attribute  # the layout they compute in
    target: Attribute  # the conversion's


def _moved(t: Attribute, source: Attribute, target: Attribute) -> Attribute | None:
    """`t` with `source` (or a slice of it) replaced by `target`; None for another layout."""
    if not isinstance(t, TensorType):
        return t
    enc = t.encoding
    if enc == source:
        return TensorType(t.element_type, t.get_shape(), target)
    if isinstance(enc, ttg.SliceEncodingAttr) and enc.parent == source:
        return TensorType(t.element_type, t.get_shape(), ttg.SliceEncodingAttr.make(dim=enc.dim, parent=target))
    return None


def _placeable(op: Operation) -> bool:
    if op.regions or len(op.results) != 1:
        return False
    if isinstance(op, arith.ConstantOp):
        return isinstance(op.value, DenseIntOrFPElementsAttr)
    return op.name in PLACING or op.name.startswith("arith.")


def plan(root: SSAValue, ep: Epilogue) -> Relayout | str | None:
    """The relayout of `root`, a root of `ep` (None: not a converted gather; str: why it cannot be)."""
    cvt = root.owner
    if not isinstance(cvt, ttg.ConvertLayoutOp):
        return None
    load = cvt.operands[0].owner
    if not (isinstance(load, Operation) and is_gather(load)):
        return None
    block = cvt.parent_block()
    source, target = cvt.operands[0].type.encoding, root.type.encoding  # type: ignore[attr-defined]
    if load.parent_block() is not block:
        return "the converted gather is in another block"
    if any(u.operation not in ep.ops for u in root.uses):
        return "the converted value is read outside the epilogue"
    if (why := moves_past(load, ep.store, {*ep.ops, cvt})) is not None:
        return why
    inside: set[Operation] = set()
    work: list[Operation] = [load]
    while work:
        op = work.pop()
        if op in inside:
            continue
        if op.parent_block() is not block:
            return f"an address or mask of the converted gather comes from another block ({op.name})"
        if op is not load and not _placeable(op):
            return f"an address or mask of the converted gather is computed by {op.name}"
        if any(_moved(r.type, source, target) is None for r in [*op.results, *op.operands]):
            return "an address or mask of the converted gather is in another layout"
        inside.add(op)
        work.extend(v.owner for v in op.operands if isinstance(v.type, TensorType) and isinstance(v.owner, Operation))
    return Relayout(cvt, [op for op in block.ops if op in inside], source, target)


def apply(r: Relayout) -> None:
    """Clone the chain in the target layout where the gather is (no op moves past another); the
    conversion and what only it read go."""
    at = InsertPoint.before(r.ops[-1])  # the gather: every op of the chain is before it
    new: dict[SSAValue, SSAValue] = {}
    for op in r.ops:
        types = [_moved(x.type, r.source, r.target) for x in op.results]
        props = dict(op.properties)
        if isinstance(op, arith.ConstantOp):
            props["value"] = DenseIntOrFPElementsAttr(types[0], op.value.data)  # type: ignore[arg-type, union-attr]
        clone = type(op).create(operands=[new.get(v, v) for v in op.operands],
                                result_types=types,  # type: ignore[arg-type]
                                properties=props, attributes=dict(op.attributes))  # fmt: skip
        clone.location = op.location
        Rewriter.insert_op(clone, at)
        new.update(zip(op.results, clone.results))
    r.convert.results[0].replace_all_uses_with(new[r.convert.operands[0]])
    Rewriter.erase_op(r.convert)
    for op in reversed(r.ops):
        if all(not x.uses for x in op.results):
            Rewriter.erase_op(op)
