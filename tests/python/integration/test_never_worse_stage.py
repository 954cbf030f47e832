"""The whole-stage guard's veto on tensor-of-pointer loads of copied elements (stage_figures.judge_stages,
stage_figures.copied_loads): the construct is a dot's B operand loaded through a tensor of pointers
directly in its dot-operand layout on warps along M, where every warp holds the whole tile (copies
on the warps): triton-xpu 3.3 loads it once per copy, element by element, and a 128x128 f16 tile
(32 KB a warp) overflows the register file."""

from __future__ import annotations

from xpu_passes.integration.stage_figures import judge_stages
from xpu_passes.integration.stage_figures import StageFigures, cheap_figures, copied_loads

HEAD = """#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#loc = loc("k.py":1:0)
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%arg0: i32) {
"""
TAIL = """    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
"""
B = "#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>"
A = "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>"


def load(shape: str, layout: str, pointer: bool = True) -> str:
    if not pointer:  # a block pointer's load: a 2D block read, no copies loaded
        return f"    %1 = tt.load %0 : !tt.ptr<tensor<{shape}xf16, {layout}>> loc(#loc)\n"
    return f"    %1 = tt.load %0, %m : tensor<{shape}x!tt.ptr<f16>, {layout}> loc(#loc)\n"


def kernel(*lines: str, converts: int = 0) -> str:
    conv = "    %c = ttg.convert_layout %x : tensor<64xf32, #blocked> -> tensor<64xf32, #mma> loc(#loc)\n"
    return HEAD + "".join(lines) + conv * converts + TAIL


def test_copied_loads_counts_pointer_loads_whose_copies_overflow_a_warp() -> None:
    assert copied_loads(kernel(load("128x128", B))) == 1  # 8 warps x the whole tile: 32 KB a warp
    assert copied_loads(kernel(load("128x128", B), load("128x128", B))) == 2
    # inline parent, and the ttig spelling
    inline = HEAD.split("#mma = ")[1].split("\n")[0]
    assert copied_loads(kernel(load("128x128", B.replace("#mma", inline)))) == 1
    assert copied_loads(kernel(load("128x128", B)).replace("triton_intel_gpu.dpas", "ttig.dpas")) == 1
    # copies that fit (8 KB), the A operand (each warp its rows), a blocked layout, a block pointer
    assert copied_loads(kernel(load("64x64", B))) == 0
    assert copied_loads(kernel(load("128x128", A))) == 0
    assert copied_loads(kernel(load("128x128", "#blocked"))) == 0
    assert copied_loads(kernel(load("128x128", B, pointer=False))) == 0
    assert cheap_figures(kernel(load("128x128", B))).copied == 1


def test_copied_loads_lose_only_to_a_result_without_them() -> None:
    native = StageFigures(shared=-1, converts=1, block_io=0)
    assert StageFigures(-1, 0, 0, copied=1).losses(native) == [
        "1 tensor-of-pointer load(s) of copied elements, triton-xpu's none"]
    assert StageFigures(-1, 0, 0, copied=2).losses(StageFigures(-1, 1, 0, copied=1)) == []
    assert native.losses(StageFigures(-1, 1, 0, copied=1)) == []


def test_the_stage_guard_keeps_neither_side_loading_copies_the_other_does_not() -> None:
    copied, plain = kernel(load("128x128", B)), kernel(load("128x128", "#blocked"), converts=1)
    # ours loads copies, native's does not: native's stage, though ours has fewer conversions
    losses, why = judge_stages(copied, plain, None)
    assert losses == ["1 tensor-of-pointer load(s) of copied elements, triton-xpu's none"]
    assert why.startswith("triton-xpu's stage kept: ours would leave 1 tensor-of-pointer load(s)")
    # native's loads copies, ours does not: ours, though native's has fewer conversions (the veto)
    losses, why = judge_stages(plain, copied, None)
    assert losses == []
    assert why.startswith("our stage kept: triton-xpu's would leave conversions 1 > 0 but loads 1 tensor-of-pointer")
    # neither: the conversions decide as before
    losses, _ = judge_stages(kernel(load("128x128", "#blocked"), converts=2), plain, None)
    assert losses == ["conversions 2 > 1"]



def linear_vector(n: int, copies: int) -> str:
    """A 1xn layout every lane and warp holds whole, each element in `copies` registers of a lane
    (zero register bases first, as triton-xpu's RemoveLayoutConversions leaves a broadcast vector)."""
    bases = ["[0, 0]"] * (copies.bit_length() - 1) + [f"[0, {1 << i}]" for i in range(n.bit_length() - 1)]
    return (f"#ttg.linear<{{register = [{', '.join(bases)}], lane = [[0, 0], [0, 0], [0, 0], [0, 0]], "
            f"warp = [[0, 0], [0, 0], [0, 0]], block = []}}>")


def test_registers_holding_the_same_element_are_loaded_once() -> None:
    # 1x128 f16 in 4 registers each: 512 registers a lane, 128 distinct (4 KB a warp): fits
    assert copied_loads(kernel(load("1x128", linear_vector(128, 4)))) == 0
    # 1x512 in 4 registers each: 512 distinct, 16 KB a warp: still loads of copied elements
    assert copied_loads(kernel(load("1x512", linear_vector(512, 4)))) == 1
    assert copied_loads(kernel(load("1x512", linear_vector(512, 1)))) == 1


def test_copies_that_fit_do_not_veto_native_stage() -> None:
    # native's stage loads a small vector with copies in registers (gemlite's revsplit-K GEMV: a 1x64
    # vector in 4 copies a lane, 0 conversions) and ours has conversions: native's is kept
    small = kernel(load("1x128", linear_vector(128, 4)))
    losses, why = judge_stages(kernel(load("1x128", "#blocked"), converts=5), small, None)
    assert losses == ["conversions 5 > 0"]
    assert why.startswith("triton-xpu's stage kept")
    # the same with copies past a warp's registers: the veto keeps ours
    large = kernel(load("1x512", linear_vector(512, 4)))
    losses, why = judge_stages(kernel(load("1x512", "#blocked"), converts=5), large, None)
    assert losses == []
    assert "tensor-of-pointer load(s) of copied elements" in why
