"""`--tritonintelgpu-remove-layout-conversions`: remove `ttg.convert_layout` by layout propagation.

Block pointers first take the layout their loads/stores are converted to (a 2D
block access can produce any layout). Then, for each conversion X -> Y, two
rewrites are weighed (`layouts/remat.py`): backward rematerialization recomputes
the source in Y (elementwise ops, splat/broadcast/expand_dims/make_range,
constants, reductions and scans, tt.trans/join/split/reshape (layouts/shape_infer.py) and gathers' indices,
loop-carried values through scf.for and both regions of scf.while, scf.if
results, and loads Intel lets move: 2D-block-capable, one splat address, or fewer
elements than threads); forward propagation lets the users take X (the same ops,
stores and atomics, which Intel runs in blocked or DPAS layouts). Values that
cannot be recomputed get a conversion right after their definition (hoisted out
of loops). A rewrite is estimated on its slice (`layouts/slice_cost.py`), then
tried on a copy of the module and kept only when the whole module gets cheaper by
`layouts/solution.py`'s figures (every conversion, scan and reduction costed with
the layout algebra, loop-weighted; never more SLM) and stays valid IR. A final
safety net keeps the input when the result has more conversions or SLM than it.
Intel's option `max-backward-remat-iterations` bounds the rounds (ours: 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.analysis.block_pointers import collect_family
from xpu_passes.dialects import tt, ttg
from xpu_passes.frontend import record_copies
from xpu_passes.layouts import costs, remat, slice_cost
from xpu_passes.layouts.solution import Figures, figures, layout_errors, trial_has_errors
from xpu_passes.layouts.propagation import encoding, numel, retype_family, with_encoding
from xpu_passes.dialects.ttig import BLOCK_IO, Subgroup2DBlockEncodingAttr
from xpu_passes.transforms.base import XpuPass, register
from xpu_passes.transforms.materialize_block_pointer import classify_pointer_tensor


def fold(cvt: ttg.ConvertLayoutOp) -> bool:
    """convert(x: L -> L) -> x; convert(convert(x)) -> convert(x) or x."""
    src = cvt.src
    if src.type == cvt.result.type:
        cvt.result.replace_all_uses_with(src)
        Rewriter.erase_op(cvt)
        return True
    inner = src.owner
    if isinstance(inner, ttg.ConvertLayoutOp):
        base = inner.src
        if base.type == cvt.result.type:
            cvt.result.replace_all_uses_with(base)
        else:
            c = ttg.ConvertLayoutOp.build(operands=[base], result_types=[cvt.result.type])
            Rewriter.insert_op(c, InsertPoint.before(cvt))
            cvt.result.replace_all_uses_with(c.result)
        Rewriter.erase_op(cvt)
        if not inner.result.uses:
            Rewriter.erase_op(inner)
        return True
    return False


def _wanted_layout(access: Operation) -> Attribute | None:
    """The layout an access's neighbours want: what all its conversions go to / come from."""
    if isinstance(access, tt.LoadOp):
        users = [u.operation for u in access.result.uses]
        targets = {encoding(u.result.type) for u in users if isinstance(u, ttg.ConvertLayoutOp)}
        if users and len(targets) == 1 and all(isinstance(u, ttg.ConvertLayoutOp) for u in users):
            return targets.pop()
        return encoding(access.result.type)
    if isinstance(access, tt.StoreOp):
        src = access.value.owner
        if isinstance(src, ttg.ConvertLayoutOp):
            return encoding(src.src.type)
        return encoding(access.value.type)
    return None  # prefetch follows the pointer


def anchor_block_pointers(module: ModuleOp) -> int:
    """Retype block-pointer families to the layout their loads/stores are converted to.

    Intel's rule: a 2D block access can produce (or consume) any layout, so the
    pointer takes the layout its users want and the conversions become no-ops.
    """
    changed = 0
    for root in [o for o in module.walk() if isinstance(o, tt.MakeTensorPtrOp)]:
        fam = collect_family(root)
        wanted = {_wanted_layout(a) for a in fam.accesses} - {None}
        block = root.result.type.pointee  # type: ignore[union-attr]
        if fam.unsupported is not None or len(wanted) != 1 or not isinstance(block, TensorType):
            continue
        if isinstance(encoding(block), Subgroup2DBlockEncodingAttr):
            continue  # the layout of its 2D block reads: an anchor (legalization folds it if it can)
        layout = wanted.pop()
        if layout == encoding(block) or layout is None:
            continue
        retype_family(fam, layout)
        for access in fam.accesses:
            if isinstance(access, tt.LoadOp):
                Rewriter.replace_value_with_new_type(access.result, with_encoding(access.result.type, layout))
            elif isinstance(access, tt.StoreOp) and isinstance(access.value.owner, ttg.ConvertLayoutOp):
                cvt = access.value.owner
                access.operands[1] = cvt.src
                if not cvt.result.uses:
                    Rewriter.erase_op(cvt)
        changed += 1
    return changed


def _positions(module: ModuleOp) -> dict[Operation, int]:
    return {op: i for i, op in enumerate(module.walk())}


