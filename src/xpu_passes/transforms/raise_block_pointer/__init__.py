"""`--triton-raise-block-pointer[{ignore-masks=true dot-only=true block-io-only=true}]`: tensors of pointers -> block pointers.

The form of Intel's pass: a load/store through `base + offs_m[:, None] * s_m +
offs_n[None, :] * s_n` (`transforms/raise_block_pointer/ptr_decompose.py`; scalar `tt.addptr` before the splat
and i64 offsets sign-extended from i32 included) becomes a `tt.make_tensor_ptr` access
whose base is the kernel's pointer and whose offsets are the tile's position, built where
the tensor of pointers was (one per tensor of pointers; an addptr of a raised one with the
same strides is its `tt.advance`), with the kernel's own scalar values as offsets; pointers
advanced in `scf.for` become loop-carried block pointers moved by `tt.advance` (accesses
before and after the increment); a carried pointer used after its loop is rebuilt there
from the trip count. Planning is in `transforms/raise_block_pointer/plan.py` and `candidates.py`,
building in `build.py`. Exact (bit for bit) where Intel's pass is not, by what
triton-xpu 3.3 does with a block pointer: only DPAS-layout ones (a tt.dot's data:
`transforms/raise_block_pointer/dot_use.py`) become 2D block I/O, whose surface is the shape and which reads 0
below 0 or past it whatever `boundaryCheck` says; others become gathers that check the
shape only with a `boundaryCheck` (then on every dim). So:

- accesses moving no tt.dot data with no mask-checked dim (or 1D) take Intel's form
  exactly: shape 0 where no mask bounds a dim, any position in the offsets, stride 0 on
  a broadcast dim, advances by amounts computed in the loop;
- otherwise every position is >= 0 (proven: program ids, loop counters, constants; else
  it moves into the base and the shape shrinks by as much), and every shape bounds the
  positions read: the bound a mask compares with (the dim is then in `boundaryCheck`),
  the divisor of a wrap-around `% W`, or the extent the accesses reach;
- a mask equal to the bounds checks becomes `boundaryCheck`, `other` `padding` (+0.0 / 0
  -> zero, the quiet NaN -> nan; another `other` is kept with a select); conjuncts true
  everywhere (`x >= 0`, x provably >= 0) are dropped; a mask with other conjuncts is kept
  with `arith.select(mask, load, other)` only when every dim is bounds-checked or
  wrap-bounded, or bounded by a mask conjunct `i < r` that no iteration changes on a dim a step-1
  loop moves (gemlite's `offs_k < K` with `a_ptrs += BLOCK_K`): that dim's shape is then the
  columns that conjunct lets the loop read, first to last (build.hull_shape: the extent less what
  the last iteration masks off; nothing where r <= 0), checked, the mask kept as the select;
  stores need masks that are exactly bounds checks;
- wrap-around offsets `(p + arange(0, B)) % W` need no version where the wrapped rows only
  reach elements a store masks off (`transforms/raise_block_pointer/wrap.py`): `boundaryCheck` against W;
  elsewhere they are versioned on `0 <= p && p + B <= W` (in i64): each access alone is
  copied into `scf.if` (one through a loop-carried pointer gets its block pointer made
  there from the pointer's closed form, so the loop and its tt.dot are not copied; the loop
  is, only where that fails), the conditions computed before the loops they do not
  depend on, the then-branch raised.
Anything else is left alone with a remark saying why. A function where a loaded tile feeds tt.dot both as
loaded and through tt.trans (attention backward's K or Q^T) is left alone whole (`skip-transposed-reuse`, ours,
on by default: raised, it was worse at the ISA; `candidates.transposed_reuse`). Options: `ignore-masks` (Intel's
meaning: every mask and `other` is dropped first, not exact, a remark per access);
`dot-only` (ours, off by default as Intel has no such option; the plugin's pipeline sets it):
only accesses moving a tt.dot's data are raised (elsewhere a block pointer costs
triton-xpu 3.3 its coalesced layout and reductions more scratch); `block-io-only` (ours, off
by default; the plugin's pipeline sets it): a load of a tt.dot's data only where it will be a
2D block read (`transforms/raise_block_pointer/block_io.py`: unit stride, a pitch that is a
provable multiple of 16 bytes, no column-major A), since 3.3 gathers any other one lane by
lane in the dot's layout (run-time strides: 2x the instructions and 10 KB of spill at the ISA);
`max-work-per-op` (ours): a run's work (values the pointer decomposition reads, terms of its polynomials) is
bounded by the input's size: past it the input is kept as given, with a remark, and the run says OVER_BUDGET.
A run that raises nothing says UNCHANGED (the pipeline then compiles its stage once, not with and without it).
"""


