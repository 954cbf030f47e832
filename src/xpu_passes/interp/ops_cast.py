"""Handlers of the casts: integer extension/truncation, int <-> float, float rounding, bitcast."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt
from xpu_passes.interp import types as T
from xpu_passes.interp.core import InterpError, Interpreter, Value, _int_prop, _prop, _result_type, handles
from xpu_passes.interp.memory import Ptr


# -------------------------------------------------------------------- casts


def _ext_signed(x: np.ndarray) -> np.ndarray:
    return np.where(x, -1, 0) if x.dtype == np.bool_ else x  # i1 true is -1 when signed


@handles("arith.extsi")
def _extsi(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [_ext_signed(np.asarray(ins[0])).astype(T.np_dtype(_result_type(op)))]


@handles("arith.extui")
def _extui(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [T.unsigned(np.asarray(ins[0])).astype(T.np_dtype(_result_type(op)))]


@handles("arith.trunci")
def _trunci(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    x = np.asarray(ins[0])
    dt = T.np_dtype(_result_type(op))
    return [(x & 1).astype(bool) if dt == np.bool_ else x.astype(dt)]


@handles("arith.index_cast", "arith.index_castui")
def _index_cast(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    x = np.asarray(ins[0])
    if op.name == "arith.index_castui":
        x = T.unsigned(x)
    return [x.astype(T.np_dtype(_result_type(op)))]


@handles("arith.sitofp")
def _sitofp(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [_ext_signed(np.asarray(ins[0])).astype(np.float64)]


@handles("arith.uitofp")
def _uitofp(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [T.unsigned(np.asarray(ins[0])).astype(np.float64)]


def _fp_to_int(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    info = np.iinfo(dt) if dt != np.bool_ else None
    t = np.trunc(x.astype(np.float64))
    if info is not None:  # out of range is poison; saturate so both sides agree
        t = np.clip(np.nan_to_num(t, nan=0.0), info.min, info.max)
    return t.astype(dt)


@handles("arith.fptosi")
def _fptosi(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [_fp_to_int(np.asarray(ins[0]), T.np_dtype(_result_type(op)))]


@handles("arith.fptoui")
def _fptoui(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    dt = T.np_dtype(_result_type(op))
    u = T.unsigned(np.zeros((), dt)).dtype
    return [_fp_to_int(np.asarray(ins[0]), u).astype(dt)]


def _round_to(x: np.ndarray, t: Attribute, toward_zero: bool) -> np.ndarray:
    """Float conversion to `t`; round to nearest even unless `toward_zero`."""
    x = np.asarray(x)
    if T.is_bf16(t):
        x32 = x.astype(np.float32)  # f64 -> f32 -> bf16 double-rounds; inputs here are f32 or narrower
        return T.truncate_bf16(x32) if toward_zero else T.round_bf16(x32)
    dt = T.np_dtype(t)
    r = x.astype(dt)
    if toward_zero and dt.itemsize < x.dtype.itemsize:
        wide = x.astype(np.float64)
        over = np.abs(r.astype(np.float64)) > np.abs(wide)
        r = np.where(over & np.isfinite(wide), np.nextafter(r, np.zeros((), dt)), r).astype(dt)
    return r


@handles("arith.extf", "arith.truncf", "tt.fp_to_fp")
def _fcast(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    t = _result_type(op)
    rtz = op.name == "tt.fp_to_fp" and _int_prop(op, "rounding", 1) == tt.ROUNDING["rtz"]
    mode = _prop(op, "roundingmode")
    if isinstance(mode, IntegerAttr) and mode.value.data == 1:  # arith's toward_zero
        rtz = True
    return [_round_to(np.asarray(ins[0]), t, rtz)]


@handles("arith.bitcast", "tt.bitcast")
def _bitcast(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    src_t, dst_t = op.operands[0].type, _result_type(op)
    x = ins[0]
    if isinstance(x, Ptr):
        # Offsets count elements of the pointee; only same-size pointees keep their meaning.
        if T.np_dtype(T.scalar_type(src_t).pointee).itemsize != T.np_dtype(T.scalar_type(dst_t).pointee).itemsize:  # type: ignore[attr-defined]
            raise InterpError(op, f"cannot interpret '{op.name}' between pointers to different sizes")
        return [x]
    x = np.array(x, order="C")  # keeps 0-d scalars 0-d, unlike ascontiguousarray
    if T.is_bf16(src_t):
        x = T.bf16_bits(x)
    if T.is_bf16(dst_t):
        return [T.bf16_from_bits(x.view(np.int16))]
    dt = T.np_dtype(dst_t)
    if dt.itemsize != x.dtype.itemsize or dt == np.bool_:
        raise InterpError(op, f"cannot interpret '{op.name}' from {src_t} to {dst_t}")
    return [x.view(dt)]
