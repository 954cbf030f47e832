"""Layouts for the layout algebra's tests: attributes built from short arguments (blocked, DPAS,
dot operand, 2D block read, slice), the layouts of the corpus' convert-bearing kernels, and
random layouts of each kind (for the comparisons with triton-xpu)."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer

from xpu_passes.dialects import make_context, ttig
from xpu_passes.layouts import LinearLayout, from_linear, to_linear

CTX = make_context()


def attr(text: str) -> Attribute:
    return Parser(CTX, text).parse_attribute()


def spell(a: Attribute | LinearLayout) -> str:
    """Attribute text as triton-xpu 3.3 reads it (old Intel dialect name)."""
    if isinstance(a, LinearLayout):
        a = from_linear(a)
    out = io.StringIO()
    Printer(stream=out).print_attribute(a)
    return out.getvalue().replace("#ttig.", "#triton_intel_gpu.")


def blocked(spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int], order: Sequence[int]) -> Attribute:
    return attr(
        f"#ttg.blocked<{{sizePerThread = {list(spt)}, threadsPerWarp = {list(tpw)}, "
        f"warpsPerCTA = {list(wpc)}, order = {list(order)}}}>"
    )


def dpas(warps: Sequence[int], rc: Sequence[int], opc: int = 2) -> Attribute:
    return attr(
        f"#ttig.dpas<{{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = {opc}, "
        f"threadsPerWarp = 16, warpsPerCTA = {list(warps)}, repCluster = {list(rc)}}}>"
    )


def dot(op_idx: int, parent: Attribute) -> Attribute:
    k = ""
    if isinstance(parent, ttig.DpasEncodingAttr):  # triton-xpu wants kWidth = opsPerChan for B, half for A
        opc = parent.ops_per_chan
        k = f", kWidth = {opc if op_idx else max(1, opc // 2)}"
    return attr(f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {spell(parent).replace('#triton_intel_gpu.', '#ttig.')}{k}}}>")


def tensor(shape: Sequence[int], layout: Attribute, elem: Attribute = f32) -> TensorType:
    return TensorType(elem, list(shape), layout)


def sg2d(
    instr: Sequence[int], blocks: int, order: Sequence[int], warps: Sequence[int] = (8, 4), k_width: int = 2
) -> Attribute:
    return attr(
        f"#ttig.subgroup_2d_block<{{warpsPerCTA = {list(warps)}, instrShape = {list(instr)}, numBlocks = {blocks}, "
        f"order = {list(order)}, kWidth = {k_width}, threadsPerWarp = 16}}>"
    )


# The layouts of the corpus' convert-bearing kernels (see their final TTGIR).
EPI_256 = blocked([1, 4], [1, 16], [8, 4], [1, 0])
EPI_256x128 = blocked([1, 4], [1, 16], [16, 2], [1, 0])
EPI_4W = blocked([1, 4], [1, 16], [2, 2], [1, 0])
MMA_32W = dpas([8, 4], [4, 2])
MMA_4W = dpas([2, 2], [4, 2])
MMA_SKINNY = dpas([1, 4], [1, 2])
MMA_FA = dpas([8, 1], [2, 2])


def _split(rng: random.Random, total: int, rank: int) -> list[int]:
    out = [1] * rank
    for _ in range(total.bit_length() - 1):
        out[rng.randrange(rank)] *= 2
    return out


def random_layout(rng: random.Random, kind: str, warps: int, shape: Sequence[int]) -> Attribute:
    if kind == "blocked":
        order = list(range(len(shape)))
        rng.shuffle(order)
        return blocked(
            [rng.choice([1, 1, 2, 4, 8]) for _ in shape], _split(rng, 16, len(shape)), _split(rng, warps, len(shape)), order
        )
    if kind == "dpas":
        return dpas(_split(rng, warps, 2), [rng.choice([1, 2, 4]), rng.choice([1, 2])], rng.choice([1, 2, 4]))
    if kind in ("dot_a", "dot_b"):
        return dot(int(kind == "dot_b"), random_layout(rng, "dpas", warps, shape))
    if kind == "linear":  # a blocked/DPAS map, registers sometimes permuted
        ll = to_linear(random_layout(rng, rng.choice(["blocked", "dpas"]), warps, shape), shape)
        regs = list(ll.register)
        if rng.random() < 0.5:
            rng.shuffle(regs)
        return from_linear(dataclasses.replace(ll, register=tuple(regs)))
    assert kind == "slice"
    parent_shape = list(shape)
    dim = rng.randrange(2)
    parent_shape.insert(dim, 1)
    parent = random_layout(rng, rng.choice(["blocked", "dpas"]), warps, parent_shape)
    return attr(f"#ttg.slice<{{dim = {dim}, parent = {spell(parent).replace('#triton_intel_gpu.', '#ttig.')}}}>")
