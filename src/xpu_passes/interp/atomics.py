"""`tt.atomic_rmw` and `tt.atomic_cas` for the interpreter.

Programs of the grid run one after another, so an atomic is a read-modify-write
per lane: lanes in row-major order (a lane's RMW sees earlier lanes' writes to the
same element), each returning the value it read. Memory order and scope change
nothing in a sequential run. Results are deterministic, so two versions of a
kernel run on the same inputs must agree bit for bit, as for plain stores.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

from xpu_passes.dialects import tt
from xpu_passes.interp.core import Interpreter, InterpError, _result_type, handles
from xpu_passes.interp.memory import Ptr, _check_bounds
from xpu_passes.interp.types import is_bf16, np_dtype, round_bf16

_KINDS = {v: k for k, v in tt.RMW.items()}
_UNSIGNED = {np.dtype(np.int32): np.uint32, np.dtype(np.int64): np.uint64, np.dtype(np.int16): np.uint16,
             np.dtype(np.int8): np.uint8}  # fmt: skip


def _unsigned(fn: Callable[[Any, Any], Any]) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def op(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        u = _UNSIGNED[a.dtype]
        return fn(a.view(u), b.view(u)).view(a.dtype)

    return op


_COMBINE: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor, "add": np.add, "fadd": np.add,
    "max": np.maximum, "min": np.minimum, "umax": _unsigned(np.maximum), "umin": _unsigned(np.minimum),
    "exch": lambda old, new: new,
}  # fmt: skip


def _lanes(it: Interpreter, ptr: Ptr, mask: np.ndarray, update: Callable[[np.ndarray, int, int], Any],
           dtype: np.dtype) -> np.ndarray:
    """`update(buffer, offset, flat lane index) -> old value` lane by lane in row-major order;
    masked-off lanes return zero (undefined in Triton)."""
    mask = np.broadcast_to(mask, ptr.shape)
    _check_bounds(it.buffers, ptr, mask, "atomic")
    out = np.zeros(ptr.shape, dtype=dtype)
    bufs, offs, flat_out = ptr.buf.reshape(-1), ptr.off.reshape(-1), out.reshape(-1)
    for i in np.flatnonzero(mask):
        flat_out[i] = update(it.buffers[int(bufs[i])], int(offs[i]), int(i))
    return out


@handles("tt.atomic_rmw")
def _atomic_rmw(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    assert isinstance(op, tt.AtomicRMWOp)
    kind = _KINDS.get(op.atomic_rmw_op.value.data)
    ptr = ins[0]
    if kind is None or not isinstance(ptr, Ptr):
        raise InterpError(op, "cannot interpret an atomic_rmw of this kind or through a block pointer")
    mask = np.asarray(ins[2]) if op.mask is not None else np.ones(ptr.shape, bool)
    val = np.broadcast_to(np.asarray(ins[1]), ptr.shape).reshape(-1)
    combine = _COMBINE[kind]
    rounded = round_bf16 if is_bf16(op.val.type) else np.asarray  # bf16 lives in float32 buffers

    def update(buf: np.ndarray, off: int, i: int) -> Any:
        old = buf[off].copy()
        buf[off] = rounded(combine(np.asarray(old), np.asarray(val[i], dtype=buf.dtype)))
        return old

    return [_lanes(it, ptr, mask, update, np_dtype(_result_type(op)))]


@handles("tt.atomic_cas")
def _atomic_cas(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    assert isinstance(op, tt.AtomicCASOp)
    ptr = ins[0]
    if not isinstance(ptr, Ptr):
        raise InterpError(op, "cannot interpret an atomic_cas through a block pointer")
    cmp, new = (np.broadcast_to(np.asarray(x), ptr.shape).reshape(-1) for x in ins[1:3])

    def update(buf: np.ndarray, off: int, i: int) -> Any:
        old = buf[off].copy()
        if old == cmp[i]:
            buf[off] = new[i]
        return old

    return [_lanes(it, ptr, np.ones(ptr.shape, bool), update, np_dtype(_result_type(op)))]