def _module_int(module: ModuleOp, key: str, default: int) -> int:
    v = module.attributes.get(key)
    return v.value.data if isinstance(v, IntegerAttr) else default


def _block_loads(module: ModuleOp) -> set[Operation]:
    """Tensor-of-pointer loads that may be recomputed in another layout (Intel's
    isExpensiveLoadOrStore is false): 2D-block-capable ones, loads of one splat address,
    and loads of fewer elements than the CTA has threads (cache hits)."""
    ai = AxisInfoAnalysis(module)
    threads = _module_int(module, "ttg.num-warps", 4) * _module_int(module, "ttg.threads-per-warp", 16)

    def cheap(ld: tt.LoadOp) -> bool:
        ptr = ld.operands[0]
        return isinstance(ptr.owner, tt.SplatOp) or numel(ptr.type) < threads

    return {
        ld for ld in module.walk()
        if isinstance(ld, tt.LoadOp) and not ld.is_block_pointer
        and (BLOCK_IO in ld.attributes or cheap(ld)
             or classify_pointer_tensor(ld, ai, check_mask=False).tag is not None)
    }  # fmt: skip


def _less_slm(new: Figures, old: Figures) -> bool:
    """As costly, as many conversions, less SLM (e.g. converting bf16 before an extf, not f32 after)."""
    return (new.cost, new.converts) == (old.cost, old.converts) and new.slm < old.slm


def _adopt(dst: ModuleOp, src: ModuleOp) -> None:
    """`dst` takes `src`'s body (`src` is a rewritten copy of it)."""
    for b in list(dst.body.blocks):
        dst.body.detach_block(b).drop_all_references()
    src.body.move_blocks(dst.body)


@dataclass
class _Work:
    """The module being rewritten: a copy of the input, replaced by a trial copy whenever a
    rewrite is accepted; `origin` maps its ops to the input's (remarks are located there)."""

    module: ModuleOp
    origin: dict[Operation, Operation]
    block_loads: set[Operation]
    figures: Figures
    tried: set[Operation] = field(default_factory=set)
    kept: dict[Operation, str] = field(default_factory=dict)
    anchored: int = 0  # block-pointer families anchor_block_pointers retyped
    valid: bool | None = None  # whether `module` has no layout_errors (None: not known)

    def trial(self) -> tuple[ModuleOp, dict[Operation, Operation]]:
        copy = self.module.clone()
        return copy, dict(zip(self.module.walk(), copy.walk()))

    def accept(self, copy: ModuleOp, m: dict[Operation, Operation], fig: Figures) -> None:
        self.origin = {m[k]: v for k, v in self.origin.items() if k in m}
        self.block_loads = {m[x] for x in self.block_loads if x in m}
        self.tried = {m[x] for x in self.tried if x in m}
        self.kept = {m[k]: v for k, v in self.kept.items() if k in m}
        self.module, self.figures, self.valid = copy, fig, True


