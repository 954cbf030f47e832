"""Rewriting the IR as a `remat.Slice` says (RemoveLayoutConversions' rewrite step), and the
sweep of conversions left dead.

Clones recompute the slice's values in their new layouts, loop-carried values are
retyped in place, boundary values get a conversion right after their definition; every
change goes through `ir/journal.py`, so a trial that is not kept is undone.

An op whose original the rewrite would leave unused (every use of every result moved by
it: most of a forward slice) is not cloned: it is retyped where it is (new result values,
its operands moved as the clone's would be), which is what the clone right before it
and the erasure of the original would leave, use lists in the same order.
"""

from __future__ import annotations

import heapq

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from xpu_passes.dialects import tt, ttg
from xpu_passes.ir.xdsl_adapt import new_op, op_defaults
from xpu_passes.ir import journal
from xpu_passes.ir.clone import clone_regions, valid_hint
from xpu_passes.ir.journal import Journal
from xpu_passes.analysis.block_pointers import Family
from xpu_passes.layouts.memoize import by_identity, per_class, same
from xpu_passes.layouts.propagation import ATOMICS, encoding, retype_family, retyped, with_encoding
from xpu_passes.transforms.remove_layout_conversions.costs import inherit_facts
from xpu_passes.transforms.remove_layout_conversions.remat import Slice, slots
from xpu_passes.transforms.remove_layout_conversions.remat_cache import RematCache


_EFFECTS = (tt.StoreOp, tt.AssertOp, tt.PrintOp)  # no results, kept for their effect
_is_store, _is_atomic, _is_constant = per_class(_EFFECTS), per_class(ATOMICS), per_class(arith.ConstantOp)
_is_kept = per_class((*_EFFECTS, *ATOMICS, scf.ForOp, scf.WhileOp, scf.IfOp))  # never swept: effects or regions

_MISSING = object()


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
    inherit_facts(v, nv)
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


def _retypable(op: Operation) -> bool:
    """Whether a clone of `op` would differ from it in its types (and a constant's value) only:
    built by new_op, which fills in default properties and attributes `op` may lack."""
    d = op_defaults(type(op))  # (remembered per class)
    if d is None or op._successors:  # pyright: ignore[reportPrivateUsage]
        return False
    props, attrs = op.properties, op.attributes
    return all(n in props for n, _ in d[0]) and all(n in attrs for n, _ in d[1])


def _dying(s: Slice, ops: list[Operation], slots: set[tuple[int, int]], target: Operation | None) -> set[Operation]:
    """The ops of `ops` (walk order) each use of whose results the rewrite moves: to a slice op
    that dies too, a conversion reached forward, a carried value's slot (`slots`: (id(op),
    operand index)), a scalar's users, or `target` (a backward slice's conversion, replaced).
    Values the rewrite reads as they are (boundaries, replaced, retyped) keep their op."""
    kept = {id(v) for v in (*s.boundary, *s.inplace, *s.replace)}
    for fam, _ in s.families:
        kept.update(map(id, fam.values))
    scalars = {id(r) for r in s.scalars}
    members, dead, gone = s.members, set(), set()  # gone: ids of `dead` (ops hash in Python)
    if target is not None:
        gone.add(id(target))
    for op in reversed(ops):
        if type(op) is ttg.ConvertLayoutOp or not _retypable(op):  # (a final class)
            continue
        for r in op.results:
            if id(r) in kept:
                break
            if id(r) in scalars:
                continue
            use = r.first_use
            while use is not None:
                user = use._operation  # pyright: ignore[reportPrivateUsage]
                if not (id(user) in gone or (type(user) is ttg.ConvertLayoutOp and user in members)
                        or (id(user), use._index) in slots):  # pyright: ignore[reportPrivateUsage]
                    break
                use = use._next_use  # pyright: ignore[reportPrivateUsage]
            if use is not None:
                break
        else:
            dead.add(op)
            gone.add(id(op))
    return dead


