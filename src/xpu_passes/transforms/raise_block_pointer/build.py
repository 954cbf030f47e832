"""Building the block pointers a raising `Plan` describes, and rewriting its accesses.

`apply_plans` builds the plans made at their access or carried as a loop's argument; `make_ptr`,
`rebuild_loop`, `rewrite_access` and `erase_dead` are also the steps induction.carry_plans builds with."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i1, i32, i64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Decomposer, Lin, values_of, wide
from xpu_passes.transforms.raise_block_pointer.plan_types import AccessPlan, DimPlan, Plan
from xpu_passes.dialects import tt
from xpu_passes.dialects import arith as arith_compat


class Builder:
    def __init__(self, point: InsertPoint) -> None:
        self.point = point
        self.consts: dict[tuple[int, Attribute], SSAValue] = {}
        self.casts: dict[SSAValue, SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def const(self, v: int, t: Attribute) -> SSAValue:
        if (v, t) not in self.consts:
            self.consts[(v, t)] = self.add(arith.ConstantOp(IntegerAttr(v, t)))
        return self.consts[(v, t)]

    def leaf(self, v: SSAValue, t: Attribute) -> SSAValue:
        if v.type == t:
            return v
        assert t == i64, f"an i64 value {v} in an i32 offset (planning keeps those out: ptr_decompose.wide)"
        if v not in self.casts:
            self.casts[v] = self.add(arith_compat.cast("arith.extsi", v, t))
        return self.casts[v]

    def lin(self, x: Lin, t: Attribute) -> SSAValue:
        for v in values_of(x):  # the kernel's own value, as Intel's pass reuses it
            if v.type == t and _dominates(v, self.point):
                return v
        out: SSAValue | None = None
        # the constant last, as Intel's pass adds offsets (`(a + b) + 10` after canonicalize)
        for mono, c in sorted(x.terms, key=lambda mc: mc[0] == ()):
            term: SSAValue | None = None
            for v in mono:
                lv = self.leaf(v, t)
                term = lv if term is None else self.add(arith.MuliOp(term, lv))
            if term is None:
                term = self.const(c, t)
            elif c != 1:
                term = self.add(arith.MuliOp(term, self.const(c, t)))
            out = term if out is None else self.add(arith.AddiOp(out, term))
        return out if out is not None else self.const(0, t)

    def cmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(arith_compat.CmpiOp.build(
            operands=[a, b], result_types=[i1], properties={"predicate": IntegerAttr(arith_compat.CMPI[pred], i64)}))


def _dominates(v: SSAValue, point: InsertPoint) -> bool:
    """Whether `v` is defined in `point`'s block or an enclosing one, before the point."""
    anchor: Operation | None = point.insert_before
    block: Block | None = point.block
    while block is not None:
        if isinstance(v, BlockArgument):
            if v.owner is block:
                return True
        elif isinstance(v.owner, Operation) and v.owner.parent_block() is block:
            end = block.get_operation_index(anchor) if anchor is not None else len(block.ops)
            return block.get_operation_index(v.owner) < end
        anchor = block.parent_op()
        block = anchor.parent_block() if anchor is not None else None
    return False


def make_ptr(b: Builder, plan: Plan) -> SSAValue:
    base = plan.base
    if plan.rest.terms:
        # in i64 where the kernel computed a term in i64 (ptr_decompose.wide): exact either way
        rest_t = i64 if wide(plan.rest) else i32
        base = b.add(tt.AddPtrOp.build(operands=[base, b.lin(plan.rest, rest_t)], result_types=[base.type]))
    shape = [hull_shape(b, dp, n) if dp.hull is not None else b.lin(dp.shape, i64)  # type: ignore[arg-type]
             for dp, n in zip(plan.dims, plan.block.get_shape())]
    strides = [b.lin(dp.stride, i64) for dp in plan.dims]
    offsets = [b.lin(dp.pos, i32) for dp in plan.dims]
    ptr_t = tt.PointerType(plan.block)
    return b.add(tt.MakeTensorPtrOp.build(
        operands=[base, shape, strides, offsets], result_types=[ptr_t],
        properties={"order": DenseArrayBase.from_list(i32, list(plan.order))}))


