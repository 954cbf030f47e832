"""What our code needs of xDSL's internals, in one module; nothing of xDSL is changed.

Every piece here is ours (a function, a trait subclass, a decorator for our own op
classes); xDSL's classes and modules stay as they are for every other user of xDSL in the
process (tests/python/ir/test_xdsl_adapt.py checks it). Text: ir/xdsl_text.py.

- `new_op`: what `Operation.create` builds for a fresh op without regions, without the
  general path of `Operation.__init__` (4x cheaper; the fast op parsers build with it).
  Upstream: a fast path in `Operation.create` when nothing is attached yet.
- `IsolatedUnlessProven`: IsolatedFromAbove's verifier walks the whole op (a function) on
  every verification; RemoveLayoutConversions' incremental validity check and the parser
  prove the same property themselves and skip the walk inside `isolation_unchecked()` (in
  this context only). Our dialects' isolated ops declare this trait instead of xDSL's (a
  subclass: `has_trait(IsolatedFromAbove)` holds). Upstream, a verifier that checks only
  changed ops needs a change-tracking hook xDSL does not have.
- `op_definition`: `irdl_op_definition` for our op classes, with the declarative
  `assembly_format` read when the op is first parsed or printed (xDSL reads it when the
  class is defined: ~0.5 ms per op, 100 of our ops, a kernel uses a dozen); the program and
  any error in it are upstream's, raised then. `format_program(cls)` reads one now (tests
  read every format of our dialects). Upstream: a `functools.cache`d program in
  `get_accessors_from_op_def`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from operator import attrgetter
from typing import Any, TypeVar

from xdsl.dialects.builtin import UNKNOWN_LOC as _UNKNOWN_LOC
from xdsl.ir import Operation, OpResult, SSAValues, Use
from xdsl.irdl import IRDLOperation, OptionalDef, irdl_op_definition
from xdsl.traits import IsolatedFromAbove

# ----------------------------------------------------------- IsolatedFromAbove, skippable

_UNCHECKED: ContextVar[bool] = ContextVar("isolation_unchecked", default=False)


class IsolatedUnlessProven(IsolatedFromAbove):
    """IsolatedFromAbove, whose verifier leaves the walk to the caller inside `isolation_unchecked()`."""

    def verify(self, op: Operation) -> None:
        if not _UNCHECKED.get():
            super().verify(op)


@contextmanager
def isolation_unchecked() -> Iterator[None]:
    """IsolatedUnlessProven's verifier is skipped inside this block, in this context only (the
    caller proves the property itself)."""
    token = _UNCHECKED.set(True)
    try:
        yield
    finally:
        _UNCHECKED.reset(token)

# ----------------------------------------------------------- building an op, cheaply


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
# An op's operands as the tuple it holds (xDSL's `operands` builds a view per call).
operand_values = attrgetter("_operands")


# ----------------------------------------------------------- parser and printer internals
# (no public peek at the next token, no public dialect-body reader or line break in xDSL 0.74)

def next_token_text(parser: Any) -> str:
    """The text of the token `parser` is at, not consumed."""
    return parser._current_token.text  # pyright: ignore[reportPrivateUsage]


def parse_dialect_symbol_body(parser: Any) -> str:
    """The `<...>` body of a dialect attribute or type, as text (the brackets included)."""
    return parser._parse_dialect_symbol_body()  # pyright: ignore[reportPrivateUsage]


def print_new_line(printer: Any) -> None:
    """A line break at the printer's indentation."""
    printer._print_new_line()  # pyright: ignore[reportPrivateUsage]


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

_Op = TypeVar("_Op", bound=type[IRDLOperation])


def op_definition(cls: _Op) -> _Op:
    """`irdl_op_definition(cls)`, the class's `assembly_format` read on its first parse or print."""
    fmt = getattr(cls, "assembly_format", None)
    if fmt is None:
        return irdl_op_definition(cls)
    own = "assembly_format" in vars(cls)
    cls.assembly_format = None  # (upstream's accessors without the format's parse/print)
    try:
        irdl_op_definition(cls)
    finally:
        if own:
            cls.assembly_format = fmt
        else:
            del cls.assembly_format
    op_def = cls.get_irdl_definition()
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

    def parse_with_format(cls: type[Operation], parser: Any) -> Operation:
        return read().parse(parser, cls)

    def print_with_format(self: Operation, printer: Any) -> None:
        return read().print(printer, self)

    print_with_format.format_program = read  # type: ignore[attr-defined]
    cls.parse = classmethod(parse_with_format)  # type: ignore[assignment]
    cls.print = print_with_format  # type: ignore[assignment,method-assign]
    return cls


def format_program(cls: type[Operation]) -> Any:
    """The declarative format program of `cls` (read now if not yet), or None."""
    read = getattr(cls.print, "format_program", None)
    return None if read is None else read()


def append_operand(op: Operation, value: Any) -> Callable[[], None]:
    """`value` as `op`'s new last operand (its use first in `value`'s list), the other operands'
    uses left where they are in their lists (xDSL's setter re-adds them all); returns the undo."""
    olds, uses = op._operands, op._operand_uses  # pyright: ignore[reportPrivateUsage]
    use = Use(op, len(olds))
    value.add_use(use)
    op._operands, op._operand_uses = SSAValues((*olds, value)), (*uses, use)  # pyright: ignore[reportPrivateUsage]

    def undo() -> None:
        value.remove_use(use)
        op._operands, op._operand_uses = olds, uses  # pyright: ignore[reportPrivateUsage]

    return undo
