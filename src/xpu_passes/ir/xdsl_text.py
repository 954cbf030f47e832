"""xDSL's lexer, parser and printer, subclassed for our front end (nothing of xDSL replaced).

Only our parser (`frontend/fast/memo.MemoParser` and its subclasses) and our printer
(`frontend/aliases.AliasPrinter` and below) use these classes; xDSL's own `MLIRLexer`,
`Parser` and `Printer` stay as they are for everyone else in the process.

- `TextLexer`: xDSL's lexer dispatches per character in Python and builds a dict on
  every token; one master regex reads the common tokens of MLIR text (the same kinds and
  spans), anything else (EOF, `...`, `{-#`, escaped strings, `@"..."`, non-ASCII, errors)
  goes to xDSL's own code. Its string-literal regex nests quantifiers
  (`(?:[^"]+|...)*`), so an unterminated string (a truncated file) backtracks
  exponentially: the lexer hangs. The same language without the nesting is linear.
- `TextParser`: xDSL's parser over a `TextLexer`. Dense literals:
  - xDSL 0.74 reads a hexadecimal element of a float `dense<...>` literal
    (`dense<0xFF800000> : tensor<64xf32>`, how MLIR prints -inf) as an integer and converts
    its value, giving 4.29e9 instead of -inf; MLIR reads the bit pattern (`_Element`).
  - A splat `dense<x>`: xDSL repeats the element for every position of the type and packs
    each copy (a 256x256 i32 splat is 65,536 Python calls); here one copy is packed and
    `from_list` repeats its bytes (the same bytes).
  - `_parse_dense_literal_type` builds the constraint `base(RankedStructure[...])` (~1 ms,
    a walk over generic arguments) on every dense literal; here it is built once.
- `TextPrinter`: `print_string` (called per token) goes through `print()` and counts
  newlines; text without one is written directly. `print_bytes_literal` printed a string
  literal byte by byte (a location's file path: 60 calls); one needing no escape is
  printed whole. A dense attribute is a splat when all its elements have the same bits
  (MLIR's test; xDSL unpacks every element and compares values: `-0.0 == 0.0`, NaN != NaN).
"""

from __future__ import annotations

import re
import struct
import sys
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    RankedStructure,
)
from xdsl.ir import Attribute
from xdsl.irdl import base
from xdsl.parser import AttrParser, Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.utils.lexer import Input, Span, Token
from xdsl.utils.mlir_lexer import KIND_BY_PUNCTUATION_SPELLING, MLIRLexer, MLIRTokenKind, StringLiteral

_TOKEN = re.compile(
    r"(?>(?:[ \t\n\r\f\v]+|//[^\n]*)*)"  # atomic: never a token inside a comment
    r"(?:"
    r"(?P<BARE_IDENT>[a-zA-Z_][a-zA-Z0-9_$.]*)"
    r"|(?P<PERCENT_IDENT>%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))"
    r"|(?P<HASH_IDENT>#(?!-\})(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))"
    r"|(?P<EXCLAMATION_IDENT>!(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))"
    r"|(?P<CARET_IDENT>\^(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))"
    r"|(?P<AT_IDENT>@[a-zA-Z_][a-zA-Z0-9_$.]*)"
    r"|(?P<ARROW>->)"
    r"|(?P<punct>[:,()}\[\]<>=+/*?|-]|\{(?!-\#))"
    r'|(?P<STRING_LIT>"[^"\\\n\v\f]*")'
    r"|(?P<HEX>0x[0-9a-fA-F]+)"
    r"|(?P<FLOAT_LIT>[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<INTEGER_LIT>[0-9]+)"
    r")"
)
_PUNCT: dict[str, MLIRTokenKind] = {c: k for c, k in KIND_BY_PUNCTUATION_SPELLING.items() if len(c) == 1}
_GROUP_KIND: dict[str, MLIRTokenKind] = {
    "BARE_IDENT": MLIRTokenKind.BARE_IDENT,
    "PERCENT_IDENT": MLIRTokenKind.PERCENT_IDENT,
    "HASH_IDENT": MLIRTokenKind.HASH_IDENT,
    "EXCLAMATION_IDENT": MLIRTokenKind.EXCLAMATION_IDENT,
    "CARET_IDENT": MLIRTokenKind.CARET_IDENT,
    "AT_IDENT": MLIRTokenKind.AT_IDENT,
    "ARROW": MLIRTokenKind.ARROW,
    "HEX": MLIRTokenKind.INTEGER_LIT,
    "FLOAT_LIT": MLIRTokenKind.FLOAT_LIT,
    "INTEGER_LIT": MLIRTokenKind.INTEGER_LIT,
}


