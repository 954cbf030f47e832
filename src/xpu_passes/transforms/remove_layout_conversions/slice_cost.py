"""Costing a rematerialization slice (`remat.Slice`) before rewriting anything.

`cost` is what the slice's boundary conversions (and in-place retypes with users
left in the old layout) would move, plus the scan/reduce scratch it changes;
`estimate` nets out what the conversions it leaves dead cost now and counts the
change in their number (a tie-breaker). `floor` bounds the whole module's figures after a
backward rewrite from below (what surely survives it, what it surely adds): a trial it
shows cannot win is not made.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from xpu_passes.dialects import tt, ttg
from xpu_passes.transforms.remove_layout_conversions.costs import conversion_cost, scratch_change, weight
from xpu_passes.layouts.memoize import per_class
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.propagation import ATOMICS, encoding, retyped, with_encoding
from xpu_passes.transforms.remove_layout_conversions.reductions import traffic
from xpu_passes.transforms.remove_layout_conversions.remat import Slice, slots
from xpu_passes.layouts.scratch import convert_scratch_bytes
from xpu_passes.transforms.remove_layout_conversions.solution import Figures

_SCRATCH = (tt.ScanOp, tt.ReduceOp)


def scratch_ops(ops: list[Operation]) -> list[Operation]:
    """The scans and reductions among `ops`, in order (their classes found first: a slice of
    hundreds of elementwise ops holds a few kinds of op; test_slice_cost holds it to isinstance)."""
    kinds = {t for t in set(map(type, ops)) if issubclass(t, _SCRATCH)}
    return [op for op in ops if type(op) in kinds] if kinds else []


def _foreign_uses(v: SSAValue, s: Slice, layout: Attribute, mine: set[int]) -> bool:
    """Whether a retyped-in-place value has users that still want its old layout (`mine`: ids of
    the slice's ops and carriers)."""
    for use in v.uses:
        user = use.operation
        if id(user) in mine or isinstance(user, scf.YieldOp | scf.ConditionOp) and id(user.parent_op()) in mine:
            continue
        if isinstance(user, ttg.ConvertLayoutOp) and (encoding(user.result.type) == layout or user.result in s.layout):
            continue
        return True
    return False


def _removed(s: Slice, target: Operation, mine: set[int]) -> list[ttg.ConvertLayoutOp]:
    """Conversions other than the target that the rewrite leaves dead (the slice reads through them)."""
    dead = {o for v in s.layout if type(o := v.owner) is ttg.ConvertLayoutOp and o is not target}  # (a final class)
    mine = mine | set(map(id, dead)) | {id(target)}
    return [
        c for c in dead  # type: ignore[misc]
        if all(id(u.operation) in mine or isinstance(u.operation, scf.YieldOp | scf.ConditionOp)
               and id(u.operation.parent_op()) in mine for u in c.results[0].uses)
    ]


def estimate(s: Slice, target: Operation) -> tuple[int, int]:
    """The slice's cost net of the conversions it leaves dead (`cost` - what those cost now), and
    minus how many conversions fewer the rewrite leaves (a tie-breaker: one after an scf.if beats
    one per branch). Each part computed once for both."""
    mine = set(map(id, s.ops)) | {id(op) for op, _ in s.carried}  # (ids: ops hash in Python)
    removed = _removed(s, target, mine)
    # A value retyped in place whose users (the target's aside) still want its old layout.
    foreign = [v for v in s.inplace if any(u.operation is not target for u in v.uses)
               and _foreign_uses(v, s, s.layout[v], mine)]
    gone = sum(conversion_cost(c.src.type, encoding(c.result.type)) * weight(c.result)  # type: ignore[arg-type]
               for c in removed)
    added = sum(encoding(v.type) != l for v, l in s.boundary.items()) + len(foreign) + len(s.frontier)
    return cost(s, foreign) - gone, -(1 + len(removed) - added)  # the target goes (backward: replaced; forward: every user follows)


# (op, layout) ids -> (op, layout, its operand types, the scratch change): what a scan/reduction's
# scratch_change reads (its kind and axis are fixed), checked by identity on a hit. Slices walked
# again and again (a bitonic network's forward slices) ask for the same ops' changes.
_CHANGE: dict[tuple[int, int], tuple[Operation, Attribute, list[Attribute], int]] = {}


def change_of(op: tt.ScanOp | tt.ReduceOp, layout: Attribute) -> int:
    """`costs.scratch_change(op, layout)` plus the change in its accumulators' traffic (reductions.py),
    remembered while `op`'s operand types are the same objects."""
    types = [o.type for o in op._operands]  # pyright: ignore[reportPrivateUsage]
    hit = _CHANGE.get((id(op), id(layout)))
    if hit is not None and hit[0] is op and hit[1] is layout and len(hit[2]) == len(types) and all(
            a is b for a, b in zip(hit[2], types)):
        return hit[3]
    if len(_CHANGE) > 65536:
        _CHANGE.clear()
    out = scratch_change(op, layout) + traffic(op, layout) - traffic(op)
    _CHANGE[(id(op), id(layout))] = (op, layout, types, out)  # keeps op and layout alive: ids stay theirs
    return out


def cost(s: Slice, foreign: list[SSAValue]) -> int:
    """Bytes the slice would convert or put through scan/reduce scratch, weighted by how often
    (`foreign`: its values retyped in place that keep users in their old layout)."""
    total = sum(conversion_cost(v.type, l) * weight(v) for v, l in s.boundary.items())
    layout = s.layout
    for op in scratch_ops(s.ops):
        if op.results[0] in layout:
            change = change_of(op, layout[op.results[0]])  # type: ignore[arg-type]
            if change:
                total += change * weight(op.results[0])
    for v in foreign:
        total += conversion_cost(retyped(v.type, s.layout[v]), encoding(v.type)) * weight(v)  # type: ignore[arg-type]
    for user, i in s.frontier:  # a store's operand converted back (weighted where the store is)
        v = user.operands[i]
        total += conversion_cost(retyped(v.type, s.layout[v]), encoding(v.type)) * weight(v)  # type: ignore[arg-type]
    return total


def forget() -> None:
    """Drop the remembered scratch changes (the end of a pass run: they keep their ops alive)."""
    _CHANGE.clear()


# ------------------------------------------------------------------ a trial that cannot win
#
# `materialize.rewrite` of a backward slice clones the slice's ops (clones are never erased),
# retypes loop-carried values in place (their users read a conversion back), converts the
# boundaries, erases the target, then the originals and conversions nothing uses any more.
# `floor` bounds the module's figures after that from below, without rewriting: an op
# that is not erasable and keeps a use of a value keeps that value's owner alive. When the
# bound already loses, the trial (rewrite, figures, undo) would be rejected: it is skipped.

_unbounded = per_class((scf.ForOp, scf.IfOp, scf.WhileOp, ttg.ConvertLayoutOp, *ATOMICS))  # slice ops not bounded
_has_atomic = per_class(ATOMICS)


class _Survival:
    """Which ops certainly survive a backward rewrite of `s` (a least fixpoint: unsure is no)."""

    def __init__(self, s: Slice, target: Operation) -> None:
        self.s, self.target = s, target
        self.feeds = {(id(u), i) for op, k in s.carried for u, i in slots(op, k)}
        self.inplace = {id(v) for v in s.inplace}
        self.memo: dict[int, bool] = {}
        self.nests = any(op.regions for op in s.ops)  # (a reduction's combiner)

    def erasable(self, op: Operation) -> bool:
        return op is self.target or op in self.s.members or type(op) is ttg.ConvertLayoutOp

    def op(self, op: Operation) -> bool:
        key = id(op)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = False  # in progress: unsure
        p = op.parent_op() if self.nests else None
        while p is not None:  # inside an op the rewrite may erase (a combiner)
            if p in self.s.members:
                return False
            p = p.parent_op()
        out = not self.erasable(op) or any(self.use(r) for r in op.results)
        self.memo[key] = out
        return out

    def use(self, v: SSAValue) -> bool:
        """Whether `v` keeps a use by a surviving op in a slot the rewrite does not reassign (an
        in-place retyped value's users read its conversion back: `back_kept`)."""
        return id(v) not in self.inplace and self.back_kept(v)

    def back_kept(self, v: SSAValue) -> bool:
        return any(u.operation is not self.target and (id(u.operation), u.index) not in self.feeds
                   and self.op(u.operation) for u in v.uses)


def _converted(s: Slice, src: SSAValue) -> bool:
    """Whether boundary `src` gets its own conversion: not a clone's value, nor a conversion's
    result the slice reads through (materialize may map that to another boundary's copy)."""
    return src.owner not in s.members and not (type(src.owner) is ttg.ConvertLayoutOp and src in s.layout)


def _read(s: Slice, src: SSAValue, reads: set[int]) -> bool:
    """Whether boundary `src`'s conversion is read (`reads`: ids of the values the clones read):
    directly, or through a conversion of it the slice recomputes and does not rewrite."""
    return (src in s.direct and id(src) in reads) or any(
        type(u.operation) is ttg.ConvertLayoutOp and u.operation.results[0] in s.layout
        and id(u.operation.results[0]) in reads and u.operation not in s.members for u in src.uses)


def loses(low: tuple[int, int, bool], now: Figures) -> bool:
    """Whether a result bounded by `floor`'s `low` is surely no cheaper than `now`: (cost,
    conversions) above, or not below and SLM not lower, so neither `Figures.better_than` nor an
    SLM-only gain can hold."""
    cost, n, slm_kept = low
    return cost > now.cost or (cost >= now.cost and n >= now.converts and slm_kept)


def floor(s: Slice, target: ttg.ConvertLayoutOp, parts: dict[Operation, tuple[int, int]],
          scratch: dict[int, int], now: tuple[int, int, int], unused: set[Operation]) -> tuple[int, int, bool] | None:
    """Lower bounds of the module's (cost, conversions) after the backward rewrite of `s`, and
    whether its SLM stays at least `now`'s, or None for a slice not bounded (reuse, a
    block-pointer family, a regioned or atomic op). `parts`, `scratch`: the Ledger's per-op
    (weighted cost, scratch bytes) and count of ops per scratch size; `unused`: conversions
    that may have no use, which the rewrite's sweep would erase."""
    if s.replace or s.reused or s.families or s.sinks or s.scalars:
        return None
    if any(map(_unbounded, s.ops)):
        return None
    # What the rewrite may add: conversions back of values retyped in place, boundary conversions.
    back, bounds = [], []
    for v in s.inplace:
        old, new_t = encoding(v.type), retyped(v.type, s.layout[v])
        back.append((v, conversion_cost(new_t, old) * weight(v) if old is not None else 0))
    retypes = {id(v): retyped(v.type, s.layout[v]) for v in s.inplace}
    for src, layout in s.boundary.items():
        t = retypes.get(id(src), src.type)
        if encoding(t) != layout and _converted(s, src):
            bounds.append((src, conversion_cost(t, layout) * weight(src)))
    if sum(c for _, c in back) + sum(c for _, c in bounds) < parts.get(target, (0, 0))[0]:
        return None  # it surely removes more than it can add: no bound that loses
    alive = _Survival(s, target)
    # Costed ops the rewrite may erase: the target, the originals, conversions losing a user.
    maybe: dict[int, Operation] = {id(target): target}
    work = [target, *s.ops]
    for c in unused:
        if c.results[0].first_use is None and id(c) not in maybe:
            maybe[id(c)] = c
            work.append(c)
    while work:
        op = work.pop()
        for o in op.operands:
            c = o.owner
            if type(c) is ttg.ConvertLayoutOp and id(c) not in maybe and not alive.op(c):
                maybe[id(c)] = c
                work.append(c)
    for op in s.ops:
        if op in parts and not alive.op(op):
            maybe[id(op)] = op
    for op, k in s.carried:  # what the feeds' old values were
        for u, i in slots(op, k):
            c = u.operands[i].owner
            if type(c) is ttg.ConvertLayoutOp and id(c) not in maybe and not alive.op(c):
                maybe[id(c)] = c
    lost = [parts[op] for op in maybe.values() if op in parts]
    cost = now[0] - sum(p[0] for p in lost)
    n = now[1] - sum(type(op) is ttg.ConvertLayoutOp and op in parts for op in maybe.values())
    for v, c in back:  # conversions back that keep a user
        if alive.back_kept(v):
            cost, n = cost + c, n + 1
    reads = {id(o) for op in s.ops for o in op.operands}
    # The target's users read what replaces it: its source's copy when that is a direct boundary.
    if target.operands[0] in s.direct and any(alive.op(u.operation) for u in target.results[0].uses):
        reads.add(id(target.operands[0]))
    for src, c in bounds:  # boundary conversions a clone (or the target's users) reads
        if _read(s, src, reads):
            cost, n = cost + c, n + 1
    top = now[2]
    return cost, n, top == 0 or scratch.get(top, 0) > sum(p[1] == top for p in lost)


def slm_rises(s: Slice, slm: int) -> bool:
    """Whether rewriting `s` (either way) surely needs more SLM than `slm`: a boundary conversion
    a clone reads (clones are never erased) needs more scratch. Then neither `Figures.better_than`
    nor an SLM-only gain can hold. Slices with an atomic are not judged (a rewrite may refuse one);
    a block-pointer family retypes pointers only, never a tensor boundary."""
    if any(map(_has_atomic, s.ops)):
        return False
    reads = {id(o) for op in s.ops if type(op) is not ttg.ConvertLayoutOp for o in op.operands}
    inplace = {id(v) for v in s.inplace}
    for src, layout in s.boundary.items():
        if not _converted(s, src):
            continue
        base = retyped(src.type, s.layout[src]) if id(src) in inplace else s.replace.get(src, src).type
        if not isinstance(base, TensorType) or encoding(base) == layout or not _read(s, src, reads):
            continue
        try:
            if convert_scratch_bytes(base, with_encoding(base, layout)) > slm:  # type: ignore[arg-type]
                return True
        except LayoutError:
            continue
    return False
