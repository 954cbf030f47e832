"""Pieces of Triton's custom op syntax that xDSL has no declarative form for.

MLIR prints an op's inherent attributes (properties) and discardable attributes
as one `{...}` dictionary, sorted by name, without those equal to their default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, IntegerAttr, i32
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, operand_def, result_def
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from xpu_passes.ir.xdsl_adapt import next_token_text


def i32_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i32)


def parse_attr_dict(parser: Parser, inherent: Sequence[str]) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Parse an optional `{...}`; split it into (properties, attributes)."""
    entries = parser.parse_optional_attr_dict()
    props = {k: v for k, v in entries.items() if k in inherent}
    attrs = {k: v for k, v in entries.items() if k not in inherent}
    return props, attrs


def print_attr_dict(
    printer: Printer,
    op: Operation,
    defaults: Mapping[str, Attribute | None] = {},
    skip: Sequence[str] = (),
) -> None:
    """Print properties + attributes as one sorted dict, dropping defaults."""
    merged: dict[str, Attribute] = {}
    for k, v in (*op.properties.items(), *op.attributes.items()):
        if k in skip or (k in defaults and defaults[k] == v):
            continue
        merged[k] = v
    if merged:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(merged.items())))


def parse_keyword_enum(parser: Parser, cases: Mapping[str, int], what: str) -> IntegerAttr:
    """A keyword such as `ca` stored as its i32 value, as Triton's I32EnumAttr."""
    pos = parser.pos
    # MLIR reads an enum keyword or the same word quoted (`"sgt"`).
    word = parser.parse_optional_identifier()
    if word is None:
        word = parser.parse_optional_str_literal()
    if word is None or word not in cases:
        parser.raise_error(f"expected {what} ({', '.join(cases)})", pos, parser.pos)
    return i32_attr(cases[word])


def enum_keyword(value: Attribute, cases: Mapping[str, int]) -> str:
    assert isinstance(value, IntegerAttr)
    for k, v in cases.items():
        if v == value.value.data:
            return k
    raise ValueError(f"no keyword for enum value {value.value.data}")


def keyword_directive(name: str, cases: Mapping[str, int], what: str) -> type[CustomDirective]:
    """A declarative-format directive for one of Triton's I32 enums, `custom<NAME>($prop)`.

    MLIR prints such an enum as its keyword (`acq_rel`); we keep its value as the i32
    IntegerAttr MLIR stores (what the generic form shows), so xDSL's `$prop` would print
    `4 : i32`: this directive prints and reads the keyword instead."""

    class Keyword(CustomDirective):
        attr: AttributeVariable

        def parse(self, parser: Parser, state: ParsingState) -> None:
            self.attr.set(state, parse_keyword_enum(parser, cases, what))

        def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
            value = self.attr.get(op)
            assert value is not None
            state.print_whitespace(printer)
            printer.print_string(enum_keyword(value, cases))

    Keyword.__name__ = Keyword.__qualname__ = name
    return irdl_custom_directive(Keyword)


def stripped_type_directive(name: str, cls: type[ParametrizedAttribute]) -> type[CustomDirective]:
    """A declarative-format directive, `custom<NAME>(type($x))`, for MLIR's `type($x)` of a
    TypeDef-constrained value: printed without its `!dialect.name` (`<tensor<4xf32>>`);
    both that and the full type are read, as MLIR's parser reads them."""

    class Stripped(CustomDirective):
        type: TypeDirective

        def parse(self, parser: Parser, state: ParsingState) -> None:
            self.type.set(state, (parse_stripped(parser, cls),))

        def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
            (t,) = self.type.get(op)
            state.print_whitespace(printer)
            print_stripped(printer, t)

    Stripped.__name__ = Stripped.__qualname__ = name
    return irdl_custom_directive(Stripped)


def parse_stripped(parser: Parser, cls: type[ParametrizedAttribute]) -> Attribute:
    """A type of class `cls` as MLIR's `type($x)` of a TypeDef prints it (`<64x32xf16>`), or in full."""
    pos = parser.pos
    if next_token_text(parser).startswith("!"):
        t = parser.parse_type()
    else:
        t = cls.new(cls.parse_parameters(parser))  # type: ignore[attr-defined]
    if not isinstance(t, cls):
        parser.raise_error(f"expected {cls.name} type, got {t}", pos, parser.pos)
    return t


def print_stripped(printer: Printer, t: Attribute) -> None:
    t.print_parameters(printer)  # type: ignore[attr-defined]


@irdl_custom_directive
class Offsets(CustomDirective):
    """Triton's `custom<Offsets>($offsets)`: a DenseI32ArrayAttr as `0, 16` (TritonGPU/IR/Ops.cpp)."""

    offsets: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        values = parser.parse_comma_separated_list(parser.Delimiter.NONE, lambda: parser.parse_integer(allow_boolean=False))
        self.offsets.set(state, DenseArrayBase.from_list(i32, values))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        value = self.offsets.get(op)
        assert isinstance(value, DenseArrayBase)
        state.print_whitespace(printer)
        printer.print_string(", ".join(str(v) for v in value.get_values()))


def parse_operand_list(parser: Parser, delimiter: Parser.Delimiter) -> list[SSAValue]:
    """`[%a, %b]`: operands whose types the op knows (i32/i64 offsets...)."""
    return parser.parse_comma_separated_list(delimiter, parser.parse_unresolved_operand)  # type: ignore[return-value]


def print_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def dictionary(attrs: Mapping[str, Attribute]) -> DictionaryAttr:
    return DictionaryAttr(dict(attrs))


def emit(printer: Printer, *parts: str | Attribute) -> None:
    """Print text and attributes in order; attributes go through the printer (aliases)."""
    for part in parts:
        if isinstance(part, str):
            printer.print_string(part)
        else:
            printer.print_attribute(part)


class UnaryOp(IRDLOperation):
    """Base of ops whose Triton format is `$src attr-dict `:` type($src) `->` type($result)`."""

    src = operand_def()
    result = result_def()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"
