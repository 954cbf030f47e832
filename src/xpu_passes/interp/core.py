"""A NumPy interpreter of TTIR/TTGIR functions over a launch grid.

Values are NumPy arrays (0-d for scalars) in each type's storage dtype (see
`types`), `Ptr`/`BlockPtr` for pointers and `MemDesc` for shared memory.
Layout encodings do not change values, so they are ignored and
`ttg.convert_layout` is the identity. Ops are dispatched by name; an op with
no handler raises `InterpError` naming it.

Op handlers register with `handles`: ops_tensor, ops_arith, ops_cast, atomics (imported by the
package); the ops with regions (calls, scf, reduce/scan) are here, with the interpreter.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import cf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from xpu_passes.dialects import tt
from xpu_passes.frontend import ParsedModule
from xpu_passes.interp import types as T
from xpu_passes.interp.memory import BlockPtr, MemDesc, OutOfBounds, Ptr


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
