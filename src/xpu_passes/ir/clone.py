"""`Operation.clone()` in one pass (RemoveLayoutConversions' working copy of its input).

The same copy as xDSL's: ops created as `Operation.create` does (`xdsl_adapt.new_op` for
ops without regions or successors), blocks of a region made
before its ops (successors map), block arguments with their types, locations and name
hints, result name hints through the same validation (remembered per name), then operands
set in walk order (use lists in the same order). xDSL's clone walks each nested region
again per level (its value-mapping walk runs on every op) and validates every name.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.core import IRWithName, SSAValues, Use

from xpu_passes.ir.xdsl_adapt import new_op

_HINTS: dict[str, str] = {}  # name hint -> what the name_hint setter makes of it


def valid_hint(name: str | None) -> str | None:
    """What the `name_hint` setter stores for `name` (its regex, remembered)."""
    if name is None:
        return None
    hit = _HINTS.get(name)
    if hit is None:
        hit = _HINTS[name] = IRWithName.extract_valid_name(name)
    return hit


def clone(op: Operation) -> Operation:
    """What `op.clone()` returns (values from outside `op` are used as they are)."""
    values: dict[int, SSAValue] = {}  # by id (SSAValue's __hash__ is Python code); the originals outlive the call
    pairs: list[tuple[Operation, Operation]] = []
    new = _op(op, values, {}, pairs)
    _link(pairs, values)
    return new


def clone_regions(op: Operation) -> list[Region]:
    """What `[r.clone() for r in op.regions]` returns (a rematerialized reduction's combiner)."""
    values: dict[int, SSAValue] = {}
    pairs: list[tuple[Operation, Operation]] = []
    regions = [Region() for _ in op.regions]
    _regions(op, regions, values, {}, pairs)
    _link(pairs, values)
    return regions


def _link(pairs: list[tuple[Operation, Operation]], values: dict[int, SSAValue]) -> None:
    """Operands set in walk order, as the copies' (use lists in the same order)."""
    get = values.get
    for old, n in pairs:
        if old._operands:  # pyright: ignore[reportPrivateUsage]
            # What the `operands` setter does on an op that has none yet: each use put first, in order.
            ins = [get(id(v), v) for v in old._operands]  # pyright: ignore[reportPrivateUsage]
            uses = []
            for i, v in enumerate(ins):
                use = Use(n, i)
                first = v.first_use
                use._next_use = first  # pyright: ignore[reportPrivateUsage]
                if first is not None:
                    first._prev_use = use  # pyright: ignore[reportPrivateUsage]
                v.first_use = use
                uses.append(use)
            n._operands = SSAValues(ins)  # pyright: ignore[reportPrivateUsage]
            n._operand_uses = tuple(uses)  # pyright: ignore[reportPrivateUsage]


def _op(op: Operation, values: dict[int, SSAValue], blocks: dict[Block, Block],
        pairs: list[tuple[Operation, Operation]]) -> Operation:
    cls = type(op)
    if not op.regions and not op._successors:  # pyright: ignore[reportPrivateUsage]
        n = new_op(cls, (), [r.type for r in op.results], dict(op.properties), dict(op.attributes))
        n.location = op.location
    else:
        n = cls.__new__(cls)
        Operation.__init__(
            n,
            result_types=[r.type for r in op.results],
            properties=op.properties,
            attributes=op.attributes,
            location=op.location,
            successors=[blocks.get(s, s) for s in op._successors],  # pyright: ignore[reportPrivateUsage]
            regions=[Region() for _ in op.regions],
        )
    for old, r in zip(op.results, n.results):
        values[id(old)] = r
        if old.name_hint is not None:
            r._name = valid_hint(old.name_hint)  # pyright: ignore[reportPrivateUsage]
    pairs.append((op, n))
    _regions(op, n.regions, values, blocks, pairs)
    return n


def _regions(op: Operation, into: Sequence[Region], values: dict[int, SSAValue], blocks: dict[Block, Block],
             pairs: list[tuple[Operation, Operation]]) -> None:
    for src, dst in zip(op.regions, into):
        made = [(b, Block()) for b in src.blocks]
        for b, nb in made:
            blocks[b] = nb
            dst.add_block(nb)
        for b, nb in made:
            args = []
            for a in b.args:
                na = BlockArgument(a.type, nb, a.index, a.location)
                if a.name_hint is not None:
                    na._name = valid_hint(a.name_hint)  # pyright: ignore[reportPrivateUsage]
                values[id(a)] = na
                args.append(na)
            nb._args = tuple(args)  # pyright: ignore[reportPrivateUsage]
            o = b.first_op
            while o is not None:
                nb.add_op(_op(o, values, blocks, pairs))
                o = o.next_op


def adopt_body(dst: ModuleOp, src: ModuleOp) -> None:
    """`dst` takes `src`'s body (`src`: a rewritten copy of `dst`, or another pass's result for
    its input); `dst`'s own attributes are left alone."""
    for b in list(dst.body.blocks):
        dst.body.detach_block(b).drop_all_references()
    src.body.move_blocks(dst.body)
