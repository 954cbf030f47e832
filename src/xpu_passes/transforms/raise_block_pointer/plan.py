"""Planning the raising of tensor-of-pointer accesses to block pointers (`triton-raise-block-pointer`).

For each 2D load/store through a tensor of pointers, or each family of accesses through one
loop-carried pointer, a `Plan`: base, per-dim position/stride/shape, order, the accesses'
`boundaryCheck`/`padding`, and the run-time conditions (`preds`, each `L >= 0`) it still needs.
Accesses that cannot be raised exactly get the reason (`LeftAlone`). The plan's data: plan_types.py.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType, i32
from xdsl.ir import BlockArgument, Operation, SSAValue

from xpu_passes.dialects import tt
from xpu_passes.transforms.base import WorkBudget
from xpu_passes.transforms.raise_block_pointer.plan_types import (
    Access,
    AccessPlan,
    DimPlan,
    LeftAlone,
    Plan,
    dedup,
    key,
    tile_shape,
)
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import (
    Bound,
    Decomposer,
    Lin,
    ONE,
    PtrForm,
    Unsupported,
    ZERO,
    defined_outside,
    nonneg,
    wide,
)
from xpu_passes.transforms.raise_block_pointer.closed_form import closed_form
from xpu_passes.transforms.raise_block_pointer.hull import broadcastable, single_trip_when_short
from xpu_passes.transforms.raise_block_pointer.induction import carry_induction, reach
from xpu_passes.transforms.raise_block_pointer.padding import padding_of
from xpu_passes.transforms.raise_block_pointer.wrap import wrap_masked


# ------------------------------------------------------------------ planning


class Planner:
    def __init__(self, assumed_for: Callable[[Operation], set[tuple]], budget: WorkBudget | None = None,
                 wide_positions: bool = False) -> None:
        self.dec = Decomposer(budget, wide_positions)
        self.wide_positions = wide_positions
        self.assumed_for = assumed_for  # run-time conditions a version around an op guarantees

    def _dims(self, pf: PtrForm, shape: tuple[int, ...], preds: list[Lin], wraps: dict[int, Lin],
              hw: bool) -> tuple[Lin, list[DimPlan]]:
        dims: list[DimPlan] = []
        for d, t in enumerate(pf.offset.dims):
            if t is None:
                if hw:  # a pitch of 0: no 2D block I/O
                    raise LeftAlone(f"the address does not vary along dim {d}")
                dims.append(DimPlan(ZERO, ZERO))  # stride 0, as Intel's pass raises a broadcast
                continue
            if t.wrap is not None:
                wraps[d] = t.wrap
                preds += [t.pos, t.wrap - t.pos - Lin.const(shape[d])]
            dims.append(DimPlan(t.pos, t.stride))
        rest = pf.offset.base
        if rest.terms:  # attribute a leftover offset to the dim whose stride divides it most simply
            cands = [(len(q.leaves()), d, q) for d, dp in enumerate(dims) if (q := rest.divide(dp.stride)) is not None]
            if cands:
                _, d, q = min(cands, key=lambda c: (c[0], c[1]))  # ties: the first dim, as Intel
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
    def _match(b: Bound, dp: DimPlan, loop: scf.ForOp | None, k: int, lb: Lin = ZERO) -> Lin | None:
        """The shape that makes `b` the bounds check of a dim at position `pos + (iv - lb)*k`, or None.

        `b.pos + i < b.bound` is `P + i < b.bound + P - b.pos`: a bounds check when that right side does
        not change from one iteration to the next (covers `offs_k < K - k*BK` and `k*BK + offs_k < K`, and
        the causal diagonal's `for s in range(lo, hi)` with `s + offs_n < N` and a pointer that starts at `lo`).
        """
        shape = b.bound + dp.pos - b.pos
        if loop is None:
            return shape
        iv = loop.body.block.args[0]
        if k < 0:  # no closed form for the position
            return None
        shape = shape + (Lin.leaf(iv) - lb).scale(k)
        return None if iv in shape.leaves() else shape

    def _access(self, op: Access, dims: list[DimPlan], loop: scf.ForOp | None, ks: list[int],
                wraps: dict[int, Lin], preds: list[Lin], lb: Lin = ZERO) -> tuple[AccessPlan, dict[int, Lin]]:
        """How one access becomes a block access; the shapes its mask implies per dim."""
        ap = AccessPlan(op)
        mask = op.mask
        if mask is None:
            return ap, {}
        parts = self.dec.mask(mask)
        shapes: dict[int, Lin] = {}
        others = list(parts.others)
        fixed: dict[int, list[Lin]] = {}  # loop-invariant conjuncts `i < r` on a dim the loop moves
        fixed_ops: list[SSAValue] = []
        for b in parts.bounds:
            s = None if b.dim in shapes else self._match(b, dims[b.dim], loop, ks[b.dim], lb)
            if s is None or (loop is not None and not defined_outside(s.leaves(), loop)):
                if (loop is not None and b.wrap is None and 0 < ks[b.dim] == dims[b.dim].adv  # step 1: exact extent
                        and lb.constant == 0  # (hull.py reads the trip count from lb 0)
                        and defined_outside([*b.pos.leaves(), *b.bound.leaves()], loop)):
                    fixed.setdefault(b.dim, []).append(b.bound - b.pos)
                    fixed_ops.append(b.op.results[0])
                others.append(b.op.results[0])
                continue
            if b.wrap is not None:
                preds += [b.pos, b.wrap - b.pos - Lin.const(tile_shape(op)[b.dim])]
            shapes[b.dim] = s
        ap.boundary = tuple(sorted(shapes))
        if isinstance(op, tt.StoreOp):
            if others:
                raise LeftAlone("store mask is not a bounds check of the block")
            return ap, shapes
        if others:
            # one such conjunct alone on its dim bounds the loop's reads there (mask_hull), checked, kept as select
            # (only where nothing else masks: then the loop reads the first and last column of every checked row)
            alone = len(others) == sum(len(rs) for rs in fixed.values())
            ap.hulls = {d: rs[0] for d, rs in fixed.items()
                        if alone and len(rs) == 1 and d not in shapes and d not in wraps}
            unbounded = [d for d in range(len(dims)) if d not in shapes and d not in wraps and d not in ap.hulls]
            if unbounded:
                raise LeftAlone(f"mask is not a bounds check of the block, and the block load may read outside "
                                f"the kernel's bounds along dim {unbounded[0]}")
            ap.boundary = tuple(sorted({*shapes, *ap.hulls}))
            ap.select = op.other is not None
            pad = padding_of(op.other) if ap.select and ap.hulls and len(fixed_ops) == 1 else None
            (d, r), = ap.hulls.items() if pad is not None else ((None, None),)
            if pad is not None and single_trip_when_short(self.dec, loop, r, tile_shape(op)[d]):
                ap.padding, ap.select = pad, False  # exact by the trip count (hull.py): no select
            elif pad is not None and broadcastable(fixed_ops[0], op):
                # the checked dims read `other` as padding: only the hull's conjunct is left to select on (the
                # whole mask, loop-invariant in the dot's layout, cost 512 B of spill on gemlite's split-K GEMM)
                ap.padding, ap.select_by = pad, fixed_ops[0]
            return ap, shapes
        if op.other is not None:
            pad = padding_of(op.other)
            if pad is None:
                ap.select = True
            else:
                ap.padding = pad
        return ap, shapes

    def _finish(self, plan: Plan, shapes_seen: list[dict[int, Lin]], wraps: dict[int, Lin],
                extents: list[Lin], hw: bool) -> Plan:
        for d, dp in enumerate(plan.dims):
            cands = {key(s[d]): s[d] for s in shapes_seen if d in s}
            if d in wraps:
                cands.setdefault(key(wraps[d]), wraps[d])
            if len(cands) > 1:
                raise LeftAlone(f"accesses bound dim {d} by different values")
            if cands:
                if d not in wraps and any(d not in s for s in shapes_seen):
                    raise LeftAlone(f"some accesses check dim {d} against a bound and others do not")
                dp.shape = next(iter(cands.values()))
            else:
                dp.shape, dp.extent = extents[d], True
                hulls = {key(ap.hulls[d]): ap.hulls[d] for ap in plan.accesses if d in ap.hulls}
                if hulls:
                    if len(hulls) > 1 or any(d not in ap.hulls for ap in plan.accesses):
                        raise LeftAlone(f"accesses through the loop-carried pointer mask dim {d} differently")
                    if len({ap.after for ap in plan.accesses}) > 1:  # the shape is the reach of one position
                        raise LeftAlone(f"accesses before and after the pointer's increment mask dim {d} alike")
                    dp.hull, dp.extent = next(iter(hulls.values())), False
        self._unversioned_wraps(plan, wraps)
        # Intel's form (shape 0 where nothing bounds a dim, any position in the offsets) is exact where
        # the shape is read only in bounds-checked dims: 3.3 lowers a block pointer to 2D block I/O (whose
        # surface is the shape) only in DPAS layouts, i.e. for dot data; other 2D ones with a
        # `boundaryCheck` may become gathers that check every dim against the shape (1D ones never do).
        intel = not hw and (len(plan.dims) == 1 or not any(ap.boundary for ap in plan.accesses))
        plan.intel = intel
        if intel:
            for dp in plan.dims:
                if dp.extent:
                    dp.shape = ZERO
        checked = {d for ap in plan.accesses for d in ap.boundary}
        assumed = self.assumed_for(plan.accesses[0].op)
        for d, dp in enumerate(plan.dims):
            if intel and d not in checked:
                continue
            if (not nonneg(dp.pos) and key(dp.pos) not in assumed) or wide(dp.pos):
                # A position not known >= 0 moves into the base pointer: positions then start at 0 and
                # the shape shrinks by as much, so bounds checks stay exact and nothing reads below 0.
                # So does one computed in i64 (flag_gems' `pid.to(tl.int64) * BLOCK_M`): the offsets are
                # i32, the base's offset and the shape are not, so it stays exact without a range proof.
                assert dp.shape is not None
                plan.rest = plan.rest + dp.stride * dp.pos
                dp.shape = dp.shape - dp.pos
                dp.pos = ZERO
        plan.preds = [p for p in dedup(plan.preds) if not nonneg(p) and key(p) not in assumed]
        if any(wide(x) for x in [dp.pos for dp in plan.dims] + ([plan.after] if plan.after else [])):
            raise LeftAlone("a position computed in i64 where the block pointer needs an i32 offset")
        return plan

    def _unversioned_wraps(self, plan: Plan, wraps: dict[int, Lin]) -> None:
        """A wrapped dim of loads whose wrapped rows are only ever stored masked off (`raise_wrap.py`): a
        `boundaryCheck` against the wrap's divisor replaces the run-time version."""
        for d, w in wraps.items():
            pos = plan.dims[d].pos
            why, stores = wrap_masked(self.dec, [ap.op for ap in plan.accesses], d, pos, w)
            if why is not None:
                plan.unproven.append(f"wrap-around on dim {d}: {why}")
                continue
            size = Lin.const(plan.block.get_shape()[d])
            drop = {key(pos), key(w - pos - size)}
            plan.preds = [p for p in plan.preds if key(p) not in drop]
            for ap in plan.accesses:
                ap.boundary = tuple(sorted({*ap.boundary, d}))
                if ap.padding is None and not ap.select:
                    ap.padding = 1
            n = len({id(st) for st in stores})
            stores_leave = f"{n} masked store{'s' if n > 1 else ''} leave{'' if n > 1 else 's'}"
            plan.proven.append(f"wrap-around on dim {d} needs no version: rows with {pos} + i >= {w} read 0 "
                               f"and reach only elements {stores_leave} unwritten")

    def direct(self, op: Access, hw: bool = True) -> Plan:
        """`hw`: the access may become 2D block I/O (it moves a tt.dot's data)."""
        ptr = op.ptr
        shape = tile_shape(op)
        try:
            pf = self.dec.pointer(ptr)
        except Unsupported as e:
            raise LeftAlone(e.reason) from e
        if not hw and isinstance(pf.base, BlockArgument) and isinstance(pf.base.owner.parent_op(), scf.ForOp):
            # as Intel's pass: no 2D block I/O to gain without dot data
            raise LeftAlone("the base is a scalar pointer carried by the loop (not dot data)")
        preds: list[Lin] = []
        wraps: dict[int, Lin] = {}
        rest, dims = self._dims(pf, shape, preds, wraps, hw)
        try:
            ap, shapes = self._access(op, dims, None, [0] * len(dims), wraps, preds)
        except Unsupported as e:
            raise LeftAlone(e.reason) from e
        extents = [(reach(self.dec, op, dp.pos) if self.wide_positions else dp.pos) + Lin.const(shape[d])
                   for d, dp in enumerate(dims)]
        plan = Plan(pf.base, rest, dims, self._order(dims), _block_type(op), [ap], preds)
        plan = self._finish(plan, [shapes], wraps, extents, hw)
        if hw and self.wide_positions:
            carry_induction(self.dec, op, plan)
        return plan

    def carried(self, loop: scf.ForOp, index: int, hw: bool = True) -> Plan:
        body = loop.body.block
        arg = body.args[index + 1]
        yld = body.last_op
        assert isinstance(yld, scf.YieldOp)
        inc = yld.operands[index].owner
        if not (isinstance(inc, tt.AddPtrOp) and inc.ptr is arg):
            raise LeftAlone("the loop-carried pointer is not advanced by one increment per iteration")
        after: list[Access] = []  # accesses through the advanced pointer, before the next iteration
        for use in inc.result.uses:
            u = use.operation
            if u is yld and use.index == index:
                continue
            if isinstance(u, tt.LoadOp | tt.StoreOp) and use.index == 0 and u.parent_block() is body:
                after.append(u)
            else:
                raise LeftAlone(f"the advanced loop-carried pointer is used by '{u.name}'")
        stp = self.dec.scalar(loop.step).constant
        if loop.results[index].uses and not (stp and stp > 0 and loop.lb.type == i32):
            raise LeftAlone("the loop-carried pointer is used after a loop whose step is not a positive constant")
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
        accesses += after
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
        if not step.uniform:
            raise LeftAlone("the pointer increment is not uniform")
        shape = tile_shape(accesses[0])
        _, dims = self._dims(pf, shape, [], {}, hw)
        block = next(iter(types))
        if not defined_outside(step.base.leaves(), loop):
            return self._variable(loop, index, inc, pf, accesses, block, set(after), hw, step.base, dims)
        # The increment as a whole number of rows or columns; when several dims fit (a constant
        # stride), each is tried: all give the same addresses, the masks decide which one checks.
        cands: list[tuple[int, int] | None] = [None] if not step.base.terms else []
        for d, dp in enumerate(dims):
            q = step.base.divide(dp.stride) if step.base.terms else None
            if q is not None and q.constant is not None and q.constant >= 0:
                cands.append((d, q.constant))
        if not cands:
            return self._variable(loop, index, inc, pf, accesses, block, set(after), hw, step.base, dims)
        cands.sort(key=lambda c: c[1] if c else 0)
        failure = LeftAlone("")
        for cand in cands:
            try:
                plan = self._carried(loop, index, inc, pf, accesses, block, cand, set(after), hw)
                if loop.results[index].uses:  # rebuilt after the loop from the trip count
                    plan.after = step.base
                return plan
            except LeftAlone as e:
                failure = e
        raise failure

    def _variable(self, loop: scf.ForOp, index: int, inc: tt.AddPtrOp, pf: PtrForm, accesses: list[Access],
                  block: TensorType, after: set[Access], hw: bool, step: Lin, dims: list[DimPlan]) -> Plan:
        """An increment that is no constant number of rows or columns (or changes from one iteration to the
        next): `tt.advance` by it, in Intel's form only (no mask, no tt.dot data: no shape is read)."""
        why = "the pointer increment is not a loop-invariant, constant number of rows or columns"
        if hw or loop.results[index].uses or any(a.mask is not None for a in accesses):
            raise LeftAlone(why)
        fits = [(d, q) for d, dp in enumerate(dims) if (q := step.divide(dp.stride)) is not None and not wide(q)]
        if not fits:
            raise LeftAlone(why)
        plan = self._carried(loop, index, inc, pf, accesses, block, None, after, hw)
        if not plan.intel:
            raise LeftAlone(why)
        plan.var_adv = fits[0]
        return plan

    def _carried(self, loop: scf.ForOp, index: int, inc: tt.AddPtrOp, pf: PtrForm, accesses: list[Access],
                 block: TensorType, cand: tuple[int, int] | None, after: set[Access], hw: bool) -> Plan:
        """The plan of a loop-carried pointer advancing `cand = (dim, rows or columns)` per iteration."""
        shape = tile_shape(accesses[0])
        preds: list[Lin] = []
        wraps: dict[int, Lin] = {}
        rest, dims = self._dims(pf, shape, preds, wraps, hw)
        if cand is not None:
            d, adv = cand
            if d in wraps:
                raise LeftAlone("the pointer advances along a wrapped-around dim")
            dims[d].adv = adv
        lb, ks = closed_form(self.dec, loop, dims)  # position along d at iv: pos + (iv - lb) * ks[d]
        plans, shapes_seen = [], []
        try:
            moved = [DimPlan(dp.pos + Lin.const(dp.adv), dp.stride, dp.adv) for dp in dims]
            for a in accesses:
                ap, s = self._access(a, moved if a in after else dims, loop, ks, wraps, preds, lb or ZERO)
                ap.after = a in after
                plans.append(ap)
                shapes_seen.append(s)
        except Unsupported as e:
            raise LeftAlone(e.reason) from e
        extents: list[Lin] = []
        ub = self.dec.scalar(loop.ub)
        for d, dp in enumerate(dims):
            if dp.adv == 0:
                extents.append(dp.pos + Lin.const(shape[d]))
            elif ks[d] > 0 and lb is not None:  # last position: pos + (ub - 1 - lb) * k, + adv through the advanced one
                last = dp.pos + (ub - ONE - lb).scale(ks[d]) + Lin.const(dp.adv if after else 0)
                extents.append(last + Lin.const(shape[d]))
            else:
                extents.append(ZERO)  # unused unless no bound: then the check below refuses
                if not any(d in s for s in shapes_seen) and d not in wraps:
                    raise LeftAlone(f"unknown extent of dim {d}: the loop has no i32 lower bound with a step "
                                    f"dividing the advance")
        plan = Plan(pf.base, rest, dims, self._order(dims), block, plans, preds, loop, index, inc)
        return self._finish(plan, shapes_seen, wraps, extents, hw)


def _block_type(op: Access) -> TensorType:
    t = op.result.type if isinstance(op, tt.LoadOp) else op.value.type
    assert isinstance(t, TensorType)
    return t
