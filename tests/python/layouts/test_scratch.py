"""The SLM scratch of a convert_layout (layouts/scratch.py), per conversion and per module,
against what triton-xpu allocates (the corpus kernels' figures, random conversions, make_llir)."""

from __future__ import annotations

import random

import pytest
from xdsl.dialects.builtin import bf16, f16, f32, i1, i8, i64
from xdsl.ir import Attribute

from xpu_passes.frontend import parse_module
from xpu_passes.layouts import LayoutError, convert_scratch_bytes, from_linear, module_scratch_bytes, to_linear

from layouts.layout_attrs import (
    CTX, EPI_4W, EPI_256, EPI_256x128, MMA_4W, MMA_32W, MMA_FA, MMA_SKINNY, attr, dot, random_layout, spell, tensor,
)
from layouts.triton_layouts import convert_module, forked, needs_triton, triton_llir, triton_scratch


# SLM bytes triton-xpu 3.3 reported for the corpus kernels (ttg.shared after lowering).
CORPUS_SLM = [
    (EPI_256, MMA_32W, (256, 256), 263_168),
    (EPI_256x128, MMA_32W, (256, 128), 131_584),
    (EPI_4W, MMA_4W, (64, 128), 33_280),
    (EPI_4W, MMA_SKINNY, (8, 128), 4_608),
    (MMA_32W, EPI_256, (256, 256), 266_240),
    (MMA_4W, EPI_4W, (64, 128), 33_792),
]


@pytest.mark.parametrize("src,dst,shape,measured", CORPUS_SLM)
def test_scratch_of_corpus_conversions(src: Attribute, dst: Attribute, shape: tuple[int, int], measured: int) -> None:
    assert convert_scratch_bytes(tensor(shape, src), tensor(shape, dst)) == measured


def test_scratch_free_conversions() -> None:
    # Flash attention's P = softmax(QK^T) from DPAS to the A operand: Intel's shortcut.
    assert convert_scratch_bytes(tensor((128, 64), MMA_FA, f16), tensor((128, 64), dot(0, MMA_FA), f16)) == 0
    assert convert_scratch_bytes(tensor((256, 256), EPI_256), tensor((256, 256), EPI_256)) == 0
    # The same placement spelled as #ttg.linear.
    lin = from_linear(to_linear(MMA_32W, (256, 256)))
    assert convert_scratch_bytes(tensor((256, 256), MMA_32W), tensor((256, 256), lin)) == 0


def test_scratch_of_unsupported_and_shared_layouts() -> None:
    shared = attr("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>")
    assert convert_scratch_bytes(tensor((64, 64), EPI_4W), tensor((64, 64), shared)) == 0
    warp = attr("#ttig.warp<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], order = [1, 0]}>")
    with pytest.raises(LayoutError, match="no linear layout"):
        convert_scratch_bytes(tensor((64, 64), EPI_4W), tensor((64, 64), warp))


def test_scratch_scales_with_element_size() -> None:
    f = convert_scratch_bytes(tensor((64, 128), EPI_4W, f32), tensor((64, 128), MMA_4W, f32))
    h = convert_scratch_bytes(tensor((64, 128), EPI_4W, bf16), tensor((64, 128), MMA_4W, bf16))
    b = convert_scratch_bytes(tensor((64, 128), EPI_4W, i8), tensor((64, 128), MMA_4W, i8))
    assert f == 2 * h == 4 * b


MODULE = """
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k() {
    %c = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #blocked>
    %d = ttg.convert_layout %c : tensor<64x128xf32, #blocked> -> tensor<64x128xf32, #mma>
    %e = ttg.convert_layout %d : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #blocked>
    %s = arith.constant dense<0.000000e+00> : tensor<8x128xf32, #blocked>
    %t = ttg.convert_layout %s : tensor<8x128xf32, #blocked> -> tensor<8x128xf32, #mma>
    tt.return
  }
}
"""


def test_module_scratch_is_the_largest_conversion() -> None:
    module = parse_module(CTX, MODULE, "m.mlir").module
    each = [
        convert_scratch_bytes(tensor((64, 128), EPI_4W), tensor((64, 128), MMA_4W)),
        convert_scratch_bytes(tensor((64, 128), MMA_4W), tensor((64, 128), EPI_4W)),
        convert_scratch_bytes(tensor((8, 128), EPI_4W), tensor((8, 128), MMA_4W)),
    ]
    assert module_scratch_bytes(module) == max(each) > 0


ELEMS = {"f32": f32, "f16": f16, "i8": i8, "i1": i1, "i64": i64}


@pytest.mark.triton
@needs_triton
@pytest.mark.parametrize("seed", range(3))
def test_scratch_matches_triton_allocation(seed: int) -> None:
    """Random conversions between blocked, DPAS, dot operands, linear and slice layouts."""
    rng = random.Random(seed)
    kinds = ["blocked", "dpas", "dot_a", "dot_b", "linear"]
    compared, mismatches = 0, []
    for _ in range(200):
        if compared >= 50:
            break
        warps = rng.choice([1, 2, 4, 8, 16, 32])
        if rng.random() < 0.15:
            shape: list[int] = [rng.choice([16, 64, 256, 1024])]
            src, dst = (random_layout(rng, "slice", warps, shape) for _ in range(2))
        else:
            shape = [rng.choice([1, 2, 8, 16, 32, 64, 128, 256]) for _ in range(2)]
            src, dst = (random_layout(rng, rng.choice(kinds), warps, shape) for _ in range(2))
        elem = rng.choice(list(ELEMS))
        status, theirs = forked(lambda: triton_scratch(convert_module(src, dst, shape, warps, elem)))
        if status != "ok":
            continue  # triton-xpu rejects or aborts on this pair; nothing to compare
        compared += 1
        ours = convert_scratch_bytes(tensor(shape, src, ELEMS[elem]), tensor(shape, dst, ELEMS[elem]))
        if ours != theirs:
            mismatches.append((spell(src), spell(dst), shape, elem, ours, theirs))
    assert compared >= 50 and not mismatches, mismatches[:3]


@pytest.mark.triton
@needs_triton
@pytest.mark.parametrize("src,dst,shape,measured", CORPUS_SLM[:4] + CORPUS_SLM[5:])
def test_corpus_conversions_through_make_llir(src: Attribute, dst: Attribute, shape: tuple[int, int], measured: int) -> None:
    warps = len(to_linear(src, shape).warp)
    shared, llir = triton_llir(convert_module(src, dst, shape, 1 << warps, "f32"), 1 << warps)
    assert shared == measured == convert_scratch_bytes(tensor(shape, src), tensor(shape, dst))
    assert "addrspace(3)" in llir


@pytest.mark.triton
@needs_triton
def test_corpus_module_scratch() -> None:
    """Our estimate equals triton-xpu's `ttg.shared` on every corpus kernel whose only SLM
    users are conversions (and never exceeds it elsewhere)."""
    from xpu_passes import corpus

    convert_bearing = 0
    for entry in corpus.entries():
        path = entry["dir"] / "final.ttgir"
        text = path.read_text()
        ours = module_scratch_bytes(parse_module(CTX, text, str(path)).module)
        measured = entry["figures"]["shared_bytes"]
        other_users = any(op in text for op in ("tt.reduce", "tt.scan", "tt.atomic_rmw", "tt.atomic_cas", "tt.histogram"))
        if "local_alloc" in text or other_users:
            assert ours <= measured, entry["kernel"]
        else:
            assert ours == measured, (entry["kernel"], entry["config"])
        convert_bearing += " ttg.convert_layout " in text
    assert convert_bearing >= 6
