"""What triton-xpu 3.3's lowering cannot take (layouts/lowering.py); the lit tests
remove-layout-conversions-lowering.mlir and -gather-copies.mlir lower the same constructs."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, bf16, f16, f32
from xdsl.ir import Attribute
from xdsl.parser import Parser

from xpu_passes.dialects import make_context
from xpu_passes.layouts.lowering import copies_overflow, load_refused

CTX = make_context()


def attr(text: str) -> Attribute:
    return Parser(CTX, text).parse_attribute()


def dpas(ops_per_chan: int, warps: list[int]) -> str:
    return (f"#ttig.dpas<{{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
            f"opsPerChan = {ops_per_chan}, threadsPerWarp = 16, warpsPerCTA = {warps}, repCluster = [1, 1]}}>")


def dot(op_idx: int, parent: str, k_width: int) -> Attribute:
    return attr(f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent}, kWidth = {k_width}}}>")


def test_load_in_dot_operand_of_other_width() -> None:
    tf32_b = dot(1, dpas(1, [1, 1]), 1)
    assert load_refused(TensorType(f32, [16, 64], tf32_b), tf32_b) is None
    why = load_refused(TensorType(bf16, [16, 64], tf32_b), tf32_b)
    assert why is not None and "16-bit elements" in why and "32-bit operands" in why
    bf16_b = dot(1, dpas(2, [1, 1]), 2)
    assert load_refused(TensorType(bf16, [16, 64], bf16_b), bf16_b) is None
    assert load_refused(TensorType(f32, [16, 64], bf16_b), bf16_b) is not None
    blocked = attr("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [1, 1], order = [1, 0]}>")
    assert load_refused(TensorType(bf16, [16, 64], blocked), blocked) is None


def test_copies_overflow_a_warps_registers() -> None:
    b = dot(1, dpas(2, [8, 1]), 2)  # every one of the 8 warps holds the whole B tile
    assert copies_overflow(TensorType(f16, [128, 128], b), 16)  # 32 KB a warp
    assert not copies_overflow(TensorType(f16, [64, 64], b), 16)  # 8 KB: fits
    a = dot(0, dpas(2, [8, 1]), 1)  # A: each warp its own rows, no copies
    assert not copies_overflow(TensorType(f16, [128, 128], a), 16)
