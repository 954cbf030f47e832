"""Raised loads of a tt.dot operand sink to right before the dot when its other operand is computed after them.

A raised load is a 2D block read into the dot's operand layout: its tile stays in registers from the
load to the dot. As a tensor of pointers it went through SLM right after the load. Where the kernel
loads one operand first and then computes the other (gemlite's A16fWnO16f GEMM: A loaded, then B's
64x256 int32 words loaded, shifted, masked, scaled), the raised tile is live across all of that:
RemoveLayoutConversions' pressure estimate at B's load then priced the raised kernel over the unraised
one and the stage kept the latter (64x256x64 w8, group 64: 8,105 instructions, 21,760 B spill; raised
and sunk 4,509 and 19,648; native 9,565 and 20,160). The load moves past ops that write no memory only
(the values it reads are the same), in its block, never before a use.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from xpu_passes.dialects import tt


def _writes(op: Operation) -> bool:
    """Whether `op` may write memory or order accesses: anything but loads and ops declared free of
    effects (the ops' own traits, e.g. a non-pure `tt.elementwise_inline_asm` or a `tt.call` is not),
    an op with regions judged by the ops it holds."""
    return any(not (isinstance(o, tt.LoadOp) or o.regions or is_side_effect_free(o)) for o in op.walk())


def _dot_user(load: tt.LoadOp) -> tt.DotOp | None:
    """The one tt.dot using `load`'s tile as its A or B and nothing else, in the load's block."""
    uses = list(load.results[0].uses)
    if len(uses) != 1 or not isinstance(dot := uses[0].operation, tt.DotOp) or uses[0].index > 1:
        return None
    return dot if dot.parent_block() is load.parent_block() else None


def sink_dot_loads(loads: list[tt.LoadOp]) -> list[tt.LoadOp]:
    """Move each of `loads` (raised ones) that is a tt.dot operand to right before the dot, when the
    dot's other operand is computed (not loaded) after it and no op in between writes memory. The loads moved."""
    moved = []
    for load in loads:
        dot = _dot_user(load)
        if dot is None:
            continue
        other = dot.operands[1 - next(u.index for u in load.results[0].uses)].owner
        block = load.parent_block()
        assert block is not None
        if (not isinstance(other, Operation) or isinstance(other, tt.LoadOp) or other.parent_block() is not block
                or block.get_operation_index(other) < block.get_operation_index(load)):
            continue
        op = load.next_op
        while op is not None and op is not dot and not _writes(op):
            op = op.next_op
        if op is not dot:
            continue
        load.detach()
        Rewriter.insert_op(load, InsertPoint.before(dot))
        moved.append(load)
    return moved
