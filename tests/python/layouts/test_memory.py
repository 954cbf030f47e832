"""Memory messages of a tensor-of-pointer access per layout (layouts/memory.py), checked
against what IGC compiled triton-xpu 3.3's lowering into (benchmarks/isa_model.py):
a blocked layout with 4 contiguous f32 per lane reads 16 bytes per message, the DPAS
layout (one column per lane) 4 bytes, the dot-operand layouts one f16 per message."""

from __future__ import annotations

from xdsl.parser import Parser

from xpu_passes.dialects import make_context, ttig
from xpu_passes.layouts.memory import best_vector, block_2d_layout, messages

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>"
DPAS = ("#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
        "threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>")


def _attr(text: str):
    return Parser(make_context(), text).parse_attribute()


def test_blocked_rows_read_16_bytes_per_message() -> None:
    m = messages(_attr(BLOCKED), (64, 64), 32, (1, 64))
    assert (m.per_lane, m.vector, m.messages, m.bytes_per_message, m.threads) == (64, 4, 16, 16, 64)


def test_dpas_reads_one_element_per_message() -> None:
    m = messages(_attr(DPAS), (64, 64), 32, (1, 64))
    assert (m.per_lane, m.vector, m.messages) == (64, 1, 64)


def test_addresses_and_mask_limit_the_vector() -> None:
    # a mask that changes along the columns (constancy 1): one element per message in any layout
    assert messages(_attr(BLOCKED), (64, 64), 32, (1, 1)).vector == 1
    assert best_vector(32, (1, 1)) == 1
    # 16 bytes at most: 8 f16, 4 f32, 2 i64
    assert best_vector(16, (1, 64)) == 8 and best_vector(32, (64, 1)) == 4 and best_vector(64, (1, 64)) == 2
    # the layout's fastest dim decides: blocked rows hold no contiguous run along dim 0
    assert messages(_attr(BLOCKED), (64, 64), 32, (64, 1)).vector == 1


def test_block_2d_layouts() -> None:
    assert block_2d_layout(_attr(DPAS)) and not block_2d_layout(_attr(BLOCKED)) and not block_2d_layout(None)
    assert isinstance(_attr(DPAS), ttig.DpasEncodingAttr)