def hull_shape(b: Builder, dp: DimPlan, size: int) -> SSAValue:
    """The shape of a dim a loop-invariant mask `i < r` bounds (DimPlan.hull), for a loop of step 1 whose tile
    moves along it: the columns the loop reads, first to last. `r > 0`: the extent less the `size - r` columns the
    last iteration masks off (min(0, r - size)); `r <= 0`: the position itself, so the block reads nothing."""
    assert dp.shape is not None and dp.hull is not None
    r = b.lin(dp.hull, i64)
    short = b.add(arith.MinSIOp(b.add(arith.SubiOp(r, b.const(size, i64))), b.const(0, i64)))
    reach = b.add(arith.AddiOp(b.lin(dp.shape, i64), short))
    some = b.cmp("sgt", r, b.const(0, i64))
    return b.add(arith_compat.SelectOp.build(operands=[some, reach, b.lin(dp.pos, i64)], result_types=[i64]))


def rewrite_access(ap: AccessPlan, ptr: SSAValue) -> list[Operation]:
    """Replace one access by its block access; returns the ops whose operands may now be dead."""
    op = ap.op
    props: dict[str, Attribute] = {k: v for k, v in op.properties.items() if k in ("cache", "evict", "isVolatile")}
    if ap.boundary:
        props["boundaryCheck"] = DenseArrayBase.from_list(i32, list(ap.boundary))
    if isinstance(op, tt.LoadOp):
        if ap.padding is not None and ap.boundary:
            props["padding"] = IntegerAttr(ap.padding, i32)
        new = tt.LoadOp.build(operands=[ptr, [], []], result_types=[op.result.type], properties=props,
                              attributes=dict(op.attributes))
        Rewriter.insert_op(new, InsertPoint.before(op))
        result: SSAValue = new.result
        if ap.select:
            cond = op.mask if ap.select_by is None else ap.select_by
            if cond.type != op.mask.type:  # a conjunct of the mask, broadcast to the tile
                cond = tt.BroadcastOp.build(operands=[cond], result_types=[op.mask.type])
                Rewriter.insert_op(cond, InsertPoint.before(op))
                cond = cond.results[0]
            sel = arith_compat.SelectOp.build(operands=[cond, new.result, op.other], result_types=[op.result.type])
            Rewriter.insert_op(sel, InsertPoint.before(op))
            result = sel.result
        op.result.replace_all_uses_with(result)
    else:
        new = tt.StoreOp.build(operands=[ptr, op.value, []], properties=props, attributes=dict(op.attributes))
        Rewriter.insert_op(new, InsertPoint.before(op))
    old = [o.owner for o in op.operands if isinstance(o.owner, Operation)]
    op.detach()
    op.erase(safe_erase=False)
    return old


def rebuild_loop(loop: scf.ForOp, new_inits: dict[int, SSAValue], append: bool = False) -> scf.ForOp:
    """The loop with iter_args `i` replaced by `new_inits[i]` (new types), or with them added after its own
    (`append`: the body then yields them too, which the caller adds); body moved over."""
    inits = [new_inits.get(i, v) for i, v in enumerate(loop.iter_args)]
    if append:
        inits = list(loop.iter_args) + [new_inits[i] for i in sorted(new_inits)]
    body = loop.body.block
    new_block = Block(arg_types=[body.args[0].type] + [v.type for v in inits])
    for old, new in zip(body.args, new_block.args):
        old.replace_all_uses_with(new)
    for op in list(body.ops):
        op.detach()
        new_block.add_op(op)
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, inits, [new_block])
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    for i, (old, new) in enumerate(zip(loop.results, new_loop.results)):
        if append or i not in new_inits:
            old.replace_all_uses_with(new)
    loop.detach()
    loop.erase(safe_erase=False)
    return new_loop


_DEAD_OK = ("tt.addptr", "tt.splat", "tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.make_range", "arith.")


def erase_dead(roots: list[Operation]) -> None:
    """Erase pure ops left without uses, walking up from `roots`."""
    work = list(roots)
    while work:
        op = work.pop()
        if op.parent is None or any(r.uses for r in op.results) or op.regions:
            continue
        if not (op.name.startswith(_DEAD_OK) or op.name in _DEAD_OK):
            continue
        work += [o.owner for o in op.operands if isinstance(o.owner, Operation)]
        op.detach()
        op.erase(safe_erase=False)


def _direct_point(p: Plan) -> InsertPoint | None:
    """Where the tensor of pointers was made (as Intel's pass builds it), when every value the block
    pointer needs is defined there; else None (right before the access)."""
    op = p.accesses[0].op
    d = op.ptr.owner
    block = op.parent_block()
    if not isinstance(d, Operation) or d.parent_block() is not block or block is None:
        return None
    at = block.get_operation_index(d)
    lins = [p.rest] + [x for dp in p.dims for x in (dp.pos, dp.stride, dp.shape, dp.hull) if x is not None]
    for v in {v for x in lins for v in x.leaves()}:
        if isinstance(v.owner, Operation) and v.owner.parent_block() is block and block.get_operation_index(v.owner) > at:
            return None
    return InsertPoint.after(d)


