"""The memory messages a `tt.load`/`tt.store` of a tensor of pointers costs in a layout.

What triton-xpu 3.3's lowering (LoadStoreOpToLLVM, `getVectorSize`) and IGC make of it: each
lane accesses the elements its registers hold; consecutive registers along the layout's
fastest dim (its order[0]) that the addresses keep contiguous and aligned, and the mask
constant, go in one vector of at most 16 bytes; IGC issues one message (a gather or scatter,
one address per lane: `load.ugm.d32x4`, `load.ugm.d16u32`, ...) per vector. A tensor of
pointers never becomes a 2D block message in 3.3 (only block pointers do).

`limits[d]` is what the addresses allow along dim d whatever the layout: the smallest of the
pointer's contiguity, its alignment in elements and the mask's constancy (AxisInfo's facts,
the caller's). So `vector(...)` depends on the layout, `best_vector(...)` does not, and the
difference of their message counts is what a layout choice adds.

A load's registers whose addresses (and mask) are equal, along dims where AxisInfo says they are
constant (a pointer broadcast along rows), are loaded once: the lowering gives them the same pointer
value and LLVM's CSE keeps one load and one register (`distinct_registers`; a dot operand's B tile
of a row-broadcast pointer, 4 copies on 4 warps: 10 gathers and no spill at the ISA). Stores are
not merged so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Attribute

from xpu_passes.dialects import ttg, ttig
from xpu_passes.layouts.linear import LinearLayout
from xpu_passes.layouts.memoize import linear_of
from xpu_passes.layouts.scratch import contig_per_thread, layout_order

MAX_VECTOR_BYTES = 16  # one lane's share of one message (128 bits)


@dataclass(frozen=True)
class Messages:
    """One access in one layout, per lane."""

    per_lane: int  # elements each lane reads or writes (its registers, replicas included)
    vector: int  # elements per message
    elem_bytes: int
    threads: int  # lanes of the CTA
    lanes: int  # lanes of one warp (a sub-group: one message serves them all)

    @property
    def messages(self) -> int:
        return -(-self.per_lane // self.vector)

    @property
    def sends(self) -> int:
        """Messages of the CTA: each warp sends its own."""
        return self.messages * (self.threads // self.lanes)

    def fewest_sends(self, numel: int, best: int) -> int:
        """The CTA's messages in the best layout: every warp sends at least one."""
        warps = self.threads // self.lanes
        return warps * max(1, -(-numel // (best * self.threads)))

    @property
    def bytes_per_message(self) -> int:
        return self.vector * self.elem_bytes


def _cap(elem_bits: int) -> int:
    return max(1, MAX_VECTOR_BYTES * 8 // max(8, elem_bits))


def distinct_registers(ll: LinearLayout, constancy: Sequence[int] | None) -> int:
    """A lane's registers that hold different addresses when the addresses are constant over
    blocks of `constancy[d]` along each dim d (None: all differ): two registers share an address
    when their coordinates fall in the same blocks, so the count is 2 ** the rank (over GF(2)) of
    the register bases' block parts (block sizes taken down to powers of two)."""
    if constancy is None:
        return 1 << len(ll.register)
    shifts = [max(1, c).bit_length() - 1 for c in constancy]
    width = max((max(b) for b in ll.register), default=0).bit_length() + 1
    pivots: dict[int, int] = {}  # an XOR basis of the block parts (as integers) by leading bit
    for b in ll.register:
        x = 0
        for d, (v, k) in enumerate(zip(b, shifts)):
            x |= (v >> k) << (d * width)
        while x and (top := x.bit_length()) in pivots:
            x ^= pivots[top]
        if x:
            pivots[x.bit_length()] = x
    return 1 << len(pivots)


def messages(layout: Attribute, shape: Sequence[int], elem_bits: int, limits: Sequence[int],
             constancy: Sequence[int] | None = None) -> Messages:
    """The messages of an access of `shape` in `layout` (LayoutError for a layout the algebra
    does not know); `constancy`: a load's address constancy per dim (`distinct_registers`)."""
    ll = linear_of(layout, tuple(shape))
    dim = layout_order(ll)[0]
    vec = min(_cap(elem_bits), contig_per_thread(ll)[dim], max(1, limits[dim]))
    return Messages(distinct_registers(ll, constancy), max(1, vec), max(1, elem_bits // 8),
                    1 << (len(ll.lane) + len(ll.warp)), 1 << len(ll.lane))


def best_vector(elem_bits: int, limits: Sequence[int]) -> int:
    """The widest vector any layout can give the access (along its most contiguous dim)."""
    return min(_cap(elem_bits), max((max(1, x) for x in limits), default=1))


_BLOCK_2D = (ttig.DpasEncodingAttr, ttig.Subgroup2DBlockEncodingAttr)


# A block-pointer access in a layout that is not 2D-block (below) is lowered by triton-xpu 3.3 to one
# message per vector of a lane's elements adjacent along the pointer's unit-stride dim, as wide as
# their known alignment allows (16 bytes at most; a boundary check masks whole vectors), when that dim
# is the layout's fastest; else one element at a time. IGC then merges a lane's adjacent unmasked
# loads (not stores) into a dword of 16-bit elements or 4 dwords of 32-bit ones. Measured at the ISA
# (s15-guard's constructs: tests/python/integration/test_isa_estimate_block_ptr.py).
_MERGED_BYTES = (4, 16)  # what IGC merges (elements under 4 bytes, 4 bytes and wider)


def block_pointer_messages(layout: Attribute, shape: Sequence[int], elem_bits: int, dim: int | None,
                           aligned: int, store: bool, checked: bool) -> Messages:
    """The gathers (scatters: `store`) IGC makes of a block-pointer access in `layout` (not
    `block_2d_layout`): `dim` the pointer's unit-stride dim (None: none known), `aligned` the
    addresses' known alignment in elements, `checked` whether a boundary check masks it.
    LayoutError for a layout the algebra does not know."""
    ll = linear_of(layout, tuple(shape))
    eb = max(1, elem_bits // 8)
    vec = 1
    if dim is not None:
        run = 1  # a lane's elements adjacent along `dim`: register bases 1, 2, 4, ... along it
        while tuple(run if k == dim else 0 for k in range(ll.rank)) in ll.register:
            run *= 2
        fastest = layout_order(ll)[0] == dim
        if fastest:  # triton's vectors
            vec = max(1, min(run, MAX_VECTOR_BYTES // eb, aligned))
        if not checked and (fastest or not store):  # IGC's merging
            vec = max(vec, min(run, _MERGED_BYTES[eb >= 4] // eb))
    return Messages(1 << len(ll.register), vec, eb, 1 << (len(ll.lane) + len(ll.warp)), 1 << len(ll.lane))


def _dpas_parent(layout: Attribute) -> bool:
    return isinstance(layout, ttg.DotOperandEncodingAttr) and isinstance(layout.parent, ttig.DpasEncodingAttr)


def block_2d_layout(layout: Attribute | None) -> bool:
    """Whether a block-pointer access in `layout` lowers to 2D block messages (DPAS, its
    operands, the 2D block layout); other layouts (an FMA dot's operands too), and tensors of
    pointers, take gathers."""
    return isinstance(layout, _BLOCK_2D) or (layout is not None and _dpas_parent(layout))
