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
- `TextParser`: xDSL's parser over a `TextLexer`; `_parse_dense_literal_type` builds the
  constraint `base(RankedStructure[...])` (~1 ms, a walk over generic arguments) on every
  dense literal; here it is built once.
- `TextPrinter`: `print_string` (called per token) goes through `print()` and counts
  newlines; text without one is written directly. `print_bytes_literal` printed a string
  literal byte by byte (a location's file path: 60 calls); one needing no escape is
  printed whole.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from xpu_passes.ir import xdsl_adapt  # noqa: F401  (first: it enters xdsl.dialects without running its __init__)

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, ComplexType, IndexType, IntegerType, RankedStructure
from xdsl.irdl import base
from xdsl.parser import Parser
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


class TextParser(Parser):
    """xDSL's parser reading through a TextLexer."""

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


_NO_ESCAPE = re.compile(rb"[\x20\x21\x23-\x5b\x5d-\x7e]*")  # printable ASCII but `"` and `\`


class TextPrinter(Printer):
    """xDSL's printer writing a token without a newline directly."""

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
