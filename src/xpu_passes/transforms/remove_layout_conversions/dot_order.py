"""Where a tt.dot's B operand is converted: after its A operand, right before the dot.

A rewrite's copies go where the values they replace were (materialize.py: a boundary conversion right
after its source, a clone before its original). When a backward slice moves a dot's B conversion
up through an elementwise op (an f16 tile converted before its extf, the narrower copy), B's
conversion and the copied extf then sit where the extf was, before A's conversion. Triton's
reorder-instructions moves a B local_load after A's (B is the operand every warp holds whole: it is
live no longer than the dot needs), but only a B read straight into the dot, so B stays first.
flag_gems' _attn_bwd (BLOCK_M1=32, 4 warps; its tf32 dot of a 128x32 A by an f16 32x128 V tile
extended to f32) spilled 64,832 B where native spills 60,416; the same TTGIR with B's local_load and
extf moved after A's conversion spills 61,248 (IGC, 256 GRF), the rest being the f16 copy itself.

`sink_b_operands` moves such a chain (conversion, then ops free of effects, each used only by the
next or by the dot, all in the dot's block) right after A's conversion or local_load, when the chain
is before it: the chain's operands still dominate it, and its one user, the dot, is after it.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation
from xdsl.traits import is_side_effect_free

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.memoize import per_class
from xpu_passes.layouts.propagation import encoding

_is_dot = per_class((tt.DotOp,))
_is_operand_source = per_class((ttg.ConvertLayoutOp, ttg.LocalLoadOp))


def _chain(dot: Operation, block: Block) -> list[Operation]:
    """The ops computing the dot's B operand from one conversion (or local_load), nearest the dot
    first: each in `block`, free of effects, its only use by the next one (the last's by the dot);
    [] when B is not so computed."""
    chain: list[Operation] = []
    v = dot.operands[1]
    while True:
        op = v.owner
        if not isinstance(op, Operation) or op.parent is not block or len(op.results) != 1:
            return []
        if not op.results[0].has_one_use() or op.regions or not is_side_effect_free(op):
            return []
        chain.append(op)
        if _is_operand_source(op):
            return chain
        layout = encoding(op.results[0].type)
        tensors = [o for o in op.operands if layout is not None and encoding(o.type) == layout]
        if len(tensors) != 1:
            return []  # (a B computed from two such chains is left as it is)
        v = tensors[0]


def sink_b_operands(module: Operation) -> int:
    """Move each dot's B chain after A's conversion or local_load (see the module's doc); returns
    how many chains moved."""
    moved = 0
    for dot in [o for o in module.walk() if _is_dot(o)]:
        block = dot.parent
        a = dot.operands[0].owner
        if block is None or not isinstance(a, Operation) or a.parent is not block or not _is_operand_source(a):
            continue
        chain = _chain(dot, block)
        # (a conversion alone: what reorder-instructions orders; here only what a slice copied)
        if len(chain) < 2 or not chain[0].is_before_in_block(a):
            continue
        at = a
        for op in reversed(chain):  # (farthest from the dot first: the order they had)
            op.detach()
            block.insert_op_after(op, at)
            at = op
        moved += 1
    return moved
