"""`--tritonintelgpu-remove-layout-conversions`: remove `ttg.convert_layout` by layout propagation.

Block pointers first take the layout their loads/stores are converted to (a 2D
block access can produce any layout). Then, for each conversion X -> Y, two
rewrites are weighed (`layouts/remat.py`): backward rematerialization recomputes
the source in Y (elementwise ops, splat/broadcast/expand_dims/make_range,
constants, reductions into a slice of Y, loop-carried values through scf.for
iter_args and yields, scf.if results, and loads: the Intel rule that a load may
take the DPAS layout, so `acc + load(d)` keeps DPAS and needs no SLM); forward
propagation lets the users (elementwise ops, stores, other conversions) take X.
Values that cannot be recomputed get a conversion right after their definition
(hoisted out of loops). The cheaper rewrite is taken when its conversions, weighted
by loop depth, move fewer elements than the one removed; conversions to the same
layout and chains of conversions fold.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.analysis.block_pointers import collect_family
from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts import remat
from xpu_passes.layouts.propagation import encoding, retype_family, with_encoding
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


@register
@dataclass(frozen=True)
class RemoveLayoutConversions(XpuPass):
    name = "tritonintelgpu-remove-layout-conversions"
    summary = "remove ttg.convert_layout by layout propagation and rematerialization (DPAS epilogues)"
    MAX_ROUNDS = 4

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        anchor_block_pointers(op)
        ai = AxisInfoAnalysis(op)
        block_loads: set[Operation] = {
            ld for ld in op.walk()
            if isinstance(ld, tt.LoadOp) and not ld.is_block_pointer
            and (BLOCK_IO in ld.attributes or classify_pointer_tensor(ld, ai, check_mask=False).tag is not None)
        }  # fmt: skip
        # A rewrite can make an earlier refusal possible: go again while anything changes.
        kept: dict[Operation, str] = {}
        for _ in range(self.MAX_ROUNDS):
            changed = False
            tried: set[Operation] = set()
            while pending := [c for c in op.walk() if isinstance(c, ttg.ConvertLayoutOp) and c not in tried]:
                for cvt in pending:
                    tried.add(cvt)
                    if cvt.parent is None:
                        continue
                    if fold(cvt):
                        changed = True
                        continue
                    why = self._remove(op, cvt, block_loads)
                    if why is None:
                        changed = True
                    else:
                        kept[cvt] = why
            if not changed:
                break
        for cvt, why in kept.items():
            if cvt.parent is not None and cvt.result.uses:
                self.remark(cvt, f"kept: {why}")
        for cvt in reversed([c for c in op.walk() if isinstance(c, ttg.ConvertLayoutOp)]):
            if not cvt.result.uses:  # left dead by the rewrites above
                Rewriter.erase_op(cvt)

    def _remove(self, module: ModuleOp, cvt: ttg.ConvertLayoutOp, block_loads: set[Operation]) -> str | None:
        """Backward rematerialization or forward propagation, the cheaper; None when done, else why not."""
        target = encoding(cvt.result.type)
        saved = remat.conversion_cost(cvt.src.type, target) * remat.weight(cvt.result) if target else 0
        back = remat.Slice(load_ok=block_loads.__contains__)
        fwd = remat.Slice(load_ok=block_loads.__contains__)
        options = []  # (weighted cost, -conversions saved, how, slice): cheapest first, then fewest conversions
        if target is not None and remat.backward(cvt.src, target, back):
            options.append((remat.cost(back, cvt), -remat.conversions_saved(back, cvt), "backward", back))
        if remat.forward(cvt, fwd):
            options.append((remat.cost(fwd, cvt), -remat.conversions_saved(fwd, cvt), "forward", fwd))
        options.sort(key=lambda o: o[:2])
        if not options or options[0][0] > saved or (options[0][0] == saved and options[0][1] >= 0):
            return self._why(back, fwd, options, saved)
        _, _, how, s = options[0]
        src, pos = cvt.src, _positions(module)
        new = remat.materialize(s, pos)
        block_loads.update(new[ld.results[0]].owner for ld in s.ops if ld in block_loads)  # type: ignore[misc]
        if how == "backward":
            cvt.result.replace_all_uses_with(new[src])
            Rewriter.erase_op(cvt)
        remat.erase_dead(sorted(set(s.ops), key=pos.__getitem__))
        if how == "forward" and not cvt.result.uses:
            Rewriter.erase_op(cvt)
        return None

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
