"""Rewriting the IR as a `remat.Slice` says (RemoveLayoutConversions' rewrite step), and the
sweep of conversions left dead.

Clones recompute the slice's values in their new layouts, loop-carried values are
retyped in place, boundary values get a conversion right after their definition; every
change goes through `layouts/journal.py`, so a trial that is not kept is undone.
"""

from __future__ import annotations

import heapq

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from xpu_passes.dialects import tt, ttg
from xpu_passes.frontend.xdsl_compat import new_op
from xpu_passes.layouts import journal, solution
from xpu_passes.layouts.clone import clone_regions, valid_hint
from xpu_passes.layouts.journal import Journal
from xpu_passes.layouts.memo import by_identity, per_class, same
from xpu_passes.layouts.propagation import ATOMICS, encoding, retype_family, retyped, with_encoding
from xpu_passes.layouts.remat import Slice, slots
from xpu_passes.layouts.remat_cache import RematCache


_is_store, _is_atomic, _is_constant = per_class(tt.StoreOp), per_class(ATOMICS), per_class(arith.ConstantOp)
_is_kept = per_class((tt.StoreOp, *ATOMICS, scf.ForOp, scf.WhileOp, scf.IfOp))  # never swept: effects or regions


def _convert(v: SSAValue, t: Attribute) -> SSAValue:
    """A conversion of `v` to `t` placed right after `v`'s definition."""
    c = journal.created(new_op(ttg.ConvertLayoutOp, [v], [t]))  # what ConvertLayoutOp.build makes
    if isinstance(v.owner, Block):
        journal.insert_op(c, InsertPoint.at_start(v.owner))
    else:
        journal.insert_after(c, v.owner)
    return c.result


def _retype_in_place(v: SSAValue, layout: Attribute) -> SSAValue:
    """Retype `v`; its current users get a conversion back to the old layout (dead ones are erased later)."""
    old = v.type
    nv = journal.replace_value_with_new_type(v, retyped(old, layout))
    if nv.uses:
        back = _convert(nv, old)
        for use in list(nv.uses):
            if use.operation is not back.owner:
                journal.set_operand(use.operation, use.index, back)
    return nv


@by_identity
def _dense(t: Attribute, data: Attribute) -> Attribute:
    """A constant's value in another type (one object per (type, data): see propagation.with_encoding)."""
    return DenseIntOrFPElementsAttr(t, data)  # type: ignore[arg-type]


def _clone(op: Operation, operands: tuple[SSAValue, ...], s: Slice, new: dict[int, SSAValue]) -> Operation:
    layout = s.layout
    results = [r.type if r not in layout else retyped(r.type, layout[r]) for r in op.results]
    props = dict(op.properties)
    if _is_constant(op) and isinstance(op.value, DenseIntOrFPElementsAttr):
        props["value"] = _dense(results[0], op.value.data)
    ins = [new.get(id(o), o) for o in operands]
    # What create makes, without its general path; a reduction's or scan's combiner (nothing
    # else with regions is recomputed) attached as create attaches regions.
    c = new_op(type(op), ins, results, props, dict(op.attributes))
    c.location = op.location
    if op.regions:
        for r in clone_regions(op):
            c.add_region(r)
    return journal.created(c)


_MISSING = object()


def _cvt_users(src: SSAValue, layout: dict[SSAValue, Attribute]) -> list[SSAValue]:
    """The results of `src`'s conversions that the slice recomputes, in use-list order."""
    out = []
    use = src.first_use  # (the list's links: IRUses iterates through Python calls)
    while use is not None:
        user = use._operation  # pyright: ignore[reportPrivateUsage]
        if type(user) is ttg.ConvertLayoutOp and (r := user.results[0]) in layout:  # (a final class)
            out.append(r)
        use = use._next_use  # pyright: ignore[reportPrivateUsage]
    return out