def _retype(op: Operation, operands: tuple[SSAValue, ...], s: Slice, new: dict[int, SSAValue]) -> None:
    """What `_clone` makes, in `op` itself (its old results keep their uses: they move after)."""
    get = s.layout.get
    results = [r._type if (lay := get(r, _MISSING)) is _MISSING else retyped(r._type, lay)  # type: ignore[arg-type]
               for r in op.results]  # pyright: ignore[reportPrivateUsage]  # (values hash in Python: once each)
    props = None
    if _is_constant(op) and isinstance(op.value, DenseIntOrFPElementsAttr):
        props = dict(op.properties)
        props["value"] = _dense(results[0], op.value.data)
    journal.set_operands(op, [new.get(id(o), o) for o in operands])  # each use put first, as new_op puts the clone's
    journal.retype_op(op, results, props)


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


def materialize(s: Slice, ops: list[Operation], cache: RematCache | None = None, target: Operation | None = None,
                in_place: bool = True) -> tuple[dict[int, SSAValue], set[Operation], list[SSAValue]]:
    """Rewrite the IR as `s` says (`ops`: `s.ops` once each, in walk order); returns id(old value)
    -> its value in the new layout (ids: values hash in Python; the slice keeps the old ones alive),
    the ops retyped in place and their old results (unused once `target`, a backward slice's
    conversion, is replaced). `cache` learns the copies made (clones, boundary conversions).

    Operands are read before anything is retyped: retyping in place redirects the
    old users to a conversion back, which the clones must not see.
    """
    new: dict[int, SSAValue] = {id(v): r for v, r in s.replace.items()}
    carried_slots = {(id(u), i) for op, k in s.carried for u, i in slots(op, k)}
    fronts = [(u, i, u.operands[i], u.operands[i].type) for u, i in s.frontier]  # (read before retyping)
    moved = carried_slots | {(id(u), i) for u, i in s.frontier}
    dying = _dying(s, ops, moved, target) if s.families or in_place else set()
    for fam, layout in s.families:
        new.update({id(v): r for v, r in _retarget_family(fam, layout, dying).items()})
    operands = [op._operands for op in ops]  # pyright: ignore[reportPrivateUsage]  # (replaced, never changed, by a rewrite)
    feeds = [(user, i, user.operands[i]) for op, k in s.carried for user, i in slots(op, k)]
    cvt_users = {src: _cvt_users(src, s.layout) for src in s.boundary}
    dead = dying if in_place else set()
    retired: list[SSAValue] = []
    for v in s.inplace:
        new[id(v)] = _retype_in_place(v, s.layout[v])
    dup_feeds = _new_carried(s, new, cache)
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
        olds = op.results
        if op in dead:
            _retype(op, ins, s, new)
            retired += olds
            results = op.results
        else:
            clone = _clone(op, ins, s, new)
            journal.insert_before(clone, op)
            results = clone.results
            for old, r in zip(olds, results):
                r._name = valid_hint(old._name)  # pyright: ignore[reportPrivateUsage]  # (the setter's, remembered)
        for old, r in zip(olds, results):
            new[id(old)] = r
            if cache is not None and (lay := s.layout.get(old, _MISSING)) is not _MISSING:
                cache.put(old, lay, r)  # type: ignore[arg-type]
    for user, i, v in feeds:
        journal.set_operand(user, i, new.get(id(v), v))
    for user, v in dup_feeds:  # (each loop's initial values, then its yield's, in the order carried)
        journal.append_operand(user, new.get(id(v), v))
    for user, i, v, t in fronts:  # the store keeps its layout: its operand converted back, at the store
        c = journal.created(new_op(ttg.ConvertLayoutOp, [new[id(v)]], [t]))
        journal.insert_before(c, user)
        journal.set_operand(user, i, c.result)
    for r in s.scalars:
        journal.replace_all_uses_with(r, new[id(r)])
    for op in s.sinks:
        if op not in dead:
            journal.erase_op(op)
    return new, dead, retired


def _new_carried(s: Slice, new: dict[int, SSAValue], cache: RematCache | None) -> list[tuple[Operation, SSAValue]]:
    """For each carried value the slice copies (`Slice.dups`), a new iter_arg and result of its
    scf.for in the new layout (mapped in `new`); returns (op, old value) whose copy each of them
    and their yields get as a new last operand, once the clones exist (each op's in the order carried)."""
    feeds: list[tuple[Operation, SSAValue]] = []
    for op, k in s.dups:
        assert isinstance(op, scf.ForOp)
        arg, res = op.body.block.args[k + 1], op.results[k]
        lay = s.layout[arg]
        for old, nv in ((arg, journal.append_block_arg(op.body.block, retyped(arg.type, lay))),
                        (res, journal.append_result(op, retyped(res.type, lay)))):
            new[id(old)] = nv
            inherit_facts(old, nv)  # (made after the analysis: without them a masked access looks free)
            if cache is not None:
                cache.put(old, lay, nv)
        feeds += [(op, op.operands[k + 3]), (op.body.block.last_op, op.body.block.last_op.operands[k])]  # type: ignore
    return feeds


