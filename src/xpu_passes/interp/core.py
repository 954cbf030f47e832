"""A NumPy interpreter of TTIR/TTGIR functions over a launch grid.

Values are NumPy arrays (0-d for scalars) in each type's storage dtype (see
`types`), `Ptr`/`BlockPtr` for pointers and `MemDesc` for shared memory.
Layout encodings do not change values, so they are ignored and
`ttg.convert_layout` is the identity. Ops are dispatched by name; an op with
no handler raises `InterpError` naming it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import cf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from xpu_passes.dialects import tt
from xpu_passes.frontend import ParsedModule
from xpu_passes.interp import types as T
from xpu_passes.interp.memory import (
    BlockPtr,
    MemDesc,
    OutOfBounds,
    Ptr,
    block_ptr_as_tensor,
    gather,
    scatter,
)

Value = Any  # np.ndarray | Ptr | BlockPtr | MemDesc


class InterpError(Exception):
    """The interpreter cannot run an op, or the program did something undefined."""

    def __init__(self, op: Operation | None, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


def located(e: InterpError, parsed: ParsedModule) -> str:
    """`FILE:LINE:COL: error: ...` at the op the error is about, when it came from `parsed`."""
    if e.op is None:
        return f"{parsed.source.name}: error: {e.message}"
    return str(parsed.error_at(e.op, e.message))


HANDLERS: dict[str, Callable[[Interpreter, Operation, list[Value]], Sequence[Value] | None]] = {}


def handles(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        for n in names:
            HANDLERS[n] = fn
        return fn

    return deco


class Interpreter:
    """Runs the functions of one module on a list of buffers."""

    def __init__(self, module: ModuleOp, buffers: list[np.ndarray], grid: tuple[int, int, int]) -> None:
        self.module = module
        self.buffers = buffers
        self.grid = grid
        self.pid = (0, 0, 0)
        self.vectorized = 0  # > 0 while a combine region runs on whole slices (scalar types, array values)
        self.constants: dict[Operation, np.ndarray] = {}  # handlers never write into their inputs
        self.funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, tt.FuncOp)}

    # -------------------------------------------------------------- driving

    def call(self, fn: tt.FuncOp, args: Sequence[Value]) -> list[Value]:
        if not fn.body.blocks:
            raise InterpError(fn, f"cannot interpret a call to the declaration '{fn.sym_name.data}'")
        return self.run_block(fn.body.blocks.first, args, {})  # type: ignore[arg-type]

    def run_block(self, block: Block, args: Sequence[Value], env: dict[SSAValue, Value]) -> list[Value]:
        """Run a block's ops; return the operands of its terminator."""
        for a, v in zip(block.args, args, strict=True):
            env[a] = v
        for op in block.ops:
            ins = [env[x] for x in op.operands]
            if op.name in _TERMINATORS:
                return ins
            if op.name in ("cf.br", "cf.cond_br"):  # a body of several blocks (a kernel that returns early)
                return self.run_block(*self._branch(op, env), env)
            handler = HANDLERS.get(op.name)
            if handler is None:
                raise InterpError(op, f"cannot interpret '{op.name}'")
            try:
                outs = handler(self, op, ins) if not op.regions else handler(self, op, ins, env)
            except InterpError:
                raise
            except (OutOfBounds, T.InterpTypeError) as e:
                raise InterpError(op, f"'{op.name}': {e}") from None
            except Exception as e:  # a malformed program or a gap here: name the op, never a bare traceback
                raise InterpError(op, f"'{op.name}': internal error: {type(e).__name__}: {e}") from e
            for r, v in zip(op.results, outs or (), strict=True):
                env[r] = _coerce(v, r.type)
                if not self.vectorized and isinstance(env[r], np.ndarray) and env[r].shape != T.shape_of(r.type):
                    raise InterpError(op, f"internal error: '{op.name}' gave shape {env[r].shape} for {r.type}")
        return []

    def _branch(self, op: Operation, env: dict[SSAValue, Value]) -> tuple[Block, list[Value]]:
        """The successor a `cf` branch takes and the values it passes (a uniform, scalar condition)."""
        if isinstance(op, cf.BranchOp):
            return op.successor, [env[x] for x in op.arguments]
        assert isinstance(op, cf.ConditionalBranchOp)
        cond = np.asarray(env[op.cond])
        if cond.size != 1:
            raise InterpError(op, "'cf.cond_br' on a tensor condition")
        if bool(cond.reshape(())):
            return op.then_block, [env[x] for x in op.then_arguments]
        return op.else_block, [env[x] for x in op.else_arguments]

    def run_region(self, region: Region, args: Sequence[Value], env: dict[SSAValue, Value]) -> list[Value]:
        return self.run_block(region.blocks.first, args, env)  # type: ignore[arg-type]

    def combine(self, region: Region, args: Sequence[Value], env: dict[SSAValue, Value]) -> list[np.ndarray]:
        """Run a reduce/scan combine region on whole slices at once."""
        self.vectorized += 1
        try:
            return [np.asarray(v) for v in self.run_region(region, args, env)]
        finally:
            self.vectorized -= 1


