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
from xdsl.ir import Attribute

from xpu_passes.dialects import tt, ttg, ttig


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
