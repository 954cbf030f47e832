"""ReduceVariableLiveness step 5 (ours): a straight-line dot operand load made right before its first user.

A function body's load of a DPAS dot's B operand tile (`#ttg.dot_op`, opIdx 1) is issued where triton's passes leave
it: with the other loads of its source line, above dots and SLM conversions it does not feed. IGC does
not move a load below a DPAS or a barrier, so the tile is held in registers across them. In fla's
chunk kernels (loops over one K or V block folded: straight-line code) the tiles are 64x64 and a B
operand is whole in each warp (128 GRF of bf16, 256 of f32 before its conversion), beside two or three
64x64 f32 results, and the tiles held across dots they do not feed are spilled. Made right before their
first users, at the ISA (IGC; docs/passes.md, ReduceVariableLiveness): `chunk_bwd_kernel_dqkwg`
(simple GLA) w4 32,896 -> 15,360 spill bytes, 12,988 -> 11,623 instructions.

A load moves down past pure ops, reads (global loads, SLM reads), SLM allocations (a new buffer of the
work-group's own memory) and reductions whose bodies are pure, to right before the op holding its first
user in its block, when that is not a loop or a branch (a value they read is held across them wherever
it is made). It is left where it is when it feeds more than one dot (held to the last anyway), when a
dot that reads the other operand of its dot comes first (two dots of one A tile, `q @ h` and `q @ k^T`:
the second B tile loaded between them, fla `chunk_fwd_kernel_o` w4 spilled 64 B more, or took 12% more
instructions), and when an op that may write memory (a store, a barrier) or holds other regions comes
first (a remark says which; moved only part of the way, measured: fla `chunk_bwd_kernel_dqkwg` less spill,
`prepare_wy_repr_bwd_kernel` more). It keeps its order among the loads next to it (those two B tiles
in the other order: +64 B there).

The moves are made where they lower the block's estimated register peak (`live_profile`: the tensors
live after each op, per lane, a linear estimate): all of a block's together, else one by one (the last
first, again until none does). Where the peak is elsewhere, moving tiles changes only IGC's schedule:
fla `prepare_wy_repr_bwd_kernel` w2, each move alone, +192 to +7,296 spill bytes or -192, by config.
Only the function's own block: loads in loops are steps 2-4's.

Off by default (`sink-straight-loads=true` turns it on): on 99 fla DPAS rows at the ISA it changes 44,
spill 1,410,816 -> 878,912 B in all, but `chunk_bwd_kernel_dqkwg` delta rule w8 spills 8,000 -> 8,512 B,
its gated varlen w2 takes 14% more instructions, and `prepare_wy_repr_bwd_kernel` BT 16 w8 0 -> 832 B
(benchmarks/README.md).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, is_side_effect_free

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.pressure import tensor_bytes

# Ops with regions a load may pass when every op in them is pure (their regions combine values).
_PURE_REGIONS = (tt.ReduceOp, tt.ScanOp)


def candidate(op: Operation) -> bool:
    """A non-volatile load of a rank-2 dot B operand tile (`opIdx = 1`: whole in each warp along M) in a
    function's own block. Not an A tile (fla `chunk_dplr_bwd_o_kernel` w4: two 16x64 A tiles made at their
    dots past a reduction, 12,544 -> 13,952 spill bytes; as for early_slm_conversions, the B tiles are the
    ones measured to cost when held)."""
    if not isinstance(op, tt.LoadOp) or not isinstance(op.parent_op(), tt.FuncOp):
        return False
    if op.isVolatile is not None and op.isVolatile.value.data:
        return False
    t = op.results[0].type
    return (isinstance(t, TensorType) and len(t.get_shape()) == 2
            and isinstance(t.encoding, ttg.DotOperandEncodingAttr) and t.encoding.op_idx == 1)  # type: ignore[attr-defined]


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


def fed_dots(load: tt.LoadOp) -> list[tuple[tt.DotOp, SSAValue]]:
    """The dots `load` feeds, directly or through ops of one operand (its conversion for the dot: truncf,
    convert_layout), each with its other operand."""
    out: list[tuple[tt.DotOp, SSAValue]] = []
    values = [load.results[0]]
    while values:
        v = values.pop()
        for u in v.uses:
            user = u.operation
            if isinstance(user, tt.DotOp) and u.index < 2:
                out.append((user, user.operands[1 - u.index]))
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
    dots = fed_dots(load)
    if len(dots) > 1:
        return None, None  # (read by several dots: held to the last wherever it is made)
    shared = {id(other) for _, other in dots}
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


def live_profile(block: Block) -> tuple[list[Operation], list[int]]:
    """The block's ops and, after each, the register bytes per lane of the tensors then live (defined at or
    before it, read after it: `pressure.tensor_bytes`), a linear estimate of what IGC must hold."""
    ops = list(block.ops)
    at = {id(o): i for i, o in enumerate(ops)}
    after = [0] * len(ops)
    for i, o in enumerate(ops):
        for v in o.results:
            size = 0 if isinstance(o, tt.SplatOp) or o.name == "arith.constant" else tensor_bytes(v.type)
            if not size:  # (a constant or a scalar's splat: IGC reads its one value where it is used)
                continue
            end = i
            for u in v.uses:
                top = block.find_ancestor_op_in_block(u.operation)
                if top is not None:
                    end = max(end, at[id(top)])
            for k in range(i, end):
                after[k] += size
    return ops, after


def lowers_peak(load: tt.LoadOp, before: Operation) -> tuple[int, int]:
    """The block's estimated peak (`live_profile`) as it is and with `load` made right before `before`."""
    block = load.parent_block()
    assert block is not None
    ops, after = live_profile(block)
    i, j, size = ops.index(load), ops.index(before), tensor_bytes(load.results[0].type)
    # (between its place and `before` it is not live; right after it, made there, what was live before `before`)
    moved = [a - size if i <= k < j else a for k, a in enumerate(after)] + [after[j - 1]]
    return max(after, default=0), max(moved, default=0)


