"""The estimate (isa_estimate) and the stage guard (stage_figures.judge_stages) on a kernel that returns
early: `if y == skip: zero the row; return` splits the body into blocks after cf.cond_br, and the
accesses there vectorize as the axis facts of those blocks allow (the loop's induction variable:
start 0, step 256). Written after liger's cross-entropy kernel, where ours stored the zeros 1 f16 a
lane a message and native 4 (IGC scatters 3 -> 6) with every other figure of both TTGIRs equal."""

from __future__ import annotations

import pytest

from xpu_passes.integration.isa_estimate import estimate_text
from xpu_passes.integration.stage_figures import judge_stages

LAYOUTS = {
    4: "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>",
    1: "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>",
}


def zero_row(per_lane: int, aligned: bool = True) -> str:
    """The final TTGIR with the row's masked store in `per_lane` contiguous f16 a lane (no conversion)."""
    t = f"#blocked{per_lane}"
    div = " {tt.divisibility = 16 : i32}" if aligned else ""
    return f"""#blocked{per_lane} = {LAYOUTS[per_lane]}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func public @zero_row(%x: !tt.ptr<f16>{div}, %y: i32, %n: i32 {{tt.divisibility = 16 : i32}}) {{
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf16, {t}>
    %skip = arith.cmpi eq, %y, %c0 : i32
    cf.cond_br %skip, ^bb1, ^bb2
  ^bb1:
    %range = tt.make_range {{end = 256 : i32, start = 0 : i32}} : tensor<256xi32, {t}>
    %bound = tt.splat %n : i32 -> tensor<256xi32, {t}>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, {t}>
    scf.for %i = %c0 to %n step %c256 : i32 {{
      %start = tt.splat %i : i32 -> tensor<256xi32, {t}>
      %offs = arith.addi %start, %range : tensor<256xi32, {t}>
      %mask = arith.cmpi slt, %offs, %bound : tensor<256xi32, {t}>
      %ptrs = tt.addptr %base, %offs : tensor<256x!tt.ptr<f16>, {t}>, tensor<256xi32, {t}>
      tt.store %ptrs, %zero, %mask : tensor<256x!tt.ptr<f16>, {t}>
    }}
    tt.return
  ^bb2:
    tt.return
  }}
}}
"""


@pytest.mark.parametrize("per_lane, aligned, scatters", [
    (4, True, 1),  # 4 adjacent f16 of 16-byte aligned addresses: one message a lane
    (1, True, 4),  # 1 a lane: 4 messages for the lane's 4 elements
    (4, False, 4),  # alignment unknown: one f16 a message in any layout
    (1, False, 4),
])
def test_the_estimate_reads_the_facts_of_blocks_after_the_first(per_lane: int, aligned: bool, scatters: int) -> None:
    est = estimate_text(zero_row(per_lane, aligned))
    assert est is not None
    assert (est.gathers, est.scatters) == (0, scatters)


def test_the_stage_guard_keeps_native_storing_fewer_messages_after_an_early_return() -> None:
    # every TTGIR figure ties (no conversion, no SLM, no 2D block I/O): the estimate decides
    losses, why = judge_stages(zero_row(1), zero_row(4), None)
    assert losses == ["scatters 4 > 1 (estimated)"]
    assert why.startswith("triton-xpu's stage kept")
    losses, _ = judge_stages(zero_row(4), zero_row(1), None)
    assert losses == []
    # unaligned: both store one f16 a message, a tie keeps ours
    losses, why = judge_stages(zero_row(1, aligned=False), zero_row(4, aligned=False), None)
    assert losses == []
    assert why.startswith("our stage kept")
