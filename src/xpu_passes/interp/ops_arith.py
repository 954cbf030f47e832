"""Handlers of arith and math ops (and libdevice calls), elementwise on NumPy arrays."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import Operation

from xpu_passes.interp import types as T
from xpu_passes.interp.core import (
    HANDLERS,
    InterpError,
    Interpreter,
    Value,
    _int_prop,
    _prop,
    _result_type,
    _wrap_int,
    handles,
)
from xpu_passes.interp.memory import BlockPtr, Ptr


# ------------------------------------------------------------------- arith


def _constant(op: Operation) -> np.ndarray:
    v = _prop(op, "value")
    t = _result_type(op)
    if isinstance(v, DenseIntOrFPElementsAttr):
        vals = list(v.get_values())
        shape = T.shape_of(t)
        arr = np.asarray(vals[0] if v.is_splat() else vals, dtype=np.float64 if T.is_float(t) else object)
        return T.to_type(_wrap_int(np.broadcast_to(arr, shape) if arr.ndim == 0 else arr.reshape(shape), t), t)
    if isinstance(v, IntegerAttr):
        return T.to_type(_wrap_int(np.asarray(v.value.data, dtype=object), t), t)
    if isinstance(v, FloatAttr):
        return T.to_type(np.asarray(v.value.data, np.float64), t)
    raise InterpError(op, f"cannot interpret 'arith.constant' with value {v}")


@handles("arith.constant")
def _arith_constant(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    if op not in it.constants:
        it.constants[op] = _constant(op)
    return [it.constants[op]]


@handles("ub.poison")
def _poison(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    # A poison value must not reach a store: NaN (or a recognisable integer) shows it if it does.
    t = _result_type(op)
    dt = T.np_dtype(t)
    fill = np.nan if T.is_float(t) else (True if dt == np.bool_ else 0x5EADBEEF % (1 << (8 * dt.itemsize - 1)))
    return [np.full(T.shape_of(t), fill, dt)]


def _binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Callable[..., list[Value]]:
    def run(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
        return [fn(np.asarray(ins[0]), np.asarray(ins[1]))]

    return run


def _unary(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[..., list[Value]]:
    def run(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
        return [fn(np.asarray(ins[0]))]

    return run


def _div_trunc(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C division (toward zero); x/0 gives 0 instead of trapping (undefined on the GPU)."""
    safe = np.where(b == 0, 1, b)
    q = np.abs(a.astype(np.int64)) // np.abs(safe.astype(np.int64))
    q = np.where((a < 0) != (safe < 0), -q, q)
    return np.where(b == 0, 0, q).astype(a.dtype)


