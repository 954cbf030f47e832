"""How AxisInfoAnalysis walks a module: its functions, and what it does per op class (asked once per class)."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import Operation

from xpu_passes.dialects import tt

FOR, IF, WHILE = 2, 3, 4  # (codes below 10 other than 0: the regions AxisInfoAnalysis drives itself)


def code(op: Operation) -> int:
    """What `_block` and `_visit` do with ops of `op`'s class: FOR/IF/WHILE, a transfer function
    (10..22, in `_visit`'s order), 0: results unknown. Asked once per class (axis_info's `_KNOWN`)."""
    for c, cls in ((FOR, scf.ForOp), (IF, scf.IfOp), (WHILE, scf.WhileOp), (10, arith.ConstantOp),
                   (11, tt.MakeRangeOp), (12, tt.SplatOp), (13, tt.ExpandDimsOp), (14, tt.BroadcastOp)):
        if isinstance(op, cls):
            return c
    if op.name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "ttg.convert_layout"):
        return 15
    for c, cls in ((16, tt.AddPtrOp), (17, arith.AddiOp), (18, arith.SubiOp), (19, arith.MuliOp),
                   (20, arith.RemSIOp | arith.RemUIOp), (21, arith.DivSIOp | arith.DivUIOp)):
        if isinstance(op, cls):
            return c
    return 22 if op.name in ("arith.cmpi", "arith.andi", "arith.ori", "arith.xori", "arith.select") else 0


def funcs(module: Operation) -> list[tt.FuncOp]:
    """The tt.func ops in `module.walk()` order (pre-order), without a generator per nesting level."""
    out: list[tt.FuncOp] = []
    stack = [module]
    while stack:
        op = stack.pop()
        if isinstance(op, tt.FuncOp):
            out.append(op)
        for region in reversed(op.regions):
            for block in reversed(list(region.blocks)):
                stack.extend(reversed(list(block.ops)))
    return out