def materialize(s: Slice, ops: list[Operation], cache: RematCache | None = None) -> dict[int, SSAValue]:
    """Rewrite the IR as `s` says (`ops`: `s.ops` once each, in walk order); returns id(old value)
    -> its value in the new layout (ids: values hash in Python; the slice keeps the old ones alive).
    `cache` learns the copies made (clones, boundary conversions).

    Operands are read before anything is retyped: retyping in place redirects the
    old users to a conversion back, which the clones must not see.
    """
    new: dict[int, SSAValue] = {id(v): r for v, r in s.replace.items()}
    for fam, layout in s.families:
        new.update({id(v): r for v, r in retype_family(fam, layout).items()})
    operands = [op._operands for op in ops]  # pyright: ignore[reportPrivateUsage]  # (replaced, never changed, by a rewrite)
    feeds = [(user, i, user.operands[i]) for op, k in s.carried for user, i in slots(op, k)]
    cvt_users = {src: _cvt_users(src, s.layout) for src in s.boundary}
    for v in s.inplace:
        new[id(v)] = _retype_in_place(v, s.layout[v])
    for src, layout in s.boundary.items():
        base = new.get(id(src), src)
        nb = base if same(encoding(base.type), layout) else _convert(base, with_encoding(base.type, layout))
        if cache is not None:
            cache.put(src, layout, nb)
        if src in s.direct:
            new[id(src)] = nb
        for r in cvt_users[src]:
            new[id(r)] = nb
    for op, ins in zip(ops, operands):
        if type(op) is ttg.ConvertLayoutOp:  # a user conversion reached forward: now from the new layout (a final class)
            journal.set_operand(op, 0, new.get(id(ins[0]), ins[0]))
            continue
        clone = _clone(op, ins, s, new)
        journal.insert_before(clone, op)
        for old, r in zip(op.results, clone.results):
            r._name = valid_hint(old._name)  # pyright: ignore[reportPrivateUsage]  # (the setter's regex, remembered)
            new[id(old)] = r
            if cache is not None and (lay := s.layout.get(old, _MISSING)) is not _MISSING:
                cache.put(old, lay, r)  # type: ignore[arg-type]
    for user, i, v in feeds:
        journal.set_operand(user, i, new.get(id(v), v))
    for r in s.scalars:
        journal.replace_all_uses_with(r, new[id(r)])
    for op in s.sinks:
        journal.erase_op(op)
    return new


def _unused(op: Operation) -> bool:
    for r in op.results:
        if r.first_use is not None:
            return False
    return True


def erase_dead(ops: list[Operation]) -> None:
    """Erase the ops of a rewritten slice that nothing uses any more (last first)."""
    for op in reversed(ops):
        if op.parent is not None and not _is_store(op) and _unused(op):
            journal.erase_op(op)
        elif _is_atomic(op) and op.parent is not None:
            raise RuntimeError(f"'{op.name}' was cloned but the original is still used")  # would run twice


def sweep_dead(ops: list[Operation]) -> None:
    """Erase `ops` that nothing uses any more, and the operands' defining ops left dead by that
    (what a copy the slice read replaced: the old chain, `layouts/remat_cache.py`)."""
    work = list(ops)
    while work:
        op = work.pop()
        if op.parent is None or not op.results or _is_kept(op) or not _unused(op):
            continue
        feeds = [o.op for o in op.operands if isinstance(o, OpResult)]
        journal.erase_op(op)
        work += feeds


def erase_dead_converts(j: Journal) -> None:
    """Erase the conversions nothing uses, last first in walk order (as a backward walk over all
    would: one left dead by erasing another, its source's owner, comes before it)."""
    keys = j.order.keys
    heap = []
    for c in j.dead_candidates():  # those that lost a use since the last sweep (no SSAValues.__getitem__)
        (r,) = c.results
        if r.first_use is None:
            heap.append((-keys[c], id(c), c))
    if solution.CHECK_INCREMENTAL and len(heap) != sum(c.results[0].first_use is None for c in j.converts):
        raise AssertionError("RLC: a dead conversion is not among the sweep's candidates")
    heapq.heapify(heap)
    while heap:
        c = heapq.heappop(heap)[2]
        if c.parent is None:  # pushed twice
            continue
        src = c.operands[0].owner
        journal.erase_op(c)
        if src in j.converts and src.results[0].first_use is None:  # type: ignore[union-attr]
            heapq.heappush(heap, (-keys[src], id(src), src))  # type: ignore[index]


def rewrite(j: Journal, cvt: ttg.ConvertLayoutOp, s: Slice, how: str, loads: set[Operation],
            new_loads: set[Operation], cache: RematCache | None = None) -> None:
    """Remove `cvt` by `s` ("backward" or "forward"), then the ops and conversions left dead
    (`new_loads` gets the clones of `loads` the slice recomputes; `cache`: see `materialize`)."""
    src, ordered = cvt.src, sorted(set(s.ops), key=j.order.keys.__getitem__)
    new = materialize(s, ordered, cache)
    new_loads.update(new[id(ld.results[0])].owner for ld in s.ops if ld in loads)  # type: ignore[misc]
    if how == "backward":
        journal.replace_all_uses_with(cvt.result, new[id(src)])
        journal.erase_op(cvt)
    erase_dead(ordered)
    if s.reused:  # the chains the copies replaced
        sweep_dead([v.owner for v in s.reused if isinstance(v.owner, Operation)])
    if how == "forward" and not cvt.result.uses:
        journal.erase_op(cvt)
    erase_dead_converts(j)
