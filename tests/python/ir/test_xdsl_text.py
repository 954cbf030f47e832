"""Our lexer, parser and printer are subclasses: importing and using the front end leaves
xDSL's own lexer, parser and printer classes as they were."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from xpu_passes.ir.xdsl_text import TextLexer

# Run in a fresh interpreter: this one has imported xpu_passes already.
_SCRIPT = textwrap.dedent(
    """
    from xdsl.parser import AttrParser, Parser
    from xdsl.printer import Printer
    from xdsl.utils.base_printer import BasePrinter
    from xdsl.utils.mlir_lexer import MLIRLexer
    from xdsl.irdl.declarative_assembly_format import AttrDictDirective

    CLASSES = (MLIRLexer, Parser, AttrParser, Printer, BasePrinter, AttrDictDirective)

    def snapshot():
        return {c.__qualname__: dict(vars(c)) for c in CLASSES}

    before = snapshot()
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module

    text = open(__import__("sys").argv[1]).read()
    parsed = parse_module(make_context(), text, "m")
    assert print_module(parsed.module, parsed.spelling, debuginfo=True) == text
    after = snapshot()
    changed = [f"{c}.{k}" for c in before for k in before[c].keys() | after[c].keys()
               if before[c].get(k, None) is not after[c].get(k, None)]
    print("CHANGED", changed)
    """
)


def test_importing_and_using_the_front_end_leaves_xdsls_classes_as_they_were() -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parents[3] / "examples" / "gemm_add_tensor_ptr.ttgir"
    out = subprocess.run([sys.executable, "-c", _SCRIPT, str(example)], capture_output=True, text=True, check=True)
    assert "CHANGED []" in out.stdout, out.stdout + out.stderr


def test_the_check_sees_a_replaced_method() -> None:
    """The comparison above fails when a method is replaced (it can fail)."""
    script = _SCRIPT.replace("after = snapshot()", "MLIRLexer.lex = lambda self: None\nafter = snapshot()")
    from pathlib import Path

    example = Path(__file__).resolve().parents[3] / "examples" / "gemm_add_tensor_ptr.ttgir"
    out = subprocess.run([sys.executable, "-c", script, str(example)], capture_output=True, text=True, check=True)
    assert "CHANGED ['MLIRLexer.lex']" in out.stdout, out.stdout + out.stderr


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
