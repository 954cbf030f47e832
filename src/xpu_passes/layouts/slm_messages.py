"""SLM messages a lane issues for a conversion through SLM or a local_load (triton-xpu 3.3, IGC).

The scratch's SLM bytes (scratch.py) do not tell what a conversion costs in messages: the same
64 bytes can be read back in 2 messages or in 16. triton-xpu stores a lane's registers into the
scratch and loads the destination's back, each in vectors of registers contiguous along the
scratch's fastest dim (the destination's order[0], only when it is the tensor's innermost dim;
at most 128 bits: scratch.padded_rep_shape's vectors). IGC then issues one SLM message per
vector, except where no lane's address differs from another's (the destination's lane bases
all zero: every lane reads the whole tile): those loads are uniform and IGC merges them into
block loads of 32 bytes (`load.slm.d32x8t`).

Measured on gemlite's GEMV (one warp, SIMD32): a 32x1 f16 column converted into a layout whose
32 lanes all hold the column (native): 1 store + 2 uniform loads, IGC's SLM messages 3; into
[1,4]x[2,16], where pairs of lanes hold different rows (ours): 1 store + 16 loads, IGC's 17.

A `ttg.local_load` reads the same way, in vectors along its buffer's fastest dim (the corpus'
moe_gemm 16x64x64, one A and one B operand through SLM: 64 + 64 loads + 10 writes + an 18-message
epilogue conversion = IGC's 156; ours, B raised: 110 = IGC's). Conversions to or from a dot
operand are decomposed by triton-xpu into a whole-tensor shared buffer: not estimated (None).
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import ttg
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.linear import LinearLayout
from xpu_passes.layouts.memoize import linear_of
from xpu_passes.layouts.memory import MAX_VECTOR_BYTES, distinct_registers
from xpu_passes.layouts.scratch import contig_per_thread, element_bits, layout_order, needs_slm

UNIFORM_LOAD_BYTES = 32  # what IGC's uniform SLM block load (d32x8t) reads
# dot operands (a whole-tensor buffer, lowered otherwise) and shared memory (not a conversion's scratch)
_NOT_ESTIMATED = (ttg.DotOperandEncodingAttr, ttg.SwizzledSharedEncodingAttr, ttg.SharedEncodingAttr)


def convert_messages(src: TensorType, dst: TensorType) -> int | None:
    """SLM messages (stores + loads) one lane issues for a conversion from `src` to `dst`: 0 when
    the conversion needs no SLM (registers renamed, sub-group shuffles), None when not estimated
    (dot operands, shared memory, layouts the algebra does not know)."""
    s, d = src.encoding, dst.encoding
    if not isinstance(s, Attribute) or not isinstance(d, Attribute) or isinstance(s, _NOT_ESTIMATED) \
            or isinstance(d, _NOT_ESTIMATED):
        return None
    shape = tuple(src.get_shape())
    try:
        if not needs_slm(s, d, shape):
            return 0
        a, b = linear_of(s, shape), linear_of(d, shape)
        bits = element_bits(src.element_type)
    except (LayoutError, ValueError):
        return None
    elem = max(1, bits // 8)
    inner = len(shape) - 1
    scratch_dim = layout_order(b)[0]
    cap = max(1, MAX_VECTOR_BYTES // elem)
    in_vec = out_vec = 1
    if scratch_dim == inner:
        if layout_order(a)[0] == inner:
            in_vec = min(cap, contig_per_thread(a)[inner])
        out_vec = min(cap, contig_per_thread(b)[inner])
    return -(-distinct_registers(a, [1] * len(shape)) // in_vec) + _loads(b, elem, out_vec)


def local_load_messages(result: TensorType, order: int) -> int | None:
    """SLM load messages one lane issues to read `result` from a shared buffer whose fastest dim is
    `order` (`ttg.local_load`): one per vector of its registers running along that dim (None: a
    layout the algebra does not know)."""
    shape = tuple(result.get_shape())
    try:
        b = linear_of(result.encoding, shape)
        elem = max(1, element_bits(result.element_type) // 8)
    except (LayoutError, ValueError):
        return None
    run = 1
    while tuple(run if k == order else 0 for k in range(b.rank)) in b.register:
        run *= 2
    return _loads(b, elem, max(1, min(run, MAX_VECTOR_BYTES // elem)))


def _loads(ll: LinearLayout, elem: int, vec: int) -> int:
    """Load messages of a lane's distinct registers in vectors of `vec`; uniform block loads when
    every lane reads the same addresses (no lane basis moves along the tensor)."""
    loaded = distinct_registers(ll, [1] * ll.rank)
    if not any(any(base) for base in ll.lane):
        return -(-loaded * elem // UNIFORM_LOAD_BYTES)
    return -(-loaded // vec)


def op_messages(op: Operation) -> int | None:
    """SLM messages of `op` when it is a conversion or a `ttg.local_load` (None: another op, or one
    not estimated). local_alloc / local_store writes: isa_estimate's `_slm_writes`."""
    if isinstance(op, ttg.ConvertLayoutOp):
        s, d = op.src.type, op.result.type
        if isinstance(s, TensorType) and isinstance(d, TensorType):
            return convert_messages(s, d)
        return None
    if isinstance(op, ttg.LocalLoadOp) and isinstance(r := op.result.type, TensorType):
        shared = getattr(op.src.type, "encoding", None)
        swizzled = isinstance(shared, ttg.SwizzledSharedEncodingAttr | ttg.SharedEncodingAttr)
        order = shared.get("order") if swizzled else None  # type: ignore[union-attr]
        return local_load_messages(r, int(order[0])) if order else None  # type: ignore[index]
    return None
