"""What a layout costs in registers, where RemoveLayoutConversions' SLM figures do not see it.

A `tt.reduce` whose axis is split over warps lowers to per-thread partial sums, then SLM behind
a barrier. When its operand fills a warp's register file, LLVM computes the whole operand before
that barrier and sums it after it: the tile is live across the barrier and IGC spills it. On
gemlite's 8-bit GEMV (a 64x128 f16 tile, 2 warps, SIMD32) keeping the unpacked weights in the
load's layout (warps along the reduced axis) instead of converting them to one where the axis
stays in a warp doubled the spill (9,152 -> 18,688 bytes) and added 28% instructions. The same
reduction fed through a conversion, or in a layout whose warps split the other axis, did not.

`reduce_price` is that spill in RemoveLayoutConversions' unit (bytes moved through SLM), priced as
costs.py prices a spill at an access (SPILL_WEIGHT per byte: written and read back, through memory
rather than SLM): the operand's bytes, charged to the reduction. A rewrite that takes a conversion
away from such a reduction must then save more than spilling the tile costs.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from xpu_passes.dialects import tt
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import linear_of
from xpu_passes.layouts.pressure import GRF_BYTES, GRF_DEFAULT
from xpu_passes.layouts.propagation import numel
from xpu_passes.layouts.scratch import element_bytes, reduce_scratch_bytes
from xpu_passes.transforms.remove_layout_conversions.costs import SPILL_WEIGHT

# A warp's register file in the default mode (large GRF has twice that; the TTGIR does not say
# which the compile asks for, and the rows where this spilled were compiled with the default).
FILE_BYTES = GRF_DEFAULT * GRF_BYTES


def register_bytes(t: TensorType) -> int:
    """Bytes a warp holds of `t` in its layout: values per thread x their bytes x lanes."""
    ll = linear_of(t.encoding, tuple(t.get_shape()))
    return ll.num("register") * ll.num("lane") * element_bytes(t.element_type)


def reduce_price(op: Operation) -> int:
    """Bytes to charge a reduction whose axis crosses warps (it needs scratch) and whose operands
    fill a warp's register file: their spill (SPILL_WEIGHT x their bytes); 0 otherwise or for a layout the algebra lacks."""
    if not isinstance(op, tt.ReduceOp):
        return 0
    srcs = [o.type for o in op.operands]
    if not srcs or not all(isinstance(t, TensorType) and t.encoding is not None for t in srcs):
        return 0
    try:
        if not reduce_scratch_bytes(srcs, op.axis.value.data):  # type: ignore[arg-type]
            return 0  # one warp holds the axis: no barrier inside the reduction
        held = sum(register_bytes(t) for t in srcs)  # type: ignore[arg-type]
    except LayoutError:
        return 0
    if held < FILE_BYTES:
        return 0
    return SPILL_WEIGHT * sum(numel(t) * element_bytes(t.element_type) for t in srcs)  # type: ignore[attr-defined]
