"""Layouts through shape ops: what `tt.expand_dims`, `tt.reshape`, `tt.trans`, `tt.join`
and `tt.split` make of a layout, in both directions (triton's inference, as
lib/Dialect/TritonGPU/IR/Dialect.cpp of triton-xpu 3.3 states it).

The rules keep every element on the thread that held it (the op is a renaming, no data
moves). Reshape is decided on linear layouts: triton's verifier accepts a result layout
iff its linear layout is the operand's reshaped (row-major); we spell it as a blocked
layout when one has that linear layout, else refuse (None). `tt.histogram` carries no
layout through (triton's RemoveLayoutConversions infers none for it), nor does a reshape
with `allow_reorder` (triton leaves those to OptimizeThreadLocality).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from xdsl.ir import Attribute

from xpu_passes.dialects import ttg
from xpu_passes.dialects.ttg import infer_layout as infer
from xpu_passes.layouts.encodings import LayoutError, from_linear, triton_linear
from xpu_passes.layouts.memoize import by_identity, linear_of
from xpu_passes.layouts.linear import IN_DIMS, LinearLayout


def _one_cta(layout: Attribute) -> bool:
    return isinstance(layout, ttg.BlockedEncodingAttr) and layout.get("CTAsPerCGA") is None


# ------------------------------------------------------------ expand_dims


def expand_dims_result(layout: Attribute, axis: int) -> Attribute | None:
    """A slice along `axis` expands back to its parent; no other layout can (triton)."""
    if isinstance(layout, ttg.SliceEncodingAttr) and layout.dim == axis:
        return layout.parent
    return None


@by_identity  # one object per answer: the callers' identity-keyed caches (retyped types) hit
def expand_dims_operand(result_layout: Attribute, axis: int) -> Attribute:
    return ttg.SliceEncodingAttr.make(dim=axis, parent=result_layout)


# ------------------------------------------------------------ trans, join, split


def trans_layout(layout: Attribute, perm: Sequence[int]) -> Attribute | None:
    """`tt.trans {order = perm}`'s result for an operand in `layout` (triton's rule:
    dialects/ttg/infer_layout.py). The operand for a result layout is
    `trans_layout(result, inverse(perm))`."""
    return _trans_layout(layout, tuple(perm))


@by_identity
def _trans_layout(layout: Attribute, perm: tuple[int, ...]) -> Attribute | None:
    if not _one_cta(layout) or sorted(perm) != list(range(len(layout.order))):  # type: ignore[union-attr]
        return None
    return infer.trans_encoding(layout, perm)


def inverse(perm: Sequence[int]) -> list[int]:
    return [list(perm).index(i) for i in range(len(perm))]


@by_identity
def join_layout(layout: Attribute) -> Attribute | None:
    """`tt.join`'s result: a new, most-minor dim of 2 elements in each thread's registers."""
    return infer.join_encoding(layout) if _one_cta(layout) else None


@by_identity
def split_layout(layout: Attribute) -> Attribute | None:
    """`tt.split`'s results: the last dim (2 elements in each thread, no lane or warp on it) dropped."""
    if not _one_cta(layout):
        return None
    out = infer.split_encoding(layout)
    return None if isinstance(out, str) else out


def join_operand(result_layout: Attribute) -> Attribute | None:
    """The operands' layout of a `tt.join` yielding `result_layout` (split is join's inverse)."""
    src = split_layout(result_layout)
    return src if src is not None and join_layout(src) == result_layout else None


def split_operand(result_layout: Attribute) -> Attribute | None:
    src = join_layout(result_layout)
    return src if src is not None and split_layout(src) == result_layout else None


# ------------------------------------------------------------ reshape


def reshape_linear(ll: LinearLayout, shape: Sequence[int]) -> LinearLayout:
    """`ll` on a tensor reshaped to `shape`: each element keeps its row-major index (with
    power-of-two sizes, flattening concatenates coordinate bits, so it is linear)."""
    def move(b: tuple[int, ...]) -> tuple[int, ...]:
        flat = 0
        for c, s in zip(b, ll.shape):
            flat = flat * s + c
        out = []
        for s in reversed(shape):
            out.append(flat % s)
            flat //= s
        return tuple(reversed(out))

    return LinearLayout(tuple(shape), **{d: tuple(move(b) for b in ll.bases(d)) for d in IN_DIMS})