_TERMINATORS = {"tt.return", "scf.yield", "scf.condition", "tt.reduce.return", "tt.scan.return"}


def _coerce(v: Value, t: Attribute) -> Value:
    """Keep every value in its type's storage dtype (bf16 rounded)."""
    if isinstance(v, (Ptr, BlockPtr, MemDesc)) or isinstance(T.scalar_type(t), tt.PointerType):
        return v
    return T.to_type(v, t)


# ------------------------------------------------------------------ helpers


def _prop(op: Operation, name: str) -> Attribute | None:
    a = op.properties.get(name)
    return a if a is not None else op.attributes.get(name)


def _int_prop(op: Operation, name: str, default: int | None = None) -> int:
    a = _prop(op, name)
    if a is None:
        if default is None:
            raise InterpError(op, f"'{op.name}' has no {name}")
        return default
    assert isinstance(a, IntegerAttr)
    return a.value.data


def _array_prop(op: Operation, name: str) -> tuple[int, ...]:
    a = _prop(op, name)
    return tuple(a.get_values()) if a is not None else ()  # type: ignore[union-attr]


def _result_type(op: Operation) -> Attribute:
    return op.results[0].type


def _shape_map(v: Value, fn: Callable[[np.ndarray], np.ndarray]) -> Value:
    return v.map(fn) if isinstance(v, Ptr) else np.asarray(fn(np.asarray(v)))


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
    # allow_reorder permits any element order; row-major is one valid choice.
    shape = T.shape_of(_result_type(op))
    return [_shape_map(ins[0], lambda a: np.reshape(a, shape))]