from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp, i64
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.transforms.raise_block_pointer.poly import order_scope
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Lin
from xpu_passes.transforms.raise_block_pointer.build import Builder, apply_plans, drop_mask, prune_pointer_args
from xpu_passes.transforms.raise_block_pointer.candidates import candidates, plan_function, transposed_reuse
from xpu_passes.transforms.raise_block_pointer.induction import carry_plans, fits_registers
from xpu_passes.transforms.raise_block_pointer.plan_types import Plan, dedup, key
from xpu_passes.transforms.raise_block_pointer.sink import sink_dot_loads
from xpu_passes.dialects import tt
from xpu_passes.ir.clone import adopt_body, clone
from xpu_passes.transforms.base import UNCHANGED, OverBudget, WorkBudget, XpuPass, over_budget, register


# ------------------------------------------------------------------ versioning


def _available(v: SSAValue, unit: Operation) -> bool:
    """Whether `v` can be used right before `unit` (defined in an enclosing block, before it)."""
    if isinstance(v, BlockArgument):
        o: Operation | None = unit
        while o is not None:
            if o.parent_block() is v.owner:
                return True
            o = o.parent_op()
        return False
    owner = v.owner
    assert isinstance(owner, Operation)
    block = owner.parent_block()
    o = unit
    while o is not None and o.parent_block() is not block:
        o = o.parent_op()
    if o is None or block is None:
        return False
    return block.get_operation_index(owner) < block.get_operation_index(o)


def _unit(p: Plan) -> Operation | None:
    """The smallest op holding `p`'s accesses (its loop, or the access) whose run-time conditions can be
    computed right before it; None when there is none inside the function."""
    unit: Operation | None = p.loop if p.loop is not None else p.accesses[0].op
    leaves = {v for x in p.preds for v in x.leaves()}
    while unit is not None and not isinstance(unit, tt.FuncOp):
        if all(_available(v, unit) for v in leaves):
            return unit
        unit = unit.parent_op()
    return None


def _outermost(units: dict[Operation, list[Lin]]) -> dict[Operation, list[Lin]]:
    """Units nested in other units merge into the outer one (one version holds both)."""
    out: dict[Operation, list[Lin]] = {}
    for u, preds in units.items():
        outer, o = u, u.parent_op()
        while o is not None:
            if o in units:
                outer = o
            o = o.parent_op()
        out.setdefault(outer, []).extend(preds)
    return out


def _hoisted(unit: Operation, leaves: set[SSAValue]) -> Operation:
    """The outermost scf.for around `unit` (or `unit`) before which every leaf can be used."""
    at, o = unit, unit.parent_op()
    while isinstance(o, scf.ForOp) and all(_available(v, o) for v in leaves):
        at, o = o, o.parent_op()
    return at


