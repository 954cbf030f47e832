"""Register pressure at a tensor-of-pointer access, per lane, from the layout algebra.

PVC's register file is per hardware thread (one warp of 16 lanes): 128 registers of 64 bytes,
or 256 with the large GRF mode triton-xpu compiles with when a kernel spills (its `grf_mode`;
the benchmarks ask for it). What a lane holds beyond its share is spilled to scratch memory.

At a `tt.load`/`tt.store` of a tensor of pointers a lane holds, by this estimate:
- every tensor live across the access (defined before it, used after it, or inside an
  enclosing loop): its registers in its layout (a loop's accumulator, an epilogue's operands);
- the access's values: IGC issues a tensor's messages back to back (the ISA shows a
  DPAS-layout epilogue's 128 gathers in one run), so all of them, except for a load whose only
  users are conversions through SLM (each message's vector is written out as it arrives);
- per message (layouts/memory.py: one per vector of contiguous elements), its 8-byte address
  and, when masked, its predicate.
The layout choice moves all three: a DPAS layout holds more of a tile per lane than a blocked
one might, and narrow vectors take one address per element.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import linear_of
from xpu_passes.layouts.memory import Messages
from xpu_passes.layouts.scratch import element_bytes

GRF_BYTES = 64  # one register of a hardware thread
GRF_DEFAULT, GRF_LARGE = 128, 256  # registers per thread (`-cl-intel-256-GRF-per-thread` for large)
ADDRESS_BYTES = 8  # a lane's 64-bit address of one message
MASK_BYTES = 2  # a lane's predicate of one masked message (a bool vector element in a register)


def budget(grf: int = GRF_LARGE, lanes: int = 16) -> int:
    """Register bytes per lane."""
    return grf * GRF_BYTES // lanes


def tensor_bytes(t: Attribute) -> int:
    """Register bytes one lane holds of a tensor in its layout (0: not a tensor, or a layout the
    algebra does not know)."""
    if not isinstance(t, TensorType) or t.encoding is None:  # type: ignore[attr-defined]
        return 0
    try:
        ll = linear_of(t.encoding, tuple(t.get_shape()))  # type: ignore[attr-defined]
        return (1 << len(ll.register)) * element_bytes(t.element_type)
    except (LayoutError, ValueError):
        return 0


def access_bytes(m: Messages, masked: bool, streamed: bool = False) -> int:
    """What an access holds per lane itself: its values (one message's when `streamed`), and each
    message's address and predicate."""
    values = m.vector if streamed else m.per_lane
    return values * m.elem_bytes + m.messages * (ADDRESS_BYTES + (MASK_BYTES if masked else 0))


def _levels(op: Operation) -> Iterator[tuple[Block, Operation]]:
    """(block, the op of that block holding `op`), innermost first."""
    while (block := op.parent) is not None:
        yield block, op
        parent = block.parent_op()
        if parent is None:
            return
        op = parent


def _holder(user: Operation, block: Block) -> Operation | None:
    """The op of `block` that is or holds `user` (None: `user` is not inside `block`)."""
    while user.parent is not block:
        parent = user.parent_op()
        if parent is None:
            return None
        user = parent
    return user


def live_across(op: Operation, skip: Callable[[SSAValue], bool]) -> int:
    """Per-lane register bytes of the tensors live across `op`: defined before it (in its block
    or an enclosing one) and used after it or inside an op that holds it (a loop runs its body
    again). `skip`: values counted otherwise (the access's own pointer and mask)."""
    total = 0
    for block, at in _levels(op):
        index = {o: i for i, o in enumerate(block.ops)}
        here = index[at]
        values: list[SSAValue] = list(block.args)
        for o in block.ops:
            if o is at:
                break
            values.extend(o.results)
        for v in values:
            if skip(v) or not isinstance(v.type, TensorType):
                continue
            for use in v.uses:
                h = _holder(use.operation, block)
                if h is not None and (index[h] > here or (h is at and at is not op)):
                    total += tensor_bytes(v.type)
                    break
    return total
