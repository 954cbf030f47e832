"""-tritonintelgpu-optimize-reduction-locality: a reduction along a DPAS tile's rows, reduced in registers first.

Intel XPU Triton's pass of the same flag (main branch, 2026; 3.3 has it behind
TRITON_INTEL_OPTIMIZE_REDUCTION_LOCALITY). `tt.reduce` on axis 1 of a `#ttig.dpas` tensor lowers
to a butterfly of sub-group shuffles per register (IGC: ~40% of flash attention's instructions).
The rewrite reshapes the tile (no data moves: `efficient_layout`) so that each thread first
reduces the values it holds, transposes what is left within the sub-group with one layout
conversion, reduces again in registers and across warps, and converts back:

    reshape -> 7D blocked; reduce axis 2; reduce axis 4; convert_layout -> 5D blocked;
    reshape -> 4D; reduce axis 0; reduce axis 1; reshape -> 1D; convert_layout -> the result's layout

The layouts are Intel's, field for field. Conditions (Intel's): one operand, rank 2, axis 1,
executionSize == threadsPerWarp, repeatCount * repCluster[0] a multiple of threadsPerWarp,
the tile's rows exactly repeatCount * repCluster[0] * warpsPerCTA[0], and (main's guard, not in
3.3) at least executionSize * repCluster[1] * warpsPerCTA[1] columns. Anything else is left
alone with a remark.

The reduction's combine region is applied in another order: max/min results are the same,
float sums may differ in the last bits (as with Intel's pass).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, UnitAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.transforms.base import (LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register,
                                        within_budget)


def _blocked(size: list[int], threads: list[int], warps: list[int]) -> ttg.BlockedEncodingAttr:
    return ttg.BlockedEncodingAttr.make(sizePerThread=size, threadsPerWarp=threads, warpsPerCTA=warps,
                                        order=list(range(len(size))))  # fmt: skip


def why_not(op: tt.ReduceOp) -> str | None:
    """Why Intel's pattern does not apply to `op` (None: it does)."""
    if len(op.operands) != 1:
        return f"{len(op.operands)} operands (one only)"
    t = op.operands[0].type
    if not isinstance(t, TensorType) or len(t.get_shape()) != 2:
        return "not a 2D tensor (only reductions after a 2D dot)"
    enc = t.encoding
    if not isinstance(enc, ttig.DpasEncodingAttr):
        return "operand not in a #ttig.dpas layout"
    if op.axis.value.data != 1:
        return f"axis {op.axis.value.data} (only axis 1 reduces within a sub-group)"
    tpw, rows, cols = enc.threads_per_warp, *t.get_shape()
    if enc.execution_size != tpw:
        return f"executionSize {enc.execution_size} != threadsPerWarp {tpw}"
    if enc.repeat_count * enc.rep_cluster[0] % tpw:
        return f"repeatCount*repCluster[0] = {enc.repeat_count * enc.rep_cluster[0]} not a multiple of {tpw}"
    if cols < enc.execution_size * enc.rep_cluster[1] * enc.warps_per_cta[1]:
        return f"{cols} columns, fewer than one tile of the layout (main's guard)"
    if enc.repeat_count * enc.rep_cluster[0] * enc.warps_per_cta[0] != rows:
        return f"{rows} rows, not the layout's repeatCount*repCluster[0]*warpsPerCTA[0]"
    return None


