"""Registers of equal addresses are loaded once (layouts/memory.distinct_registers): a DPAS B tile
loaded through a row-broadcast pointer (Intel's hoist-convert-dot-operand chunk #3: at the ISA as
triton-xpu's pass, no spill) holds one row's addresses apart, not the whole tile."""

from __future__ import annotations

from xdsl.dialects.builtin import Float16Type, TensorType
from xdsl.parser import Parser

from xpu_passes.dialects import make_context
from xpu_passes.layouts.lowering import copies_overflow
from xpu_passes.layouts.memoize import linear_of
from xpu_passes.layouts.memory import distinct_registers, messages

CTX = make_context()
DPAS = ("#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
        "threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1]}>")
B = f"#ttg.dot_op<{{opIdx = 1, parent = {DPAS}, kWidth = 2}}>"
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"


def _attr(text: str):
    return Parser(CTX, text).parse_attribute()


def test_distinct_registers_counts_the_blocks_of_equal_addresses() -> None:
    ll = linear_of(_attr(B), (128, 128))
    assert distinct_registers(ll, None) == 1024  # 128x128 on 16 lanes, every warp the whole tile
    assert distinct_registers(ll, (1, 1)) == 1024  # every address apart: all
    assert distinct_registers(ll, (128, 1)) == 8  # one row: 128 columns on 16 lanes
    assert distinct_registers(ll, (2, 1)) == 512  # pairs of rows
    assert distinct_registers(ll, (128, 128)) == 1  # one address
    blocked = linear_of(_attr(BLOCKED), (128, 128))
    assert distinct_registers(blocked, (128, 1)) == 16  # its 8 columns of a row, twice (64 a warp)
    assert distinct_registers(blocked, (1, 128)) == 16  # its 16 rows, the 8 columns of each one address


def test_copies_of_a_row_broadcast_fit() -> None:
    t = TensorType(Float16Type(), [128, 128], _attr(B))
    assert copies_overflow(t, 16)  # 32 KB a warp
    assert copies_overflow(t, 16, (1, 1))
    assert not copies_overflow(t, 16, (128, 1))  # one row apart: 256 bytes a warp


def test_messages_of_equal_addresses() -> None:
    m = messages(_attr(B), (128, 128), 16, (1, 128), (128, 1))
    assert m.per_lane == 8 and messages(_attr(B), (128, 128), 16, (1, 128)).per_lane == 1024
