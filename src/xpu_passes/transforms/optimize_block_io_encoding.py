"""`--tritonintelgpu-optimize-block-io-encoding`: give 2D-block loads of dot operands the layout of their reads.

Runs after MaterializeBlockPointer and before RemoveLayoutConversions (Intel issue
4362). A block-pointer `tt.load` tagged `ttig.block_io` whose value reaches a
`tt.dot` operand (directly or through `ttg.convert_layout` chains) gets the
`#ttig.subgroup_2d_block` layout of the 2D block reads the lowering issues for that
operand (`layouts/block_io.py`): the load and its whole block-pointer family
(`tt.make_tensor_ptr`, `tt.advance`, `scf.for` iter_args, results and yields) are
retyped, one `ttg.convert_layout` to the dot-operand layout follows the load, and
the conversions that went from the old layout to the dot are replaced by it.
RemoveLayoutConversions then sees the 2D block layout as the load's anchor.

Loads that do not qualify stay as they are, with a remark: not tagged, no dot
user, a user that is neither a conversion nor a dot, a pointer family with other
accesses or uses, or an operand with no 2D block read.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.analysis.block_pointers import Family, collect_family
from xpu_passes.analysis.values import make_tensor_ptr_of
from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects.ttig import BLOCK_IO, DpasEncodingAttr, PrefetchOp, Subgroup2DBlockEncodingAttr
from xpu_passes.layouts.block_io import NoBlockRead, subgroup_2d_block_for
from xpu_passes.layouts.propagation import encoding, retype_family, with_encoding
from xpu_passes.ir.walk_order import walk_list
from xpu_passes.transforms.base import (LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register,
                                        within_budget)


def pointer_family(load: tt.LoadOp) -> Family | str:
    """The load's block-pointer family when the load is its only load/store, else why not."""
    root = make_tensor_ptr_of(load.ptr)
    if root is None:
        return "cannot trace the block pointer to its tt.make_tensor_ptr"
    fam = collect_family(root)
    if fam.unsupported is not None:
        return f"the block pointer also flows into '{fam.unsupported.name}'"
    others = [a for a in fam.accesses if a is not load and not isinstance(a, PrefetchOp)]
    if others:
        return f"the block pointer family has other accesses ('{others[0].name}')"
    return fam


@dataclass
class DotUses:
    """How a loaded value reaches dot operands: the conversions on the way and the operands."""

    converts: list[ttg.ConvertLayoutOp]
    operands: list[tuple[tt.DotOp, int]]
    why_not: str = ""


def dot_uses(value: SSAValue) -> DotUses:
    """Follow `value` through conversions to `tt.dot` operands A/B; any other user spoils it."""
    uses = DotUses([], [])
    work = [value]
    while work:
        for use in list(work.pop().uses):
            user = use.operation
            if isinstance(user, ttg.ConvertLayoutOp):
                uses.converts.append(user)
                work.append(user.result)
            elif isinstance(user, tt.DotOp) and use.index in (0, 1):
                uses.operands.append((user, use.index))
            else:
                uses.why_not = uses.why_not or f"used by '{user.name}', not only by conversions to tt.dot operands"
    if not uses.operands and not uses.why_not:
        uses.why_not = "no tt.dot uses the loaded value"
    return uses


def _feeds_dot(load: tt.LoadOp) -> bool:
    work = [load.result]
    while work:
        for use in work.pop().uses:
            if isinstance(use.operation, tt.DotOp):
                return True
            if isinstance(use.operation, ttg.ConvertLayoutOp):
                work.append(use.operation.result)
    return False


# A load's rewrite: the load, its pointer family, its 2D block layout, the dot operands' type, its dot uses.
_Plan = tuple[tt.LoadOp, Family, Attribute, Attribute, DotUses]


@register
@dataclass(frozen=True)
class OptimizeBlockIOEncoding(XpuPass):
    name = "tritonintelgpu-optimize-block-io-encoding"

    # Work units (ops walked, values followed to the dots, block-pointer family members) per op of
    # the input; 0: unbounded. Past it the input is kept (OVER_BUDGET): no load gets a 2D block
    # layout, as with native's pipeline, which has no such pass.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = walk_list(op)
        plans = within_budget(self, op, ops, self.max_work_per_op, self._plans)
        if plans is None:  # (nothing rewritten yet: every load is judged first)
            return
        # (judging a load never depends on another's rewrite: each rewrite touches only its load's
        # pointer family, conversions and dot operands, which no other qualifying load shares)
        for plan in plans:
            self._rewrite(*plan)
        if not plans:
            self.said(UNCHANGED)

    def _plans(self, ops: list[Operation], budget: WorkBudget) -> list[_Plan]:
        budget.spend(len(ops))
        plans: list[_Plan] = []
        for load in [o for o in ops if isinstance(o, tt.LoadOp)]:
            tag = load.attributes.get(BLOCK_IO)
            if tag is None:
                if _feeds_dot(load):  # only dot operands are this pass's business
                    self.remark(load, "kept: not tagged ttig.block_io (no 2D block read proven)")
                continue
            why = self._try(load, tag, budget)
            if isinstance(why, tuple):
                plans.append(why)
            elif why:
                self.remark(load, f"kept: {why}")
        return plans

    def _try(self, load: tt.LoadOp, tag: Attribute, budget: WorkBudget) -> _Plan | str:
        """How to rewrite `load`; else why not ("" when already done)."""
        if not load.is_block_pointer:
            return "a tensor-of-pointer load (only block-pointer loads are given 2D block layouts)"
        t = load.result.type
        assert isinstance(t, TensorType)
        if isinstance(encoding(t), Subgroup2DBlockEncodingAttr):
            return ""
        uses = dot_uses(load.result)
        budget.spend(1 + len(uses.converts) + len(uses.operands))
        if uses.why_not:
            return uses.why_not
        targets = {encoding(dot.operands[i].type) for dot, i in uses.operands}
        target = targets.pop()
        if targets:
            return "the loaded value reaches dot operands in different layouts"
        if not isinstance(target, ttg.DotOperandEncodingAttr) or not isinstance(target.parent, DpasEncodingAttr):
            return "the dot operand layout has no #ttig.dpas parent"
        fam = pointer_family(load)
        if isinstance(fam, str):
            return fam
        budget.spend(len(fam.values) + len(fam.accesses))
        row_major = isinstance(tag, StringAttr) and tag.data == "row_major"
        bits = int(getattr(t.element_type, "bitwidth", 0))
        layout = subgroup_2d_block_for(target, t.get_shape(), bits, row_major)
        if isinstance(layout, NoBlockRead):
            return layout.reason
        return load, fam, layout, with_encoding(t, target), uses

    @staticmethod
    def _rewrite(load: tt.LoadOp, fam: Family, layout: Attribute, target: Attribute, uses: DotUses) -> None:
        retype_family(fam, layout)
        loaded = Rewriter.replace_value_with_new_type(load.result, with_encoding(load.result.type, layout))
        cvt = ttg.ConvertLayoutOp.build(operands=[loaded], result_types=[target])
        Rewriter.insert_op(cvt, InsertPoint.after(load))
        for dot, i in uses.operands:
            dot.operands[i] = cvt.result
        # Users come after their sources in `converts`; all are dead now.
        for old in reversed(uses.converts):
            if not old.result.uses:
                Rewriter.erase_op(old)

