"""Layout attributes -> linear layouts, following triton-xpu 3.3's conversions.

Blocked/slice/dot_op(blocked parent), and NVIDIA's Ampere MMA (`#ttg.nvidia_mma`
version 2, kept as another backend's layout: `modelled_foreign`) and its dot operands, follow
upstream Triton's `LinearLayoutConversions.cpp`; DPAS, dot_op(DPAS parent) and subgroup_2d_block
follow Intel's `DPAStoLinearLayout` / `subgroup2DBlockToLinearLayout`. Every
layout is built for one CTA tile and then fitted to the tensor shape with
Triton's rules (`linear.with_shape`): registers wrap around when the tensor is
larger than the tile; lanes/warps hold replicas when it is smaller.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import cast

from xdsl.ir import Attribute

from xpu_passes.dialects import ttg, ttig
from xpu_passes.dialects.ttg import foreign_int
from xpu_passes.dialects.struct_attr import StructAttr
from xpu_passes.layouts.linear import LinearLayout, identity1d, product, with_shape, zeros1d


class LayoutError(ValueError):
    """A layout we cannot turn into a linear layout (unknown kind or unsupported parameters)."""


def to_linear(layout: Attribute, shape: Sequence[int]) -> LinearLayout:
    """The (register, lane, warp) -> coordinates map of `layout` on a tensor of `shape`
    (registers that would hold replicas past the shape are not counted: placement)."""
    return _to_linear(layout, shape, False)


def triton_linear(layout: Attribute, shape: Sequence[int]) -> LinearLayout:
    """triton-xpu 3.3's toLinearLayout exactly: registers past the shape kept as 0 bases
    (combineCtaCgaWithShape broadcasts them). Its verifiers (verifyLayoutsAreEqual,
    isCompatibleReturnTypes) compare these maps: same placement is not enough."""
    return _to_linear(layout, shape, True)


def _to_linear(layout: Attribute, shape: Sequence[int], exact: bool) -> LinearLayout:
    shape = tuple(int(s) for s in shape)
    if any(s < 1 or s & (s - 1) for s in shape):
        raise LayoutError(f"shape {shape} is not made of powers of two")
    if isinstance(layout, ttg.BlockedEncodingAttr):
        return _blocked(layout, shape, exact)
    if isinstance(layout, ttg.SliceEncodingAttr):
        return _slice(layout, shape)  # (triton drops the slice's zero registers either way)
    if isinstance(layout, ttig.DpasEncodingAttr):
        return _dpas(layout, shape, 2, exact)
    if isinstance(layout, ttg.DotOperandEncodingAttr):
        parent = layout.parent
        if layout.op_idx not in (0, 1):
            raise LayoutError(f"#ttg.dot_op opIdx must be 0 or 1, not {layout.op_idx}")
        if isinstance(parent, ttig.DpasEncodingAttr):
            return _dpas(parent, shape, layout.op_idx, exact)
        if isinstance(parent, ttg.BlockedEncodingAttr):
            return _fma_dot(layout, parent, shape, exact)
        if modelled_foreign(parent):
            return _ampere_dot(layout, parent, shape, exact)
        raise LayoutError(f"#ttg.dot_op with parent {_kind(parent)} is not supported")
    if isinstance(layout, ttig.Subgroup2DBlockEncodingAttr):
        return _subgroup_2d_block(layout, shape, exact)
    if isinstance(layout, ttg.LinearEncodingAttr):
        return _linear(layout, shape)
    if modelled_foreign(layout):
        return _ampere(layout, shape, exact)
    raise LayoutError(f"no linear layout for {_kind(layout)}")


def _kind(layout: Attribute) -> str:
    return f"#{getattr(layout, 'name', type(layout).__name__)}"


def _check_rank(layout: Attribute, rank: int, shape: tuple[int, ...]) -> None:
    if rank != len(shape):
        raise LayoutError(f"{_kind(layout)} has rank {rank} but the tensor {shape} has rank {len(shape)}")


def _single_cta(layout: StructAttr) -> None:
    """We model one CTA (the `block` input dim stays empty), as PVC runs them."""
    keys = {f.key for f in layout.FIELDS}
    for key in ("CTAsPerCGA", "CTASplitNum"):
        v = cast("tuple[int, ...] | None", layout.get(key) if key in keys else None)
        if v is not None and any(x != 1 for x in v):
            raise LayoutError(f"{_kind(layout)} with {key} = {list(v)} (more than one CTA) is not supported")


def identity_nd(in_dim: str, sizes: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """`in_dim` walks the dims fastest-first in `order` (Triton's identityStandardND)."""
    rank = len(sizes)
    return product((identity1d(sizes[d], in_dim, d, rank) for d in order), rank)


def _blocked(layout: ttg.BlockedEncodingAttr, shape: tuple[int, ...], exact: bool = False) -> LinearLayout:
    _check_rank(layout, len(layout.order), shape)
    _single_cta(layout)
    tile = _blocked_tile(*(tuple(v) for v in (layout.size_per_thread, layout.threads_per_warp,
                                              layout.warps_per_cta, layout.order)))
    return with_shape(tile, shape, exact)


@functools.lru_cache(maxsize=1024)  # a layout's tile, whatever the shape (LinearLayout is immutable)
def _blocked_tile(size: tuple[int, ...], threads: tuple[int, ...], warps: tuple[int, ...],
                  order: tuple[int, ...]) -> LinearLayout:
    return identity_nd("register", size, order) * identity_nd("lane", threads, order) * identity_nd("warp", warps, order)


def _slice(layout: ttg.SliceEncodingAttr, shape: tuple[int, ...]) -> LinearLayout:
    """The parent on the shape with a 1 inserted at `dim`, with that dim projected away."""
    dim = layout.dim
    if not 0 <= dim <= len(shape):
        raise LayoutError(f"#ttg.slice dim {dim} is out of range for a rank-{len(shape)} tensor")
    parent = to_linear(layout.parent, shape[:dim] + (1,) + shape[dim:])

    def drop(b: tuple[int, ...]) -> tuple[int, ...]:
        return b[:dim] + b[dim + 1 :]

    # Registers that became replicas of each other are not kept (Triton drops all-zero ones).
    regs = tuple(drop(b) for b in parent.register if any(drop(b)))
    order = tuple(d - (d > dim) for d in parent.dims_order() if d != dim)
    return LinearLayout(
        shape,
        register=regs,
        lane=tuple(drop(b) for b in parent.lane),
        warp=tuple(drop(b) for b in parent.warp),
        block=tuple(drop(b) for b in parent.block),
        out_order=order,
    )


def _bases2(rank: int, pairs: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    """2D (row, col) bases placed on the last two of `rank` dims."""
    return tuple((0,) * (rank - 2) + p for p in pairs)


def dpas_repetitions(dpas: ttig.DpasEncodingAttr, shape: Sequence[int], op_idx: int) -> tuple[int, int, int]:
    """Intel's getDPASRepetitions: (batch, rows, cols) repeats of the per-warp tile."""
    rank = len(shape)
    warps = dpas.warps_per_cta
    rc = dpas.rep_cluster
    k = dpas.systolic_depth * dpas.ops_per_chan
    m = dpas.repeat_count * rc[rank - 2]
    n = dpas.execution_size * rc[rank - 1]
    batch = max(1, shape[0] // warps[0]) if rank == 3 else 1
    if op_idx == 0:
        return batch, max(1, shape[rank - 2] // (m * warps[rank - 2])), max(1, shape[rank - 1] // k)
    if op_idx == 1:
        return batch, max(1, shape[rank - 2] // k), max(1, shape[rank - 1] // (n * warps[rank - 1]))
    return batch, max(1, shape[rank - 2] // (m * warps[rank - 2])), max(1, shape[rank - 1] // (n * warps[rank - 1]))


def _dpas(dpas: ttig.DpasEncodingAttr, shape: tuple[int, ...], op_idx: int, exact: bool = False) -> LinearLayout:
    """Intel's DPAStoLinearLayout for operand A (0), B (1) or the accumulator C (2)."""
    rank = len(shape)
    if rank not in (2, 3):
        raise LayoutError(f"#ttig.dpas supports rank 2 or 3, not {rank}")
    _check_rank(dpas, len(dpas.warps_per_cta), shape)
    tpw, opc = dpas.threads_per_warp, dpas.ops_per_chan
    depth, repeat, exec_size = dpas.systolic_depth, dpas.repeat_count, dpas.execution_size
    warps, rc = dpas.warps_per_cta, dpas.rep_cluster
    if opc not in (1, 2, 4) or tpw % exec_size or tpw < exec_size:
        raise LayoutError(f"#ttig.dpas with opsPerChan {opc}, threadsPerWarp {tpw}, executionSize {exec_size}")
    row, col = rank - 2, rank - 1
    regs: list[tuple[int, int]] = []
    lanes: list[tuple[int, int]] = []
    if op_idx == 0:
        packed = 2 if opc == 4 else 1  # 8-bit values travel in pairs
        cols = depth * opc // packed
        rows_per_warp = -(-tpw // cols)
        regs += [(0, o) for o in _pow2(1, packed)]
        regs += [(w * rows_per_warp, 0) for w in _pow2(1, repeat // rows_per_warp)]
        lanes += [(0, packed * t) for t in _pow2(1, cols)]
        lanes += [(t // cols, 0) for t in _pow2(cols, tpw)]
        k_dim, non_k = col, row
    elif op_idx == 1:
        rows_per_warp = tpw // exec_size
        regs += [(o, 0) for o in _pow2(1, opc)]
        regs += [(r * opc, 0) for r in _pow2(rows_per_warp, depth)]
        lanes += [(0, t) for t in _pow2(1, exec_size)]
        lanes += [(r * opc, 0) for r in _pow2(1, rows_per_warp)]
        k_dim, non_k = row, col
    else:
        rows_per_warp = tpw // exec_size
        regs += [(r, 0) for r in _pow2(rows_per_warp, repeat)]
        lanes += [(0, t) for t in _pow2(1, exec_size)]
        lanes += [(r, 0) for r in _pow2(1, rows_per_warp)]
        k_dim, non_k = col, row  # for C: "k" is N (it repeats first), as Intel names it
    tile = LinearLayout(
        (1,) * (rank - 2) + _extent(regs + lanes),
        register=_bases2(rank, regs),
        lane=_bases2(rank, lanes),
        out_order=(row, col),
    )
    parts: list[LinearLayout] = [tile]
    if op_idx == 0:
        parts += [
            identity1d(rc[non_k], "register", non_k, rank),
            zeros1d(warps[k_dim], "warp", k_dim, rank),  # warps share K
            identity1d(warps[non_k], "warp", non_k, rank),
        ]
    elif op_idx == 1:
        parts += [
            identity1d(rc[non_k], "register", non_k, rank),
            identity1d(warps[non_k], "warp", non_k, rank),
            zeros1d(warps[k_dim], "warp", k_dim, rank),
        ]
    else:
        parts += [
            identity1d(rc[k_dim], "register", k_dim, rank),
            identity1d(rc[non_k], "register", non_k, rank),
            identity1d(warps[k_dim], "warp", k_dim, rank),
            identity1d(warps[non_k], "warp", non_k, rank),
        ]
    if rank == 3:
        parts.append(identity1d(warps[0], "warp", 0, rank))
    reps = dpas_repetitions(dpas, shape, op_idx)
    rep_of = {row: reps[1], col: reps[2]}
    parts += [identity1d(rep_of[k_dim], "register", k_dim, rank), identity1d(rep_of[non_k], "register", non_k, rank)]
    if rank == 3:
        parts.append(identity1d(reps[0], "register", 0, rank))
    return with_shape(product(parts, rank), shape, exact)


def _pow2(start: int, stop: int) -> list[int]:
    """start, 2*start, 4*start, ... below stop."""
    out, v = [], start
    while v < stop:
        out.append(v)
        v *= 2
    return out


def _extent(pairs: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The smallest power-of-two (rows, cols) box holding every basis."""
    r = max([p[0] for p in pairs] + [0])
    c = max([p[1] for p in pairs] + [0])
    return (1 << r.bit_length()) if r else 1, (1 << c.bit_length()) if c else 1


def _fma_dot(layout: ttg.DotOperandEncodingAttr, parent: ttg.BlockedEncodingAttr, shape: tuple[int, ...],
             exact: bool = False) -> LinearLayout:
    """Upstream fmaDotToLinearLayout: each thread holds the whole K extent; lanes/warps
    along K hold replicas."""
    rank = len(shape)
    _check_rank(parent, len(parent.order), shape)
    _single_cta(parent)
    order = parent.order
    k = rank - 1 if layout.op_idx == 0 else rank - 2
    size = list(parent.size_per_thread)
    size[k] = shape[k]

    def broadcast(in_dim: str, sizes: Sequence[int]) -> LinearLayout:
        return product(
            (zeros1d(sizes[d], in_dim, d, rank) if d == k else identity1d(sizes[d], in_dim, d, rank) for d in order),
            rank,
        )

    tile = identity_nd("register", size, order) * broadcast("lane", parent.threads_per_warp)
    tile = tile * broadcast("warp", parent.warps_per_cta)
    return with_shape(tile, shape, exact)


def _subgroup_2d_block(layout: ttig.Subgroup2DBlockEncodingAttr, shape: tuple[int, ...],
                       exact: bool = False) -> LinearLayout:
    """Intel's subgroup2DBlockToLinearLayout: an h x w block read per warp, `numBlocks`
    side by side along dim 1, warps row-major with those along the order's inner dim
    holding replicas.

    A 2D block read hands the block out row-major, in runs of `ceil(w / threadsPerWarp)`
    adjacent elements per lane: a block wider than the sub-group packs neighbouring
    columns into each lane's registers first (8-bit A: 2 bytes a lane, as the DPAS A
    operand holds them); a narrower one wraps its rows onto the remaining lanes (32-bit
    A, w = 8: lane 8 holds row 1). kWidth does not enter: Intel's map depends on the
    read alone (its unit tests pass kWidth 1, 2 and 4; the bases follow the width).
    """
    rank = len(shape)
    if rank != 2:
        raise LayoutError(f"#ttig.subgroup_2d_block supports rank 2, not {rank}")
    _check_rank(layout, len(layout.warps_per_cta), shape)
    _single_cta(layout)
    instr = layout.instr_shape
    tpw, blocks = layout.threads_per_warp, layout.num_blocks
    if len(instr) != 2 or sorted(layout.order) != [0, 1]:
        raise LayoutError(f"#ttig.subgroup_2d_block with instrShape {list(instr)} and order {list(layout.order)}")
    h, w = instr
    if not all(_is_pow2(v) for v in (h, w, tpw, blocks, *layout.warps_per_cta)):
        raise LayoutError(
            f"{_kind(layout)}: instrShape, numBlocks, threadsPerWarp and warpsPerCTA must be powers of two"
        )
    if h * w < tpw:  # some lanes would get nothing from the read
        raise LayoutError(f"#ttig.subgroup_2d_block with a {h}x{w} block smaller than its {tpw}-lane sub-group")
    per_lane = max(1, w // tpw)  # adjacent columns one lane holds
    col_lanes = w // per_lane  # lanes across one row
    rows_per_warp = tpw // col_lanes  # rows one pass of the sub-group covers
    tile = LinearLayout(
        (h, w),
        register=tuple((0, c) for c in _pow2(1, per_lane)) + tuple((r, 0) for r in _pow2(rows_per_warp, h)),
        lane=tuple((0, c) for c in _pow2(per_lane, w)) + tuple((r, 0) for r in _pow2(1, rows_per_warp)),
    )
    tile = tile * identity1d(blocks, "register", 1, rank)
    warps = layout.warps_per_cta
    inner = layout.order[0]
    warp_order = (1, 0)  # row-major, as Intel's getMatrixOrder(rank, rowMajor=true)
    tile = tile * product(
        (zeros1d(warps[d], "warp", d, rank) if d == inner else identity1d(warps[d], "warp", d, rank) for d in warp_order),
        rank,
    )
    return with_shape(tile, shape, exact)


def modelled_foreign(layout: Attribute) -> bool:
    """Another backend's layout this algebra maps (Intel's lit tests hold it): NVIDIA's Ampere MMA."""
    return (getattr(layout, "name", "") == "ttg.nvidia_mma" and foreign_int(layout, "versionMajor") == 2
            and foreign_int(layout, "versionMinor") in (0, None) and "CTAsPerCGA" not in layout.body.data)  # type: ignore


def _warps(layout: Attribute, rank: int) -> tuple[int, ...]:
    m = re.search(r"\bwarpsPerCTA\s*=\s*\[([\d\s,]*)\]", layout.body.data)  # type: ignore[attr-defined]
    warps = tuple(int(x) for x in m.group(1).split(",")) if m else ()
    if len(warps) != rank or rank != 2:
        raise LayoutError(f"#ttg.nvidia_mma of rank {len(warps)} on a tensor of rank {rank}: rank 2 only")
    return warps


def _mma_tile(inner: int, m: int, n: int, k_width: int) -> LinearLayout:
    """Triton's nvidiaMmaTile (rank 2): `k_width` registers and 4 lanes along the `inner` dim, 8 lanes
    along the other (`m` long), then registers along it, then along `inner` (`n` long)."""
    outer = 1 - inner
    return (identity1d(k_width, "register", inner, 2) * identity1d(4, "lane", inner, 2)
            * identity1d(8, "lane", outer, 2) * identity1d(m // 8, "register", outer, 2)
            * identity1d(n // (k_width * 4), "register", inner, 2))


def _ampere(layout: Attribute, shape: tuple[int, ...], exact: bool) -> LinearLayout:
    """nvidiaMmaToLinearLayout for version 2: 16x8 tiles, warps row-major."""
    warps = _warps(layout, len(shape))
    return with_shape(_mma_tile(1, 16, 8, 2) * identity_nd("warp", warps, (1, 0)), shape, exact)


def _ampere_dot(layout: ttg.DotOperandEncodingAttr, parent: Attribute, shape: tuple[int, ...],
                exact: bool) -> LinearLayout:
    """nvidiaDotToLinearLayout for version 2: A 16 x 8*kWidth tiles, B 8*kWidth x 8, K the inner
    dim; warps along K hold replicas."""
    warps, kw = _warps(parent, len(shape)), layout.k_width
    k = 1 if layout.op_idx == 0 else 0
    tile = _mma_tile(1, 16, 8 * kw, kw) if k == 1 else _mma_tile(0, 8, 8 * kw, kw)
    warp = product((zeros1d(warps[d], "warp", d, 2) if d == k else identity1d(warps[d], "warp", d, 2)
                    for d in (1, 0)), 2)
    return with_shape(tile * warp, shape, exact)


def _is_pow2(v: int) -> bool:
    return v >= 1 and not v & (v - 1)


def _linear(layout: ttg.LinearEncodingAttr, shape: tuple[int, ...]) -> LinearLayout:
    """`#ttg.linear` spells its bases out; the shape is the one they span."""
    bases = {d: layout.bases(d) for d in ("register", "lane", "warp", "block")}
    for d, bs in bases.items():
        for b in bs:
            if len(b) != len(shape):
                raise LayoutError(f"#ttg.linear {d} basis {list(b)} has rank {len(b)}, tensor {shape}")
    # Out-dim sizes as Triton infers them: the power of two above the largest basis entry;
    # then fitted to the tensor like every other layout.
    span = tuple(max([b[i] for bs in bases.values() for b in bs] + [0]) for i in range(len(shape)))
    extent = tuple((1 << v.bit_length()) if v else 1 for v in span)
    try:
        ll = LinearLayout(extent, **{d: tuple(tuple(b) for b in bs) for d, bs in bases.items()})
        return with_shape(ll, shape)
    except ValueError as e:
        raise LayoutError(f"#ttg.linear: {e}") from e


def from_linear(ll: LinearLayout) -> ttg.LinearEncodingAttr:
    """The `#ttg.linear` attribute spelling `ll` out."""
    return ttg.LinearEncodingAttr.make(
        register=[list(b) for b in ll.register],
        lane=[list(b) for b in ll.lane],
        warp=[list(b) for b in ll.warp],
        block=[list(b) for b in ll.block],
    )


def elems_per_thread(layout: Attribute, shape: Sequence[int]) -> int:
    """Values each thread holds (replicated registers included, as Triton counts them)."""
    return to_linear(layout, shape).num("register")


def same_placement(a: Attribute, b: Attribute, shape: Sequence[int]) -> bool:
    """Both layouts put every element of a `shape` tensor on the same (register, lane, warp)."""
    return to_linear(a, shape) == to_linear(b, shape)


__all__ = ["LayoutError", "elems_per_thread", "from_linear", "same_placement", "to_linear", "triton_linear"]
