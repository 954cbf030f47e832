"""Fixes to xDSL's reading of MLIR text, applied once when the front end is imported.

The lexer, the string-literal regex, the dense literal's type check and the printer's
`print_string`/`print_bytes_literal` are subclassed instead (ir/xdsl_text.py: only our
parser and printer use them). What is still set on xDSL here (to move the same way):
- xDSL 0.74 reads a hexadecimal element of a float `dense<...>` literal
  (`dense<0xFF800000> : tensor<64xf32>`, how MLIR prints -inf) as an integer and
  converts its value, giving 4.29e9 instead of -inf. MLIR reads the bit pattern.

Speed (same results, less work; each is a change xDSL could take as is):
- Splat dense literals: the parser repeats the one element for every position of the
  type and `from_list` then normalizes and packs each copy (a 256x256 i32 splat is
  65,536 Python calls). `from_list` packs one copy and repeats the bytes when all
  elements are the same object (the parser's repetition); the stored bytes are the same.
- Printing a dense attribute unpacked every element to decide whether it is a splat;
  the splat test compares the bytes instead (MLIR's own test is bitwise too).
- `Operation.__init__` gets its default location from `_unknown_loc`, which runs an
  import statement on every call (every op built: ~2% of a parse); the same object,
  imported once.
- `new_op`: what `Operation.create` builds for a fresh op without regions, without the
  general path of `Operation.__init__` (4x cheaper; the fast op parsers build with it).
  Upstream: a fast path in `Operation.create` when nothing is attached yet.
- `isolation_unchecked()`: `IsolatedFromAbove.verify` walks the whole op (a function:
  the module) on every verification; RemoveLayoutConversions' incremental validity check
  proves the same property on the ops a trial touched (`solution._isolated`) and skips the
  walk inside this block, in this thread only. Upstream, a verifier that checks only
  changed ops needs a change-tracking hook xDSL does not have.
- Start-up: `irdl_op_definition` reads each op's `assembly_format` when the class is
  defined (~0.5 ms per op; loading our dialects and xDSL's arith reads 106 of them, a
  kernel uses a dozen). `_lazy_format_accessors` reads a format when its op is first
  parsed or printed; the program and any error in it are upstream's, raised then.
  `format_program(cls)` reads one now (tests read every format of our dialects).
  Upstream: a `functools.cache`d program in `get_accessors_from_op_def`.
- Start-up: the `xdsl.dialects` package's `__init__` (`get_all_dialects`, and a finder
  for `.irdl` dialect files, which imports `importlib.abc`/`importlib.resources`/
  `tempfile`...: ~15 ms) runs before any dialect module is imported, though importing
  one needs none of it. `_enter_dialects_package` enters the package without running
  it; its own names (`get_all_dialects`...) run it on first access. Upstream: the finder
  registered by the tools that read `.irdl` files, `get_all_dialects` in its own module.
"""

from __future__ import annotations

import importlib.util
import math
import struct
import sys
from operator import attrgetter
from typing import Any


def _enter_dialects_package() -> None:
    if "xdsl.dialects" in sys.modules:
        return
    spec = importlib.util.find_spec("xdsl.dialects")
    if spec is None or spec.loader is None or not spec.submodule_search_locations:
        return
    package = importlib.util.module_from_spec(spec)
    ran: list[bool] = []

    def __getattr__(name: str) -> object:  # (a module's own __getattr__: names not set yet)
        if not ran and not name.startswith("__"):
            if importlib.util.find_spec(f"xdsl.dialects.{name}") is not None:
                raise AttributeError(name)  # a submodule: the import system loads it
            ran.append(True)
            spec.loader.exec_module(package)  # type: ignore[union-attr]  (upstream's __init__, now)
            if name in vars(package):
                return vars(package)[name]
        raise AttributeError(f"module 'xdsl.dialects' has no attribute '{name}'")

    package.__getattr__ = __getattr__  # type: ignore[attr-defined]
    sys.modules["xdsl.dialects"] = package
    parent = sys.modules.get("xdsl")
    if parent is not None:
        parent.dialects = package  # type: ignore[attr-defined]


_enter_dialects_package()

from xdsl.dialects.builtin import (  # noqa: E402  (after the package is entered)
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
)
from xdsl.parser import AttrParser  # noqa: E402
from xdsl.printer import Printer  # noqa: E402

