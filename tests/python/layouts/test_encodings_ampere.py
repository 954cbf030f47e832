"""NVIDIA's Ampere MMA (#ttg.nvidia_mma version 2, kept as another backend's layout) and its dot
operands as linear layouts: PTX's mma.m16n8k16 fragments (lane l: group l / 4, pair 2 * (l % 4)),
which Intel's lit chunks hold (combine.mlir); other versions stay unmapped."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser

from xpu_passes.dialects import make_context
from xpu_passes.layouts.encodings import LayoutError, modelled_foreign, to_linear

CTX = make_context()
MMA = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"


def _attr(text: str):
    return Parser(CTX, text).parse_attribute()


def _dot(op_idx: int) -> object:
    return _attr(f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {MMA}, kWidth = 2}}>")


@pytest.mark.parametrize("lane", [0, 1, 5, 31])
def test_accumulator_fragment(lane: int) -> None:
    ll = to_linear(_attr(MMA), (32, 16))  # one 16x8 tile a warp, 2x2 warps
    g, p = lane // 4, 2 * (lane % 4)
    assert [ll.apply(register=r, lane=lane) for r in range(4)] == [(g, p), (g, p + 1), (g + 8, p), (g + 8, p + 1)]
    assert ll.apply(lane=lane, warp=1) == (g, p + 8) and ll.apply(lane=lane, warp=2) == (g + 16, p)


@pytest.mark.parametrize("lane", [0, 6, 31])
def test_operand_fragments(lane: int) -> None:
    g, p = lane // 4, 2 * (lane % 4)
    a = to_linear(_dot(0), (32, 16))
    assert [a.apply(register=r, lane=lane) for r in range(8)] == [
        (g, p), (g, p + 1), (g + 8, p), (g + 8, p + 1), (g, p + 8), (g, p + 9), (g + 8, p + 8), (g + 8, p + 9)]
    assert a.apply(lane=lane, warp=1) == (g, p)  # warps along N hold the same A
    b = to_linear(_dot(1), (16, 16))
    assert [b.apply(register=r, lane=lane) for r in range(4)] == [(p, g), (p + 1, g), (p + 8, g), (p + 9, g)]
    assert b.apply(lane=lane, warp=2) == (p, g)  # warps along M hold the same B


def test_other_versions_stay_unmapped() -> None:
    hopper = _attr("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>")
    assert modelled_foreign(_attr(MMA)) and not modelled_foreign(hopper)
    with pytest.raises(LayoutError):
        to_linear(hopper, (64, 64))