class _Builder:
    def __init__(self, rewriter: Rewriter, at: Operation, reduce: tt.ReduceOp) -> None:
        self.rewriter, self.at, self.reduce = rewriter, at, reduce
        t = reduce.operands[0].type
        assert isinstance(t, TensorType)
        self.elem = t.element_type

    def _add(self, op: Operation) -> SSAValue:
        self.rewriter.insert_op(op, InsertPoint.before(self.at))
        return op.results[0]

    def reshape(self, v: SSAValue, shape: list[int], enc: Attribute) -> SSAValue:
        return self._add(tt.ReshapeOp.build(operands=[v], result_types=[TensorType(self.elem, shape, enc)],
                                            properties={"allow_reorder": UnitAttr(),
                                                        "efficient_layout": UnitAttr()}))  # fmt: skip

    def convert(self, v: SSAValue, t: Attribute) -> SSAValue:
        return self._add(ttg.ConvertLayoutOp.build(operands=[v], result_types=[t]))

    def reduce_on(self, v: SSAValue, axis: int) -> SSAValue:
        t = v.type
        assert isinstance(t, TensorType)
        shape = [d for i, d in enumerate(t.get_shape()) if i != axis]
        out = TensorType(self.elem, shape, ttg.SliceEncodingAttr.make(dim=axis, parent=t.encoding))
        return self._add(tt.ReduceOp.build(operands=[[v]], result_types=[[out]],
                                           properties={"axis": IntegerAttr(axis, i32)},
                                           regions=[self.reduce.combineOp.clone()]))  # fmt: skip


def rewrite(op: tt.ReduceOp, rewriter: Rewriter) -> None:
    """Intel's DpasOperandPattern: the ops before `op`, then `op`'s result replaced and `op` erased."""
    t = op.operands[0].type
    assert isinstance(t, TensorType) and isinstance(t.encoding, ttig.DpasEncodingAttr)
    d = t.encoding
    ex, rc, (r0, r1), (w0, w1) = d.execution_size, d.repeat_count, d.rep_cluster, d.warps_per_cta
    per = t.get_shape()[1] // (ex * r1 * w1)
    rows = rc * r0
    b = _Builder(rewriter, op, op)
    v = b.reshape(op.operands[0], [ex, rc, r1, r0, w1, per, w0],
                  _blocked([1, rc, r1, r0, 1, per, 1], [ex, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, w1, 1, w0]))
    v = b.reduce_on(b.reduce_on(v, 2), 4)  # within the thread
    vt = v.type
    assert isinstance(vt, TensorType)
    v = b.convert(v, TensorType(b.elem, vt.get_shape(),
                                _blocked([ex, rows // ex, 1, 1, 1], [1, ex // r0, r0, 1, 1], [1, 1, 1, w1, w0])))
    v = b.reshape(v, [ex, rows, w1, w0], _blocked([ex, rows // ex, 1, 1], [1, ex, 1, 1], [1, 1, w1, w0]))
    v = b.reduce_on(b.reduce_on(v, 0), 1)  # in registers after the transpose, then across warps
    result = op.results[0].type
    assert isinstance(result, TensorType)
    parent = _blocked([1, rows // ex], [1, ex], [w1, w0])
    v = b.reshape(v, list(result.get_shape()), ttg.SliceEncodingAttr.make(dim=0, parent=parent))
    v = b.convert(v, result)
    rewriter.replace_op(op, [], [v])


@register
@dataclass(frozen=True)
class OptimizeReductionLocality(XpuPass):
    name = "tritonintelgpu-optimize-reduction-locality"
    summary = "reduce a DPAS tile's rows in registers first, then within the sub-group (Intel main's pass)"
    needs_text = ("tt.reduce", "dpas")  # the round trip is skipped where neither could match

    # Work units (ops walked, reductions judged) per op of the input; 0: unbounded. Past it the
    # input is kept (OVER_BUDGET): the round trip runs native's pass.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        chosen = within_budget(self, op, list(op.walk()), self.max_work_per_op, self._choose)
        if chosen is None:  # (nothing rewritten yet)
            return
        rewriter = Rewriter()
        for red in chosen:
            rewrite(red, rewriter)
        if not chosen:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> list[tt.ReduceOp]:
        """The reductions to rewrite (the others get a remark)."""
        budget.spend(len(ops))
        chosen: list[tt.ReduceOp] = []
        for red in [r for r in ops if isinstance(r, tt.ReduceOp)]:
            budget.spend(1)
            why = why_not(red)  # (its operand's type only: no rewrite of another changes it)
            if why is not None:
                self.remark(red, f"reduction left alone: {why}")
                continue
            chosen.append(red)
        return chosen
