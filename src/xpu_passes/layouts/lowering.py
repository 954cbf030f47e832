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
- A conversion from a dot-operand layout whose parent is not DPAS (an FMA dot's operand, e.g.
  a loop carrying it in that layout whose result is used elsewhere) to a layout that is not a dot
  operand: its lowering, and the SLM allocation before it, abort ("getThreadsPerWarp not
  implemented for DotOperandEncodingAttr"). Ops in that layout lower (loads, elementwise ops,
  reductions, loops, the dot), and so does a conversion to a DPAS dot operand (AccelerateMatmul
  leaves one on each operand of a dot it turns into a DPAS); only leaving for another layout fails.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import linear_of
from xpu_passes.layouts.memory import distinct_registers


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


def convert_refused(src: Attribute | None, dst: Attribute | None) -> bool:
    """Whether triton-xpu 3.3 cannot lower a `ttg.convert_layout` from layout `src` to `dst` (see above)."""
    return (isinstance(src, ttg.DotOperandEncodingAttr) and not isinstance(src.parent, ttig.DpasEncodingAttr)
            and not isinstance(dst, ttg.DotOperandEncodingAttr))


def store_refused(store: tt.StoreOp, layout: Attribute) -> str | None:
    """Why a block-pointer store should not write `layout` (None: it may). triton-xpu 3.3 writes a
    DPAS tile with 2D block stores only through a pointer straight from tt.make_tensor_ptr (its
    RemoveLayoutConversions' store rule); IGC has crashed (floating point exception) on one it never
    makes (flag-gems flash_varlen's epilogue, through tt.advance): ours makes none where it would not."""
    if not isinstance(layout, ttig.DpasEncodingAttr) or isinstance(store.ptr.owner, tt.MakeTensorPtrOp):
        return None
    return "a 2D block store of a DPAS tile through a moved block pointer (triton-xpu makes none; IGC may crash)"


# PVC's register file per hardware thread in the default GRF mode (128 registers of 64 bytes).
GRF_BYTES = 128 * 64


def copies_overflow(t: Attribute, threads_per_warp: int, constancy: Sequence[int] | None = None) -> bool:
    """A tensor whose layout has lanes or warps holding copies of its elements (a dot operand's B on
    warps along M), where what one warp then holds exceeds its register file: a tensor-of-pointer
    load of it is loaded again per copy and lowered by triton-xpu 3.3 element by element held (a
    flag-gems attention's 128x128 K/V loads in the B layout on 8 warps, 32 KB a warp, took its
    lowering from 35 s to over 240 s). Copies that fit (a small GEMM's operands) are left alone, and
    so are registers of equal addresses (`constancy`, the load's: `memory.distinct_registers`)."""
    if not isinstance(t, TensorType):
        return False
    enc = t.encoding
    bits = _bits(t.element_type)
    if enc is None or getattr(enc, "name", "") == "none" or bits is None:
        return False
    try:
        ll = linear_of(enc, tuple(t.get_shape()))
    except (LayoutError, ValueError):
        return False
    if not ll.free_bases("lane") and not ll.free_bases("warp"):
        return False
    return distinct_registers(ll, constancy) * bits // 8 * threads_per_warp > GRF_BYTES


def copied_gather_loads(module: Operation) -> int:
    """Tensor-of-pointer loads whose layout's copies overflow a warp's registers (`copies_overflow`).
    triton-xpu's own pipeline never has one: its RemoveLayoutConversions recomputes only loads tagged
    for 2D block reads, which its MaterializeBlockPointer gives to block pointers only."""
    threads = _int_attr(module, "ttg.threads-per-warp", 16)
    over = [op for op in module.walk()
            if type(op) is tt.LoadOp and not op.is_block_pointer and copies_overflow(op.results[0].type, threads)]
    if not over:
        return 0
    facts = AxisInfoAnalysis(module)  # (only then: the copies of equal addresses are one load)
    return sum(copies_overflow(op.results[0].type, threads, load_constancy(facts, op)) for op in over)


def load_constancy(facts: AxisInfoAnalysis, op: tt.LoadOp) -> tuple[int, ...]:
    """Per dim, the runs of equal addresses and mask of a load (a register of one run is loaded once)."""
    const = facts.of(op.operands[0]).constancy
    if op.mask is not None:
        const = tuple(min(a, b) for a, b in zip(const, facts.of(op.mask).constancy))
    return tuple(const)


def _int_attr(op: Operation, key: str, default: int) -> int:
    v = op.attributes.get(key)
    data = getattr(getattr(v, "value", None), "data", None)
    return data if isinstance(data, int) else default
