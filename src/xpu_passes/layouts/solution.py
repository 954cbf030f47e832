"""Whole-module figures by which RemoveLayoutConversions compares candidate rewrites.

A rewrite is judged on the module it produces, not on the conversion it removes:
every `ttg.convert_layout`, `tt.scan` and `tt.reduce` is costed with the layout
algebra (elements moved through SLM, weighted by loop depth) and the largest SLM
scratch of any op is kept apart, so a choice that adds scratch anywhere is seen.
`layout_errors` finds IR triton-xpu would reject: an op whose operands must share
one layout (its text prints one type for several values) with mixed layouts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.propagation import _SAME_LAYOUT, ATOMICS, encoding
from xpu_passes.layouts.costs import LOOP_WEIGHT, conversion_cost, loop_depth
from xpu_passes.layouts.scratch import element_bytes, op_scratch_bytes


@dataclass(frozen=True)
class Figures:
    cost: int  # loop-weighted elements through conversions (no-SLM ones /8) and scan/reduce scratch
    slm: int  # the largest scratch of one op: what triton-xpu allocates when nothing else uses SLM
    converts: int

    def better_than(self, other: Figures) -> bool:
        """Strictly cheaper (or as cheap with fewer conversions), never more SLM."""
        if self.slm > other.slm:
            return False
        return (self.cost, self.converts) < (other.cost, other.converts)

    def worse_than(self, other: Figures) -> bool:
        """More SLM or more conversions: what the final safety net refuses."""
        return self.slm > other.slm or self.converts > other.converts

    def __str__(self) -> str:
        return f"{self.converts} conversion(s), {self.slm} bytes of SLM, weighted cost {self.cost}"


@functools.lru_cache(maxsize=4096)
def _cvt_cost(src: Attribute, dst: Attribute) -> int:
    return conversion_cost(src, dst)


def _scratch(op: Operation) -> int:
    try:
        return op_scratch_bytes(op)
    except LayoutError:
        return 0  # a layout the algebra does not know: its scratch is not comparable


def figures(module: Operation) -> Figures:
    cost = slm = converts = 0
    for op in module.walk():
        if isinstance(op, ttg.ConvertLayoutOp):
            converts += 1
            w = LOOP_WEIGHT ** loop_depth(op)
            dst = encoding(op.result.type)
            cost += w * (_cvt_cost(op.src.type, dst) if dst is not None else 0)
            slm = max(slm, _scratch(op))
        elif isinstance(op, tt.ScanOp | tt.ReduceOp):
            bytes_ = _scratch(op)
            slm = max(slm, bytes_)
            t = op.operands[0].type if op.operands else None
            if bytes_ and isinstance(t, TensorType):
                cost += LOOP_WEIGHT ** loop_depth(op) * bytes_ // max(1, element_bytes(t.element_type))
    return Figures(cost, slm, converts)


# Ops whose tensor operands (and results) triton requires in one layout.
_ONE_LAYOUT = tuple(c for c in _SAME_LAYOUT if c is not tt.BroadcastOp) + (tt.StoreOp, *ATOMICS, tt.ScanOp)


def layout_errors(module: Operation) -> list[tuple[Operation, str]]:
    """Ops whose operands/results disagree on their layout (triton-xpu would reject the text),
    or the module's first verifier error (e.g. a block-pointer load whose pointer was retyped
    while the load kept its result type)."""
    try:
        module.verify()
    except VerifyException as e:
        return [(module, str(e).splitlines()[0])]
    errors: list[tuple[Operation, str]] = []
    for op in module.walk():
        if isinstance(op, _ONE_LAYOUT):
            layouts = {encoding(v.type) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
            if len(layouts) > 1:
                errors.append((op, "operands in different layouts"))
        elif isinstance(op, tt.ReduceOp):
            srcs = {encoding(v.type) for v in op.operands}
            outs = {encoding(v.type) for v in op.results if isinstance(v.type, TensorType)}
            want = {ttg.SliceEncodingAttr.make(dim=op.axis.value.data, parent=s) for s in srcs if s is not None}
            if len(srcs) > 1 or (outs and outs != want):
                errors.append((op, "reduction results are not the slice of its operands' layout"))
        elif isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.ForOp | scf.IfOp):
            parent = op.parent_op()
            assert parent is not None
            if [v.type for v in op.operands] != [r.type for r in parent.results]:
                errors.append((op, "yielded types differ from the results"))
        elif isinstance(op, scf.WhileOp):
            types = [[v.type for v in vs] for vs in (
                op.arguments, op.before_region.block.args, op.after_region.block.args, op.results,
                op.before_region.block.last_op.operands[1:], op.after_region.block.last_op.operands)]  # type: ignore
            if types[0] != types[1] or types[1] != types[5] or not types[2] == types[3] == types[4]:
                errors.append((op, "scf.while types differ between its regions"))
        elif isinstance(op, scf.ForOp):
            args = op.body.block.args[1:]
            if [v.type for v in op.iter_args] != [a.type for a in args] or [a.type for a in args] != [
                r.type for r in op.results
            ]:
                errors.append((op, "loop-carried types differ"))
    return errors