def _version(unit: Operation, preds: list[Lin], origin: dict[Operation, Operation],
             conds: dict[tuple, SSAValue]) -> scf.IfOp:
    """`scf.if (all preds >= 0) { copy of unit } else { unit }`, the conditions computed before the loops around
    `unit` they do not depend on (once per loop: `conds`)."""
    at = _hoisted(unit, {v for p in preds for v in p.leaves()})
    k = (id(at), frozenset(key(p) for p in preds))
    cond = conds.get(k) if at is not unit else None
    if cond is None:
        b = Builder(InsertPoint.before(at))
        zero = b.const(0, i64)
        for p in preds:
            c = b.cmp("sge", b.lin(p, i64), zero)
            cond = c if cond is None else b.add(arith.AndIOp(cond, c))
        assert cond is not None
        conds[k] = cond
    copy = unit.clone()
    origin.update(zip(copy.walk(), unit.walk()))  # remarks on the copy point at the original
    used = [i for i, r in enumerate(unit.results) if r.uses]  # unused pointer results stay inside
    else_block = Block()
    if_op = scf.IfOp(cond, [unit.results[i].type for i in used],
                     [copy, scf.YieldOp(*[copy.results[i] for i in used])], Region([else_block]))
    Rewriter.insert_op(if_op, InsertPoint.before(unit))
    for i, new in zip(used, if_op.results):
        unit.results[i].replace_all_uses_with(new)
    unit.detach()
    else_block.add_ops([unit, scf.YieldOp(*[unit.results[i] for i in used])])
    return if_op


def _source(origin: dict[Operation, Operation], op: Operation) -> Operation:
    """The input's op `op` stands for (through versioned copies and re-built accesses)."""
    for _ in range(4):
        if op not in origin:
            break
        op = origin[op]
    return op


def _inside(op: Operation, region_op: Operation, region_index: int) -> bool:
    region = region_op.regions[region_index]
    o: Operation | None = op
    while o is not None:
        if o.parent_region() is region:
            return True
        o = o.parent_op()
    return False


@dataclass
class _Run:
    """One run: its work budget, the input's ops the ops it made stand for (remarks point there), its remarks
    (said when it finishes: none but the budget's when it runs out), and the input as given (a copy made before
    the first rewrite, put back when the budget runs out)."""

    module: ModuleOp
    budget: WorkBudget
    origin: dict[Operation, Operation] = field(default_factory=dict)
    remarks: list[tuple[Operation, str]] = field(default_factory=list)
    kept: ModuleOp | None = None
    changed: bool = False

    def note(self, op: Operation, message: str) -> None:
        self.remarks.append((op, message))

    def rewriting(self) -> None:
        """Called before each rewrite."""
        if self.kept is None and self.budget.limit is not None:
            kept = clone(self.module)
            assert isinstance(kept, ModuleOp)
            self.kept = kept
        self.changed = True


