"""`--tritonintelgpu-legalize-block-io-encoding`: no `#ttig.subgroup_2d_block` for a backend that lacks it.

triton-xpu 3.3 does not know `#ttig.subgroup_2d_block`. For each load in that
layout whose users are all conversions to one (dot-operand) layout, the layout
algebra (`xpu_passes.layouts`) compares the two layouts:

- the same placement (`same_placement`: every element on the same register, lane
  and warp): the load and its block-pointer family take the target layout and the
  conversions go;
- the same elements in every thread, only the register numbering differs (a B
  operand read as stacked K tiles): folded the same way, with a remark, because
  3.3's lowering of the dot-operand load issues the same 2D block reads and
  renumbers registers itself (`{fold_register_permutations=false}` keeps these);
- anything else: the conversions stay and the load is re-expressed as the
  `#ttg.linear` layout equal to its 2D block layout (`to_linear`), with a remark;
  if the algebra has no such layout (or one that does not fit the warp), the load
  takes the conversions' layout after all, which 3.3 lowers with its own 2D block
  reads, and the remark says that nothing was proven.

Any other value left in a 2D block layout is re-expressed as `#ttg.linear` too, so
none remains; a layout the algebra cannot express is a pass error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from xpu_passes.analysis.block_pointers import Family
from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects.ttig import Subgroup2DBlockEncodingAttr
from xpu_passes.layouts.propagation import encoding, retype_family, retyped, with_encoding
from xpu_passes.ir.walk_order import walk_list
from xpu_passes.transforms.base import (LINEAR_WORK_PER_OP, UNCHANGED, OverBudget, PassError, WorkBudget, XpuPass,
                                        over_budget, register)
from xpu_passes.transforms.optimize_block_io_encoding import pointer_family


def _block_layout(t: Attribute) -> Subgroup2DBlockEncodingAttr | None:
    """The 2D block layout of a tensor or of a block pointer's tensor."""
    if isinstance(t, tt.PointerType):
        t = t.pointee
    enc = encoding(t)
    return enc if isinstance(enc, Subgroup2DBlockEncodingAttr) else None


def _block_values(ops: list[Operation]) -> list[tuple[Operation, SSAValue, Subgroup2DBlockEncodingAttr]]:
    """The values (results, then block arguments, per op in `ops`) in a 2D block layout."""
    judged: dict[int, Subgroup2DBlockEncodingAttr | None] = {}  # id(type): `ops` keep the types alive
    out = []
    for o in ops:
        values: list[SSAValue] = list(o.results)
        for region in o.regions:
            for block in region.blocks:
                values += block.args
        for v in values:
            t = v.type
            layout = judged[id(t)] if id(t) in judged else judged.setdefault(id(t), _block_layout(t))
            if layout is not None:
                out.append((o, v, layout))
    return out


def _shape(t: Attribute) -> Sequence[int]:
    if isinstance(t, tt.PointerType):
        t = t.pointee
    assert isinstance(t, TensorType)
    return t.get_shape()


@dataclass(frozen=True)
class Verdict:
    """What the layout algebra proves about a 2D block layout and a conversion's target."""

    same: bool  # every element on the same (register, lane, warp)
    same_threads: bool  # every thread holds the same elements, registers possibly renumbered
    why: str = ""


def compare(block: Attribute, target: Attribute, shape: Sequence[int]) -> Verdict:
    """Compare two layouts of a `shape` tensor with the layout algebra; unsupported -> not proven."""
    try:
        from xpu_passes.layouts import same_placement, to_linear

        if same_placement(block, target, shape):
            return Verdict(True, True)
        a, b = to_linear(block, shape), to_linear(target, shape)
    except Exception as e:  # no algebra, or a layout it cannot handle: nothing is proven
        return Verdict(False, False, f"the layout algebra cannot compare them ({type(e).__name__}: {e})")
    if a.holds_all_of(b, "lane") and b.holds_all_of(a, "lane"):
        return Verdict(False, True, "they differ only in the order of each thread's registers")
    return Verdict(False, False, "the layout algebra shows that they place elements on different threads")


def linear_equivalent(layout: Subgroup2DBlockEncodingAttr, shape: Sequence[int]) -> ttg.LinearEncodingAttr:
    """The `#ttg.linear` layout equal to `layout` on `shape`.

    Raises when the algebra cannot say, or when its answer does not fit the layout's
    own warp (as many lanes as threadsPerWarp, as many warps as warpsPerCTA).
    """
    from xpu_passes.layouts import from_linear, to_linear

    ll = to_linear(layout, shape)
    warps = 1
    for w in layout.warps_per_cta:
        warps *= w
    if ll.num("lane") != layout.threads_per_warp or ll.num("warp") != warps:
        raise ValueError(
            f"the algebra gives {ll.num('lane')} lanes x {ll.num('warp')} warps "
            f"for {layout.threads_per_warp} x {warps}"
        )
    return from_linear(ll)