def _unsigned_op(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ua, ub = T.unsigned(a), T.unsigned(b)
        return np.asarray(fn(ua, ub)).astype(ua.dtype).astype(a.dtype)

    return run


def _udiv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, 0, a // np.where(b == 0, 1, b))


def _urem(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, 0, a % np.where(b == 0, 1, b))


def _rem_trunc(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a - _div_trunc(a, b) * b).astype(a.dtype)


def _ceildiv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q = _div_trunc(a, b)
    return np.where((q * b != a) & ((a < 0) == (b < 0)) & (b != 0), q + 1, q).astype(a.dtype)


def _floordiv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q = _div_trunc(a, b)
    return np.where((q * b != a) & ((a < 0) != (b < 0)) & (b != 0), q - 1, q).astype(a.dtype)


def _shift(kind: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        bits = a.dtype.itemsize * 8
        big = (b < 0) | (b >= bits)  # poison in LLVM; 0 keeps both sides equal
        s = np.where(big, 0, b).astype(a.dtype)
        if kind == "shl":
            r = np.left_shift(a, s)
        elif kind == "shrs":
            r = np.right_shift(a, s)
        else:
            r = np.right_shift(T.unsigned(a), T.unsigned(s)).astype(T.unsigned(a).dtype).astype(a.dtype)
        return np.where(big, 0, r).astype(a.dtype)

    return run


_BIN = {
    "arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply,
    "arith.divsi": _div_trunc, "arith.remsi": _rem_trunc,
    "arith.divui": _unsigned_op(_udiv), "arith.remui": _unsigned_op(_urem),
    "arith.ceildivsi": _ceildiv, "arith.floordivsi": _floordiv, "arith.ceildivui": _unsigned_op(
        lambda a, b: np.where(b == 0, 0, (a + np.where(b == 0, 1, b) - 1) // np.where(b == 0, 1, b))),
    "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
    "arith.shli": _shift("shl"), "arith.shrsi": _shift("shrs"), "arith.shrui": _shift("shru"),
    "arith.maxsi": np.maximum, "arith.minsi": np.minimum,
    "arith.maxui": _unsigned_op(np.maximum), "arith.minui": _unsigned_op(np.minimum),
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply, "arith.divf": np.divide,
    "arith.remf": np.fmod, "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
    "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "tt.precise_divf": np.divide, "math.powf": np.power, "math.atan2": np.arctan2, "math.copysign": np.copysign,
}  # fmt: skip


for _name, _fn in _BIN.items():
    HANDLERS[_name] = _binary(_fn)


def _vectorized(fn: Callable[[float], float]) -> Callable[[np.ndarray], np.ndarray]:
    vf = np.vectorize(fn, otypes=[np.float64])
    return lambda a: vf(a.astype(np.float64)).astype(a.dtype)


def _erf(x: float) -> float:
    return math.erf(x) if not math.isnan(x) else math.nan


_UNARY = {
    "arith.negf": np.negative, "math.absf": np.abs, "math.absi": np.abs,
    "math.exp": np.exp, "math.exp2": np.exp2, "math.log": np.log, "math.log2": np.log2, "math.log10": np.log10,
    "math.log1p": np.log1p, "math.expm1": np.expm1, "math.sqrt": np.sqrt, "tt.precise_sqrt": np.sqrt,
    "math.rsqrt": lambda a: (1 / np.sqrt(a.astype(np.float64))).astype(a.dtype),
    "math.erf": _vectorized(_erf), "math.sin": np.sin, "math.cos": np.cos, "math.tan": np.tan,
    "math.tanh": np.tanh, "math.sinh": np.sinh, "math.cosh": np.cosh, "math.atan": np.arctan,
    "math.asin": np.arcsin, "math.acos": np.arccos, "math.floor": np.floor, "math.ceil": np.ceil,
    "math.trunc": np.trunc, "math.roundeven": np.rint,
    "math.round": lambda a: np.where(a >= 0, np.floor(a + 0.5), np.ceil(a - 0.5)).astype(a.dtype),
    "math.cbrt": np.cbrt,
}  # fmt: skip


for _name, _fn in _UNARY.items():
    HANDLERS[_name] = _unary(_fn)


@handles("math.fma")
def _fma(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    a, b, c = (np.asarray(x) for x in ins)
    return [(a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(a.dtype)]


@handles("tt.mulhiui")
def _mulhi(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    a, b = (T.unsigned(np.asarray(x)) for x in ins)
    w = a.dtype.itemsize * 8
    if w > 32:
        raise InterpError(op, "cannot interpret 'tt.mulhiui' on 64-bit integers")
    return [((a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(w)).astype(a.dtype)]


@handles("tt.clampf")
def _clampf(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    x, lo, hi = (np.asarray(v) for v in ins)
    r = np.fmin(np.fmax(x, lo), hi)
    if _int_prop(op, "propagateNan", 0):
        r = np.where(np.isnan(x), x, r)
    return [r]


_CMPI = {
    0: np.equal, 1: np.not_equal, 2: np.less, 3: np.less_equal, 4: np.greater, 5: np.greater_equal,
}  # fmt: skip


@handles("arith.cmpi")
def _cmpi(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    pred = _int_prop(op, "predicate")
    a, b = np.asarray(ins[0]), np.asarray(ins[1])
    if pred >= 6:
        a, b, pred = T.unsigned(a), T.unsigned(b), pred - 4
    return [_CMPI[pred](a, b)]


@handles("arith.cmpf")
def _cmpf(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    pred = _int_prop(op, "predicate")
    a, b = np.asarray(ins[0]), np.asarray(ins[1])
    unordered = np.isnan(a) | np.isnan(b)
    base = {1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal, 6: np.not_equal}
    if pred == 0:
        return [np.zeros(np.broadcast_shapes(a.shape, b.shape), bool)]
    if pred == 15:
        return [np.ones(np.broadcast_shapes(a.shape, b.shape), bool)]
    if pred == 7:
        return [~unordered]
    if pred == 14:
        return [unordered]
    if pred <= 6:
        return [base[pred](a, b) & ~unordered]
    return [base[pred - 7](a, b) | unordered]


@handles("arith.select")
def _select(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    c, a, b = ins
    c = np.asarray(c)
    if isinstance(a, Ptr):
        shape = np.broadcast_shapes(c.shape, a.shape, b.shape)
        return [Ptr(np.broadcast_to(np.where(c, a.buf, b.buf), shape).copy(), np.where(c, a.off, b.off))]
    if isinstance(a, BlockPtr):
        return [a if bool(c) else b]
    return [np.where(c, np.asarray(a), np.asarray(b))]


# ------------------------------------------------------- extern elementwise

_LIBDEVICE: dict[str, Callable[..., np.ndarray]] = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt,
    "rsqrt": lambda a: 1 / np.sqrt(a), "erf": _vectorized(_erf), "tanh": np.tanh, "sin": np.sin,
    "cos": np.cos, "fabs": np.abs, "floor": np.floor, "ceil": np.ceil, "pow": np.power, "fmod": np.fmod,
    "fmax": np.fmax, "fmin": np.fmin, "isnan": np.isnan, "isinf": np.isinf, "trunc": np.trunc, "round": np.rint,
    "div_rn": np.divide, "fdiv_rn": np.divide, "sqrt_rn": np.sqrt, "expm1": np.expm1, "log1p": np.log1p,
}  # fmt: skip


@handles("tt.extern_elementwise")
def _extern(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    sym = _prop(op, "symbol").data  # type: ignore[union-attr]
    base = sym
    for prefix in ("__imf_", "__nv_", "__ocml_", "__spirv_ocl_"):
        base = base.removeprefix(prefix)
    fn = _LIBDEVICE.get(base) or (_LIBDEVICE.get(base[:-1]) if base.endswith("f") else None)
    if fn is None:
        raise InterpError(op, f"cannot interpret 'tt.extern_elementwise' calling '{sym}'")
    return [fn(*(np.asarray(x) for x in ins))]
