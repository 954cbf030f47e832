"""SLM scratch of `ttg.convert_layout`, as triton-xpu 3.3's allocation computes it.

Rule (upstream `Allocation.cpp` of that generation, which the Intel backend runs):

1. No scratch when the conversion needs no SLM: the two layouts agree up to a
   permutation of each thread's registers, or the conversion stays inside each
   warp (triton-xpu does those with sub-group shuffles, e.g. DPAS -> dot_op A in
   flash attention).
2. Otherwise a "rep shape": per dim, max(min(shape, tile of src), min(shape, tile of dst))
   where a layout's tile is its per-CTA footprint (size x threads x warps per dim).
3. Padding against bank conflicts: the dim that is fastest in the destination's
   order (outOrd[0]) grows by max(inVec, outVec), where the vectors are the
   contiguous elements per thread along that dim when it is the innermost tensor
   dim (else 1), at most 128 bits and at most that dim of the rep shape. No
   padding for 1-D tensors or when only that dim is > 1.
4. Bytes = elements x max(1, bits / 8); pointers count 8 bytes.

Orders and contiguity come from the linear layouts: a layout's order lists dims by
their first appearance in its register bases (then the remaining dims, last first).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import by_identity, linear_of
from xpu_passes.layouts.linear import LinearLayout, mixed_transpositions, reorders_registers


_SHARED = (ttg.SwizzledSharedEncodingAttr, ttg.SharedEncodingAttr)


def layout_order(ll: LinearLayout) -> list[int]:
    """Triton's order of a linear layout: dims as registers first walk them (fastest first)."""
    order: list[int] = []
    for b in ll.register:
        for d, c in enumerate(b):
            if c and d not in order:
                order.append(d)
                break
    return order + [d for d in reversed(range(ll.rank)) if d not in order]


def contig_per_thread(ll: LinearLayout) -> list[int]:
    """Per dim, how many consecutive elements a thread holds in its first registers."""
    contig = [1] * ll.rank
    regs = list(ll.register)
    i = 0
    for d in layout_order(ll):
        step = 1
        while i < len(regs) and regs[i] == tuple(step if k == d else 0 for k in range(ll.rank)):
            contig[d] *= 2
            step *= 2
            i += 1
    return contig


def tile_shape(layout: Attribute, shape: Sequence[int]) -> list[int]:
    """Triton's getShapePerCTATile: the footprint of one repetition of the layout."""
    rank = len(shape)
    if isinstance(layout, ttg.BlockedEncodingAttr):
        return [a * b * c for a, b, c in zip(layout.size_per_thread, layout.threads_per_warp, layout.warps_per_cta)]
    if isinstance(layout, ttig.DpasEncodingAttr):
        w, rc = layout.warps_per_cta, layout.rep_cluster
        out = [layout.repeat_count * rc[rank - 2] * w[rank - 2], layout.execution_size * rc[rank - 1] * w[rank - 1]]
        return ([w[0]] if rank == 3 else []) + out
    if isinstance(layout, ttg.SliceEncodingAttr):
        parent_shape = list(shape[: layout.dim]) + [1] + list(shape[layout.dim :])
        parent = tile_shape(layout.parent, parent_shape)
        return parent[: layout.dim] + parent[layout.dim + 1 :]
    if isinstance(layout, ttg.DotOperandEncodingAttr) and isinstance(layout.parent, ttig.DpasEncodingAttr):
        d = layout.parent
        w, rc = d.warps_per_cta, d.rep_cluster
        k = d.systolic_depth * d.ops_per_chan
        batch = [w[0]] if rank == 3 else []
        if layout.op_idx == 0:
            return batch + [d.repeat_count * rc[rank - 2] * w[rank - 2], k]
        # Measured on triton-xpu 3.3: B's tile counts repCluster[1] twice.
        return batch + [k, d.execution_size * rc[rank - 1] * rc[rank - 1] * w[rank - 1]]
    if isinstance(layout, ttg.DotOperandEncodingAttr) and isinstance(layout.parent, ttg.BlockedEncodingAttr):
        parent = tile_shape(layout.parent, shape)
        k = rank - 1 if layout.op_idx == 0 else rank - 2
        parent[k] = shape[k]
        return parent
    return linear_tile(linear_of(layout, shape))


