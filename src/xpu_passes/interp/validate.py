"""Translation validation: run a kernel before and after a rewrite on the same inputs.

`validate(before, after, inputs)` copies the inputs, runs both modules with the
interpreter and compares every buffer afterwards (stores are the only effect of
a kernel); the first differing element is reported with its buffer (argument
index), flat index, expected (before) and got (after) values. Equality is
bitwise by default (NaN equals NaN); `rtol`/`atol` allow rounding differences.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt
from xpu_passes.interp import types as T
from xpu_passes.interp.core import InterpError, pick_function, run_kernel

Arg = np.ndarray | int | float


@dataclass
class Inputs:
    """Arguments of one launch and its grid."""

    args: list[Arg]
    grid: tuple[int, ...]
    func: str | None = None

    def copy(self) -> list[Arg]:
        return [a.copy() if isinstance(a, np.ndarray) else a for a in self.args]


@dataclass(frozen=True)
class Mismatch:
    buffer: int  # argument index of the pointer
    index: int  # flat element index in that buffer
    expected: float | int
    got: float | int
    count: int  # how many elements of that buffer differ

    def __str__(self) -> str:
        return (
            f"the buffer of argument {self.buffer} differs at element {self.index}: "
            f"expected {self.expected!r}, got {self.got!r} ({self.count} elements differ)"
        )


@dataclass
class Result:
    """Outcome of one validation; true when both runs agree on every buffer."""

    mismatch: Mismatch | None = None
    error: str | None = None  # an interpreter error in either run
    error_op: Operation | None = None  # the op it is about, in `before` or `after`
    compared: int = 0  # elements compared
    outputs: list[np.ndarray] = field(default_factory=list, repr=False)  # buffers after the `after` run

    @property
    def ok(self) -> bool:
        return self.mismatch is None and self.error is None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.error is not None:
            return self.error
        if self.mismatch is not None:
            return str(self.mismatch)
        return f"equal on {self.compared} elements"


def compare(
    expected: Sequence[Arg], got: Sequence[Arg], rtol: float = 0.0, atol: float = 0.0
) -> tuple[Mismatch | None, int]:
    """First differing element over the array arguments, and the number of elements compared."""
    n = 0
    for i, (e, g) in enumerate(zip(expected, got, strict=True)):
        if not isinstance(e, np.ndarray):
            continue
        assert isinstance(g, np.ndarray)
        ef, gf = e.reshape(-1), g.reshape(-1)
        n += ef.size
        if np.issubdtype(ef.dtype, np.floating):
            same = (ef == gf) | (np.isnan(ef) & np.isnan(gf))
            if rtol or atol:
                same |= np.isclose(gf, ef, rtol=rtol, atol=atol)
            else:
                same &= np.signbit(ef) == np.signbit(gf)  # bitwise: -0.0 differs from 0.0
        else:
            same = ef == gf
        bad = np.flatnonzero(~same)
        if bad.size:
            j = int(bad[0])
            return Mismatch(i, j, ef[j].item(), gf[j].item(), int(bad.size)), n
    return None, n


def validate(
    before: ModuleOp,
    after: ModuleOp,
    inputs: Inputs | Sequence[Arg],
    grid: tuple[int, ...] | None = None,
    func: str | None = None,
    *,
    rtol: float = 0.0,
    atol: float = 0.0,
) -> Result:
    """Run `before` and `after` on copies of `inputs` and compare every buffer.

    `inputs` is an `Inputs` (arguments and grid) or the argument list with
    `grid` given. Neither the inputs nor the modules are changed.
    """
    if not isinstance(inputs, Inputs):
        if grid is None:
            raise ValueError("validate: give a grid or an Inputs")
        inputs = Inputs(list(inputs), tuple(grid), func)
    func = func or inputs.func
    runs: list[list[Arg]] = []
    for label, module in (("before", before), ("after", after)):
        args = inputs.copy()
        try:
            run_kernel(module, args, inputs.grid, func)
        except InterpError as e:
            return Result(error=f"{label} the passes: {e}", error_op=e.op)
        runs.append(args)
    mismatch, n = compare(runs[0], runs[1], rtol, atol)
    return Result(mismatch, compared=n, outputs=[a for a in runs[1] if isinstance(a, np.ndarray)])


# ------------------------------------------------------------ random inputs


def random_buffer(t: Attribute, size: int, rng: np.random.Generator) -> np.ndarray:
    """Random values exactly representable in the pointee type `t`."""
    dt = T.np_dtype(t)
    if dt == np.bool_:
        return rng.integers(0, 2, size).astype(bool)
    if np.issubdtype(dt, np.integer):
        return rng.integers(-8, 8, size).astype(dt)
    return T.to_type(rng.standard_normal(size), t)


DEFAULT_INT = 40  # ragged against 16/32/64 tiles, and a consistent row-major stride for M=N=K
DEFAULT_FLOAT = 0.5
DEFAULT_BUFFER = 1 << 14


def random_inputs(
    module: ModuleOp,
    values: Mapping[str, float | int] | None = None,
    grid: tuple[int, ...] = (1,),
    func: str | None = None,
    seed: int = 0,
    buffer_elems: int = DEFAULT_BUFFER,
) -> Inputs:
    """Arguments for the kernel: random buffers for pointers, `values` for scalars.

    `values` maps an argument (`argN`, `%argN`, `N`, or its Python name when the
    kernel's source is at its location) to a scalar, or for a pointer to the
    buffer's element count. Unnamed integers default to 40, floats to 0.5, and
    buffers to 16384 elements.
    """
    fn = pick_function(module, func)
    names = argument_names(fn)
    n_args = len(fn.function_type.inputs.data)
    given: dict[int, float | int] = {}
    for k, v in (values or {}).items():
        i = _key(k, names)
        if i >= n_args:
            raise ValueError(f"unknown kernel argument '{k}': '{fn.sym_name.data}' takes {n_args} arguments")
        given[i] = v
    rng = np.random.default_rng(seed)
    args: list[Arg] = []
    for i, t in enumerate(fn.function_type.inputs.data):
        v = given.pop(i, None)
        if isinstance(t, tt.PointerType):
            args.append(random_buffer(t.pointee, int(v) if v is not None else buffer_elems, rng))
        elif T.is_float(t):
            args.append(float(v) if v is not None else DEFAULT_FLOAT)
        else:
            args.append(int(v) if v is not None else DEFAULT_INT)
    return Inputs(args, grid, fn.sym_name.data)


def _key(k: str, names: list[str]) -> int:
    m = re.fullmatch(r"%?(?:arg)?(\d+)", k.strip())
    if m:
        return int(m.group(1))
    if k in names:
        return names.index(k)
    known = ", ".join(names) if names else "none (use argN)"
    raise ValueError(f"unknown kernel argument '{k}'; names: {known}")


def argument_names(fn: tt.FuncOp) -> list[str]:
    """Python names of a kernel's runtime arguments, from the source at its location.

    Triton drops constexpr parameters from the signature, so the names are the
    `def`'s parameters not annotated `tl.constexpr`. [] if the source is not there
    or does not fit.
    """
    loc = getattr(fn, "location", None)
    if not isinstance(loc, FileLineColLoc):
        return []
    try:
        tree = ast.parse(Path(loc.filename.data).read_text())
    except (OSError, SyntaxError, ValueError):
        return []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.lineno <= loc.line.data <= node.body[0].lineno and (
            node.name == fn.sym_name.data
        ):
            names = [a.arg for a in node.args.args if "constexpr" not in ast.unparse(a.annotation or ast.Constant(""))]
            return names if len(names) == len(fn.function_type.inputs.data) else []
    return []


def parse_spec(spec: str) -> tuple[dict[str, float | int], dict[str, str]]:
    """`M=48,N=40,grid=3x2,seed=1,rtol=1e-6` -> (argument values, options)."""
    values: dict[str, float | int] = {}
    options: dict[str, str] = {}
    for item in re.split(r"[,\s]+", spec.strip()):
        if not item:
            continue
        if "=" not in item:
            raise ValueError(f"--verify-semantics: expected NAME=VALUE, got '{item}'")
        k, v = (s.strip() for s in item.split("=", 1))
        if k in ("grid", "seed", "rtol", "atol", "func", "buffer"):
            options[k] = v
            continue
        try:
            values[k] = int(v, 0)
        except ValueError:
            try:
                values[k] = float(v)
            except ValueError:
                raise ValueError(f"--verify-semantics: '{k}' needs a number, got '{v}'") from None
    return values, options


def parse_grid(text: str) -> tuple[int, ...]:
    try:
        grid = tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--verify-semantics: grid must look like 6 or 3x2, got '{text}'") from None
    if not 1 <= len(grid) <= 3 or min(grid) < 1:
        raise ValueError(f"--verify-semantics: grid must have 1 to 3 positive sizes, got '{text}'")
    return grid


def validate_spec(before: ModuleOp, after: ModuleOp, spec: str) -> Result:
    """`validate` on random inputs described by a `--verify-semantics` string."""
    values, options = parse_spec(spec)
    try:
        inputs = random_inputs(
            before,
            values,
            parse_grid(options.get("grid", "1")),
            options.get("func"),
            int(options.get("seed", "0")),
            int(options.get("buffer", str(DEFAULT_BUFFER))),
        )
    except InterpError as e:
        return Result(error=str(e), error_op=e.op)
    return validate(
        before, after, inputs, rtol=float(options.get("rtol", "0")), atol=float(options.get("atol", "0"))
    )