_FORMATS: dict[type, tuple[str, int]] = {Float16Type: ("<e", 2), Float32Type: ("<f", 4), Float64Type: ("<d", 8)}

_Element = AttrParser._TensorLiteralElement  # type: ignore[attr-defined]
_original_to_type = _Element.to_type


def _bits_to_float(bits: int, type: AnyFloat) -> float | None:
    if isinstance(type, BFloat16Type):
        return struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0]
    fmt = _FORMATS.get(type.__class__)
    if fmt is None:
        return None
    return struct.unpack(fmt[0], bits.to_bytes(fmt[1], "little"))[0]


def _to_type(self: Any, parser: AttrParser, type: Any) -> Any:
    if isinstance(type, AnyFloat) and self.span.text.lower().startswith("0x") and isinstance(self.value, int):
        value = _bits_to_float(self.value, type)
        if value is not None:
            return value
    return _original_to_type(self, parser, type)


_Element.to_type = _to_type


_original_from_list = DenseIntOrFPElementsAttr.from_list


def _from_list(type: Any, data: Any) -> DenseIntOrFPElementsAttr:
    n = len(data)
    if (
        n > 1
        and isinstance(data, list)
        and all(x is data[0] for x in data[:8])
        and data.count(data[0]) == n
        and math.prod(type.get_shape()) == n
    ):
        return _original_from_list(type, data[:1])  # xDSL repeats the bytes of a 1-element list
    return _original_from_list(type, data)


DenseIntOrFPElementsAttr.from_list = staticmethod(_from_list)  # type: ignore[method-assign,assignment]


def _is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    data = self.data.data
    size = self.type.element_type.compile_time_size
    return len(data) >= size and data == data[:size] * (len(data) // size)


def _print_without_type(self: DenseIntOrFPElementsAttr, printer: Printer) -> None:
    printer.print_string("dense")
    length = len(self)
    with printer.in_angle_brackets():
        if length == 0:
            pass
        elif self.is_splat():
            size = self.type.element_type.compile_time_size
            self._print_one_elem(self.get_element_type().unpack(self.data.data[:size], 1)[0], printer)
        elif length > 100:
            printer.print_string(f'"0x{self.data.data.hex().upper()}"')
        else:
            shape = self.get_shape() if self.shape_is_complete else (length,)
            self._print_dense_list(self.get_values(), shape, printer)


DenseIntOrFPElementsAttr.is_splat = _is_splat  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.print_without_type = _print_without_type  # type: ignore[method-assign]

import xdsl.ir.core as _ir_core  # noqa: E402
from xdsl.dialects.builtin import UNKNOWN_LOC as _UNKNOWN_LOC  # noqa: E402


def _unknown_loc() -> Any:
    return _UNKNOWN_LOC


_ir_core._unknown_loc = _unknown_loc  # type: ignore[attr-defined]


# ----------------------------------------------------------- IsolatedFromAbove, skippable

import threading  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402

from xdsl.ir import Operation  # noqa: E402
from xdsl.traits import IsolatedFromAbove  # noqa: E402

_SKIP = threading.local()  # per thread: whether IsolatedFromAbove's verifier is left to the caller
_FULL_ISOLATION = IsolatedFromAbove.verify


def _isolation(self: IsolatedFromAbove, op: Operation) -> None:
    if not getattr(_SKIP, "on", False):
        _FULL_ISOLATION(self, op)


@contextmanager
def isolation_unchecked() -> Iterator[None]:
    """IsolatedFromAbove's verifier is skipped inside this block, in this thread only (the
    caller proves the property itself). Wrapped once, on first use."""
    if IsolatedFromAbove.verify is not _isolation:
        IsolatedFromAbove.verify = _isolation  # type: ignore[method-assign]
    _SKIP.on = True
    try:
        yield
    finally:
        _SKIP.on = False


# ----------------------------------------------------------- building an op, cheaply

from xdsl.ir import OpResult, SSAValues, Use  # noqa: E402
from xdsl.irdl import IRDLOperation, OptionalDef  # noqa: E402

_DEFAULTS: dict[type, tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]] | None] = {}
_UNSEEN = object()