def linear_tile(ll: LinearLayout) -> list[int]:
    """LinearEncodingAttr's tile: size x threads x warps per dim, where the size per
    thread leaves out the trailing registers that only repeat the tile (each doubling a
    dim up to the tensor's extent)."""
    rank = ll.rank
    shape = list(ll.shape)
    regs = list(ll.register)
    seen: list[int] = []
    while regs:
        b = regs[-1]
        nz = [d for d, c in enumerate(b) if c]
        if not nz:
            break
        d = nz[0]
        if d not in seen:
            seen.append(d)
        if d != seen[-1] or 2 * b[d] != shape[d]:
            break
        shape[d] //= 2
        regs.pop()
    tile = [1] * rank
    for bases in (regs, list(ll.lane), list(ll.warp)):
        for b in bases:
            nz = [d for d, c in enumerate(b) if c]
            if nz:
                tile[nz[0]] *= 2
    return tile


def needs_slm(src: Attribute, dst: Attribute, shape: Sequence[int]) -> bool:
    """Whether triton-xpu routes a conversion between these layouts through SLM."""
    return _needs_slm(src, dst, tuple(shape))


@by_identity  # layouts by identity: hashing one (a tree of attributes) costs more than the answer's lookup
def _needs_slm(src: Attribute, dst: Attribute, shape: tuple[int, ...]) -> bool:
    a, b = linear_of(src, shape), linear_of(dst, shape)
    if dpas_to_dot_shortcut(src, dst):
        return False
    if a == b or reorders_registers(a, b):
        return False  # the same data in every thread: registers are only renamed
    if mixed_transpositions(a, b) == 1:
        return False  # one register<->lane swap inside each warp: a sub-group shuffle
    return True


def rep_shape(src: Attribute, dst: Attribute, shape: Sequence[int]) -> list[int]:
    s, d = tile_shape(src, shape), tile_shape(dst, shape)
    return [max(min(n, a), min(n, b)) for n, a, b in zip(shape, s, d)]


