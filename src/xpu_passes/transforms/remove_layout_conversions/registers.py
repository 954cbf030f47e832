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

`widening_price` is the same spill for a dot operand extended in registers. Converting the 16-bit
tile before its `arith.extf` rather than the f32 extension after it moves half the SLM bytes, but in
the operand layout of a DPAS with 32-bit operands (tf32) each 16-bit element is read into a 32-bit
slot (layouts/pressure.operand_slot_bytes): the lane then holds the tile twice at the f32 size, the
read and its extension, where converting the extension holds it once. Where the DPAS accumulators
its loop carries already hold more than the register file, every such byte spills. flag_gems'
_attn_bwd (BLOCK_M1=32, 4 warps: two 128x128 f32 accumulators, 2 KB per lane of a 1 KB file) spilled
61,248 B where native, converting the f32 tile, spills 60,416 (IGC, 256 GRF); the same TTGIR with the
f32 tile converted spills 60,416. With 8 warps (BLOCK_M1=64) the accumulators fill the file exactly:
no price, and the narrow conversion keeps that kernel within PVC's SLM where native's does not.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import BlockArgument, Operation

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.dialects.arith import CASTS
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import linear_of, per_class
from xpu_passes.layouts.pressure import GRF_BYTES, GRF_DEFAULT, GRF_LARGE, budget, operand_slot_bytes, tensor_bytes
from xpu_passes.layouts.propagation import encoding, numel
from xpu_passes.layouts.scratch import element_bytes, reduce_scratch_bytes
from xpu_passes.transforms.remove_layout_conversions.costs import SLM_CAPACITY, SPILL_WEIGHT

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


EXTF = tuple(c for c in CASTS if c.name == "arith.extf")  # (one class)
is_extf = per_class(EXTF)
_is_dot = per_class(tt.DotOp)


def carried_accumulator_bytes(loop: scf.ForOp) -> int:
    """Register bytes per lane of the DPAS accumulators `loop` carries: the results of its body's
    tt.dot ops whose accumulator is one of its iteration arguments (a dot is never retyped)."""
    total = 0
    for op in loop.body.block.ops:
        if not _is_dot(op):
            continue
        acc = op.operands[2]
        if type(acc) is BlockArgument and acc.owner is loop.body.block and \
                isinstance(encoding(op.results[0].type), ttig.DpasEncodingAttr):
            total += tensor_bytes(op.results[0].type)
    return total


def widening_price(op: Operation) -> int:
    """Bytes to charge an `arith.extf` whose operand is in the operand layout of a 32-bit DPAS, in a
    loop whose DPAS accumulators hold more than the register file: the spill of its operand tile,
    priced as costs.pressure_cost prices a spill (SPILL_WEIGHT x its bytes per lane x the CTA's
    lanes); 0 otherwise (see the module's doc)."""
    if not is_extf(op):
        return 0
    t = op.operands[0].type
    slot = operand_slot_bytes(t)
    loop = op.parent_op()
    if not slot or not isinstance(loop, scf.ForOp):
        return 0
    dpas = encoding(t).parent  # type: ignore[union-attr]
    lanes = dpas.threads_per_warp
    if carried_accumulator_bytes(loop) <= budget(GRF_LARGE, lanes):
        return 0
    if staged_bytes(loop, op) > SLM_CAPACITY:
        return 0  # (the narrow conversion is what lets the kernel launch: no spill outweighs that)
    return SPILL_WEIGHT * slot * lanes * prod(dpas.warps_per_cta)


_is_staging_step = per_class((ttg.ConvertLayoutOp, tt.TransOp, *CASTS))


def staged_bytes(loop: scf.ForOp, ext: Operation) -> int:
    """SLM bytes the dot operands `loop`'s body reads would take, staged through SLM with `ext`'s result
    converted at its extended width (its own buffer): each operand's root (back through conversions,
    transpositions and casts) once, at its width, unless it is in a DPAS layout (a dot's result
    converted to an operand: scratch of the moment, not a buffer). Triton-xpu stages loaded operands in
    buffers live across the loop body: on _attn_bwd (K and V hoisted, the loop's Q, dO and dS tiles)
    this sum is within 3% of its allocation (104 KB: 106,496 B, BLOCK_M1=32; 144 KB: 148,480 B, 64)."""
    seen: dict[int, int] = {}
    for dot in loop.body.block.ops:
        if not _is_dot(dot):
            continue
        for v in dot.operands[:2]:
            if v is ext.results[0]:
                seen[id(ext)] = numel(v.type) * element_bytes(v.type.element_type)  # type: ignore[attr-defined]
                continue
            while isinstance(v.owner, Operation) and _is_staging_step(v.owner):
                v = v.owner.operands[0]
            t = v.type
            if isinstance(t, TensorType) and not isinstance(encoding(t), ttig.DpasEncodingAttr):
                seen[id(v)] = numel(t) * element_bytes(t.element_type)
    return sum(seen.values())