class TextLexer(MLIRLexer):
    """MLIRLexer with the common tokens read by one regex, and a linear string regex."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')

    def lex(self) -> Token[MLIRTokenKind, str]:
        m = _TOKEN.match(self.input.content, self.pos)
        if m is None:
            return super().lex()
        group = m.lastgroup
        start, end = m.span(group)
        self.pos = end
        if group == "punct":
            return Token(_PUNCT[m.group(group)], Span(start, end, self.input))
        if group == "STRING_LIT":
            return Token(MLIRTokenKind.STRING_LIT, StringLiteral(start, end, self.input))
        return Token(_GROUP_KIND[group], Span(start, end, self.input))  # type: ignore[index]


_DENSE_LITERAL_TYPE = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])
_DYNAMIC = -1  # xDSL's DYNAMIC_INDEX


_FLOAT_BITS: dict[type, tuple[str, int]] = {Float16Type: ("<e", 2), Float32Type: ("<f", 4), Float64Type: ("<d", 8)}


def _bits_to_float(bits: int, type: AnyFloat) -> float | None:
    if isinstance(type, BFloat16Type):
        return struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0] if bits < 1 << 16 else None
    fmt = _FLOAT_BITS.get(type.__class__)
    if fmt is None or bits >= 1 << (8 * fmt[1]):
        return None
    return struct.unpack(fmt[0], bits.to_bytes(fmt[1], "little"))[0]


class _Element(AttrParser._TensorLiteralElement):  # type: ignore[name-defined,misc]
    """A dense literal's element: a hexadecimal one of a float type is its bit pattern."""

    def to_type(self, parser: AttrParser, type: Any) -> Any:
        if (isinstance(type, AnyFloat) and self.value.__class__ is int
                and self.span.text[:2].lower() == "0x"):
            value = _bits_to_float(self.value, type)
            if value is not None:
                return value
        return super().to_type(parser, type)


_NOT_SPLAT = (MLIRTokenKind.L_SQUARE, MLIRTokenKind.STRING_LIT, MLIRTokenKind.GREATER)


class TextParser(Parser):
    """xDSL's parser reading through a TextLexer."""

    _TensorLiteralElement = _Element  # (xDSL's parser builds its elements through this name)

    # xDSL's lexer state under public names for our front end's fast paths: the same objects
    # (a property, a method), so reading them costs what reading xDSL's private names did.
    current_token = Parser._current_token  # the token under the cursor, not consumed
    resume_from = Parser._resume_from  # move the cursor to a text position (the next token lexed there)

    @property
    def dialect_stack(self) -> list[str]:
        """The dialect names an op's name is looked up in (innermost last), as xDSL keeps them."""
        return self._parser_state.dialect_stack

    def __init__(self, ctx: Context, input: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, "", name)  # (then the state over our lexer: the empty text lexes EOF)
        self._parser_state = ParserState(TextLexer(Input(input, name)))

    def _parse_dense_literal_type(self) -> Any:
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not _DENSE_LITERAL_TYPE.verifies(type):
            self.raise_error("Expected memref, vector or tensor type of integer, index, float, or complex type")
        if any(dim == _DYNAMIC for dim in type.get_shape()):  # type: ignore[attr-defined]
            self.raise_error("Dense literal attribute should have a static shape.")
        return type

    def parse_dense_int_or_fp_elements_attr(self, type: Any) -> DenseIntOrFPElementsAttr:
        start = self.pos
        self.parse_punctuation("<", " in dense attribute")
        if self._current_token.kind not in _NOT_SPLAT:
            element = self._parse_tensor_literal_element()
            if self.parse_optional_punctuation(">") is not None:
                if type is None:
                    self.parse_punctuation(":", " in dense attribute")
                    type = self._parse_dense_literal_type()
                value = element.to_type(self, type.element_type)
                return DenseIntOrFPElementsAttr.from_list(type, [value])  # (packed once, its bytes repeated)
        self._resume_from(start)  # (a list, hex text or empty: xDSL's own reading)
        return super().parse_dense_int_or_fp_elements_attr(type)


_NO_ESCAPE = re.compile(rb"[\x20\x21\x23-\x5b\x5d-\x7e]*")  # printable ASCII but `"` and `\`


class TextPrinter(Printer):
    """xDSL's printer writing a token without a newline directly; dense splats by their bits."""

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr):
            self.print_dense(attribute)
            return
        super().print_attribute(attribute)

    def print_dense(self, attr: DenseIntOrFPElementsAttr) -> None:
        """`dense<...> : type`, a splat when every element has the same bits."""
        data, length = attr.data.data, len(attr)
        self.print_string("dense<")
        if length:
            size = len(data) // length
            if data == data[:size] * length:
                attr._print_one_elem(attr.get_element_type().unpack(data[:size], 1)[0], self)  # type: ignore[attr-defined]
            elif length > 100:
                self.print_string(f'"0x{data.hex().upper()}"')
            else:
                shape = attr.get_shape() if attr.shape_is_complete else (length,)
                attr._print_dense_list(attr.get_values(), shape, self)  # type: ignore[attr-defined]
        self.print_string("> : ")
        self.print_attribute(attr.get_type())

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        (self.stream if self.stream is not None else sys.stdout).write(text)

    def print_bytes_literal(self, bytestring: bytes) -> None:
        if _NO_ESCAPE.fullmatch(bytestring) is None:
            super().print_bytes_literal(bytestring)
            return
        self.print_string('"' + bytestring.decode("ascii") + '"')