def padded_rep_shape(src: Attribute, dst: Attribute, shape: Sequence[int], bits: int = 32) -> list[int]:
    """The scratch tile in elements (rep shape plus padding), [] when no SLM is needed."""
    if not needs_slm(src, dst, shape):
        return []
    rep = rep_shape(src, dst, shape)
    rank = len(rep)
    a, b = linear_of(src, shape), linear_of(dst, shape)
    in_ord, out_ord = layout_order(a), layout_order(b)
    inner = rank - 1
    # Vectors are at most 128 bits and no longer than the scratch tile's fastest dim.
    cap = min(max(1, 128 // bits), rep[out_ord[0]])
    in_vec = contig_per_thread(a)[in_ord[0]] if out_ord[0] == inner and in_ord[0] == inner else 1
    out_vec = contig_per_thread(b)[out_ord[0]] if out_ord[0] == inner else 1
    in_vec, out_vec = min(in_vec, cap), min(out_vec, cap)
    n = 1
    for r in rep:
        n *= r
    if rank <= 1 or n == rep[out_ord[0]]:
        return rep
    rep[out_ord[0]] += max(in_vec, out_vec)
    return rep


def element_bits(t: Attribute) -> int:
    """Bit width of a tensor element as Triton counts it (pointers are 64 bits)."""
    if isinstance(t, tt.PointerType):
        return 64
    width = getattr(t, "bitwidth", None)
    if width is None:
        width = getattr(t, "width", None)
        width = width.data if width is not None else None
    if width is None:
        raise LayoutError(f"no bit width for element type {t}")
    return int(width)


def element_bytes(t: Attribute) -> int:
    """Bytes per scratch element: sub-byte types take a byte, pointers 8."""
    return max(8, element_bits(t)) // 8


def dpas_size_per_thread(dpas: ttig.DpasEncodingAttr) -> list[int]:
    """Intel's legacy DpasEncodingAttr::getSizePerThread."""
    rank = len(dpas.warps_per_cta)
    rc = dpas.rep_cluster
    per_lane = dpas.repeat_count * dpas.execution_size // dpas.threads_per_warp
    out = [1] * rank
    if rank == 3:
        out[0] = rc[0]
    out[rank - 2] = per_lane * rc[rank - 2]
    out[rank - 1] = rc[rank - 1]
    return out


def default_blocked(
    shape: Sequence[int], size_per_thread: Sequence[int], order: Sequence[int], num_warps: int, threads: int
) -> ttg.BlockedEncodingAttr:
    """Triton's BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, threadsPerWarp):
    lanes then warps go to the fastest dims first; the slowest dim takes the rest."""
    rank = len(shape)
    tpw, wpc = [1] * rank, [1] * rank
    lanes, warps, total = threads, num_warps, threads * num_warps
    used_lanes = used_warps = 1
    for i in order[: rank - 1]:
        per_cta = min(max(total, 1), max(1, shape[i] // size_per_thread[i]))
        tpw[i] = min(max(per_cta, 1), lanes)
        wpc[i] = min(max(per_cta // tpw[i], 1), warps)
        warps //= wpc[i]
        lanes //= tpw[i]
        total //= per_cta
        used_lanes *= tpw[i]
        used_warps *= wpc[i]
    tpw[order[rank - 1]] = threads // used_lanes
    wpc[order[rank - 1]] = num_warps // used_warps
    return ttg.BlockedEncodingAttr.make(
        sizePerThread=list(size_per_thread), threadsPerWarp=tpw, warpsPerCTA=wpc, order=list(order)
    )


def dpas_to_dot_shortcut(src: Attribute, dst: Attribute) -> bool:
    """Intel's isDpasToDotShortcut (3.3): DPAS to its own A operand on PVC half precision
    with one warp along N needs no data movement."""
    if not (isinstance(src, ttig.DpasEncodingAttr) and isinstance(dst, ttg.DotOperandEncodingAttr)):
        return False
    return (
        dst.parent == src
        and dst.op_idx == 0
        and src.execution_size == 16
        and src.systolic_depth == 8
        and src.ops_per_chan == 2
        and src.warps_per_cta[-1] == 1
    )


def _cvt_scratch(src: Attribute, dst: Attribute, shape: Sequence[int], bits: int) -> int:
    rep = padded_rep_shape(src, dst, shape, bits)
    nbytes = max(8, bits) // 8
    n = 1
    for r in rep:
        n *= r
    return n * nbytes if rep else 0


@by_identity  # (see _needs_slm)
def convert_scratch_bytes(src: TensorType, dst: TensorType) -> int:
    """SLM bytes triton-xpu 3.3 allocates for `ttg.convert_layout` from `src` to `dst`.

    Before allocating, triton-xpu decomposes conversions to a dot operand: blocked ->
    dot_op that needs SLM goes through a shared buffer of the whole tensor (unpadded);
    DPAS -> dot_op (unless the shortcut applies) first converts to a blocked layout,
    then on as blocked -> dot_op. The pieces never live at once, so the largest counts.
    """
    shape = src.get_shape()
    if dst.get_shape() != shape:
        raise LayoutError(f"convert_layout between shapes {shape} and {dst.get_shape()}")
    s, d = src.encoding, dst.encoding
    if isinstance(s, _SHARED) or isinstance(d, _SHARED):
        return 0  # to/from shared memory: the buffer is the memdesc's, not scratch
    bits = element_bits(src.element_type)
    whole = bits  # the shared buffer: the whole tensor, bytes = bits / 8 (as local_alloc counts)
    for n in shape:
        whole *= n
    whole //= 8
    if isinstance(d, ttg.DotOperandEncodingAttr):
        if isinstance(s, ttig.DpasEncodingAttr) and not dpas_to_dot_shortcut(s, d):
            warps = 1
            for w in s.warps_per_cta:
                warps *= w
            order = list(reversed(range(len(shape))))
            mid = default_blocked(shape, dpas_size_per_thread(s), order, warps, s.threads_per_warp)
            return max(_cvt_scratch(s, mid, shape, bits), whole if needs_slm(mid, d, shape) else 0)
        if isinstance(s, ttg.BlockedEncodingAttr) and needs_slm(s, d, shape):
            return whole
    return _cvt_scratch(s, d, shape, bits)


def _per_dim(ll: LinearLayout, in_dim: str) -> list[int]:
    """Triton's basesPerDim: per tensor dim, 2^(bases of `in_dim` along it); broadcasts skipped."""
    out = [1] * ll.rank
    for b in ll.bases(in_dim):
        nz = [d for d, c in enumerate(b) if c]
        if nz:
            out[nz[0]] *= 2
    return out


def _bytes_per_element(types: Sequence[Attribute]) -> int:
    """Scan/reduce scratch holds one element of every operand: ceil(bits / 8) bytes each."""
    return sum((element_bits(t.element_type) + 7) // 8 for t in types if isinstance(t, TensorType))


def reduce_scratch_bytes(srcs: Sequence[TensorType], axis: int) -> int:
    """SLM of `tt.reduce` (ReduceOpHelper of 3.3): one slot per warp along the axis holding
    unique data, for every other element of the operand; none when one warp holds the axis."""
    return _reduce_scratch_bytes(tuple(srcs), axis)


@functools.lru_cache(maxsize=4096)
def _reduce_scratch_bytes(srcs: tuple[TensorType, ...], axis: int) -> int:
    src = srcs[0]
    shape = list(src.get_shape())
    warps = _per_dim(linear_of(src.encoding, shape), "warp")[axis]
    if warps == 1:
        return 0
    shape[axis] = warps
    n = 1
    for s in shape:
        n *= s
    return n * _bytes_per_element(srcs)


def scan_scratch_bytes(srcs: Sequence[TensorType], axis: int) -> int:
    """SLM of `tt.scan` (ScanLoweringHelper of 3.3; only blocked layouts lower, others count 0):
    every warp's partial results per non-axis element and block, when several warps share the axis."""
    return _scan_scratch_bytes(tuple(srcs), axis)


@functools.lru_cache(maxsize=4096)
def _scan_scratch_bytes(srcs: tuple[TensorType, ...], axis: int) -> int:
    src = srcs[0]
    if not isinstance(src.encoding, ttg.BlockedEncodingAttr):
        return 0
    shape = list(src.get_shape())
    ll = linear_of(src.encoding, shape)
    contig, lanes, warps = contig_per_thread(ll), _per_dim(ll, "lane"), _per_dim(ll, "warp")
    if warps[axis] == 1:
        return 0
    num_warps = lanes_off_axis = elems_off_axis = blocks = 1
    for d in range(ll.rank):
        num_warps *= warps[d]
        blocks *= -(-shape[d] // (contig[d] * lanes[d] * warps[d]))
        if d != axis:
            lanes_off_axis *= lanes[d]
            elems_off_axis *= contig[d]
    return num_warps * lanes_off_axis * elems_off_axis * blocks * _bytes_per_element(srcs)


def op_scratch_bytes(op: Operation) -> int:
    """SLM scratch triton-xpu allocates for `op` (conversions, reductions, scans; else 0)."""
    if isinstance(op, ttg.ConvertLayoutOp):
        s, d = op.src.type, op.result.type
        if isinstance(s, TensorType) and isinstance(d, TensorType):
            return convert_scratch_bytes(s, d)
        return 0
    if isinstance(op, tt.ReduceOp | tt.ScanOp):
        return scan_reduce_scratch_bytes(op)
    return 0


def scan_reduce_scratch_bytes(op: tt.ReduceOp | tt.ScanOp, result_layout: Attribute | None = None) -> int:
    """Scratch of a scan/reduction, or of the same op recomputed with results in `result_layout`."""
    return _scan_reduce_bytes(isinstance(op, tt.ReduceOp), op.axis.value.data, result_layout,
                              *[o.type for o in op.operands])


@by_identity  # pure in the op's kind, axis, layout and operand types (asked per op of every slice costed)
def _scan_reduce_bytes(reduce: bool, axis: int, result_layout: Attribute | None, *srcs: Attribute) -> int:
    if not srcs or not all(isinstance(t, TensorType) and t.encoding is not None for t in srcs):
        return 0
    if result_layout is not None:
        src_layout = result_layout.parent if reduce else result_layout  # type: ignore[attr-defined]
        srcs = tuple(TensorType(t.element_type, t.get_shape(), src_layout) for t in srcs)  # type: ignore[attr-defined]
    if not 0 <= axis < len(srcs[0].get_shape()):  # type: ignore[attr-defined]
        return 0  # an axis the operand lacks (triton's verifier lets it through): nothing to size
    fn = reduce_scratch_bytes if reduce else scan_scratch_bytes
    return fn(srcs, axis)  # type: ignore[arg-type]


def module_scratch_bytes(module: Operation) -> int:
    """The largest scratch of a conversion, reduction or scan in `module`.

    This is what triton-xpu reports as `ttg.shared` when these are the only SLM
    users: it ignores local_alloc buffers, atomics scratch and liveness (two such
    ops never overlap in time, so the max is the total).
    """
    return max((op_scratch_bytes(op) for op in module.walk()), default=0)