def _plan_key(p: Plan) -> tuple:
    return (p.accesses[0].op.ptr, p.base, p.rest.terms, p.order, p.block,
            tuple((dp.pos.terms, dp.stride.terms, dp.shape.terms if dp.shape else None,
                   dp.hull.terms if dp.hull else None) for dp in p.dims))


def _frame(p: Plan) -> tuple:
    """What a block pointer is but its position: another one with the same frame is an advance of it."""
    return (p.base, p.rest.terms, p.order, p.block,
            tuple((dp.stride.terms, dp.shape.terms if dp.shape else None, dp.hull.terms if dp.hull else None)
                  for dp in p.dims))


def _advanced(b: Builder, p: Plan, built: dict[SSAValue, tuple[Plan, SSAValue]]) -> SSAValue | None:
    """`tt.addptr Q, off` whose Q already has a block pointer of the same frame: that one advanced by the
    difference of positions (as Intel's pass raises an addptr chain)."""
    inc = p.accesses[0].op.ptr.owner
    if not isinstance(inc, tt.AddPtrOp) or inc.ptr not in built:
        return None
    q, qptr = built[inc.ptr]
    if _frame(q) != _frame(p):
        return None
    diffs = [dp.pos - dq.pos for dp, dq in zip(p.dims, q.dims)]
    if any(wide(x) for x in diffs):  # (an i32 offset only)
        return None
    offs = [b.lin(x, i32) for x in diffs]
    return b.add(tt.AdvanceOp.build(operands=[qptr, offs], result_types=[qptr.type]))


def apply_plans(plans: list[Plan]) -> None:
    dead: list[Operation] = []
    by_loop: dict[scf.ForOp, list[Plan]] = {}
    shared: dict[tuple, SSAValue] = {}  # one block pointer per tensor of pointers, as Intel's pass
    built: dict[SSAValue, tuple[Plan, SSAValue]] = {}  # tensor of pointers -> its block pointer
    for p in plans:
        if p.loop is None:
            point = _direct_point(p)
            k = _plan_key(p) if point is not None else None
            if k is None or k not in shared:
                b = Builder(point or InsertPoint.before(p.accesses[0].op))
                ptr = (_advanced(b, p, built) if point is not None else None) or make_ptr(b, p)
                if k is not None:
                    shared[k] = ptr
                    built.setdefault(p.accesses[0].op.ptr, (p, ptr))
            dead += rewrite_access(p.accesses[0], shared[k] if k is not None else ptr)
        else:
            by_loop.setdefault(p.loop, []).append(p)
    for loop, ps in by_loop.items():
        b = Builder(InsertPoint.before(loop))
        inits = {p.arg_index: make_ptr(b, p) for p in ps}
        advs = {p.arg_index: [b.const(dp.adv, i32) for dp in p.dims] for p in ps}  # constants before the loop
        old_inits = [loop.iter_args[i] for i in inits]
        for p in ps:
            if p.after is not None:
                _rebuild_after(loop, loop.iter_args[p.arg_index], p)
        new_loop = rebuild_loop(loop, inits)
        body = new_loop.body.block
        yld = body.last_op
        assert isinstance(yld, scf.YieldOp)
        for p in ps:
            arg = body.args[p.arg_index + 1]
            assert p.increment is not None
            here = Builder(InsertPoint.after(p.increment))
            offs = advs[p.arg_index]
            if p.var_adv is not None:  # computed where the increment was
                d, q = p.var_adv
                offs = [here.lin(q, i32) if i == d else o for i, o in enumerate(offs)]
            adv = here.add(tt.AdvanceOp.build(operands=[arg, offs], result_types=[arg.type]))
            yld.operands = [adv if v is p.increment.results[0] else v for v in yld.operands]
            for ap in p.accesses:
                dead += rewrite_access(ap, adv if ap.after else arg)
            dead.append(p.increment)
        dead += [v.owner for v in old_inits if isinstance(v.owner, Operation)]
    erase_dead(dead)


