"""`--tritonintelgpu-raise-block-pointer`: tensors of pointers -> block pointers, safely.

A 2D load/store through `base + offs_m[:, None] * s_m + offs_n[None, :] * s_n`
(`analysis/ptr_decompose.py`) becomes a `tt.make_tensor_ptr` access; pointers
advanced in `scf.for` (`ptrs += BK * s_k`) become loop-carried block pointers moved
by `tt.advance`. What keeps it exact (bit for bit):

- every position a block access touches is >= 0 (else 2D block reads return zero
  where the original read memory): proven (program ids, loop counters, constants),
  or else the position moves into the base pointer and the block starts at 0 (the
  shape shrinks by as much, so bounds checks stay exact);
- the shape of each dim bounds every position read there (2D block I/O treats it as
  the surface even where `boundaryCheck` is off): the bound a mask compares with
  (then the dim is in `boundaryCheck`), the divisor of a wrap-around `% W`, or the
  extent the unmasked accesses reach (`pos + block`, or over the loop's iterations);
- a mask equal to the bounds checks becomes `boundaryCheck` and `other` becomes
  `padding` (+0.0 / 0 -> zero, the quiet NaN -> nan); another `other` is kept with a
  select; a mask with other conjuncts is kept with `arith.select(mask, load, other)`
  only when every dim is bounds-checked or wrap-bounded (the block load reads nowhere
  the kernel's own bounds forbid); stores need masks that are exactly bounds checks;
- wrap-around offsets `(p + arange(0, B)) % W` are versioned on `0 <= p && p + B <= W`
  (computed in i64): the op of the function body that holds the access (a loop nest,
  say) is copied into `scf.if`, the then-branch raised, the else-branch the original.
Anything else is left alone with a remark saying why.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.analysis.ptr_decompose import (
    ONE,
    ZERO,
    Bound,
    Decomposer,
    Lin,
    PtrForm,
    Unsupported,
    defined_outside,
    nonneg,
    reset_order,
)
from xpu_passes.dialects import arith_compat, tt
from xpu_passes.transforms.base import XpuPass, register

Access = tt.LoadOp | tt.StoreOp


class LeftAlone(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class DimPlan:
    pos: Lin  # position of the block's first element (before the loop, for loop-carried ones)
    stride: Lin
    adv: int = 0  # per-iteration advance (loop-carried pointers)
    extent: bool = False  # no bound in the IR: the shape is the extent the accesses reach
    shape: Lin | None = None


@dataclass
class AccessPlan:
    op: Access
    boundary: tuple[int, ...] = ()
    padding: int | None = None
    select: bool = False


@dataclass
class Plan:
    base: SSAValue
    rest: Lin  # element offset not attributed to a dim: folded into the base pointer
    dims: list[DimPlan]
    order: tuple[int, ...]
    block: TensorType
    accesses: list[AccessPlan]
    preds: list[Lin] = field(default_factory=list)  # run-time conditions `L >= 0`
    loop: scf.ForOp | None = None
    arg_index: int = -1
    increment: Operation | None = None  # the `tt.addptr` the advance replaces


def _key(x: Lin) -> tuple:
    return x.terms


# ------------------------------------------------------------------ planning


class Planner:
    def __init__(self, assumed_for: Callable[[Operation], set[tuple]]) -> None:
        self.dec = Decomposer()
        self.assumed_for = assumed_for  # run-time conditions a version around an op guarantees

    def _dims(self, pf: PtrForm, shape: tuple[int, ...], preds: list[Lin], wraps: dict[int, Lin]) -> tuple[Lin, list[DimPlan]]:
        dims: list[DimPlan] = []
        for d, t in enumerate(pf.offset.dims):
            if t is None:
                raise LeftAlone(f"the address does not vary along dim {d}")
            if t.wrap is not None:
                wraps[d] = t.wrap
                preds += [t.pos, t.wrap - t.pos - Lin.const(shape[d])]
            dims.append(DimPlan(t.pos, t.stride))
        rest = pf.offset.base
        if rest.terms:  # attribute a leftover offset to the dim whose stride divides it most simply
            cands = [(len(q.leaves()), d, q) for d, dp in enumerate(dims) if (q := rest.divide(dp.stride)) is not None]
            if cands:
                _, d, q = min(cands, key=lambda c: (c[0], -c[1]))
                if d not in wraps:
                    dims[d].pos = dims[d].pos + q
                    rest = ZERO
        return rest, dims

    @staticmethod
    def _order(dims: list[DimPlan]) -> tuple[int, ...]:
        r = len(dims)
        unit = [d for d, dp in enumerate(dims) if dp.stride == ONE]
        if unit and unit[-1] != r - 1:
            fast = unit[-1]
            return (fast,) + tuple(d for d in reversed(range(r)) if d != fast)
        return tuple(reversed(range(r)))

    @staticmethod
    def _match(b: Bound, dp: DimPlan, loop: scf.ForOp | None, k: int) -> Lin | None:
        """The shape that makes `b` the bounds check of a dim at position `pos + iv*k`, or None.

        `b.pos + i < b.bound` is `P + i < b.bound + P - b.pos`: a bounds check when that right side does
        not change from one iteration to the next (covers `offs_k < K - k*BK` and `k*BK + offs_k < K`).
        """
        shape = b.bound + dp.pos - b.pos
        if loop is None:
            return shape
        iv = loop.body.block.args[0]
        if k < 0:  # no closed form for the position
            return None
        shape = shape + Lin.leaf(iv).scale(k)
        return None if iv in shape.leaves() else shape

    def _access(self, op: Access, dims: list[DimPlan], loop: scf.ForOp | None, ks: list[int],
                wraps: dict[int, Lin], preds: list[Lin]) -> tuple[AccessPlan, dict[int, Lin]]:
        """How one access becomes a block access; the shapes its mask implies per dim."""
        ap = AccessPlan(op)
        mask = op.mask
        if mask is None:
            return ap, {}
        parts = self.dec.mask(mask)
        shapes: dict[int, Lin] = {}
        others = list(parts.others)
        for b in parts.bounds:
            s = None if b.dim in shapes else self._match(b, dims[b.dim], loop, ks[b.dim])
            if s is None or (loop is not None and not defined_outside(s.leaves(), loop)):
                others.append(b.op.results[0])
                continue
            if b.wrap is not None:
                preds += [b.pos, b.wrap - b.pos - Lin.const(_shape(op)[b.dim])]
            shapes[b.dim] = s
        ap.boundary = tuple(sorted(shapes))
        if isinstance(op, tt.StoreOp):
            if others:
                raise LeftAlone("store mask is not a bounds check of the block")
            return ap, shapes
        if others:
            unbounded = [d for d in range(len(dims)) if d not in shapes and d not in wraps]
            if unbounded:
                raise LeftAlone(f"mask is not a bounds check of the block, and the block load may read outside "
                                f"the kernel's bounds along dim {unbounded[0]}")
            ap.select = op.other is not None
            return ap, shapes
        if op.other is not None:
            pad = _padding_of(op.other)
            if pad is None:
                ap.select = True
            else:
                ap.padding = pad
        return ap, shapes

    def _finish(self, plan: Plan, shapes_seen: list[dict[int, Lin]], wraps: dict[int, Lin],
                extents: list[Lin]) -> Plan:
        for d, dp in enumerate(plan.dims):
            cands = {_key(s[d]): s[d] for s in shapes_seen if d in s}
            if d in wraps:
                cands.setdefault(_key(wraps[d]), wraps[d])
            if len(cands) > 1:
                raise LeftAlone(f"accesses bound dim {d} by different values")
            if cands:
                if d not in wraps and any(d not in s for s in shapes_seen):
                    raise LeftAlone(f"some accesses check dim {d} against a bound and others do not")
                dp.shape = next(iter(cands.values()))
            else:
                dp.shape, dp.extent = extents[d], True
        assumed = self.assumed_for(plan.accesses[0].op)
        for dp in plan.dims:
            if not nonneg(dp.pos) and _key(dp.pos) not in assumed:
                # A position not known >= 0 moves into the base pointer: positions then start at 0 and
                # the shape shrinks by as much, so bounds checks stay exact and nothing reads below 0.
                assert dp.shape is not None
                plan.rest = plan.rest + dp.stride * dp.pos
                dp.shape = dp.shape - dp.pos
                dp.pos = ZERO
        plan.preds = [p for p in _dedup(plan.preds) if not nonneg(p) and _key(p) not in assumed]
        return plan

    def direct(self, op: Access) -> Plan:
        ptr = op.ptr
        shape = _shape(op)
        try:
            pf = self.dec.pointer(ptr)
        except Unsupported as e:
            raise LeftAlone(e.reason) from e
        preds: list[Lin] = []
        wraps: dict[int, Lin] = {}
        rest, dims = self._dims(pf, shape, preds, wraps)
        try:
            ap, shapes = self._access(op, dims, None, [0] * len(dims), wraps, preds)
        except Unsupported as e:
            raise LeftAlone(e.reason) from e
        extents = [dp.pos + Lin.const(shape[d]) for d, dp in enumerate(dims)]
        plan = Plan(pf.base, rest, dims, self._order(dims), _block_type(op), [ap], preds)
        return self._finish(plan, [shapes], wraps, extents)

    def carried(self, loop: scf.ForOp, index: int) -> Plan:
        body = loop.body.block
        arg = body.args[index + 1]
        yld = body.last_op
        assert isinstance(yld, scf.YieldOp)
        inc = yld.operands[index].owner
        if not (isinstance(inc, tt.AddPtrOp) and inc.ptr is arg and len(list(inc.result.uses)) == 1):
            raise LeftAlone("the loop-carried pointer is not advanced by one increment per iteration")
        if loop.results[index].uses:
            raise LeftAlone("the loop-carried pointer is used after the loop")
        accesses: list[Access] = []
        for use in arg.uses:
            u = use.operation
            if u is inc:
                continue
            if isinstance(u, tt.LoadOp | tt.StoreOp) and use.index == 0 and u.parent_block() is body:
                accesses.append(u)
            elif u.parent_block() is not body:
                raise LeftAlone(f"the loop-carried pointer is used by '{u.name}' in a nested region")
            else:
                raise LeftAlone(f"the loop-carried pointer is used by '{u.name}'")
        if not accesses:
            raise LeftAlone("the loop-carried pointer is not loaded or stored through")
        types = {_block_type(a) for a in accesses}
        if len(types) != 1:
            raise LeftAlone("accesses through the loop-carried pointer disagree on the tile type")
        try:
            pf = self.dec.pointer(loop.iter_args[index])
            step = self.dec.index(inc.offset)
        except Unsupported as e:
            raise LeftAlone(e.reason) from e
        if not step.uniform or not defined_outside(step.base.leaves(), loop):
            raise LeftAlone("the pointer increment is not loop-invariant and uniform")
        shape = _shape(accesses[0])
        _, dims = self._dims(pf, shape, [], {})
        # The increment as a whole number of rows or columns; when several dims fit (a constant
        # stride), each is tried: all give the same addresses, the masks decide which one checks.
        cands: list[tuple[int, int] | None] = [None] if not step.base.terms else []
        for d, dp in enumerate(dims):
            q = step.base.divide(dp.stride) if step.base.terms else None
            if q is not None and q.constant is not None and q.constant >= 0:
                cands.append((d, q.constant))
        if not cands:
            raise LeftAlone("the pointer increment is not a constant, non-negative number of rows or columns")
        cands.sort(key=lambda c: c[1] if c else 0)
        failure = LeftAlone("")
        block = next(iter(types))
        for cand in cands:
            try:
                return self._carried(loop, index, inc, pf, accesses, block, cand)
            except LeftAlone as e:
                failure = e
        raise failure

    def _carried(self, loop: scf.ForOp, index: int, inc: tt.AddPtrOp, pf: PtrForm, accesses: list[Access],
                 block: TensorType, cand: tuple[int, int] | None) -> Plan:
        """The plan of a loop-carried pointer advancing `cand = (dim, rows or columns)` per iteration."""
        shape = _shape(accesses[0])
        preds: list[Lin] = []
        wraps: dict[int, Lin] = {}
        rest, dims = self._dims(pf, shape, preds, wraps)
        if cand is not None:
            d, adv = cand
            if d in wraps:
                raise LeftAlone("the pointer advances along a wrapped-around dim")
            dims[d].adv = adv
        # position along d at induction value iv: pos + iv * k (lb = 0, step s, k = adv / s)
        lb, stp = self.dec.scalar(loop.lb).constant, self.dec.scalar(loop.step).constant
        ks = [0] * len(dims)
        for d, dp in enumerate(dims):
            if dp.adv and lb == 0 and stp and stp > 0 and dp.adv % stp == 0:
                ks[d] = dp.adv // stp
            elif dp.adv:
                ks[d] = -1  # no closed form: no mask on this dim can be matched
        plans, shapes_seen = [], []
        try:
            for a in accesses:
                ap, s = self._access(a, dims, loop, ks, wraps, preds)
                plans.append(ap)
                shapes_seen.append(s)
        except Unsupported as e:
            raise LeftAlone(e.reason) from e
        extents: list[Lin] = []
        ub = self.dec.scalar(loop.ub)
        for d, dp in enumerate(dims):
            if dp.adv == 0:
                extents.append(dp.pos + Lin.const(shape[d]))
            elif ks[d] > 0:  # last position: pos + (ub - 1) * k
                extents.append(dp.pos + (ub - ONE).scale(ks[d]) + Lin.const(shape[d]))
            else:
                extents.append(ZERO)  # unused unless no bound: then the check below refuses
                if not any(d in s for s in shapes_seen) and d not in wraps:
                    raise LeftAlone(f"unknown extent of dim {d}: the loop does not start at 0 with a step "
                                    f"dividing the advance")
        plan = Plan(pf.base, rest, dims, self._order(dims), block, plans, preds, loop, index, inc)
        return self._finish(plan, shapes_seen, wraps, extents)


def _dedup(xs: list[Lin]) -> list[Lin]:
    seen: dict[tuple, Lin] = {}
    for x in xs:
        seen.setdefault(_key(x), x)
    return list(seen.values())


def _shape(op: Access) -> tuple[int, ...]:
    t = op.ptr.type
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def _block_type(op: Access) -> TensorType:
    t = op.result.type if isinstance(op, tt.LoadOp) else op.value.type
    assert isinstance(t, TensorType)
    return t


def _padding_of(other: SSAValue) -> int | None:
    """1 (zero) for a +0 / 0 splat, 2 (nan) for a NaN splat, else None (keep a select)."""
    op = other.owner
    if not isinstance(op, arith.ConstantOp) or not isinstance(op.value, DenseIntOrFPElementsAttr):
        return None
    vals = op.value.get_values()
    if not vals or any(v != vals[0] and not (math.isnan(v) and math.isnan(vals[0])) for v in vals):
        return None
    v = vals[0]
    if isinstance(v, float):
        if math.isnan(v):  # only the canonical quiet NaN is what `padding = nan` loads, bit for bit
            return 2 if struct.pack("<d", v) == struct.pack("<d", math.nan) else None
        return 1 if v == 0.0 and math.copysign(1.0, v) > 0 else None
    return 1 if v == 0 else None


def _candidates(fn: tt.FuncOp) -> list[Access]:
    out: list[Access] = []
    for op in fn.walk():
        if isinstance(op, tt.LoadOp | tt.StoreOp):
            t = op.ptr.type
            if isinstance(t, TensorType) and isinstance(t.element_type, tt.PointerType):
                out.append(op)
    return out


def _carrier(op: Access) -> tuple[scf.ForOp, int] | None:
    p = op.ptr
    if isinstance(p, BlockArgument) and isinstance(p.owner, Block):
        loop = p.owner.parent_op()
        if isinstance(loop, scf.ForOp) and p.index > 0:
            return loop, p.index - 1
    return None


def plan_function(fn: tt.FuncOp, assumed_for: Callable[[Operation], set[tuple]] = lambda op: set()
                  ) -> tuple[list[Plan], dict[Access, str]]:
    """Plans for every raisable access of `fn` (with the run-time conditions each still needs), and why the
    others are left alone."""
    planner = Planner(assumed_for)
    plans: list[Plan] = []
    failed: dict[Access, str] = {}
    families: dict[tuple[scf.ForOp, int], list[Access]] = {}
    for op in _candidates(fn):
        rank = len(_shape(op))
        if rank != 2:
            failed[op] = "1D access (2D block I/O needs a 2D tile)" if rank == 1 else f"rank-{rank} access"
            continue
        c = _carrier(op)
        if c is not None:
            families.setdefault(c, []).append(op)
            continue
        try:
            plans.append(planner.direct(op))
        except LeftAlone as e:
            failed[op] = e.reason
    for (loop, index), ops in families.items():
        try:
            plans.append(planner.carried(loop, index))
        except LeftAlone as e:
            for op in ops:
                failed[op] = e.reason
    return plans, failed


# ------------------------------------------------------------------ building


class _Builder:
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
        if v not in self.casts:
            self.casts[v] = self.add(arith_compat.cast("arith.extsi", v, t))
        return self.casts[v]

    def lin(self, x: Lin, t: Attribute) -> SSAValue:
        out: SSAValue | None = None
        for mono, c in x.terms:
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


def _make_ptr(b: _Builder, plan: Plan) -> SSAValue:
    base = plan.base
    if plan.rest.terms:
        base = b.add(tt.AddPtrOp.build(operands=[base, b.lin(plan.rest, i32)], result_types=[base.type]))
    shape = [b.lin(dp.shape, i64) for dp in plan.dims]  # type: ignore[arg-type]
    strides = [b.lin(dp.stride, i64) for dp in plan.dims]
    offsets = [b.lin(dp.pos, i32) for dp in plan.dims]
    ptr_t = tt.PointerType(plan.block)
    return b.add(tt.MakeTensorPtrOp.build(
        operands=[base, shape, strides, offsets], result_types=[ptr_t],
        properties={"order": DenseArrayBase.from_list(i32, list(plan.order))}))


def _rewrite_access(ap: AccessPlan, ptr: SSAValue) -> list[Operation]:
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
            sel = arith_compat.SelectOp.build(operands=[op.mask, new.result, op.other], result_types=[op.result.type])
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


def _rebuild_loop(loop: scf.ForOp, new_inits: dict[int, SSAValue]) -> scf.ForOp:
    """The loop with iter_args `i` replaced by `new_inits[i]` (new types); body moved over."""
    inits = [new_inits.get(i, v) for i, v in enumerate(loop.iter_args)]
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
        if i not in new_inits:
            old.replace_all_uses_with(new)
    loop.detach()
    loop.erase(safe_erase=False)
    return new_loop


_DEAD_OK = ("tt.addptr", "tt.splat", "tt.broadcast", "tt.expand_dims", "tt.make_range", "arith.")


def _erase_dead(roots: list[Operation]) -> None:
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


def apply_plans(plans: list[Plan]) -> None:
    dead: list[Operation] = []
    by_loop: dict[scf.ForOp, list[Plan]] = {}
    for p in plans:
        if p.loop is None:
            b = _Builder(InsertPoint.before(p.accesses[0].op))
            dead += _rewrite_access(p.accesses[0], _make_ptr(b, p))
        else:
            by_loop.setdefault(p.loop, []).append(p)
    for loop, ps in by_loop.items():
        b = _Builder(InsertPoint.before(loop))
        inits = {p.arg_index: _make_ptr(b, p) for p in ps}
        advs = {p.arg_index: [b.const(dp.adv, i32) for dp in p.dims] for p in ps}  # constants before the loop
        old_inits = [loop.iter_args[i] for i in inits]
        new_loop = _rebuild_loop(loop, inits)
        body = new_loop.body.block
        yld = body.last_op
        assert isinstance(yld, scf.YieldOp)
        for p in ps:
            arg = body.args[p.arg_index + 1]
            adv = _Builder(InsertPoint.before(yld)).add(
                tt.AdvanceOp.build(operands=[arg, advs[p.arg_index]], result_types=[arg.type]))
            assert p.increment is not None
            yld.operands = [adv if v is p.increment.results[0] else v for v in yld.operands]
            dead.append(p.increment)
            for ap in p.accesses:
                dead += _rewrite_access(ap, arg)
        dead += [v.owner for v in old_inits if isinstance(v.owner, Operation)]
    _erase_dead(dead)


# ------------------------------------------------------------------ versioning


def _unit(op: Operation, entry: Block) -> Operation:
    """The op of the function's entry block that contains `op`."""
    while op.parent_block() is not entry:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _version(unit: Operation, preds: list[Lin], origin: dict[Operation, Operation]) -> scf.IfOp | None:
    """`scf.if (all preds >= 0) { copy of unit } else { unit }`, when the preds are computable before it."""
    entry = unit.parent_block()
    assert entry is not None
    ops = list(entry.ops)
    here = ops.index(unit)
    for v in {v for p in preds for v in p.leaves()}:
        if isinstance(v, BlockArgument):
            if v.owner is not entry:
                return None
        elif v.owner not in ops[:here]:
            return None
    b = _Builder(InsertPoint.before(unit))
    zero = b.const(0, i64)
    cond: SSAValue | None = None
    for p in preds:
        c = b.cmp("sge", b.lin(p, i64), zero)
        cond = c if cond is None else b.add(arith.AndIOp(cond, c))
    assert cond is not None
    copy = unit.clone()
    origin.update(zip(copy.walk(), unit.walk()))  # remarks on the copy point at the original
    else_block = Block()
    if_op = scf.IfOp(cond, [r.type for r in unit.results], [copy, scf.YieldOp(*copy.results)], Region([else_block]))
    Rewriter.insert_op(if_op, InsertPoint.before(unit))
    for old, new in zip(unit.results, if_op.results):
        old.replace_all_uses_with(new)
    unit.detach()
    else_block.add_ops([unit, scf.YieldOp(*unit.results)])
    return if_op


