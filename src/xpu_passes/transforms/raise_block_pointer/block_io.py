"""Whether a raised load of dot data will be a 2D block read (`block-io-only`).

triton-xpu 3.3 reads a block pointer with 2D block reads only when MaterializeBlockPointer tags
the load (`transforms/materialize_block_pointer.py`'s `classify`): a unit stride on one of the two
innermost dims, a pitch that is a provable multiple of 16 bytes, no 8-bit column-major tile, no
column-major A operand. An untagged raised load of dot data is lowered to one gather per lane
and element in the dot's layout: at the ISA (IGC, PVC) 2-6x the gathers of the coalesced
tensor-of-pointer load it replaced, and with a run-time version both paths are kept (a GEMM with
run-time strides: 13,183 instructions and 10,176 spill bytes, against 6,984 and 0 unraised).
The rule reads the same facts at the TTIR: the plan's strides (constants, `tt.divisibility`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType

from xpu_passes.analysis.values import known_divisibility
from xpu_passes.dialects import tt
from xpu_passes.transforms.raise_block_pointer.dot_use import DotUse
from xpu_passes.transforms.raise_block_pointer.poly import ONE, Lin, values_of
from xpu_passes.transforms.raise_block_pointer.plan_types import Plan

PITCH_BYTES = 16  # MaterializeBlockPointer's pitch rule (an OWord)
_MAX = 1 << 30


def divisibility(x: Lin) -> int:
    """The largest power of two MaterializeBlockPointer will know to divide the stride built for `x`: a
    product (coefficient times its leaves' divisibility), a constant, or the kernel's value reused for it;
    a sum is 1, as MaterializeBlockPointer reads no addition."""
    if not x.terms:
        return _MAX
    if len(x.terms) > 1:
        return 1
    mono, coeff = x.terms[0]
    d = coeff & -coeff if coeff else _MAX
    for v in mono:
        d = min(d * known_divisibility(v), _MAX)
    for v in values_of(x):  # the builder may reuse one of them: the least known
        d = min(d, known_divisibility(v))
    return d


def not_block_read(plan: Plan, uses: DotUse) -> str | None:
    """Why a load of `plan` would not be a 2D block read once raised (None: every load will be one)."""
    loads = [ap.op for ap in plan.accesses if isinstance(ap.op, tt.LoadOp)]
    if not loads or len(plan.dims) != 2:
        return None
    unit = [d for d, dp in enumerate(plan.dims) if dp.stride == ONE]
    if not unit:
        return "no dim has a constant unit stride"
    fast = unit[-1]
    elem = plan.block.element_type
    bits = int(getattr(elem, "bitwidth", 0))
    if bits not in (8, 16, 32, 64):
        return f"element type {elem} is not 8/16/32/64-bit"
    if fast == 0 and bits == 8:
        return "8-bit elements stored column major"
    pitch = plan.dims[1 - fast].stride
    elems = PITCH_BYTES * 8 // bits
    if divisibility(pitch) % elems:
        return f"its pitch {pitch} is not provably a multiple of {PITCH_BYTES} bytes ({elems} elements)"
    if fast == 0 and any(0 in uses.dot_operands(op.result) for op in loads):
        return "it is the A operand of a tt.dot stored column major"
    return None


def refusal(plan: Plan, uses: DotUse) -> str | None:
    """The remark of a dot-data plan `block-io-only` leaves alone, or None to raise it."""
    why = not_block_read(plan, uses)
    if why is None:
        return None
    shape = "x".join(str(s) for s in plan.block.get_shape()) if isinstance(plan.block, TensorType) else "?"
    return (f"the raised {shape} load would not be a 2D block read ({why}): triton-xpu 3.3 would gather it "
            f"lane by lane in the dot's layout, more gathers than the coalesced load kept (block-io-only)")