def op_defaults(cls: type[Operation]) -> tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]] | None:
    """The default properties and attributes IRDLOperation.__post_init__ fills in; None for a
    class that builds itself otherwise (its own __init__ or __post_init__)."""
    if cls in _DEFAULTS:
        return _DEFAULTS[cls]
    found = None
    if issubclass(cls, IRDLOperation) and cls.__post_init__ is IRDLOperation.__post_init__:
        op_def = cls.get_irdl_definition()
        pick = lambda defs: tuple(  # noqa: E731
            (n, d.default_value) for n, d in defs.items() if not isinstance(d, OptionalDef) and d.default_value is not None
        )
        found = (pick(op_def.properties), pick(op_def.attributes))
    _DEFAULTS[cls] = found
    return found


# An SSA value's type read from its slot (xDSL's `type` is a property: a Python call per read).
value_type = attrgetter("_type")


def new_op(
    cls: type[Operation],
    operands: Any = (),
    result_types: Any = (),
    properties: dict[str, Any] | None = None,
    attributes: dict[str, Any] | None = None,
    regions: Any = (),
) -> Operation:
    """`cls.create(operands=..., result_types=..., properties=..., attributes=..., regions=...)` for
    an op without successors (regions: new ones, as the fast parsers give): the same object, without Operation.__init__'s general
    path (a property setter that first unlinks the old operands, generators, the successor
    setter): a quarter of a fast-parsed op's cost. The dicts given are the op's own (callers
    pass fresh ones). Upstream: a fast path in Operation.create for a fresh op."""
    defaults = _DEFAULTS.get(cls, _UNSEEN)
    if defaults is _UNSEEN:
        defaults = op_defaults(cls)
    if defaults is None:
        return cls.create(operands=operands, result_types=result_types, properties=properties or {},
                          attributes=attributes or {}, regions=regions)
    op = cls.__new__(cls)
    uses = []
    for i, value in enumerate(operands):
        use = Use(op, i)
        first = value.first_use
        use._next_use = first
        if first is not None:
            first._prev_use = use
        value.first_use = use
        uses.append(use)
    op._operands = SSAValues(operands)
    op._operand_uses = tuple(uses)
    if len(result_types) == 1:  # (most ops: no list comprehension)
        op.results = SSAValues((OpResult(result_types[0], op, 0),))
    else:
        op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    props = {} if properties is None else properties
    attrs = {} if attributes is None else attributes
    if defaults[0]:
        for name, value in defaults[0]:
            if name not in props:
                props[name] = value
    if defaults[1]:
        for name, value in defaults[1]:
            if name not in attrs:
                attrs[name] = value
    op.properties = props
    op.attributes = attrs
    op.location = _UNKNOWN_LOC
    op._successors = ()
    op._successor_uses = ()
    op.regions = ()
    for region in regions:
        op.add_region(region)  # (its check: a region attached elsewhere is an error)
    return op


# ----------------------------------------------------------- declarative formats, read on first use

from xdsl.irdl import operations as _operations  # noqa: E402

_upstream_accessors = _operations.get_accessors_from_op_def


def _lazy_format_accessors(op_def: Any, custom_verify: Any | None) -> dict[str, Any]:
    fmt = op_def.assembly_format
    if fmt is None:
        return _upstream_accessors(op_def, custom_verify)
    op_def.assembly_format = None  # (upstream's accessors without the format's parse/print)
    try:
        attrs = _upstream_accessors(op_def, custom_verify)
    finally:
        op_def.assembly_format = fmt
    program: list[Any] = []

    def read() -> Any:
        if not program:
            from xdsl.irdl.declarative_assembly_format import FormatProgram
            from xdsl.utils.exceptions import ParseError, PyRDLOpDefinitionError

            try:
                program.append(FormatProgram.from_str(fmt, op_def))
            except ParseError as e:  # (upstream's error, as irdl_op_definition raises it)
                raise PyRDLOpDefinitionError("Error during the parsing of the assembly format: ", e.args) from e
        return program[0]

    @classmethod  # type: ignore[misc]
    def parse_with_format(cls: type[Operation], parser: Any) -> Operation:
        return read().parse(parser, cls)

    def print_with_format(self: Operation, printer: Any) -> None:
        return read().print(printer, self)

    print_with_format.format_program = read  # type: ignore[attr-defined]
    attrs["parse"] = parse_with_format
    attrs["print"] = print_with_format
    return attrs


def format_program(cls: type[Operation]) -> Any:
    """The declarative format program of `cls` (read now if not yet), or None."""
    read = getattr(cls.print, "format_program", None)
    return None if read is None else read()


_operations.get_accessors_from_op_def = _lazy_format_accessors
