"""-xpu-early-slm-conversions: a layout conversion through SLM made before the loads it does not need.

triton-xpu lowers a `ttg.convert_layout` that moves data between lanes through SLM: stores, a
work-group barrier, loads. IGC does not move memory messages across the barrier, so the tiles of
global loads issued before it are held in registers across it, whatever their users. triton-xpu's
passes leave such a conversion next to its users (RemoveLayoutConversions, reorder-instructions),
often after the loads of a straight-line kernel's tiles. Made right after its operand is (above the
loads it does not read), the barrier comes before those loads, and IGC schedules them with their
users. At the ISA (IGC): fla's `recompute_w_u_fwd_kernel` (64x64 bf16 tiles, a 64-element vector
scaling a dot operand, converted into the operand's row slice): 4,032 -> 0 spill bytes, 2,790 ->
2,188 instructions; made after the B tile's load instead, no change (docs/passes.md).

It moves a conversion through SLM (layouts.scratch: a scratch buffer) upward past pure ops and
global loads only, to right after its operand's definition (or the block's start), and only when it
passes the load of a dot's B operand tile that takes more registers per lane than the converted value:
what it then holds longer is less than what it stops holding across the barrier (the loads measured to
cost there; docs/passes.md). Left where it is, with a remark:
a conversion stopped by an op that writes memory, has regions or uses SLM itself (another barrier)
before it passes any such load.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.pressure import tensor_bytes
from xpu_passes.layouts.scratch import op_scratch_bytes
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register, within_budget


def _scratch(op: Operation) -> int:
    """The SLM scratch triton-xpu gives `op` (layouts.scratch.op_scratch_bytes; 0 for a layout it does not know)."""
    try:
        return op_scratch_bytes(op)
    except Exception:  # noqa: BLE001 - a layout the algebra does not know: not known to need SLM, left alone
        return 0


def through_slm(op: Operation) -> bool:
    """A conversion triton-xpu lowers through SLM (a scratch buffer, a barrier)."""
    return isinstance(op, ttg.ConvertLayoutOp) and _scratch(op) > 0


def _passable(op: Operation) -> bool:
    """An op a conversion may move above: a global load or a pure op without regions or SLM of its own."""
    if op.regions or _scratch(op) > 0:
        return False
    return isinstance(op, tt.LoadOp) or is_side_effect_free(op)


@dataclass(frozen=True)
class Move:
    convert: ttg.ConvertLayoutOp
    after: Operation | None  # None: to the block's start


def plan(convert: ttg.ConvertLayoutOp) -> Move | str | None:
    """Where `convert` goes (None: nowhere better), or why it stays although loads precede it."""
    held = tensor_bytes(convert.results[0].type)
    if held == 0:
        return None  # (a value whose register bytes the layout algebra does not give: integers, pointers)
    operand = convert.operands[0].owner
    largest = 0  # the most register bytes per lane of one load passed
    op = convert.prev_op
    while op is not None and op is not operand:
        if not _passable(op):
            if largest <= held:
                earlier = any(isinstance(o, tt.LoadOp) and _b_operand_tile(o) for o in _before(op, operand))
                return f"an op that writes memory, has regions or uses SLM ('{op.name}') stops it" if earlier else None
            break
        if isinstance(op, tt.LoadOp) and _b_operand_tile(op):
            largest = max(largest, tensor_bytes(op.results[0].type))
        op = op.prev_op
    return Move(convert, op) if largest > held else None


def _b_operand_tile(load: tt.LoadOp) -> bool:
    """A load of a dot's B operand tile (rank 2, `#ttg.dot_op<{opIdx = 1}>`): what the barrier was measured to
    hold at a cost (fla recompute_w_u_fwd: made after A's load but before B's, the gain is whole; after B's,
    none). Not an A operand alone (fla chunk_scaled_dot_comba_pkt_fwd w2: spill 0 -> 2,688 B), nor a row
    vector (corpus rms_norm_block_bwd 16x512: +13 instructions), nor blocked tiles (fla
    chunk_dplr_fwd_A_kernel_intra_sub_intra: spill 10,432 -> 11,520 B)."""
    t = load.results[0].type
    if not isinstance(t, TensorType) or len(t.get_shape()) < 2:
        return False
    enc = t.encoding  # type: ignore[attr-defined]
    return isinstance(enc, ttg.DotOperandEncodingAttr) and enc.op_idx == 1


def _before(op: Operation, stop: object) -> list[Operation]:
    out, cur = [], op.prev_op
    while cur is not None and cur is not stop:
        out.append(cur)
        cur = cur.prev_op
    return out


def move(m: Move) -> None:
    block = m.convert.parent_block()
    assert block is not None
    m.convert.detach()
    at = InsertPoint.after(m.after) if m.after is not None else InsertPoint.at_start(block)
    Rewriter.insert_op(m.convert, at)


@register
@dataclass(frozen=True)
class EarlySlmConversions(XpuPass):
    name = "xpu-early-slm-conversions"
    summary = "make a conversion through SLM before the global loads it does not read (its barrier before them)"

    # Work units (ops walked) per op of the input; 0: unbounded. Past it the input is kept.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        # 1. Each conversion through SLM that can be made above a larger global load it does not read.
        moves = within_budget(self, op, ops, self.max_work_per_op, self._choose)
        if moves is None:
            return
        # 2. Each right after its operand's definition (or at its block's start), the lowest first: one stopped
        # by another conversion goes after it while it is still in place, so where it was (below its own operand)
        for m in reversed(moves):
            move(m)
        if not moves:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> list[Move]:
        budget.spend(len(ops))
        moves = []
        lengths: dict[int, int] = {}  # id(block) -> its ops (xDSL counts them by walking the block)
        for o in ops:
            if not through_slm(o):
                continue
            block: Block | None = o.parent_block()
            if block is not None and id(block) not in lengths:
                lengths[id(block)] = len(block.ops)
            budget.spend(lengths[id(block)] if block is not None else 1)
            found = plan(o)  # type: ignore[arg-type]
            if isinstance(found, str):
                self.remark(o, f"left: {found}")
            elif found is not None:
                moves.append(found)
        return moves
