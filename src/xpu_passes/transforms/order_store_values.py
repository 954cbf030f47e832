"""-xpu-order-store-values: a block's stored values computed narrowest first.

A block that ends by storing several tiles computes each stored value from a chain of pure ops
used by nothing else (its "own" chain). Triton lowers the ops in their order and IGC keeps it
largely: the chain computed first holds its result in registers while the next chains are computed,
up to its store. When the stored values differ in width (an f32 loss beside a gradient truncated to
bf16), computing the narrowest first holds the fewest bytes across the others. The stores stay in
their order (they may alias), and only pure ops move, each chain as a whole, so every value is the
same. At the ISA (IGC): liger's `_jsd_kernel` bf16 (4 warps, 32 f32 per lane per tile; loss f32
stored, then the bf16 gradient): 4,400 -> 4,057 instructions, 16,768 -> 15,360 spill bytes (native,
which stores the loss through an SLM conversion: 4,225 / 16,384); computing the gradient first but
truncating it next to its store changes nothing (an f32 is held either way).

Left alone, with a remark: a block whose own chains read a value made among them by an op that
stays (the chain could not move above it), and one whose stored values differ in shape (a row vector
beside a tile: its width is that of fewer elements, not of a narrower type; fla's parallel_nsa_fwd
w2, its lse before its output: +26% instructions at the ISA, IGC's retry at 256 GRF).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from xpu_passes.dialects import tt
from xpu_passes.layouts.pressure import tensor_bytes
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register, within_budget


@dataclass(frozen=True)
class Chain:
    store: tt.StoreOp
    ops: list[Operation]  # in block order
    width: int  # register bytes per lane of the stored value


def own_chain(store: tt.StoreOp, pos: dict[int, int]) -> list[Operation]:
    """The pure ops of the store's block that its value needs and nothing else uses, in block order
    (`pos`: the block's ops by id -> position)."""
    block = store.parent_block()
    owned: set[int] = {id(store)}
    todo = [store.operands[1].owner]
    chain: list[Operation] = []
    while todo:
        op = todo.pop()
        if (not isinstance(op, Operation) or id(op) in owned or op.parent_block() is not block
                or op.regions or not is_side_effect_free(op)
                or any(id(u.operation) not in owned for r in op.results for u in r.uses)):
            continue
        owned.add(id(op))
        chain.append(op)
        todo.extend(v.owner for v in op.operands)  # type: ignore[misc]
    return sorted(chain, key=lambda o: pos[id(o)])


def plan_block(block: Block) -> list[Chain] | str | None:
    """The block's chains in the order to compute them (narrowest first), None when nothing would
    change, or why they cannot move."""
    pos = {id(o): i for i, o in enumerate(block.ops)}
    chains = []
    for op in block.ops:
        if isinstance(op, tt.StoreOp) and (ops := own_chain(op, pos)):
            chains.append(Chain(op, ops, tensor_bytes(op.operands[1].type)))
    if len({c.width for c in chains}) < 2 or any(c.width == 0 for c in chains):
        return None  # (same widths, or a value whose width the layout algebra does not give: integers, scalars)
    ordered = sorted(chains, key=lambda c: c.width)  # (stable: equal widths keep their order)
    if [pos[id(c.ops[0])] for c in ordered] == sorted(pos[id(c.ops[0])] for c in chains):
        return None
    if len({tuple(c.store.operands[1].type.get_shape()) for c in chains}) > 1:  # type: ignore[attr-defined]
        # (measured: fla parallel_nsa_fwd's 16-row lse computed before its 16x64 output crossed IGC's 128-GRF
        # retry threshold, +26% instructions; the gain measured is of same-shape tiles of two element types)
        return "the stored values are tiles of different shapes"
    first = min(pos[id(c.ops[0])] for c in chains)
    moved = {id(o) for c in chains for o in c.ops}
    for c in chains:
        for o in c.ops:
            for v in o.operands:
                d = v.owner
                if isinstance(d, Operation) and id(d) in pos and id(d) not in moved and pos[id(d)] >= first:
                    return f"a stored value reads '{d.name}', made among the chains by an op that stays"
    return ordered


def reorder(block: Block, ordered: list[Chain]) -> None:
    """The chains, in `ordered`, where the first op of any of them was."""
    chain_ops = {id(o) for c in ordered for o in c.ops}
    first = next(o for o in block.ops if id(o) in chain_ops)
    cursor = first.prev_op  # (not in a chain: `first` is the earliest)
    for c in ordered:
        for o in c.ops:
            o.detach()
            Rewriter.insert_op(o, InsertPoint.at_start(block) if cursor is None else InsertPoint.after(cursor))
            cursor = o


@register
@dataclass(frozen=True)
class OrderStoreValues(XpuPass):
    name = "xpu-order-store-values"
    summary = "compute a block's stored values narrowest first (fewer bytes held across the other chains)"

    # Work units (ops walked) per op of the input; 0: unbounded. Past it the input is kept.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        # 1. The blocks whose stored values differ in width and whose chains can move.
        chosen = within_budget(self, op, ops, self.max_work_per_op, self._choose)
        if chosen is None:
            return
        # 2. Their chains, narrowest first, where the first of them was.
        for block, ordered in chosen:
            reorder(block, ordered)
        if not chosen:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> list[tuple[Block, list[Chain]]]:
        budget.spend(len(ops))
        chosen = []
        blocks = {id(b): b for o in ops if isinstance(o, tt.StoreOp) and (b := o.parent_block()) is not None}
        for block in blocks.values():
            budget.spend(len(block.ops))
            found = plan_block(block)
            if isinstance(found, str):
                self.remark(block.first_op or block.parent_op(), f"stored values not reordered: {found}")  # type: ignore[arg-type]
            elif found is not None:
                chosen.append((block, found))
        return chosen