def _rebuild_after(loop: scf.ForOp, init: SSAValue, p: Plan) -> None:
    """The tensor of pointers the loop would have left in `p`'s iter_arg, from its trip count:
    `init + (ub > lb ? (ub - lb + step - 1) / step : 0) * increment` (step > 0)."""
    assert p.after is not None
    b = Builder(InsertPoint.after(loop))
    dec = Decomposer()
    step = dec.scalar(loop.step).constant
    assert step is not None and step > 0
    span = dec.scalar(loop.ub) - dec.scalar(loop.lb)
    trips = b.lin(span + Lin.const(step - 1), i32)
    if step != 1:
        trips = b.add(arith.DivSIOp(trips, b.const(step, i32)))
    if span.constant is None or span.constant <= 0:
        some = b.cmp("sgt", b.lin(span, i32), b.const(0, i32))
        trips = b.add(arith_compat.SelectOp.build(operands=[some, trips, b.const(0, i32)], result_types=[i32]))
    off = b.add(arith.MuliOp(trips, b.lin(p.after, i32)))
    ptr_t = init.type
    assert isinstance(ptr_t, TensorType)
    splat = b.add(tt.SplatOp.build(operands=[off], result_types=[TensorType(i32, ptr_t.get_shape(), ptr_t.encoding)]))
    after = b.add(tt.AddPtrOp.build(operands=[init, splat], result_types=[ptr_t]))
    loop.results[p.arg_index].replace_all_uses_with(after)



def drop_mask(op: tt.LoadOp | tt.StoreOp) -> Operation:
    """The access without its mask and `other` (Intel's `ignore-masks`); returns it."""
    if isinstance(op, tt.LoadOp):
        new: Operation = tt.LoadOp.build(operands=[op.ptr, [], []], result_types=[op.result.type],
                                         properties=dict(op.properties), attributes=dict(op.attributes))
        Rewriter.insert_op(new, InsertPoint.before(op))
        op.result.replace_all_uses_with(new.results[0])
    else:
        new = tt.StoreOp.build(operands=[op.ptr, op.value, []], properties=dict(op.properties),
                               attributes=dict(op.attributes))
        Rewriter.insert_op(new, InsertPoint.before(op))
    old = [o.owner for o in op.operands if isinstance(o.owner, Operation)]
    op.detach()
    op.erase(safe_erase=False)
    erase_dead(old)
    return new


def _dead_chain(loop: scf.ForOp, i: int) -> list[Operation] | None:
    """The `tt.addptr`s (`arith.addi`s) of iter_arg `i` when they only advance it for the next iteration and
    nothing reads it."""
    if loop.results[i].uses:
        return None
    arg, yld = loop.body.block.args[i + 1], loop.body.block.last_op
    chain: list[Operation] = []
    x: SSAValue = arg
    while True:
        uses = list(x.uses)
        if len(uses) != 1:
            return None
        u = uses[0].operation
        if u is yld:
            return chain if uses[0].index == i else None
        if not (isinstance(u, tt.AddPtrOp) and uses[0].index == 0 or isinstance(u, arith.AddiOp)):
            return None
        chain.append(u)
        x = u.result


def prune_pointer_args(root: Operation, before: Callable[[], None] = lambda: None) -> bool:
    """Drop pointer (offset) iter_args left only advancing themselves (their accesses were raised); whether any.
    `before`: called before the first change."""
    pruned = False
    for loop in [o for o in root.walk() if isinstance(o, scf.ForOp)]:
        dead = {i: c for i in range(len(loop.iter_args))
                if isinstance(loop.iter_args[i].type, TensorType) and (c := _dead_chain(loop, i)) is not None}
        if not dead:
            continue
        if not pruned:
            before()
        pruned = True
        body = loop.body.block
        yld = body.last_op
        assert isinstance(yld, scf.YieldOp)
        yld.operands = [v for i, v in enumerate(yld.operands) if i not in dead]
        offsets: list[Operation] = []
        for chain in dead.values():
            for op in reversed(chain):
                offsets += [o.owner for o in op.operands if isinstance(o.owner, Operation)]
                op.detach()
                op.erase(safe_erase=False)
        keep = [i for i in range(len(loop.iter_args)) if i not in dead]
        new_block = Block(arg_types=[body.args[0].type] + [loop.iter_args[i].type for i in keep])
        body.args[0].replace_all_uses_with(new_block.args[0])
        for j, i in enumerate(keep):
            body.args[i + 1].replace_all_uses_with(new_block.args[j + 1])
        for op in list(body.ops):
            op.detach()
            new_block.add_op(op)
        inits = [loop.iter_args[i] for i in dead]
        new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [loop.iter_args[i] for i in keep], [new_block])
        Rewriter.insert_op(new_loop, InsertPoint.before(loop))
        for j, i in enumerate(keep):
            loop.results[i].replace_all_uses_with(new_loop.results[j])
        loop.detach()
        loop.erase(safe_erase=False)
        erase_dead(offsets + [v.owner for v in inits if isinstance(v.owner, Operation)])
    return pruned
