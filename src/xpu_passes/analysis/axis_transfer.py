"""An axis analysis moved to a copy of its module instead of computed again.

The facts of a value depend on what computes it (op classes, properties, operand wiring, shapes
and element types), never on layouts. A copy of a module (`ir/clone.clone`), possibly retyped
into other layouts since, has the same facts value for value: the analysis of the input, with
every value (keys, strides and scalars that name values) replaced by its copy's, is what
`AxisInfoAnalysis(copy)` computes. `transferred` checks that the two modules still have the
same shape op for op (classes, properties and attributes, regions, block arguments, operand
wiring); anything else (a copy changed since, a module of another shape) gets None and the
caller computes the facts afresh.

Precondition: the source analysis is exactly `AxisInfoAnalysis(source)` (no values added since
by `of` or by hand), so the caller must hold it from the unchanged source.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue

from xpu_passes.analysis.axis_info import AxisInfo, AxisInfoAnalysis


def value_map(src_ops: Sequence[Operation], dst_ops: Sequence[Operation]) -> dict[SSAValue, SSAValue] | None:
    """Each value of `src_ops` (their walk, in order) -> the value in the same place in `dst_ops`,
    when both are the same IR but for types (None: they differ)."""
    if len(src_ops) != len(dst_ops):
        return None
    vmap: dict[SSAValue, SSAValue] = {}
    for a, b in zip(src_ops, dst_ops):
        if (type(a) is not type(b) or len(a.results) != len(b.results) or len(a.regions) != len(b.regions)
                or a.properties != b.properties or a.attributes != b.attributes):
            return None
        vmap.update(zip(a.results, b.results))
        for ra, rb in zip(a.regions, b.regions):
            blocks_a, blocks_b = list(ra.blocks), list(rb.blocks)
            if len(blocks_a) != len(blocks_b):
                return None
            for ba, bb in zip(blocks_a, blocks_b):
                if len(ba.args) != len(bb.args):
                    return None
                vmap.update(zip(ba.args, bb.args))
    for a, b in zip(src_ops, dst_ops):  # (every value mapped first: an operand may be defined later in a walk)
        ops_a, ops_b = a.operands, b.operands
        if len(ops_a) != len(ops_b) or any(vmap.get(x, x) is not y for x, y in zip(ops_a, ops_b)):
            return None
    return vmap


def _moved(info: AxisInfo, vmap: dict[SSAValue, SSAValue]) -> AxisInfo:
    if info.scalar is None and not any(isinstance(s, SSAValue) for s in info.stride):
        return info  # (frozen, names no value: shared)
    stride = tuple(vmap.get(s, s) if isinstance(s, SSAValue) else s for s in info.stride)
    scalar = vmap.get(info.scalar, info.scalar) if info.scalar is not None else None
    return AxisInfo(info.contiguity, info.divisibility, info.constancy, stride, info.value, scalar)


def transferred(facts: AxisInfoAnalysis, src_ops: Sequence[Operation],
                dst_ops: Sequence[Operation]) -> AxisInfoAnalysis | None:
    """`facts` (of the module whose walk is `src_ops`) for the module whose walk is `dst_ops`, or None
    when the two are not the same IR but for types (or `facts` holds a value of neither)."""
    vmap = value_map(src_ops, dst_ops)
    if vmap is None:
        return None
    out = AxisInfoAnalysis.empty()
    for v, info in facts.info.items():
        w = vmap.get(v)
        if w is None:
            return None
        out.info[w] = _moved(info, vmap)
    return out
