"""`report-layout-conversions`: every `ttg.convert_layout` with the SLM triton-xpu will give it.

A layout conversion that goes through shared local memory (SLM) costs a store, a
barrier and a load, and its scratch buffer counts against PVC's 128 KB per work-group;
one in a loop costs that every iteration. This pass tells, per conversion, how many
bytes of SLM it will take (the layout algebra of `xpu_passes.layouts`, exact against
triton-xpu 3.3's allocation) and how deep in loops it sits:

- a remark per conversion (`xpu-opt --remarks` prints them at the op's line);
- with `annotate` (default), the op gets `convert_report.slm_bytes = N : i64`, which
  survives triton's later passes, so the final TTGIR of `triton.compile` shows it;
- with `budget=N`, a conversion needing more than N bytes is an error located at it
  (in the plugin: a native compile with a warning, or an error when strict).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, i64
from xdsl.ir import Operation

from xpu_passes.dialects import ttg
from xpu_passes.layouts import LayoutError, convert_scratch_bytes
from xpu_passes.transforms import PassError, XpuPass

__version__ = "0.1.0"
ATTR = "convert_report.slm_bytes"


def loop_depth(op: Operation) -> int:
    depth, parent = 0, op.parent_op()
    while parent is not None:
        depth += isinstance(parent, scf.ForOp | scf.WhileOp)
        parent = parent.parent_op()
    return depth


@dataclass(frozen=True)
class ReportLayoutConversions(XpuPass):
    name = "report-layout-conversions"
    summary = "report each ttg.convert_layout with the SLM bytes it costs (optionally enforce a budget)"

    # Nothing to do without a conversion: in triton.compile, a round trip of passes that all
    # miss what they need in the module's text is skipped.
    needs_text: ClassVar[tuple[str, ...]] = ("convert_layout",)

    annotate: bool = True
    budget: int = -1  # bytes of SLM one conversion may take; -1: no limit

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for cvt in [o for o in op.walk() if isinstance(o, ttg.ConvertLayoutOp)]:
            src, dst = cvt.src.type, cvt.result.type
            if not (isinstance(src, TensorType) and isinstance(dst, TensorType)):
                continue
            try:
                slm = convert_scratch_bytes(src, dst)
            except LayoutError as e:
                self.remark(cvt, f"SLM cost unknown: {e}")
                continue
            depth = loop_depth(cvt)
            where = f"in {depth} loop{'s' * (depth != 1)}" if depth else "outside loops"
            kind = f"{slm} bytes of SLM" if slm else "no SLM (registers/shuffles)"
            shape = "x".join(map(str, src.get_shape()))
            self.remark(cvt, f"{shape}x{src.element_type}: {kind}, {where}")
            if self.annotate:
                cvt.attributes[ATTR] = IntegerAttr(slm, i64)
            if 0 <= self.budget < slm:
                raise PassError(cvt, f"this conversion needs {slm} bytes of SLM, over the budget of {self.budget}")