@handles("tt.trans")
def _trans(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    order = _array_prop(op, "order")
    return [_shape_map(ins[0], lambda a: np.transpose(a, order))]


@handles("tt.join")
def _join(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    return [np.stack([np.asarray(ins[0]), np.asarray(ins[1])], axis=-1)]


@handles("tt.split")
def _split(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
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


def _wrap_int(a: np.ndarray, t: Attribute) -> np.ndarray:
    """Python ints (possibly the unsigned spelling) wrapped into the type's width."""
    if T.is_float(t) or a.dtype != object:
        return a
    w = T.int_width(t)
    if w == 1:
        return (np.vectorize(int, otypes=[np.int64])(a) & 1).astype(bool)
    mod = 1 << w
    wrapped = np.vectorize(lambda x: ((int(x) + (mod >> 1)) % mod) - (mod >> 1), otypes=[np.int64])(a)
    return wrapped


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


# ------------------------------------------------------------- control flow


@handles("tt.call")
def _call(it: Interpreter, op: Operation, ins: list[Value]) -> list[Value]:
    name = _prop(op, "callee").root_reference.data  # type: ignore[union-attr]
    fn = it.funcs.get(name)
    if fn is None:
        raise InterpError(op, f"'tt.call' of unknown function '{name}'")
    return it.call(fn, ins)


@handles("scf.for")
def _for(it: Interpreter, op: Operation, ins: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
    lb, ub, step = (int(np.asarray(v)) for v in ins[:3])
    carried = list(ins[3:])
    if step <= 0:
        raise InterpError(op, f"'scf.for' with step {step}")
    iv_dtype = np.asarray(ins[0]).dtype
    for i in range(lb, ub, step):
        carried = it.run_region(op.regions[0], [np.asarray(i, iv_dtype), *carried], env)
    return carried


@handles("scf.if")
def _if(it: Interpreter, op: Operation, ins: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
    region = op.regions[0] if bool(np.asarray(ins[0])) else op.regions[1]
    if not region.blocks:
        return []
    return it.run_region(region, [], env)


@handles("scf.while")
def _while(it: Interpreter, op: Operation, ins: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
    carried = list(ins)
    while True:
        cond, *args = it.run_region(op.regions[0], carried, env)
        if not bool(np.asarray(cond)):
            return args
        carried = it.run_region(op.regions[1], args, env)


@handles("scf.execute_region")
def _exec_region(it: Interpreter, op: Operation, ins: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
    return it.run_region(op.regions[0], [], env)


@handles("tt.reduce")
def _reduce(it: Interpreter, op: Operation, ins: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
    """Pairwise tree over the axis: one vectorized run of the combine region per level."""
    axis = _int_prop(op, "axis")
    xs = [np.moveaxis(np.asarray(x), axis, 0) for x in ins]
    while xs[0].shape[0] > 1:
        n = xs[0].shape[0]
        m = n // 2
        lhs = [x[0 : 2 * m : 2] for x in xs]
        rhs = [x[1 : 2 * m : 2] for x in xs]
        combined = it.combine(op.regions[0], [*lhs, *rhs], env)
        combined = [np.broadcast_to(c, lhs[0].shape[:1] + x.shape[1:]) for c, x in zip(combined, xs)]
        xs = [np.concatenate([c, x[2 * m :]]) if n % 2 else c for c, x in zip(combined, xs)]
    return [x[0] for x in xs]


@handles("tt.scan")
def _scan(it: Interpreter, op: Operation, ins: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
    axis = _int_prop(op, "axis")
    reverse = bool(_prop(op, "reverse") and _prop(op, "reverse").value.data)  # type: ignore[union-attr]
    xs = [np.moveaxis(np.array(x), axis, 0) for x in ins]
    order = range(xs[0].shape[0] - 1, -1, -1) if reverse else range(xs[0].shape[0])
    acc: list[np.ndarray] | None = None
    for i in order:
        cur = [x[i] for x in xs]
        acc = cur if acc is None else it.combine(op.regions[0], [*acc, *cur], env)
        for x, a in zip(xs, acc):
            x[i] = a
    return [np.moveaxis(x, 0, axis) for x in xs]


# ---------------------------------------------------------------- entry


def _arg_value(t: Attribute, arg: Any, index: int, buffers: list[np.ndarray]) -> Value:
    if isinstance(t, tt.PointerType):
        if not isinstance(arg, np.ndarray):
            raise InterpError(None, f"argument {index} is a pointer ({t}) but got {type(arg).__name__}")
        want = T.np_dtype(t.pointee)
        if arg.dtype != want:
            raise InterpError(None, f"argument {index}: {t} needs a {want} array, got {arg.dtype}")
        if not arg.flags.c_contiguous:
            raise InterpError(None, f"argument {index}: the array must be C-contiguous (it is written in place)")
        buffers.append(arg.reshape(-1))
        return Ptr.scalar(len(buffers) - 1)
    if isinstance(arg, np.ndarray) and arg.ndim > 0:
        raise InterpError(None, f"argument {index} is a scalar ({t}) but got an array")
    if T.is_float(t):
        return T.to_type(np.asarray(float(arg)), t)
    return T.to_type(_wrap_int(np.asarray(int(arg), dtype=object), t), t)


def pick_function(module: ModuleOp, func: str | None) -> tt.FuncOp:
    funcs = [op for op in module.walk() if isinstance(op, tt.FuncOp)]
    if func is not None:
        for f in funcs:
            if f.sym_name.data == func:
                return f
        raise InterpError(None, f"no tt.func named '{func}'")
    public = [f for f in funcs if f.body.blocks and (f.sym_visibility is None or f.sym_visibility.data == "public")]
    if len(public) != 1:
        names = ", ".join(f.sym_name.data for f in public) or "none"
        raise InterpError(None, f"pick a kernel with func=...: public tt.funcs are {names}")
    return public[0]


def run_kernel(
    module: ModuleOp,
    args: Sequence[np.ndarray | int | float],
    grid: tuple[int, ...],
    func: str | None = None,
) -> None:
    """Run `func` (default: the module's one public tt.func) for every program of `grid`.

    Pointer arguments are C-contiguous NumPy arrays of the pointee's dtype
    (float32 holding bf16-rounded values for bf16), read and written in place.
    Raises InterpError for ops it does not know and for unmasked out-of-bounds
    accesses.
    """
    fn = pick_function(module, func)
    inputs = fn.function_type.inputs.data
    if len(args) != len(inputs):
        raise InterpError(fn, f"'{fn.sym_name.data}' takes {len(inputs)} arguments, got {len(args)}")
    buffers: list[np.ndarray] = []
    values = [_arg_value(t, a, i, buffers) for i, (t, a) in enumerate(zip(inputs, args))]
    g = (tuple(grid) + (1, 1, 1))[:3]
    it = Interpreter(module, buffers, g)  # type: ignore[arg-type]
    with np.errstate(all="ignore"):
        for z, y, x in itertools.product(range(g[2]), range(g[1]), range(g[0])):
            it.pid = (x, y, z)
            it.call(fn, values)
