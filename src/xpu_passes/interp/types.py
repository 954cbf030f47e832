"""Element types of TTIR/TTGIR as NumPy dtypes, and the roundings NumPy lacks.

bf16 has no NumPy dtype: bf16 values live in float32 arrays holding values
already rounded to bf16 (round to nearest even on the upper 16 bits), so
buffers passed for `!tt.ptr<bf16>` are float32 arrays of bf16-representable
values (`round_bf16(x)` makes them).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute


class InterpTypeError(Exception):
    """An element type the interpreter has no NumPy model for (fp8, tf32...)."""


_INTS = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_UINTS = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def scalar_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def shape_of(t: Attribute) -> tuple[int, ...]:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else ()


def is_bf16(t: Attribute) -> bool:
    return isinstance(scalar_type(t), BFloat16Type)


def is_float(t: Attribute) -> bool:
    return isinstance(scalar_type(t), (BFloat16Type, Float16Type, Float32Type, Float64Type))


def int_width(t: Attribute) -> int:
    e = scalar_type(t)
    if isinstance(e, IndexType):
        return 64
    assert isinstance(e, IntegerType)
    return e.width.data


def np_dtype(t: Attribute) -> np.dtype:
    """Storage dtype of an element (or tensor) type; bf16 is stored as float32."""
    e = scalar_type(t)
    if isinstance(e, (BFloat16Type, Float32Type)):
        return np.dtype(np.float32)
    if isinstance(e, Float16Type):
        return np.dtype(np.float16)
    if isinstance(e, Float64Type):
        return np.dtype(np.float64)
    if isinstance(e, IndexType):
        return np.dtype(np.int64)
    if isinstance(e, IntegerType) and e.width.data in _INTS:
        return np.dtype(_INTS[e.width.data])
    raise InterpTypeError(f"no NumPy model for element type {e}")


def unsigned(x: np.ndarray) -> np.ndarray:
    """The same bits read as unsigned (bool stays bool)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x
    return x.view(_UINTS[x.dtype.itemsize * 8]) if x.ndim else x.astype(_UINTS[x.dtype.itemsize * 8])


def round_bf16(x: np.ndarray | float) -> np.ndarray:
    """Round float32 values to the nearest bf16 (ties to even), kept in float32."""
    a = np.array(x, dtype=np.float32, order="C")
    bits = a.view(np.uint32).astype(np.uint64)
    nan = np.isnan(a)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(nan, a, out).astype(np.float32)


def truncate_bf16(x: np.ndarray) -> np.ndarray:
    """Round float32 values toward zero to bf16."""
    a = np.array(x, dtype=np.float32, order="C")
    return (a.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """bf16 values (float32 storage) -> their 16-bit patterns as int16."""
    a = np.array(x, dtype=np.float32, order="C")
    return (a.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)


def bf16_from_bits(x: np.ndarray) -> np.ndarray:
    a = np.array(x, order="C").view(np.uint16).astype(np.uint32) << 16
    return a.view(np.float32)


def to_type(x: np.ndarray, t: Attribute) -> np.ndarray:
    """Convert values to the storage of `t`, rounding to bf16 where needed."""
    out = np.asarray(x).astype(np_dtype(t), copy=False)
    return round_bf16(out) if is_bf16(t) else out
