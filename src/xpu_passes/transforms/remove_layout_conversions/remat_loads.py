"""Which tensor-of-pointer loads a slice (`remat.py`) may recompute in another layout, and why not.

A load is recomputed where Intel's pass would (2D-block-capable, one splat address, fewer
elements than the CTA has threads: `work.block_loads`), unless it is expensive and the new layout
sends no more messages (`coalesced.keeps_layout`), or the new layout's copies of its elements
overflow a warp's registers (`layouts.lowering.copies_overflow`; registers of equal addresses, the
load's AxisInfo constancy, count once). A block-pointer load is recomputed unless the new layout is
no 2D-block one and sends no fewer messages (`coalesced.block_pointer_keeps_layout`).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.lowering import copies_overflow, load_constancy
from xpu_passes.layouts.memoize import by_identity, linear_of
from xpu_passes.layouts.propagation import encoding, isa, numel, shape, with_encoding
from xpu_passes.transforms.remove_layout_conversions import coalesced, costs


def module_int(op: Operation, key: str, default: int) -> int:
    top = op.get_toplevel_object()
    v = top.attributes.get(key) if isinstance(top, Operation) else None
    return v.value.data if isinstance(v, IntegerAttr) else default


def cheap_load(op: tt.LoadOp) -> bool:
    """A load Intel lets be duplicated (as a cache hit): one splat address, or fewer
    elements than the CTA has threads (Intel's isExpensiveLoadOrStore)."""
    ptr = op.operands[0]
    if op.is_block_pointer or not isinstance(ptr.type, TensorType):
        return False
    threads = module_int(op, "ttg.num-warps", 4) * module_int(op, "ttg.threads-per-warp", 16)
    return isinstance(ptr.owner, tt.SplatOp) or numel(ptr.type) < threads


def pointer_to_dot(t: Attribute, layout: Attribute | None) -> bool:
    """Pointers into a dot-operand layout: triton-xpu's ReduceDataDuplication sizes that SLM round
    trip by the element's bit width and aborts on pointers (triton never converts them so)."""
    return (isa(layout, ttg.DotOperandEncodingAttr) and isa(t, TensorType)
            and isa(t.element_type, tt.PointerType))  # type: ignore[attr-defined]


@by_identity
def replicas(t: Attribute) -> int:
    """Lane and warp bits along which a layout holds copies of the same elements (0 if unknown)."""
    enc = encoding(t)
    try:
        ll = linear_of(enc, shape(t)) if enc is not None else None
    except LayoutError:
        return 0
    return len(ll.free_bases("lane")) + len(ll.free_bases("warp")) if ll is not None else 0


def _constancy(op: tt.LoadOp) -> tuple[int, ...]:
    return load_constancy(costs.facts_of(op), op)


def kept(op: tt.LoadOp, layout: Attribute, movable: bool, load_ok: Callable[[Operation], bool]) -> str | None:
    """Why the load `op` keeps its layout rather than be recomputed in `layout` (None: it may be;
    `movable`: its operands can take the layout)."""
    if op.is_block_pointer:
        if movable and coalesced.block_pointer_keeps_layout(op, layout):
            return "a block-pointer load keeps its layout (the target sends no fewer messages)"
        return None
    if not load_ok(op):
        return "a gather load keeps its layout (not provably a 2D block read)"
    if not movable:
        return None
    cheap = cheap_load(op)
    if coalesced.keeps_layout(op, layout, cheap):
        return "an expensive load keeps its layout (the target sends no fewer messages)"  # (triton's anchor)
    t = op.results[0].type
    if (not cheap and replicas(new := with_encoding(t, layout)) > replicas(t)
            and copies_overflow(new, module_int(op, "ttg.threads-per-warp", 16), _constancy(op))):
        return ("a tensor-of-pointer load keeps its layout (the target's copies of its elements "
                "overflow a warp's registers; triton-xpu lowers it element by element)")
    return None
