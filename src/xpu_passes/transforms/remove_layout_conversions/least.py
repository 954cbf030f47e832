"""The least (weighted cost, conversions) any solution of RemoveLayoutConversions can reach on a module
(`least_result`): a solution at it is not weighed against another (decide.better_unanchored)."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.memoize import per_class
from xpu_passes.layouts.propagation import SAME_LAYOUT, encoding, numel
from xpu_passes.layouts.scratch import element_bytes
from xpu_passes.transforms.remove_layout_conversions.costs import LOOP_WEIGHT, SHUFFLE_DISCOUNT, loop_depth

_elementwise = per_class(SAME_LAYOUT)
_carries_not = per_class((tt.BroadcastOp, tt.LoadOp))


def _carries_layout(op: Operation) -> bool:
    """Ops whose tensor operands and result are in one layout and of one shape (elementwise)."""
    return _elementwise(op) and not _carries_not(op)


def _one_layout(op: Operation) -> bool:
    """`op`'s tensor operands and results are in one layout (as a valid module has them)."""
    return len({encoding(v.type) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}) == 1


_is_effect = per_class((tt.StoreOp, tt.AtomicRMWOp, tt.AtomicCASOp, tt.ReturnOp))
_is_dot, _is_yield = per_class(tt.DotOp), per_class(scf.YieldOp)


def _kept_alive(op: Operation) -> bool:
    """Whether `op`'s results reach a store, atomic or return (no sweep of dead ops erases it)."""
    work, seen = [op], {id(op)}
    while work:
        o = work.pop()
        users = [u.operation for r in o.results for u in r.uses]
        if _is_yield(o) and (parent := o.parent_op()) is not None:
            users.append(parent)  # (its results carry on)
        for u in users:
            if _is_effect(u):
                return True
            if id(u) not in seen:
                seen.add(id(u))
                work.append(u)
    return False


def least_result(ops: list[Operation]) -> tuple[int, int]:
    """A lower bound of the (weighted cost, conversions) of any module RemoveLayoutConversions
    can make of a (valid) module whose ops are `ops` (`walk_list`'s): (0, 0), or one
    conversion's least cost when a tt.dot's operand is computed from another tt.dot's result
    in another layout by elementwise ops alone.

    Why it holds: the pass never changes a tt.dot's types (no layout rule recomputes or
    forwards through one) nor erases one whose result reaches a store (only dead ops are
    swept), and it only clones ops into other layouts, reads such copies,
    and adds or removes conversions, so the operand stays computed from that result by
    copies of the same elementwise ops, each with its operands and result in one layout
    (the result is checked valid), and conversions. At least one of those conversions
    changes the layout; it moves the result's elements (the same shape all along), of one of
    the element types on the path (at least as wide as the narrowest), and sits where its
    input is defined: inside every loop around the producing tt.dot.
    """
    best = 0
    for dot in ops:
        if not _is_dot(dot) or not _kept_alive(dot):
            continue
        for operand in dot.operands:
            want, t = encoding(operand.type), operand.type
            if want is None or not isinstance(t, TensorType):
                continue
            shape, seen, work, depths = t.get_shape(), set(), [operand], []
            width = element_bytes(t.element_type)  # the narrowest value the conversion may sit on
            while work:
                v = work.pop()
                if id(v) in seen or not isinstance(v.type, TensorType) or v.type.get_shape() != shape:
                    continue
                seen.add(id(v))
                width = min(width, element_bytes(v.type.element_type))
                op = v.owner
                if isinstance(op, ttg.ConvertLayoutOp):
                    work.append(op.operands[0])
                elif isinstance(op, Operation) and _carries_layout(op) and _one_layout(op):
                    work.extend(op.operands)
                elif _is_dot(op) and encoding(v.type) != want:
                    depths.append(loop_depth(op))
            for depth in depths:
                best = max(best, max(1, numel(t) * width // SHUFFLE_DISCOUNT) * LOOP_WEIGHT ** depth)
    return (best, 1) if best else (0, 0)
