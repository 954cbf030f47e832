"""Layouts through tt.reshape (layouts/shape_infer.py) against triton-xpu 3.3's own verifier.

Its ReshapeOp::verify compares the result layout with the one it infers by their exact linear maps
(`encodings.triton_linear`: registers past the shape kept as 0 bases), not by placement. Every layout
our rule answers, forward (result for an operand) or backward (operand for a result), must be one
triton-xpu accepts; where the algebra says it rejects one, triton-xpu's message names the same layout.
"""

from __future__ import annotations

import io
import re

import pytest
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer

from xpu_passes.dialects import make_context
from xpu_passes.integration import oracle
from xpu_passes.layouts.encodings import to_linear, triton_linear
from xpu_passes.layouts.shape_infer import reshape_expected, reshape_layout

CTX = make_context()
needs_triton = pytest.mark.skipif(not oracle.available(), reason="triton-xpu not installed")


def attr(text: str) -> Attribute:
    return Parser(CTX, text).parse_attribute()


def blocked(size: list[int], threads: list[int], order: list[int]) -> str:
    return (f"#ttg.blocked<{{sizePerThread = {size}, threadsPerWarp = {threads}, warpsPerCTA = [1, 1], "
            f"order = {order}}}>")


LINEAR_ZERO_REG = ("#ttg.linear<{register = [[0, 0], [0, 1], [0, 2], [0, 4], [0, 8]], lane = [[0, 0], [0, 0], "
                   "[0, 0], [0, 0], [0, 0]], warp = [], block = []}>")
# (layout, its shape, the other shape): a GEMV's vector, row and column, some with replicated registers
CASES = [
    (blocked([1, 4], [2, 16], [1, 0]), (16, 1), (1, 16)),
    (blocked([1, 1], [16, 2], [0, 1]), (1, 16), (16, 1)),
    (blocked([1, 1], [2, 16], [1, 0]), (16, 1), (1, 16)),
    (blocked([1, 4], [4, 8], [1, 0]), (8, 64), (512,)),
    (blocked([2, 2], [4, 8], [1, 0]), (32, 32), (1024,)),
    (LINEAR_ZERO_REG, (1, 16), (16, 1)),
]


def _shape(s: tuple[int, ...]) -> str:
    return "x".join(map(str, s))


def _module(src: str, ss: tuple[int, ...], dst: str, ds: tuple[int, ...]) -> str:
    return (f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", '
            f'"ttg.threads-per-warp" = 32 : i32}} {{\n  tt.func public @k(%a: tensor<{_shape(ss)}xf16, {src}>) {{\n'
            f"    %0 = tt.reshape %a : tensor<{_shape(ss)}xf16, {src}> -> tensor<{_shape(ds)}xf16, {dst}>\n"
            "    tt.return\n  }\n}\n")


def test_triton_linear_keeps_replicated_registers() -> None:
    layout = attr(blocked([1, 4], [2, 16], [1, 0]))
    exact, placed = triton_linear(layout, (16, 1)), to_linear(layout, (16, 1))
    assert exact.register == ((0, 0), (0, 0), (2, 0), (4, 0), (8, 0))
    assert placed.register == ((2, 0), (4, 0), (8, 0))
    assert exact.lane == placed.lane


def test_reshape_refuses_replicated_registers_backward() -> None:
    # No operand makes the reshape yield a result with replicated registers (the GEMV failure).
    assert reshape_layout(attr(blocked([1, 4], [2, 16], [1, 0])), (16, 1), (1, 16), forward=False) is None


@needs_triton
@pytest.mark.parametrize("text, shape, other", CASES)
def test_reshape_answers_verify(text: str, shape: tuple[int, ...], other: tuple[int, ...]) -> None:
    layout = attr(text)
    fwd = reshape_layout(layout, shape, other)
    if fwd is not None:
        assert oracle.diagnostics(_module(text, shape, str_attr(fwd), other)) == []
    bwd = reshape_layout(layout, shape, other, forward=False)
    if bwd is not None:
        assert oracle.diagnostics(_module(str_attr(bwd), other, text, shape)) == []


@needs_triton
def test_reshape_expected_is_tritons() -> None:
    src, dst = LINEAR_ZERO_REG.replace("[0, 0], [0, 1], [0, 2], [0, 4], [0, 8]", "[0, 2], [0, 4], [0, 8]").replace(
        "[[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]]", "[[0, 0], [0, 0], [0, 0], [0, 0], [0, 1]]"), blocked([1, 4], [2, 16], [1, 0])
    want = reshape_expected(attr(src), (1, 16), attr(dst), (16, 1))
    assert want is not None
    (diag,) = oracle.diagnostics(_module(src, (1, 16), dst, (16, 1)))
    m = re.search(r"Expected result encoding (#ttg\.linear<\{.*?\}>) but was", diag[3])
    assert m is not None and attr(m[1]) == want
    assert reshape_expected(attr(src), (1, 16), want, (16, 1)) is None


def str_attr(a: Attribute) -> str:
    out = io.StringIO()
    Printer(stream=out).print_attribute(a)
    return out.getvalue()
