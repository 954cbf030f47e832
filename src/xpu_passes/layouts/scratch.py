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
   dim (else 1). No padding for 1-D tensors or when only that dim is > 1.
4. Bytes = elements x max(1, bits / 8); pointers count 8 bytes.

Orders and contiguity come from the linear layouts: a layout's order lists dims by
their first appearance in its register bases (then the remaining dims, last first).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.layouts.encodings import LayoutError, dpas_repetitions, to_linear
from xpu_passes.layouts.linear import LinearLayout, mixed_transpositions, reorders_registers


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
        return batch + [k, d.execution_size * rc[rank - 1] * w[rank - 1]]
    if isinstance(layout, ttg.DotOperandEncodingAttr) and isinstance(layout.parent, ttg.BlockedEncodingAttr):
        parent = tile_shape(layout.parent, shape)
        k = rank - 1 if layout.op_idx == 0 else rank - 2
        parent[k] = shape[k]
        return parent
    # Generic: what one repetition of registers, lanes and warps covers.
    ll = to_linear(layout, shape)
    return [min(s, _extent(ll, d)) for d, s in enumerate(shape)]


def _extent(ll: LinearLayout, dim: int) -> int:
    n = 1
    for name in ("register", "lane", "warp"):
        n *= 1 << sum(1 for b in ll.bases(name) if b[dim] and not any(c for k, c in enumerate(b) if k != dim))
    return n


def holds_locally(src: LinearLayout, dst: LinearLayout, level: str) -> bool:
    """Each unit at `level` ("lane": thread, "warp": sub-group) of dst needs only data the
    same unit holds in src."""
    return src.holds_all_of(dst, level)


def needs_slm(src: Attribute, dst: Attribute, shape: Sequence[int]) -> bool:
    """Whether triton-xpu routes a conversion between these layouts through SLM."""
    a, b = to_linear(src, shape), to_linear(dst, shape)
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
    a, b = to_linear(src, shape), to_linear(dst, shape)
    in_ord, out_ord = layout_order(a), layout_order(b)
    inner = rank - 1
    cap = max(1, 128 // bits)  # vectors are at most 128 bits
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


def element_bytes(t: Attribute) -> int:
    """Bytes per scratch element: sub-byte types take a byte, pointers 8."""
    if isinstance(t, tt.PointerType):
        return 8
    width = getattr(t, "bitwidth", None)
    if width is None:
        width = getattr(t, "width", None)
        width = width.data if width is not None else None
    if width is None:
        raise LayoutError(f"no bit width for element type {t}")
    return max(8, int(width)) // 8


def convert_scratch_bytes(src: TensorType, dst: TensorType) -> int:
    """SLM bytes triton-xpu 3.3 allocates for `ttg.convert_layout` from `src` to `dst`."""
    shape = src.get_shape()
    if dst.get_shape() != shape:
        raise LayoutError(f"convert_layout between shapes {shape} and {dst.get_shape()}")
    rep = padded_rep_shape(src.encoding, dst.encoding, shape, 8 * element_bytes(src.element_type))
    if not rep:
        return 0
    n = 1
    for r in rep:
        n *= r
    return n * element_bytes(src.element_type)


def module_scratch_bytes(module: ModuleOp) -> int:
    """The largest convert_layout scratch in `module`.

    This is what triton-xpu reports as `ttg.shared` when conversions are the only
    SLM users: it ignores local_alloc buffers, reductions/scans/atomics scratch and
    liveness (two conversions never overlap in time, so the max is the total).
    """
    best = 0
    for op in module.walk():
        if isinstance(op, ttg.ConvertLayoutOp):
            s, d = op.src.type, op.result.type
            if isinstance(s, TensorType) and isinstance(d, TensorType):
                best = max(best, convert_scratch_bytes(s, d))
    return best
