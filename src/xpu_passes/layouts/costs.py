"""What a layout conversion costs, for RemoveLayoutConversions' choices.

Costs are in elements moved through SLM (a conversion the layout algebra shows
needs no SLM counts 1/8: register renames and sub-group shuffles), weighted by
how often the op runs: x8 per enclosing loop.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xpu_passes.dialects import tt
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memo import by_identity, per_class
from xpu_passes.layouts.propagation import encoding, numel
from xpu_passes.layouts.scratch import element_bytes, needs_slm, scan_reduce_scratch_bytes

LOOP_WEIGHT = 8  # a conversion inside a loop is counted as running this many times

_is_loop = per_class(scf.ForOp | scf.WhileOp)


def loop_depth(op: Operation | None) -> int:
    depth = 0
    while op is not None:
        op = op.parent_op()
        depth += _is_loop(op)
    return depth


def weight(v: SSAValue) -> int:
    """How often a conversion placed right after `v`'s definition runs."""
    if type(v) is BlockArgument:
        where = v.owner.parent_op()
        return LOOP_WEIGHT ** (loop_depth(where) + _is_loop(where))
    where = v.owner if isinstance(v.owner, Operation) else v.owner.parent_op()  # type: ignore[union-attr]
    inside = isinstance(v, BlockArgument) and _is_loop(where)
    return LOOP_WEIGHT ** (loop_depth(where) + inside)


SHUFFLE_DISCOUNT = 8  # a conversion without SLM (register renaming, sub-group shuffle) counts 1/8


@by_identity  # pure in its attributes
def conversion_cost(t: Attribute, layout: Attribute) -> int:
    """Elements a conversion of a value of type `t` to `layout` moves, discounted when the layout
    algebra shows it needs no SLM (unknown layouts are taken to need it)."""
    src = encoding(t)
    n = numel(t)
    if src is None or src == layout:
        return 0
    try:
        free = not needs_slm(src, layout, t.get_shape())  # type: ignore[attr-defined]
    except LayoutError:
        free = False
    return max(1, n // SHUFFLE_DISCOUNT) if free else n


def scratch_change(op: tt.ScanOp | tt.ReduceOp, layout: Attribute) -> int:
    """Scratch elements a scan/reduction needs more (or fewer) with its results in `layout`."""
    try:
        delta = scan_reduce_scratch_bytes(op, layout) - scan_reduce_scratch_bytes(op)
    except LayoutError:
        return 0
    return delta // max(1, element_bytes(op.operands[0].type.element_type))  # type: ignore[attr-defined]