def _blocked_sizes(ll: LinearLayout, order: Sequence[int]) -> dict[str, list[int]] | None:
    """sizePerThread/threadsPerWarp/warpsPerCTA a blocked layout of `order` would need to
    have `ll`'s bases (registers past the tile, the wrap-around, are left to the check)."""
    cover = [1] * ll.rank  # elements of each dim the tile spans so far
    sizes: dict[str, list[int]] = {}
    for level in ("register", "lane", "warp"):
        size, at = [1] * ll.rank, 0
        for b in ll.bases(level):
            nz = [d for d, c in enumerate(b) if c]
            if not nz:  # a replica: the tile runs past the shape along a dim already covered
                spare = [j for j in range(at, ll.rank) if cover[order[j]] >= ll.shape[order[j]]]
                if not spare:
                    return None
                at, d = spare[0], order[spare[0]]
            elif len(nz) == 1 and b[nz[0]] == cover[nz[0]] and order.index(nz[0]) >= at:
                d = nz[0]
                at = order.index(d)
            elif level == "register":
                break  # the wrap-around starts
            else:
                return None
            size[d] *= 2
            cover[d] *= 2
        sizes[level] = size
    return sizes


def blocked_from_linear(ll: LinearLayout, prefer: Sequence[int] | None = None) -> ttg.BlockedEncodingAttr | None:
    """A blocked layout (one CTA) whose linear layout on `ll.shape` is `ll`, or None.
    Orders are tried `prefer` first; the answer is checked against `to_linear`."""
    if ll.block:
        return None
    orders = list(permutations(range(ll.rank)))
    if prefer is not None and tuple(prefer) in orders:
        orders.remove(tuple(prefer))
        orders.insert(0, tuple(prefer))
    for order in orders:
        sizes = _blocked_sizes(ll, order)
        if sizes is None:
            continue
        cand = ttg.BlockedEncodingAttr.make(
            sizePerThread=sizes["register"], threadsPerWarp=sizes["lane"], warpsPerCTA=sizes["warp"], order=list(order)
        )
        try:
            if linear_of(cand, ll.shape) == ll:
                return cand
        except (LayoutError, ValueError):
            continue
    return None


def _merged_order(layout: Attribute, src: Sequence[int], dst: Sequence[int]) -> list[int] | None:
    """The result order a blocked operand suggests: dims major-to-minor as the operand's."""
    if not isinstance(layout, ttg.BlockedEncodingAttr):
        return None
    if list(layout.order) == list(range(len(src)))[::-1]:
        return list(range(len(dst)))[::-1]
    return None


def reshape_layout(layout: Attribute, src: Sequence[int], dst: Sequence[int], allow_reorder: bool = False,
                   forward: bool = True) -> Attribute | None:
    """The result layout of `tt.reshape` from a `src`-shaped operand in `layout` to `dst`
    (`forward=False`: the operand's layout for a result in `layout`, `src` the result's shape).

    triton-xpu 3.3's verifier (ReshapeOp::verify) compares the result's map with the one it infers
    *exactly* (`encodings.triton_linear`: replicated registers included), not by placement: the
    answer's exact map is the other side's reshaped. A blocked operand may be answered by triton's
    legacy (blocked) inference instead, which agrees with ours only where no register is a replica:
    then both sides must have none. Forward, with no blocked layout that fits, the answer is the
    `#ttg.linear` triton itself infers; backward, only a blocked operand (or None)."""
    if allow_reorder:
        return None
    return _reshape_layout(layout, tuple(src), tuple(dst), forward)


@by_identity
def _reshape_layout(layout: Attribute, src: tuple[int, ...], dst: tuple[int, ...], forward: bool) -> Attribute | None:
    if list(src) == list(dst):
        return layout
    try:
        exact = triton_linear(layout, src)
        want = reshape_linear(exact, dst)
        found = blocked_from_linear(reshape_linear(linear_of(layout, src), dst), _merged_order(layout, src, dst))
    except (LayoutError, ValueError):
        return None
    operand, result = (layout, found) if forward else (found, layout)
    if found is not None and triton_linear(found, dst) == want and (
            not isinstance(operand, ttg.BlockedEncodingAttr)
            or (exact == linear_of(layout, src) and want == linear_of(found, dst))):
        return found
    if forward and not isinstance(layout, ttg.BlockedEncodingAttr):
        return _linear_attr(want)  # (a blocked operand may have a legacy answer of its own: left alone)
    return None


@by_identity
def _linear_attr(ll: LinearLayout) -> Attribute:
    return from_linear(ll)


def reshape_expected(src_layout: Attribute, src: Sequence[int], result_layout: Attribute,
                     dst: Sequence[int]) -> Attribute | None:
    """The result layout triton-xpu 3.3's verifier expects of a `tt.reshape` (no reorder) where the
    algebra proves it rejects `result_layout`, else None. Only for a non-blocked operand: triton
    infers through linear layouts then, and prints the `#ttg.linear` it expects. For a blocked one
    it may answer with its legacy (blocked) inference, which we do not model: not checked."""
    if isinstance(src_layout, ttg.BlockedEncodingAttr):
        return None
    try:
        want = reshape_linear(triton_linear(src_layout, src), dst)
        return None if triton_linear(result_layout, dst) == want else _linear_attr(want)
    except (LayoutError, ValueError):
        return None