def _retarget_family(fam: Family, layout: Attribute, dying: set[Operation]) -> dict[SSAValue, SSAValue]:
    """The block pointers of `fam` in `layout`: retyped in place when its load dies in the rewrite;
    when the load stays (a shared value downstream keeps the original chain), a copy of its
    tt.make_tensor_ptr for the load's copy (native's remat clones it too), so the old load keeps
    a pointer of its own type. A family with advances or loops cannot be copied: the rewrite fails."""
    if all(a in dying for a in fam.accesses if isinstance(a, tt.LoadOp | tt.StoreOp)):  # (prefetches follow)
        return retype_family(fam, layout)
    root = fam.root
    if fam.values != {root.result}:
        raise RuntimeError("a block pointer family with advances or loops would be shared by a load in two layouts")
    if _in_loop(root):  # (triton-xpu 3.3's pipeliner aborts on such copies: 'ArrayRef.h:446 Invalid index')
        raise RuntimeError("a block pointer made in a loop is not copied")
    c = journal.created(new_op(tt.MakeTensorPtrOp, list(root.operands), [retyped(root.result.type, layout)],
                               dict(root.properties), dict(root.attributes)))
    c.location = root.location
    journal.insert_after(c, root)
    return {root.result: c.results[0]}


def _in_loop(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp | scf.WhileOp):
            return True
        parent = parent.parent_op()
    return False


def _unused(op: Operation) -> bool:
    for r in op.results:
        if r.first_use is not None:
            return False
    return True


def erase_dead(ops: list[Operation], retyped: set[Operation] | frozenset[Operation] = frozenset()) -> None:
    """Erase the ops of a rewritten slice that nothing uses any more (last first; those `retyped`
    in place are their own clones)."""
    for op in reversed(ops):
        if op in retyped:
            continue
        if op.parent is not None and not _is_store(op) and _unused(op):
            journal.erase_op(op)
        elif _is_atomic(op) and op.parent is not None:
            raise RuntimeError(f"'{op.name}' was cloned but the original is still used")  # would run twice


def sweep_dead(ops: list[Operation]) -> None:
    """Erase `ops` that nothing uses any more, and the operands' defining ops left dead by that
    (what a copy the slice read replaced: the old chain, `transforms/remove_layout_conversions/remat_cache.py`)."""
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
    if j.check_mode and len(heap) != sum(c.results[0].first_use is None for c in j.converts):
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
            new_loads: set[Operation], cache: RematCache | None = None, in_place: bool = True) -> None:
    """Remove `cvt` by `s` ("backward" or "forward"), then the ops and conversions left dead
    (`new_loads` gets the clones of `loads` the slice recomputes; `cache`: see `materialize`;
    `in_place`: ops that die are retyped in place, not cloned (the pass's option `in-place`))."""
    src, ordered = cvt.src, sorted(set(s.ops), key=j.order.keys.__getitem__)
    new, retyped, retired = materialize(s, ordered, cache, cvt if how == "backward" else None, in_place)
    new_loads.update(ld if ld in retyped else new[id(ld.results[0])].owner  # type: ignore[misc]
                     for ld in s.ops if ld in loads)  # (a load retyped in place is its own clone)
    if how == "backward":
        journal.replace_all_uses_with(cvt.result, new[id(src)])
        journal.erase_op(cvt)
    for r in retired:
        if r.first_use is not None:  # (_dying missed a use: the trial is abandoned and undone)
            name = r.op.name  # type: ignore[attr-defined]
            raise RuntimeError(f"'{name}' was retyped in place but its old result is still used")
    erase_dead(ordered, retyped)
    if s.reused:  # the chains the copies replaced
        sweep_dead([v.owner for v in s.reused if isinstance(v.owner, Operation)])
    if how == "forward" and not cvt.result.uses:
        journal.erase_op(cvt)
    erase_dead_converts(j)
