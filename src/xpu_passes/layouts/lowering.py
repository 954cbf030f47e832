"""What triton-xpu 3.3's lowering to LLVM cannot take: (op, layout) pairs its verifiers accept
but its conversion patterns abort on. RemoveLayoutConversions consults it before it puts an op
in a layout (anchoring block pointers, recomputing a load), and says why it did not.

- A load in a DPAS dot-operand layout whose element width is not the width that DPAS multiplies
  (32 bits / opsPerChan: tf32 operands for opsPerChan 1, 16-bit ones for 2, 8-bit ones for 4):
  Intel's 2D block read of a DPAS operand picks its message by that width, and a bf16 load in
  the B layout of a tf32 DPAS aborts (TypeSwitch "Fell off the end of a type-switch"). A plain
  gather load lowers, but MaterializeBlockPointer may tag it for 2D block reads afterwards:
  refused whatever the pointer is. Native's pass never converts a load so (a dot operand is
  produced by a conversion right before the dot, or by an extf/truncf after it).
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import linear_of


def _bits(t: Attribute) -> int | None:
    width = getattr(t, "bitwidth", None)  # (xDSL's integer and float types)
    return width if isinstance(width, int) else None


def load_refused(t: Attribute, layout: Attribute) -> str | None:
    """Why triton-xpu 3.3 cannot lower a load of tensor type `t` in `layout` (None: it can)."""
    if not isinstance(layout, ttg.DotOperandEncodingAttr) or not isinstance(layout.parent, ttig.DpasEncodingAttr):
        return None
    elem = t.element_type if isinstance(t, TensorType) else t
    if isinstance(elem, tt.PointerType):
        return None
    bits = _bits(elem)
    want = 32 // layout.parent.ops_per_chan
    if bits == want:
        return None
    return (f"a load of {bits or '?'}-bit elements in the dot-operand layout of a DPAS for {want}-bit operands "
            f"(triton-xpu 3.3 cannot lower its 2D block read)")


def _free_copies(t: Attribute) -> int:
    """Lane and warp bits along which a layout holds copies of the same elements (0 if unknown)."""
    enc = t.encoding if isinstance(t, TensorType) else None
    if enc is None or getattr(enc, "name", "") == "none":
        return 0
    try:
        ll = linear_of(enc, tuple(t.get_shape()))
    except (LayoutError, ValueError):
        return 0
    return len(ll.free_bases("lane")) + len(ll.free_bases("warp"))


def copied_gather_loads(module: Operation) -> int:
    """Tensor-of-pointer loads of at least a CTA's worth of elements whose layout has lanes or warps
    holding copies of them (a dot operand's B on warps along M): each copy is loaded again, and
    triton-xpu 3.3 lowers such a load element by element held, 2D block tag or not (an attention's
    K/V loads in the B layout on 8 warps took its lowering from 35 s to over 240 s). triton-xpu's
    own pipeline never has one (its RemoveLayoutConversions recomputes only loads tagged for 2D
    block reads, which its MaterializeBlockPointer gives to block pointers only)."""
    threads = _int_attr(module, "ttg.num-warps", 4) * _int_attr(module, "ttg.threads-per-warp", 16)
    n = 0
    for op in module.walk():
        if type(op) is not tt.LoadOp or op.is_block_pointer:
            continue
        t = op.results[0].type
        if not isinstance(t, TensorType) or isinstance(op.operands[0].owner, tt.SplatOp):
            continue
        size = 1
        for s in t.get_shape():
            size *= s
        if size >= threads and _free_copies(t):
            n += 1
    return n


def _int_attr(op: Operation, key: str, default: int) -> int:
    v = op.attributes.get(key)
    data = getattr(getattr(v, "value", None), "data", None)
    return data if isinstance(data, int) else default
