"""What a reduction's layout costs in messages, where its scratch size does not see it.

triton-xpu 3.3 lowers a `tt.reduce` by accumulating in each thread one value per distinct
element of the result it holds (its accumulators), then combining across the lanes along the axis
with sub-group shuffles (one round per doubling, per accumulator) and, when warps share the axis,
through SLM: every accumulator written, a barrier, then read back. Its scratch is one slot per warp
along the axis for every result element, so it is the same whichever lanes hold which result
elements; the messages are not. celoss_indices_smooth_bwd BLOCK_D=16 reduces a 512x16 f32 tile
over its rows: with the 16 columns spread over 16 lanes a lane holds 1 accumulator (1 SLM write,
1 read); with the rows over all 32 lanes and 4 warps, each lane holds all 16 (16 writes, 16 reads,
80 shuffles): IGC's SLM messages 75 -> 102 with everything else equal.

`traffic` prices the accumulators a layout holds beyond the fewest any layout gives the result,
when warps share the axis, in RemoveLayoutConversions' unit (bytes through SLM): each is written
and read back by every thread of the CTA. Shuffles are not priced: pricing them too (1/8 a byte,
as a conversion without SLM) changed the first RemoveLayoutConversions of sparsemax_fwd's bitonic
network by ties alone.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import by_identity, linear_of
from xpu_passes.layouts.propagation import numel
from xpu_passes.layouts.scratch import element_bytes


def _rank(vectors: list[tuple[int, ...]]) -> int:
    """Rank over GF(2) of coordinate vectors (each coordinate's bits a row of the matrix)."""
    rows: list[int] = []
    for v in vectors:
        x = 0
        for c in v:
            x = (x << 32) | c
        for r in rows:
            x = min(x, x ^ r)
        if x:
            rows.append(x)
    return len(rows)


def accumulators(t: TensorType, axis: int) -> tuple[int, int, int, int]:
    """(accumulators per thread, threads, lanes along `axis`, warps along `axis`) of a reduction of
    `t` (in its layout) over `axis`: the thread's registers told apart by their other coordinates."""
    ll = linear_of(t.encoding, tuple(t.get_shape()))
    other = [tuple(c for d, c in enumerate(b) if d != axis) for b in ll.bases("register")]
    along = [sum(1 for b in ll.bases(dim) if b[axis] and not any(c for d, c in enumerate(b) if d != axis))
             for dim in ("lane", "warp")]  # (bases that move along the axis only)
    return 1 << _rank(other), ll.num("lane") * ll.num("warp"), 1 << along[0], 1 << along[1]


def traffic(op: Operation, result_layout: Attribute | None = None) -> int:
    """Conversion bytes the accumulators of reduction `op` (its results in `result_layout`, by
    default their own) move beyond the fewest: 0 for other ops or layouts the algebra lacks."""
    if not isinstance(op, tt.ReduceOp) or not op.operands:
        return 0
    srcs = tuple(o.type for o in op.operands)
    if not all(isinstance(t, TensorType) and t.encoding is not None for t in srcs):
        return 0
    parent = getattr(result_layout, "parent", None) if result_layout is not None else None
    if result_layout is not None and parent is None:
        return 0
    return _traffic(op.axis.value.data, parent, *srcs)


@by_identity  # pure in the axis, the layout and the operand types
def _traffic(axis: int, parent: Attribute | None, *srcs: TensorType) -> int:
    src = srcs[0]
    shape = src.get_shape()
    if not 0 <= axis < len(shape) or len(shape) < 2:
        return 0  # (a full reduction's result is a scalar each thread gets: nothing to compare)
    t = TensorType(src.element_type, shape, parent) if parent is not None else src
    try:
        accs, threads, _, warps = accumulators(t, axis)  # type: ignore[arg-type]
    except (LayoutError, ValueError):
        return 0
    excess = accs - max(1, -(-(numel(src) // shape[axis]) // threads))  # the fewest: results over threads
    if excess <= 0 or warps == 1:
        return 0  # (one warp holds the axis: no SLM round trip)
    return excess * threads * sum(element_bytes(s.element_type) for s in srcs)