@register
@dataclass(frozen=True)
class LegalizeBlockIOEncoding(XpuPass):
    name = "tritonintelgpu-legalize-block-io-encoding"

    # Also fold when the layouts differ only in each thread's register order (a
    # renaming the 3.3 lowering does by itself); False: only identical placements.
    fold_register_permutations: bool = True
    # Work units (ops walked, loads judged, their block-pointer families' members) per op of the
    # input; 0: unbounded. The pass cannot keep its input (triton-xpu 3.3 cannot read it): past the
    # budget, each load left takes its conversions' layout unproven (3.3 lowers it with its own 2D
    # block reads), or is re-expressed as #ttg.linear, as when the algebra cannot compare them.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = walk_list(op)
        if not _block_values(ops):  # (most modules: a walk, each type judged once)
            self.said(UNCHANGED)
            return
        budget = WorkBudget.per_op(self.max_work_per_op, len(ops))
        budget.spend(len(ops))
        spent = False
        for load in [o for o in ops if isinstance(o, tt.LoadOp)]:
            layout = _block_layout(load.result.type)
            if layout is not None:
                try:
                    budget.spend(1)
                except OverBudget as e:
                    if not spent:
                        over_budget(self, op, e, self.max_work_per_op, "loads left taken in their conversions' "
                                                                       "layout without comparing")
                    spent = True
                self._legalize_load(load, layout, None if spent else budget)
        self._sweep(op)

    def _legalize_load(self, load: tt.LoadOp, layout: Subgroup2DBlockEncodingAttr, budget: WorkBudget | None) -> None:
        """`budget` None: spent, the layouts are not compared."""
        shape = _shape(load.result.type)
        users = [u.operation for u in load.result.uses]
        targets = {encoding(u.results[0].type) for u in users if isinstance(u, ttg.ConvertLayoutOp)}
        fam = pointer_family(load) if load.is_block_pointer else None
        if isinstance(fam, str):
            self.remark(load, f"not folded: {fam}")
            return  # the sweep re-expresses what is left
        one_target = users and len(targets) == 1 and all(isinstance(u, ttg.ConvertLayoutOp) for u in users)
        if budget is None:
            if one_target:
                self._fold(load, fam, targets.pop(), users)
            return  # (else the sweep re-expresses it)
        budget.spent += len(fam.values) if fam is not None else 0  # (a spent budget shows at the next load)
        if one_target:
            target = targets.pop()
            verdict = compare(layout, target, shape)
            if verdict.same:
                self._fold(load, fam, target, users)
                return
            if verdict.same_threads and self.fold_register_permutations:
                # The dot-operand load is lowered with the same 2D block reads; the
                # lowering renumbers the registers itself, with no data movement.
                self._fold(load, fam, target, users)
                self.remark(load, f"folded into its conversion's layout: {verdict.why} (no data moves between threads)")
                return
            why = verdict.why
        else:
            target, why = None, "its users are not all conversions to one layout"
        try:
            linear = linear_equivalent(layout, shape)
        except Exception as e:
            if target is None:
                raise PassError(load, f"cannot express {layout} in a layout triton-xpu 3.3 knows: {e}") from e
            # Still a layout 3.3 knows and lowers with its own 2D block reads; nothing proven.
            self._fold(load, fam, target, users)
            self.remark(load, f"not proven equal ({why}) and no #ttg.linear for it ({e}): loaded in its conversion's layout")
            return
        self._retype_load(load, fam, linear)
        self.remark(load, f"kept the conversion, load re-expressed as #ttg.linear: {why}")

    @staticmethod
    def _retype_load(load: tt.LoadOp, fam: Family | None, layout: Attribute) -> SSAValue:
        if fam is not None:
            retype_family(fam, layout)
        return Rewriter.replace_value_with_new_type(load.result, with_encoding(load.result.type, layout))

    def _fold(self, load: tt.LoadOp, fam: Family | None, target: Attribute, users: list[Operation]) -> None:
        loaded = self._retype_load(load, fam, target)
        for cvt in users:
            cvt.results[0].replace_all_uses_with(loaded)
            Rewriter.erase_op(cvt)

    def _sweep(self, module: ModuleOp) -> None:
        """Re-express every value still in a 2D block layout as its #ttg.linear equal."""
        for o, v, layout in _block_values(walk_list(module)):
            if isinstance(o, tt.FuncOp):  # its signature would have to change too
                raise PassError(o, "a function argument in a 2D block layout")
            try:
                linear = linear_equivalent(layout, _shape(v.type))
            except Exception as e:
                raise PassError(o, f"cannot express {layout} in a layout triton-xpu 3.3 knows: {e}") from e
            Rewriter.replace_value_with_new_type(v, retyped(v.type, linear))
