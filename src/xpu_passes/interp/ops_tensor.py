"""Handlers of the tensor ops: program ids, shapes, pointers, loads/stores, shared memory, dot,
gather, histogram, assert and print.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt
from xpu_passes.interp import types as T
from xpu_passes.interp.core import (
    InterpError,
    Interpreter,
    Value,
    _array_prop,
    _int_prop,
    _prop,
    _result_type,
    _shape_map,
    handles,
)
from xpu_passes.interp.memory import BlockPtr, MemDesc, Ptr, block_ptr_as_tensor, gather, scatter


# ------------------------------------------------------------ program ids


@handles("tt.get_program_id")
def _pid(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [np.int32(it.pid[_int_prop(op, "axis")])]


@handles("tt.get_num_programs")
def _nprog(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [np.int32(it.grid[_int_prop(op, "axis")])]


@handles("tt.make_range")
def _range(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [np.arange(_int_prop(op, "start"), _int_prop(op, "end"), dtype=np.int32)]


# ---------------------------------------------------------- shape operations


@handles("tt.splat", "tt.broadcast")
def _broadcast(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    shape = T.shape_of(_result_type(op))
    return [_shape_map(ins[0], lambda a: np.broadcast_to(a, shape).copy())]


@handles("tt.expand_dims")
def _expand(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    axis = _int_prop(op, "axis")
    return [_shape_map(ins[0], lambda a: np.expand_dims(a, axis))]


@handles("tt.reshape")
def _reshape(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    # allow_reorder permits any element order; row-major is one valid choice. With efficient_layout
    # the order is the layouts': triton keeps every register where it is (the pass that wrote it
    # relies on that, e.g. optimize-reduction-locality).
    shape = T.shape_of(_result_type(op))
    if _prop(op, "efficient_layout") is not None:
        moved = _register_order(op.operands[0].type, _result_type(op))
        if moved is not None:
            src, dst = moved
            return [_shape_map(ins[0], lambda a: _reordered(a, shape, src, dst))]
    return [_shape_map(ins[0], lambda a: np.reshape(a, shape))]


def _register_order(src_t: Attribute, dst_t: Attribute) -> tuple[np.ndarray, np.ndarray] | None:
    """Flat row-major indices of the element each (register, lane, warp) holds, before and after."""
    from xpu_passes.layouts.encodings import LayoutError, to_linear

    src_enc, dst_enc = getattr(src_t, "encoding", None), getattr(dst_t, "encoding", None)
    if src_enc is None or dst_enc is None:
        return None
    try:
        a, b = to_linear(src_enc, src_t.get_shape()), to_linear(dst_enc, dst_t.get_shape())  # type: ignore[attr-defined]
    except LayoutError:
        return None
    hw = [(r, ln, w) for w in range(a.num("warp")) for ln in range(a.num("lane")) for r in range(a.num("register"))]
    if [a.num(d) for d in ("register", "lane", "warp")] != [b.num(d) for d in ("register", "lane", "warp")]:
        raise InterpError(f"tt.reshape efficient_layout: layouts of different sizes ({a} -> {b})")
    flat = [np.ravel_multi_index(tuple(zip(*[ll.apply(*h) for h in hw])), ll.shape) for ll in (a, b)]
    return flat[0], flat[1]


def _reordered(a: np.ndarray, shape: tuple[int, ...], src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    out = np.empty(int(np.prod(shape)), dtype=a.dtype)
    out[dst] = np.ravel(a)[src]
    return out.reshape(shape)


@handles("tt.trans")
def _trans(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    order = _array_prop(op, "order")
    return [_shape_map(ins[0], lambda a: np.transpose(a, order))]


@handles("tt.join")
def _join(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    lo, hi = ins
    if isinstance(lo, Ptr) and isinstance(hi, Ptr):  # tensors of pointers (sliced epilogues)
        return [Ptr(np.stack([lo.buf, hi.buf], axis=-1), np.stack([lo.off, hi.off], axis=-1))]
    return [np.stack([np.asarray(lo), np.asarray(hi)], axis=-1)]


@handles("tt.split")
def _split(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    if isinstance(ins[0], Ptr):
        return [ins[0].map(lambda a: a[..., 0]), ins[0].map(lambda a: a[..., 1])]
    a = np.asarray(ins[0])
    return [a[..., 0], a[..., 1]]


@handles("tt.cat")
def _cat(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [np.concatenate([np.asarray(ins[0]), np.asarray(ins[1])], axis=0)]


@handles("ttg.convert_layout")
def _identity(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [ins[0]]


# ----------------------------------------------------------------- pointers


@handles("tt.addptr")
def _addptr(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    p, o = ins
    assert isinstance(p, Ptr)
    off = np.asarray(o).astype(np.int64)
    shape = np.broadcast_shapes(p.shape, off.shape)
    return [Ptr(np.broadcast_to(p.buf, shape).copy(), np.broadcast_to(p.off, shape) + off)]


@handles("tt.make_tensor_ptr")
def _make_tensor_ptr(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    assert isinstance(op, tt.MakeTensorPtrOp)
    base = ins[0]
    assert isinstance(base, Ptr)
    r = len(op.shape)
    vals = [int(np.asarray(v)) for v in ins[1:]]
    pointee = op.result.type.pointee  # type: ignore[attr-defined]
    return [
        BlockPtr(
            int(base.buf), int(base.off), tuple(vals[:r]), tuple(vals[r : 2 * r]), tuple(vals[2 * r :]),
            T.shape_of(pointee), op.order_values,
        )
    ]  # fmt: skip


@handles("tt.advance")
def _advance(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    bp = ins[0]
    assert isinstance(bp, BlockPtr)
    return [bp.advance([int(np.asarray(v)) for v in ins[1:]])]


def _fill(op: Operation, dtype: np.dtype) -> np.ndarray:
    padding = _int_prop(op, "padding", 1)
    return np.asarray(np.nan if padding == tt.PADDING["nan"] else 0, dtype=dtype)


@handles("tt.load")
def _load(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    assert isinstance(op, tt.LoadOp)
    rt = op.result.type
    dtype = T.np_dtype(rt)
    p = ins[0]
    if isinstance(p, BlockPtr):
        ptr, ok = block_ptr_as_tensor(p, op.boundary_check)
        return [gather(it.buffers, ptr, ok, _fill(op, dtype), dtype)]
    assert isinstance(p, Ptr)
    mask = np.asarray(ins[1]) if op.mask is not None else np.ones(p.shape, bool)
    # Without `other`, masked-off lanes are undefined in Triton; zero is what the GPU gives.
    other = np.asarray(ins[2]) if op.other is not None else np.zeros((), dtype)
    return [gather(it.buffers, p, mask, other, dtype)]


@handles("tt.store")
def _store(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    assert isinstance(op, tt.StoreOp)
    p, value = ins[0], np.asarray(ins[1])
    if isinstance(p, BlockPtr):
        ptr, ok = block_ptr_as_tensor(p, op.boundary_check)
        scatter(it.buffers, ptr, value, ok)
        return []
    assert isinstance(p, Ptr)
    mask = np.asarray(ins[2]) if op.mask is not None else np.ones(p.shape, bool)
    scatter(it.buffers, p, value, mask)
    return []


@handles("ttig.prefetch", "ttg.local_dealloc", "gpu.barrier")
def _nothing(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return []


def _memdesc_shape(t: Attribute) -> tuple[int, ...]:
    return tuple(d.data for d in t.shape.data)  # type: ignore[attr-defined]


@handles("ttg.local_alloc")
def _local_alloc(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    t = _result_type(op)
    if ins:
        return [MemDesc(np.array(ins[0]))]
    return [MemDesc(np.zeros(_memdesc_shape(t), T.np_dtype(t.element_type)))]  # type: ignore[attr-defined]


@handles("ttg.memdesc_subview")
def _subview(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    """A view (writes go through): leading dimensions dropped by the result are indexed."""
    src, offs = ins[0], [int(np.asarray(o)) for o in ins[1:]]
    shape = _memdesc_shape(_result_type(op))
    drop = src.data.ndim - len(shape)
    index = tuple(offs[:drop]) + tuple(slice(o, o + n) for o, n in zip(offs[drop:], shape))
    return [MemDesc(src.data[index])]


@handles("ttg.memdesc_trans")
def _memdesc_trans(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [MemDesc(np.transpose(ins[0].data, _array_prop(op, "order")))]


@handles("ttg.local_load")
def _local_load(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [np.array(ins[0].data)]


@handles("ttg.local_store")
def _local_store(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    ins[1].data[...] = ins[0]
    return []


# --------------------------------------------------------------------- dot


@handles("tt.dot")
def _dot(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    a, b, c = (np.asarray(x) for x in ins)
    if np.issubdtype(a.dtype, np.integer):
        return [(np.matmul(a.astype(np.int64), b.astype(np.int64)) + c.astype(np.int64)).astype(c.dtype)]
    # Inputs are already rounded to their element type; accumulate exactly enough (f64), round once.
    acc = np.matmul(a.astype(np.float64), b.astype(np.float64)) + c.astype(np.float64)
    return [acc.astype(np.float32)]


@handles("tt.gather")
def _gather(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    src, idx = np.asarray(ins[0]), np.asarray(ins[1]).astype(np.int64)
    axis = _int_prop(op, "axis")
    if ((idx < 0) | (idx >= src.shape[axis])).any():
        raise InterpError(op, "'tt.gather' index out of range")
    return [np.take_along_axis(src, idx, axis)]


@handles("tt.histogram")
def _histogram(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    bins = T.shape_of(_result_type(op))[0]
    x = np.asarray(ins[0]).astype(np.int64).reshape(-1)
    x = x[(x >= 0) & (x < bins)]
    return [np.bincount(x, minlength=bins)]


@handles("tt.assert")
def _assert(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    if not np.asarray(ins[0]).all():
        raise InterpError(op, f"device assertion failed: {_prop(op, 'message').data}")  # type: ignore[union-attr]
    return []


@handles("tt.print")
def _print(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return []  # output only; no effect on buffers
