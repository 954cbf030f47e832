"""Our lexer, parser and printer (subclasses of xDSL's: that nothing of xDSL changes is
tests/python/ir/test_xdsl_adapt.py's check): what they read and print differently."""

from __future__ import annotations

import math
from io import StringIO

import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, TensorType
from xdsl.parser import Parser
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from xpu_passes.dialects import make_context
from xpu_passes.ir.xdsl_text import TextLexer, TextParser, TextPrinter

def test_an_unterminated_string_with_escapes_fails_at_the_string() -> None:
    """xDSL's nested string regex backtracks exponentially on this input; ours is linear."""
    lexer = TextLexer(Input('x = "' + "\\n" * 40 + "a" * 40, "t"))
    assert lexer.lex().kind is MLIRTokenKind.BARE_IDENT
    assert lexer.lex().kind is MLIRTokenKind.EQUAL
    with pytest.raises(Exception) as e:
        lexer.lex()
    assert "string" in str(e.value).lower() or "token" in str(e.value).lower(), str(e.value)


def test_the_text_lexer_is_not_xdsls() -> None:
    assert TextLexer.lex is not MLIRLexer.lex
    assert TextLexer._unescaped_characters_regex is not MLIRLexer._unescaped_characters_regex


@pytest.mark.parametrize("text, value", [
    ("dense<0xFF800000> : tensor<64xf32>", -math.inf),
    ("dense<[0x7F800000, 0x3F800000]> : tensor<2xf32>", math.inf),
    ("dense<0xBC00> : tensor<4xf16>", -1.0),
    ("dense<0x3FF0000000000000> : tensor<2xf64>", 1.0),
    ("dense<0xBF80> : tensor<2xbf16>", -1.0),
])
def test_a_hex_element_of_a_float_dense_literal_is_its_bit_pattern(text: str, value: float) -> None:
    # (xDSL 0.74 reads 0xFF800000 as the integer 4278190080 and converts it: 4.28e9 for -inf)
    attr = TextParser(make_context(), text, "t").parse_attribute()
    assert isinstance(attr, DenseIntOrFPElementsAttr) and attr.get_values()[0] == value
    plain = Parser(make_context(), text, "t").parse_attribute()
    assert isinstance(plain, DenseIntOrFPElementsAttr) and plain.get_values()[0] != value  # (xDSL's own, unchanged)


def test_a_hex_element_of_an_integer_dense_literal_is_its_value() -> None:
    attr = TextParser(make_context(), "dense<0xFF> : tensor<2xi32>", "t").parse_attribute()
    assert isinstance(attr, DenseIntOrFPElementsAttr) and attr.get_values() == (255, 255)


def _printed(attr: DenseIntOrFPElementsAttr) -> str:
    out = StringIO()
    TextPrinter(stream=out).print_attribute(attr)
    return out.getvalue()


def test_a_dense_splat_is_printed_when_its_elements_have_the_same_bits() -> None:
    t = TensorType(Float32Type(), [2])
    assert _printed(DenseIntOrFPElementsAttr.from_list(t, [1.5, 1.5])) == "dense<1.500000e+00> : tensor<2xf32>"
    # -0.0 == 0.0 as values (xDSL's is_splat), not as bits (MLIR's)
    assert _printed(DenseIntOrFPElementsAttr.from_list(t, [0.0, -0.0])) == (
        "dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>")
    big = DenseIntOrFPElementsAttr.from_list(TensorType(Float32Type(), [101]), [0.0] * 100 + [1.0])
    assert _printed(big).startswith('dense<"0x0000') and _printed(big).endswith('803F"> : tensor<101xf32>')


def test_the_parsers_public_cursor_names_are_xdsls_own() -> None:
    """current_token / resume_from / dialect_stack read and move xDSL's own parser state."""
    p = TextParser(make_context(), "tt.foo bar %x")
    assert p.current_token is p._current_token and p.current_token.text == "tt.foo"
    assert TextParser.resume_from is Parser._resume_from
    p.resume_from(7)
    assert p.current_token.text == "bar" and p.current_token.span.start == 7
    assert p.dialect_stack is p._parser_state.dialect_stack
    p.dialect_stack.append("tt")
    assert p._parser_state.dialect_stack[-1] == "tt"
