"""Layout attributes written `#dialect.name<{key = value, ...}>`, as Triton prints them.

Each layout declares its keys once (`FIELDS`); parsing, printing and typed access
follow from that. Absent optional keys are stored as NoneAttr so that printing
reproduces exactly what was read (e.g. DPAS with or without `A/B/C`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, IntAttr, IntegerAttr, NoneAttr, i1
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@dataclass(frozen=True)
class Field:
    key: str  # as spelled in the IR, e.g. `sizePerThread`
    kind: str  # int | bool | ints | ints2d | attr
    optional: bool = False


def _parse_ints(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))


def _parse_value(parser: AttrParser, kind: str) -> Attribute:
    if kind == "int":
        return IntAttr(parser.parse_integer(allow_boolean=False))
    if kind == "bool":
        return BoolAttr.from_bool(parser.parse_boolean())
    if kind == "ints":
        return ArrayAttr(IntAttr(v) for v in _parse_ints(parser))
    if kind == "ints2d":
        rows = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_ints(parser))
        return ArrayAttr(ArrayAttr(IntAttr(v) for v in row) for row in rows)
    return parser.parse_attribute()


def _print_value(printer: Printer, value: Attribute, kind: str) -> None:
    if kind == "int":
        assert isinstance(value, IntAttr)
        printer.print_string(str(value.data))
    elif kind == "bool":
        assert isinstance(value, IntegerAttr)
        printer.print_string("true" if value.value.data else "false")
    elif kind == "ints":
        assert isinstance(value, ArrayAttr)
        printer.print_string("[" + ", ".join(str(v.data) for v in value.data) + "]")  # type: ignore[union-attr]
    elif kind == "ints2d":
        assert isinstance(value, ArrayAttr)
        rows = ("[" + ", ".join(str(v.data) for v in row.data) + "]" for row in value.data)  # type: ignore[union-attr]
        printer.print_string("[" + ", ".join(rows) + "]")
    else:
        printer.print_attribute(value)


def to_param(value: object, kind: str) -> Attribute:
    """A Python value (int, bool, list, attribute or None) as a stored parameter."""
    if value is None:
        return NoneAttr()
    if kind == "int":
        return IntAttr(int(value))  # type: ignore[arg-type]
    if kind == "bool":
        return IntegerAttr(int(bool(value)), i1)
    if kind == "ints":
        return ArrayAttr(IntAttr(int(v)) for v in value)  # type: ignore[attr-defined]
    if kind == "ints2d":
        return ArrayAttr(ArrayAttr(IntAttr(int(v)) for v in row) for row in value)  # type: ignore[attr-defined]
    assert isinstance(value, Attribute)
    return value


def from_param(value: Attribute, kind: str) -> object:
    """The stored parameter as a Python value (None when absent)."""
    if isinstance(value, NoneAttr) and kind != "attr":
        return None
    if kind == "int":
        return value.data  # type: ignore[attr-defined]
    if kind == "bool":
        return bool(value.value.data)  # type: ignore[attr-defined]
    if kind == "ints":
        return tuple(v.data for v in value.data)  # type: ignore[attr-defined]
    if kind == "ints2d":
        return tuple(tuple(v.data for v in row.data) for row in value.data)  # type: ignore[attr-defined]
    return value


class StructAttr(ParametrizedAttribute):
    """Base of layout attributes; subclasses declare FIELDS and one param per field."""

    FIELDS: ClassVar[tuple[Field, ...]] = ()

    @classmethod
    def make(cls, **values: object):  # type: ignore[no-untyped-def]
        """Build from Python values keyed by IR spelling, e.g. make(sizePerThread=[1, 4], ...)."""
        unknown = set(values) - {f.key for f in cls.FIELDS}
        if unknown:
            raise ValueError(f"{cls.name}: unknown keys {sorted(unknown)}")
        return cls(*(to_param(values.get(f.key), f.kind) for f in cls.FIELDS))

    def get(self, key: str) -> object:
        for f, p in zip(self.FIELDS, self.parameters):
            if f.key == key:
                return from_param(p, f.kind)
        raise KeyError(key)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        params = cls._parse_fields(parser)
        try:
            cls(*params)  # verify here, where the text position is known
        except VerifyException as e:
            parser.raise_error(str(e), start, parser.pos)
        return params

    @classmethod
    def _parse_fields(cls, parser: AttrParser) -> list[Attribute]:
        by_key = {f.key: f for f in cls.FIELDS}
        seen: dict[str, Attribute] = {}
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        if parser.parse_optional_punctuation("}") is None:
            while True:
                pos = parser.pos
                key = parser.parse_identifier(f"in {cls.name}: expected a key")
                field = by_key.get(key)
                if field is None:
                    parser.raise_error(
                        f"unknown key '{key}' in {cls.name} (expected one of {', '.join(by_key)})", pos, parser.pos
                    )
                if key in seen:
                    parser.raise_error(f"duplicate key '{key}' in {cls.name}", pos, parser.pos)
                parser.parse_punctuation("=")
                seen[key] = _parse_value(parser, field.kind)
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation("}")
        parser.parse_punctuation(">")
        missing = [f.key for f in cls.FIELDS if not f.optional and f.key not in seen]
        if missing:
            parser.raise_error(f"{cls.name} is missing {', '.join(repr(m) for m in missing)}")
        return [seen.get(f.key, NoneAttr()) for f in cls.FIELDS]

    def print_parameters(self, printer: Printer) -> None:
        parts = [(f, p) for f, p in zip(self.FIELDS, self.parameters) if not isinstance(p, NoneAttr)]
        printer.print_string("<{")
        for i, (f, p) in enumerate(parts):
            if i:
                printer.print_string(", ")
            printer.print_string(f"{f.key} = ")
            _print_value(printer, p, f.kind)
        printer.print_string("}>")