def _inside(op: Operation, region_op: Operation, region_index: int) -> bool:
    region = region_op.regions[region_index]
    o: Operation | None = op
    while o is not None:
        if o.parent_region() is region:
            return True
        o = o.parent_op()
    return False


@register
@dataclass(frozen=True)
class RaiseBlockPointer(XpuPass):
    name = "tritonintelgpu-raise-block-pointer"
    summary = "raise 2D tensor-of-pointer loads/stores to block pointers, exactly (masks, wrap-around, versioning)"

    version: bool = True  # version the body on run-time conditions (wrap-around, signs)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reset_order()
        for fn in [f for f in op.walk() if isinstance(f, tt.FuncOp) and f.body.blocks]:
            self._function(fn)
        reset_order()

    def _function(self, fn: tt.FuncOp) -> None:
        plans, failed = plan_function(fn)
        entry = fn.body.blocks.first
        assert entry is not None
        units: dict[Operation, list[Lin]] = {}
        for p in plans:
            if p.preds:
                units.setdefault(_unit(p.accesses[0].op, entry), []).extend(p.preds)
        guards: list[tuple[scf.IfOp, set[tuple]]] = []
        origin: dict[Operation, Operation] = {}
        if units and self.version:
            for unit, preds in units.items():
                preds = _dedup(preds)
                if_op = _version(unit, preds, origin)
                if if_op is not None:
                    guards.append((if_op, {_key(x) for x in preds}))
            if guards:

                def assumed_for(op: Operation) -> set[tuple]:
                    return set().union(*[keys for g, keys in guards if _inside(op, g, 0)])

                plans, failed = plan_function(fn, assumed_for)  # again, on the versioned body
        ok: list[Plan] = []
        for p in plans:
            if not p.preds:
                ok.append(p)
                continue
            why = "needs " + ", ".join(f"{x} >= 0" for x in p.preds) + " at run time"
            if any(_inside(p.accesses[0].op, g, 1) for g, _ in guards):
                why += " (raised in the versioned copy)"
            for ap in p.accesses:
                failed[ap.op] = why
        for acc, why in failed.items():
            self.remark(origin.get(acc, acc), f"left alone: {why}")
        for p in ok:
            dims = [str(d) for d, dp in enumerate(p.dims) if dp.extent]
            if dims:  # safe: boundaryCheck is off there and no position reaches past the extent
                for ap in p.accesses:
                    what = f"dim {dims[0]} has" if len(dims) == 1 else f"dims {', '.join(dims)} have"
                    self.remark(origin.get(ap.op, ap.op), f"raised; {what} no bound in the IR: shape = the extent the "
                                       f"{'loop' if p.loop else 'tile'} reaches, unchecked")
        apply_plans(ok)
