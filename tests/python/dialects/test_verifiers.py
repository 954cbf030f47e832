"""Our invalid-IR cases (tests/lit/errors/*verif*.mlir): every chunk is rejected the way its
`expected-*` annotations say, by xpu-opt and, for the 3.3 cases, by triton-xpu itself, so the
rules and messages are triton's and not only ours."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xpu_passes.integration import oracle
from xpu_passes.driver.cli import split_chunks
from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module
from xpu_passes.driver.verify_diagnostics import Diagnostic, check

ERRORS = Path(__file__).resolve().parents[2] / "lit" / "errors"
# Cases whose ops and rules triton-xpu 3.3 has: the oracle must agree on each.
FILE_33 = ERRORS / "triton-verifiers.mlir"
# Rules Intel main adds to ops 3.3 also has (3.3 accepts these cases).
FILE_MAIN = ERRORS / "triton-verifiers-main.mlir"


def _chunks(path: Path) -> list[tuple[str, int]]:
    return split_chunks(path.read_text())


def _ours(chunk: str, offset: int) -> list[Diagnostic]:
    try:
        parse_module(make_context(), chunk, "case", offset)
    except TTGIRError as e:
        return ([Diagnostic(e.file, e.line, e.col, "error", m) for m in (e.message, *e.more)]
                + [Diagnostic(e.file, ln, col, "note", m) for ln, col, m in e.located_notes])
    return []


CASES = [(f"{FILE_33.name}#{i}", c, o) for i, (c, o) in enumerate(_chunks(FILE_33))]
MAIN_CASES = [(f"{FILE_MAIN.name}#{i}", c, o) for i, (c, o) in enumerate(_chunks(FILE_MAIN))]


@pytest.mark.parametrize(("name", "chunk", "offset"), CASES + MAIN_CASES, ids=[c[0] for c in CASES + MAIN_CASES])
def test_ours_meets_expectations(name: str, chunk: str, offset: int) -> None:
    assert check(chunk, offset, "case", _ours(chunk, offset)) == []


@pytest.mark.skipif(not oracle.available(), reason="triton-xpu is not installed")
@pytest.mark.parametrize(("name", "chunk", "offset"), CASES, ids=[c[0] for c in CASES])
def test_triton_meets_the_same_expectations(name: str, chunk: str, offset: int) -> None:
    got = [Diagnostic("case", ln, col, kind, msg) for ln, col, kind, msg in oracle.diagnostics("\n" * offset + chunk)]
    # triton's Python binding prints no notes: those expectations are blanked (lines kept).
    without_notes = re.sub(r"expected-note[^\n]*", "", chunk)
    assert check(without_notes, offset, "case", got) == []


def test_a_wrong_expectation_is_reported() -> None:
    """The check above can fail: the same chunk with another expected message is not met."""
    chunk, offset = next((c, o) for c, o in _chunks(FILE_33) if "tt.broadcast" in c and "expected-error" in c)
    wrong = chunk.replace("rank of source must be same as rank of result", "rank of source is fine")
    problems = check(wrong, offset, "case", _ours(wrong, offset))
    assert any("was not produced" in p.message for p in problems)
    assert any("unexpected error" in p.message for p in problems)


def test_valid_chunks_stay_valid() -> None:
    """Chunks without expectations (the valid neighbours of each rule) verify."""
    valid = [(c, o) for c, o in _chunks(FILE_33) if "expected-" not in c and "tt.func" in c]
    assert len(valid) >= 2
    for chunk, offset in valid:
        assert _ours(chunk, offset) == []


def test_inferred_type_error_is_two_located_errors() -> None:
    """As MLIR: the reason, then `failed to infer returned types`, both at the op."""
    text = "tt.func @f(%a: tensor<8xf16>) {\n  %0 = tt.join %a, %a : tensor<8xf16> -> tensor<16xf16>\n  tt.return\n}\n"
    got = _ours(text, 0)
    assert [(d.line, d.message) for d in got] == [
        (2, "'tt.join' op inferred type(s) 'tensor<8x2xf16>' are incompatible with return type(s) of operation "
            "'tensor<16xf16>'"),
        (2, "'tt.join' op failed to infer returned types"),
    ]


# 3.3 cases whose first message is not yet triton's byte for byte (each with what differs).
NOT_TRITONS_TEXT = {
    "Operand 0 (<block argument>": "tt.load: our `'tt.load' op` prefix (triton: emitError)",
    "Number of elements must be power-of-two": "tt.splat: triton prints the op generically, we name it",
    "kWidth parameter is not supported": "an attribute's error: ours reports it at the end of input",
    "minor version must be 0": "an attribute's error: ours reports it at the end of input",
    "Wrong opIdx": "tt.dot: our op prefix",
    "last dimension of input tensor must be 2": "tt.split: its inference's reason, with our op prefix",
    "invalid kind of type specified": "tt.split/tt.join: triton's parser says `custom op 'tt.split' ...`",
}


@pytest.mark.skipif(not oracle.available(), reason="triton-xpu is not installed")
@pytest.mark.parametrize(("name", "chunk", "offset"), CASES, ids=[c[0] for c in CASES])
def test_first_message_is_tritons_text(name: str, chunk: str, offset: int) -> None:
    """Byte for byte, not only the substring an expectation names: with or without the
    `'tt.x' op ` prefix as triton's verifier emits it (emitOpError or emitError)."""
    got = [msg for _, _, kind, msg in oracle.diagnostics("\n" * offset + chunk) if kind == "error"]
    ours = [d.message for d in _ours(chunk, offset) if d.kind == "error"]
    if not got:
        pytest.skip("valid")
    if any(k in got[0] for k in NOT_TRITONS_TEXT):  # still different: fixed ones leave the list
        assert ours[:1] != got[:1], "now triton's text: remove it from NOT_TRITONS_TEXT"
        return
    assert ours[:1] == got[:1]


@pytest.mark.parametrize(("text", "message"), [
    ("%0 = tt.reshape %v : tensor<8x8xf32> -> tensor<128xf32>",
     "number of src and dst elements of reshape must be the same"),
    ("%0 = tt.broadcast %w : tensor<8x2xf32> -> tensor<8x8xf32>",
     "Different dimensions at index 1 between source and result.  Broadcast requires the source dimension to be 1."),
    ("%0 = tt.trans %v {order = array<i32: 0, 0>} : tensor<8x8xf32> -> tensor<8x8xf32>",
     "order must be a permutation of [0, ..., rank - 1]"),
    ("%0 = tt.expand_dims %v {axis = 5 : i32} : tensor<8x8xf32> -> tensor<8x8x1xf32>",
     "'tt.expand_dims' op axis 5 out of range"),
])
def test_emit_error_messages_have_no_op_prefix(text: str, message: str) -> None:
    """triton's reshape, broadcast and trans verifiers use emitError: no `'tt.x' op ` prefix
    (expand_dims, a neighbour checked the usual way, keeps it)."""
    chunk = f"tt.func @f(%v: tensor<8x8xf32>, %w: tensor<8x2xf32>) {{\n  {text}\n  tt.return\n}}\n"
    assert [d.message for d in _ours(chunk, 0)] == [message]
