"""Costing a rematerialization slice (`remat.Slice`) before rewriting anything.

`cost` is what the slice's boundary conversions (and in-place retypes with users
left in the old layout) would move, plus the scan/reduce scratch it changes;
`estimate` nets out what the conversions it leaves dead cost now and counts the
change in their number (a tie-breaker).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Attribute, Operation, SSAValue

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.costs import conversion_cost, scratch_change, weight
from xpu_passes.layouts.propagation import encoding, isa, retyped
from xpu_passes.layouts.remat import Slice

_SCRATCH = (tt.ScanOp, tt.ReduceOp)


def _foreign_uses(v: SSAValue, s: Slice, layout: Attribute, mine: set[Operation]) -> bool:
    """Whether a retyped-in-place value has users that still want its old layout (`mine`: the
    slice's ops and carriers)."""
    for use in v.uses:
        user = use.operation
        if user in mine or isinstance(user, scf.YieldOp | scf.ConditionOp) and user.parent_op() in mine:
            continue
        if isinstance(user, ttg.ConvertLayoutOp) and (encoding(user.result.type) == layout or user.result in s.layout):
            continue
        return True
    return False


def _removed(s: Slice, target: Operation, mine: set[Operation]) -> list[ttg.ConvertLayoutOp]:
    """Conversions other than the target that the rewrite leaves dead (the slice reads through them)."""
    dead = {v.owner for v in s.layout if type(v.owner) is ttg.ConvertLayoutOp} - {target}  # (a final class)
    mine = mine | dead | {target}
    return [
        c for c in dead  # type: ignore[misc]
        if all(u.operation in mine or isinstance(u.operation, scf.YieldOp | scf.ConditionOp) and u.operation.parent_op() in mine
               for u in c.results[0].uses)
    ]


def estimate(s: Slice, target: Operation) -> tuple[int, int]:
    """The slice's cost net of the conversions it leaves dead (`cost` - what those cost now), and
    minus how many conversions fewer the rewrite leaves (a tie-breaker: one after an scf.if beats
    one per branch). Each part computed once for both."""
    mine = set(s.ops) | {op for op, _ in s.carried}
    removed = _removed(s, target, mine)
    # A value retyped in place whose users (the target's aside) still want its old layout.
    foreign = [v for v in s.inplace if any(u.operation is not target for u in v.uses)
               and _foreign_uses(v, s, s.layout[v], mine)]
    gone = sum(conversion_cost(c.src.type, encoding(c.result.type)) * weight(c.result)  # type: ignore[arg-type]
               for c in removed)
    added = sum(encoding(v.type) != l for v, l in s.boundary.items()) + len(foreign)
    return cost(s, foreign) - gone, -(1 + len(removed) - added)  # the target goes (backward: replaced; forward: every user follows)


# (op, layout) ids -> (op, layout, its operand types, the scratch change): what a scan/reduction's
# scratch_change reads (its kind and axis are fixed), checked by identity on a hit. Slices walked
# again and again (a bitonic network's forward slices) ask for the same ops' changes.
_CHANGE: dict[tuple[int, int], tuple[Operation, Attribute, list[Attribute], int]] = {}


def change_of(op: tt.ScanOp | tt.ReduceOp, layout: Attribute) -> int:
    """`costs.scratch_change(op, layout)`, remembered while `op`'s operand types are the same objects."""
    types = [o.type for o in op._operands]  # pyright: ignore[reportPrivateUsage]
    hit = _CHANGE.get((id(op), id(layout)))
    if hit is not None and hit[0] is op and hit[1] is layout and len(hit[2]) == len(types) and all(
            a is b for a, b in zip(hit[2], types)):
        return hit[3]
    if len(_CHANGE) > 65536:
        _CHANGE.clear()
    out = scratch_change(op, layout)
    _CHANGE[(id(op), id(layout))] = (op, layout, types, out)  # keeps op and layout alive: ids stay theirs
    return out


def cost(s: Slice, foreign: list[SSAValue]) -> int:
    """Elements the slice would convert or put through scan/reduce scratch, weighted by how often
    (`foreign`: its values retyped in place that keep users in their old layout)."""
    total = sum(conversion_cost(v.type, l) * weight(v) for v, l in s.boundary.items())
    layout = s.layout
    for op in s.ops:
        if isa(op, _SCRATCH) and op.results[0] in layout:
            change = change_of(op, layout[op.results[0]])  # type: ignore[arg-type]
            if change:
                total += change * weight(op.results[0])
    for v in foreign:
        total += conversion_cost(retyped(v.type, s.layout[v]), encoding(v.type)) * weight(v)  # type: ignore[arg-type]
    return total


def forget() -> None:
    """Drop the remembered scratch changes (the end of a pass run: they keep their ops alive)."""
    _CHANGE.clear()