@register
@dataclass(frozen=True)
class RaiseBlockPointer(XpuPass):
    name = "triton-raise-block-pointer"

    ignore_masks: bool = False  # Intel's `ignore-masks`: drop every load/store mask first (not exact)
    version: bool = True  # version the body on run-time conditions (wrap-around, signs)
    # Beyond Intel's pass (off as Intel's has none; the plugin's pipeline sets it): raise only what moves a
    # tt.dot's data, the only block pointers 3.3 lowers to 2D block I/O; elsewhere the gather keeps
    # Coalesce's layout (raising costs reductions scratch).
    dot_only: bool = False
    # Ours too (the plugin's pipeline sets it): a load of a tt.dot's data is raised only where it will be a
    # 2D block read (block_io.py); elsewhere 3.3 gathers it lane by lane, and a version keeps both paths.
    block_io_only: bool = False
    # Ours, on by default: a function where a loaded tile feeds tt.dot both as loaded and through tt.trans
    # (attention backward) is left alone whole: raised, it lost at the ISA (candidates.transposed_reuse).
    skip_transposed_reuse: bool = True
    # Ours, off (the xpu pipeline sets it; `xpu:wide_positions=false` not): positions computed in i64 (flag_gems'
    # `pid.to(tl.int64) * BLOCK_M`) are raised, moved into the base pointer (offsets are i32, the base's offset and
    # the shape i64: exact), and dot data read in a loop through pointers made from its induction variable is
    # carried by the loop; only where a function's dots hold at most 8 KB of A and B per warp and, without
    # grf_mode=large, its loop's live tiles are clear of the default register file's edge (induction.py).
    wide_positions: bool = False
    # The compile's warps (the pipeline fills it in, as native passes' num-warps: a TTIR has no ttg.num-warps yet);
    # 0: the module's ttg.num-warps, if any. Read by wide-positions only (induction.fits_registers).
    num_warps: int = 0
    # The compile's grf_mode (the pipeline fills it in): small, large, auto, default; "": default (none: IGC's
    # 128 registers, rebuilt with 256 by the driver over 1,000 spill bytes). Read by wide-positions only.
    grf_mode: str = ""
    # Read by the pipeline (integration/never_worse.py, `compare_raising`), not by the pass: the
    # kernel's TTGIR stage also runs without raising, and the raised result is kept only if no worse.
    never_worse_than_native: bool = False
    # Work units (values read by the pointer decomposition, terms of its polynomials) per op of the input; 0:
    # unbounded. Past it the input is kept (remark, OVER_BUDGET). The corpus's most demanding run spends 1.4 per
    # op (gemm_tensor_ptr), the lit tests' 4.2 (a wrap-around), the median 0 (nothing to read).
    max_work_per_op: int = 50

    @property
    def needs_text(self) -> tuple[str, ...] | None:
        """What the input's text must hold for a run to have work (prefilters.idle): with dot-only, a tt.dot."""
        return ("tt.dot",) if self.dot_only and not self.ignore_masks else None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with order_scope():  # (this run's: see poly.py)
            self._apply(op)

    def _apply(self, op: ModuleOp) -> None:
        run = _Run(op, WorkBudget.per_op(self.max_work_per_op, sum(1 for _ in op.walk())))
        try:
            if self.ignore_masks:
                for acc in [o for o in op.walk() if isinstance(o, tt.LoadOp | tt.StoreOp) and o.mask is not None]:
                    run.note(acc, "ignoring the mask (ignore-masks)")
                    run.rewriting()
                    run.origin[drop_mask(acc)] = acc
            for fn in [f for f in op.walk() if isinstance(f, tt.FuncOp) and f.body.blocks]:
                self._function(fn, run)
        except OverBudget as e:
            if run.kept is not None:  # the input as given
                adopt_body(op, run.kept)
            over_budget(self, op, e, self.max_work_per_op)
            return
        for at, message in run.remarks:
            self.remark(at, message)
        if not run.changed:  # (candidates refused, remarks only): the pipeline then runs its stage once, not twice
            self.said(UNCHANGED)

    def _function(self, fn: tt.FuncOp, run: _Run) -> None:
        reused = transposed_reuse(fn) if self.skip_transposed_reuse else None
        if reused is not None:
            for acc in candidates(fn):
                what = "this tile feeds" if acc is reused else "a tile of this function feeds"
                run.note(acc, f"left alone: {what} tt.dot both as loaded and through tt.trans: raised, its "
                              "transposed copy and the DPAS layouts it spreads cost gathers or spill at the ISA "
                              "(skip-transposed-reuse)")
            return
        failed: dict[Operation, str] = {}
        wide = self.wide_positions
        if wide and (why := fits_registers(fn, self.num_warps, self.grf_mode)) is not None:
            run.note(fn, f"wide-positions not applied: {why}")
            wide = False
        before = {o for o in fn.walk() if isinstance(o, tt.LoadOp) and o.is_block_pointer}
        # A pointer used after its loop is rebuilt there from the trip count: the accesses through it
        # become plain ones, raised in the next round (versioning only in the first).
        for first in (True, False, False):
            if not self._round(fn, failed, run, self.version and first, wide):
                break
        if prune_pointer_args(fn, run.rewriting):
            run.changed = True
        raised = [o for o in fn.walk() if isinstance(o, tt.LoadOp) and o.is_block_pointer and o not in before]
        for load in sink_dot_loads(raised):
            run.note(_source(run.origin, load), "raised, and moved to right before its tt.dot: the dot's other "
                     "operand is computed after it, and its tile in registers would be live across that (sink.py)")
        for acc, why in failed.items():
            if acc.parent is not None:
                run.note(_source(run.origin, acc), f"left alone: {why}")

    def _round(self, fn: tt.FuncOp, failed_all: dict[Operation, str], run: _Run, version: bool, wide: bool) -> bool:
        """One round of planning and raising; whether a pointer was rebuilt after its loop (another round may
        raise the accesses through it)."""
        origin, budget = run.origin, run.budget
        plans, failed = plan_function(fn, dot_only=self.dot_only, block_io_only=self.block_io_only, budget=budget,
                                      wide_positions=wide)
        direct: set[Operation] = set()
        if version:
            # A loop-carried pointer needing run-time conditions: each access alone is versioned (a block
            # pointer made there from the pointer's closed form), not the loop (whose tt.dot would be copied).
            families = [{ap.op for ap in p.accesses} for p in plans if p.loop is not None and p.preds]
            while families:
                direct = set().union(*families)
                again = plan_function(fn, dot_only=self.dot_only, direct=direct, block_io_only=self.block_io_only,
                                      budget=budget, wide_positions=wide)
                kept = [f for f in families if not f & again[1].keys()]  # else the loop is versioned
                if len(kept) == len(families):
                    plans, failed = again
                    break
                families, direct = kept, set()
        units: dict[Operation, list[Lin]] = {}
        for p in plans:
            u = _unit(p) if p.preds else None
            if u is not None:
                units.setdefault(u, []).extend(p.preds)
        guards: list[tuple[scf.IfOp, set[tuple]]] = []
        if units and version:
            run.rewriting()
            conds: dict[tuple, SSAValue] = {}
            for unit, preds in _outermost(units).items():
                preds = dedup(preds)
                guards.append((_version(unit, preds, origin, conds), {key(x) for x in preds}))
            if guards:

                def assumed_for(op: Operation) -> set[tuple]:
                    return set().union(*[keys for g, keys in guards if _inside(op, g, 0)])

                direct = {op for op in fn.walk() if _source(origin, op) in direct}  # and their copies
                plans, failed = plan_function(fn, assumed_for, self.dot_only, direct, self.block_io_only,
                                              budget, wide)  # again, on the versions
        ok: list[Plan] = []
        for p in plans:
            if not p.preds:
                ok.append(p)
                continue
            why = "needs " + ", ".join(f"{x} >= 0" for x in p.preds) + " at run time"
            if any(_inside(p.accesses[0].op, g, 1) for g, _ in guards):
                why += " (raised in the versioned copy)"
            why += "".join(f"; {x}" for x in p.unproven)
            for ap in p.accesses:
                failed[ap.op] = why
        failed_all.update(failed)
        for p in ok:
            for ap in p.accesses:
                for x in p.proven:
                    run.note(_source(origin, ap.op), f"raised; {x}")
            for d, dp in enumerate(p.dims):
                if dp.hull is not None:  # safe: the block reads only columns the loop's own mask lets it read
                    for ap in p.accesses:
                        run.note(_source(origin, ap.op), f"raised; dim {d}'s mask i < {dp.hull} is the same in every "
                                 "iteration: shape = the columns it lets the loop read (checked), the mask kept as a "
                                 "select")
            dims = [str(d) for d, dp in enumerate(p.dims) if dp.extent]
            if dims:  # safe: boundaryCheck is off there and no position reaches past the extent
                for ap in p.accesses:
                    what = f"dim {dims[0]} has" if len(dims) == 1 else f"dims {', '.join(dims)} have"
                    shape = ("0 as Intel's (not dot data: never 2D block I/O)" if p.intel else
                             f"the extent the {'loop' if p.loop else 'tile'} reaches, unchecked")
                    run.note(_source(origin, ap.op), f"raised; {what} no bound in the IR: shape = {shape}")
        if ok:
            run.rewriting()
        apply_plans([p for p in ok if p.induction is None])
        carry_plans([p for p in ok if p.induction is not None])
        return any(p.after is not None for p in ok)