def sink(load: tt.LoadOp, before: Operation) -> None:
    load.detach()
    Rewriter.insert_op(load, InsertPoint.before(before))


def sink_all(loads: list[tt.LoadOp], remark: Callable[[Operation, str], None]) -> bool:
    """Step 5 on the candidate `loads` (in program order), block by block; whether any moved."""
    for load in loads:
        _, why = sink_point(load)
        if why:
            remark(load, f"dot operand load left: {why}")
    moved = False
    for block in {id(b): b for b in (o.parent_block() for o in loads) if b is not None}.values():
        mine = [o for o in loads if o.parent_block() is block]
        moved |= _sink_together(block, mine, remark) or _sink_one_by_one(mine, remark)
    return moved


def _said(remark: Callable[[Operation, str], None], load: tt.LoadOp, peak: int, lowered: int) -> None:
    remark(load, f"dot operand load sunk to its first user (estimated peak {peak} -> {lowered} B per lane)")


def _sink_together(block: Block, loads: list[tt.LoadOp], remark: Callable[[Operation, str], None]) -> bool:
    """Every load of `block` that can reach its first user made there, kept if that lowers the block's
    estimated peak (loads made together, as triton leaves them, may hold the peak only together)."""
    peak = max(live_profile(block)[1], default=0)
    undo: list[tuple[tt.LoadOp, Operation | None]] = []
    for load in reversed(loads):
        to, why = sink_point(load)
        if to is not None and not why:
            undo.append((load, load.prev_op))
            sink(load, to)
    lowered = max(live_profile(block)[1], default=0)
    if undo and lowered < peak:
        for load, _ in undo:
            _said(remark, load, peak, lowered)
        return True
    for load, prev in reversed(undo):  # (back where it was, the first moved last)
        load.detach()
        Rewriter.insert_op(load, InsertPoint.after(prev) if prev is not None else InsertPoint.at_start(block))
    return False


def _sink_one_by_one(loads: list[tt.LoadOp], remark: Callable[[Operation, str], None]) -> bool:
    """Each load that can reach its first user, made there when that alone lowers the block's estimated
    peak (the last first, again until none does)."""
    moved, again = False, True
    while again:
        again = False
        for load in reversed(loads):
            to, why = sink_point(load)
            if to is None or why:
                continue
            peak, lowered = lowers_peak(load, to)
            if lowered < peak:
                sink(load, to)
                _said(remark, load, peak, lowered)
                moved = again = True
    return moved
