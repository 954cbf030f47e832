"""ReduceVariableLiveness step 5 (ours): a straight-line dot operand load sunk to its first user.

A function body's load of a DPAS dot operand tile (`#ttg.dot_op`) is issued where triton's passes leave
it: with the other loads of its source line, above dots and SLM conversions it does not feed. IGC does
not move a load below a DPAS or a barrier, so the tile is held in registers across them. In fla's
chunk kernels (loops over one K or V block folded: straight-line code) the tiles are 64x64 and a B
operand is whole in each warp (128 GRF of bf16, 256 of f32 before its conversion), beside two or three
64x64 f32 results: a tile held across a dot it does not feed is spilled. Made right before its first
user instead, at the ISA (IGC; docs/passes.md, "Spill in fla's chunk kernels"):
`chunk_bwd_kernel_dqkwg` (linear attention) w4 24,192 -> 11,136 spill bytes, 7,554 -> 7,103
instructions; w2 33,792 -> 19,776 B, 14,001 -> 11,973.

The load moves down past pure ops, reads (global loads, SLM reads), SLM allocations (a new buffer of
the work-group's own memory) and reductions whose bodies are pure, to right before the op holding its
first user in its block, when that is not a loop or a branch (a value they read is held across them
wherever it is made). It does not pass a dot that reads the other operand of the dot it feeds (two
dots of one A tile, `q @ h` and `q @ k^T`: the second B tile loaded between them, fla
`chunk_fwd_kernel_o` w4 spilled 64 B more, or took 12% more instructions), and it keeps its order
among the loads next to it (those two B tiles loaded in the other order: +64 B there). An op that may
write memory (a store, a barrier) or holds other regions stops it (a remark says which). Only the
function's own block: loads in loops are steps 2-4's.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, is_side_effect_free

from xpu_passes.dialects import tt, ttg

# Ops with regions a load may pass when every op in them is pure (their regions combine values).
_PURE_REGIONS = (tt.ReduceOp, tt.ScanOp)


def candidate(op: Operation) -> bool:
    """A non-volatile load of a rank-2 dot operand tile in a function's own block."""
    if not isinstance(op, tt.LoadOp) or not isinstance(op.parent_op(), tt.FuncOp):
        return False
    if op.isVolatile is not None and op.isVolatile.value.data:
        return False
    t = op.results[0].type
    return (isinstance(t, TensorType) and len(t.get_shape()) == 2
            and isinstance(t.encoding, ttg.DotOperandEncodingAttr))  # type: ignore[attr-defined]


def passable(op: Operation) -> bool:
    """An op a load may move below: it reads memory at most, and its regions (if any) only combine values."""
    if isinstance(op, tt.LoadOp):
        return op.isVolatile is None or not op.isVolatile.value.data
    if isinstance(op, ttg.LocalLoadOp | ttg.LocalAllocOp):
        return True  # (SLM: the work-group's own, a new buffer for an allocation; no global memory written)
    if isinstance(op, _PURE_REGIONS):
        return all(o is op or o.has_trait(IsTerminator) or (not o.regions and is_side_effect_free(o))
                   for o in op.walk())
    return not op.regions and is_side_effect_free(op)


def partners(load: tt.LoadOp) -> set[int]:
    """The other operands (ids) of the dots `load` feeds, directly or through ops of one operand (its
    conversion for the dot: truncf, convert_layout)."""
    out: set[int] = set()
    values = [load.results[0]]
    while values:
        v = values.pop()
        for u in v.uses:
            user = u.operation
            if isinstance(user, tt.DotOp) and u.index < 2:
                out.add(id(user.operands[1 - u.index]))
            elif len(user.operands) == 1 and len(user.results) == 1:
                values.append(user.results[0])
    return out


def sink_point(load: tt.LoadOp) -> tuple[Operation | None, str | None]:
    """Where `load` goes (the op it is then right before; None: it stays) and why it stops short of its
    first user, if it does."""
    block = load.parent_block()
    assert block is not None
    tops = [block.find_ancestor_op_in_block(u.operation) for u in load.results[0].uses]
    if not tops or any(t is None for t in tops):
        return None, None
    first = min(tops, key=block.get_operation_index)  # type: ignore[arg-type]
    if first.regions and not isinstance(first, _PURE_REGIONS):
        return None, None  # (read in a loop or a branch: the loop's live-in either way; steps 2 and 4's)
    shared = partners(load)
    to: Operation | None = None  # right after the last op passed that is not a read (reads keep their order)
    op = load.next_op
    while op is not first:
        if not passable(op):
            return to, f"'{op.name}' before its first user"
        if isinstance(op, tt.DotOp) and any(id(x) in shared for x in op.operands[:2]):
            return to, "a dot of its dot's other operand before its first user"
        op = op.next_op
        if not isinstance(op.prev_op, tt.LoadOp | ttg.LocalLoadOp):
            to = op
    return to, None


def sink(load: tt.LoadOp, before: Operation) -> None:
    load.detach()
    Rewriter.insert_op(load, InsertPoint.before(before))