@register
@dataclass(frozen=True)
class RemoveLayoutConversions(XpuPass):
    name = "tritonintelgpu-remove-layout-conversions"
    # Intel's option: rounds of rematerialization (a rewrite can make an earlier refusal possible).
    max_backward_remat_iterations: int = 4

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        start = figures(op)
        w = self._solve(op, start, anchor=True)
        if w.anchored:  # anchoring block pointers can block a better forward propagation: weigh both solutions
            alt = self._solve(op, start, anchor=False)
            if alt.figures.better_than(w.figures):
                w = alt
        for cvt, why in w.kept.items():
            if cvt.parent is not None and cvt.result.uses:
                self.remark(w.origin.get(cvt, cvt), f"kept: {why}")
        for bad, why in layout_errors(w.module):
            self.remark(w.origin.get(bad, op), f"input kept: the rewrite would leave invalid IR ({why})")
            return
        if w.figures.worse_than(start):
            self.remark(op, f"input kept: the rewrite would leave {w.figures}, the input has {start}")
            return
        record_copies(w.origin)  # diagnostics of later passes still point into the input
        _adopt(op, w.module)

    def _solve(self, op: ModuleOp, start: Figures, anchor: bool) -> _Work:
        """One whole solution, on a copy of `op`."""
        copy = op.clone()
        w = _Work(copy, dict(zip(copy.walk(), op.walk())), set(), start)
        w.anchored = anchor_block_pointers(w.module) if anchor else 0
        w.block_loads, w.figures = _block_loads(w.module), figures(w.module)
        for _ in range(max(1, self.max_backward_remat_iterations)):
            if not self._round(w):
                break
        for cvt in reversed([c for c in w.module.walk() if isinstance(c, ttg.ConvertLayoutOp)]):
            if not cvt.result.uses:  # left dead by the rewrites above
                Rewriter.erase_op(cvt)
        w.figures = figures(w.module)
        return w

    def _round(self, w: _Work) -> bool:
        changed = False
        w.tried = set()
        while pending := [c for c in w.module.walk() if isinstance(c, ttg.ConvertLayoutOp) and c not in w.tried]:
            for cvt in pending:
                w.tried.add(cvt)
                if cvt.parent is None:
                    continue
                if fold(cvt):
                    changed, w.valid = True, None
                    w.figures = figures(w.module)
                    continue
                why = self._remove(w, cvt)
                if why is None:  # the module was replaced: walk it again
                    changed = True
                    break
                w.kept[cvt] = why
        return changed

    def _remove(self, w: _Work, cvt: ttg.ConvertLayoutOp) -> str | None:
        """Backward rematerialization or forward propagation, the cheaper one that makes the whole
        module cheaper; None when done (w.module replaced), else why not."""
        found = self._options(cvt, w.block_loads)
        if isinstance(found, str):
            return found
        options, ties, why = found
        for how in options:
            copy, m = w.trial()
            tcvt = m[cvt]
            assert isinstance(tcvt, ttg.ConvertLayoutOp)
            loads = {m[x] for x in w.block_loads if x in m}
            s = remat.Slice(load_ok=loads.__contains__)
            if not (remat.backward(tcvt.src, encoding(tcvt.result.type), s) if how == "backward"
                    else remat.forward(tcvt, s)):  # fmt: skip
                continue
            try:
                self._rewrite(copy, tcvt, s, how, loads)
            except Exception as e:  # a rewrite we cannot complete is not taken (the copy is dropped)
                self.remark(w.origin.get(cvt, cvt), f"{how} rewrite abandoned: {type(e).__name__}: {e}")
                continue
            fig = figures(copy)  # before the (costly) verification: decides alike, both must hold
            wins = fig.better_than(w.figures) or _less_slm(fig, w.figures)
            if w.valid is None and wins:
                w.valid = not layout_errors(w.module)
            if wins and not trial_has_errors(w.module, copy, m, bool(w.valid)):
                w.accept(copy, m, fig)
                w.block_loads |= loads
                return None
        if all(how in ties for how in options):  # only ties were tried: say why nothing beat them
            return why
        return f"{' and '.join(o for o in options if o not in ties)} would not make the module cheaper ({w.figures})"

    def _options(self, cvt: ttg.ConvertLayoutOp, block_loads: set[Operation]) -> tuple[list[str], set[str], str] | str:
        """The rewrites worth trying, cheapest first by the slice's own estimate (those that only
        tie, and why none is cheaper), or why none."""
        target = encoding(cvt.result.type)
        saved = costs.conversion_cost(cvt.src.type, target) * costs.weight(cvt.result) if target else 0
        back = remat.Slice(load_ok=block_loads.__contains__)
        fwd = remat.Slice(load_ok=block_loads.__contains__)
        options = []  # (weighted cost, -conversions saved, how, slice): cheapest first, then fewest conversions
        # A slice's cost is net of the other conversions it leaves dead (a chain goes as one).
        if target is not None and remat.backward(cvt.src, target, back):
            cost = slice_cost.cost(back, cvt) - slice_cost.removed_cost(back, cvt)
            options.append((cost, -slice_cost.conversions_saved(back, cvt), "backward", back))
        if remat.forward(cvt, fwd):
            cost = slice_cost.cost(fwd, cvt) - slice_cost.removed_cost(fwd, cvt)
            options.append((cost, -slice_cost.conversions_saved(fwd, cvt), "forward", fwd))
        options.sort(key=lambda o: o[:2])
        # Ties are tried too: the same elements moved in a narrower type need less SLM.
        good = [o[2] for o in options if o[0] <= saved]
        ties = {o[2] for o in options if o[0] == saved and o[1] >= 0}
        why = self._why(back, fwd, options, saved)
        return (good, ties, why) if good else why

    @staticmethod
    def _rewrite(module: ModuleOp, cvt: ttg.ConvertLayoutOp, s: remat.Slice, how: str, loads: set[Operation]) -> None:
        src, pos = cvt.src, _positions(module)
        new = remat.materialize(s, pos)
        loads.update(new[ld.results[0]].owner for ld in s.ops if ld in loads)  # type: ignore[misc]
        if how == "backward":
            cvt.result.replace_all_uses_with(new[src])
            Rewriter.erase_op(cvt)
        remat.erase_dead(sorted(set(s.ops), key=pos.__getitem__))
        if how == "forward" and not cvt.result.uses:
            Rewriter.erase_op(cvt)
        for c in reversed([c for c in module.walk() if isinstance(c, ttg.ConvertLayoutOp)]):
            if not c.result.uses:
                Rewriter.erase_op(c)

    @staticmethod
    def _why(back: remat.Slice, fwd: remat.Slice, options: list, saved: int) -> str:
        found = {how: cost for cost, _, how, _ in options}
        parts = []
        for how, sl in (("backward", back), ("forward", fwd)):
            if how not in found:
                parts.append(f"{how}: {sl.why or 'no target layout'}")
                continue
            because = f" ({'; '.join(dict.fromkeys(sl.notes))})" if sl.notes else ""
            parts.append(f"{how} would convert {found[how]} weighted elements to save {saved}{because}")
        return "; ".join(parts)
