"""Axis info of bounds masks: a range compared with a value constant along the dim (`offs < N`)
keeps its value over runs both are divisible by, as triton's CmpOp rule says (so a masked
access in a layout with 8 contiguous elements per lane still vectorizes when N is a multiple of 16)."""

from __future__ import annotations

import pytest

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module


def _facts(pred: str, bound: str, swap: bool) -> tuple[int, ...]:
    """Constancy of `offs PRED N` (or `N PRED offs` with `swap`), offs = pid * 32 + arange(32), N a
    function argument with attributes `bound`; then of a 2D mask built from it and a row mask."""
    lhs, rhs = ("%sN", "%offs") if swap else ("%offs", "%sN")
    text = f"""
module {{
  tt.func @k(%n: i32 {bound}, %m: i32 {{tt.divisibility = 16 : i32}}) {{
    %pid = tt.get_program_id x : i32
    %c32 = arith.constant 32 : i32
    %base = arith.muli %pid, %c32 : i32
    %r = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32>
    %sb = tt.splat %base : i32 -> tensor<32xi32>
    %offs = arith.addi %sb, %r : tensor<32xi32>
    %sN = tt.splat %n : i32 -> tensor<32xi32>
    %mask = arith.cmpi {pred}, {lhs}, {rhs} : tensor<32xi32>
    %rows = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32>
    %sM = tt.splat %m : i32 -> tensor<64xi32>
    %rmask = arith.cmpi slt, %rows, %sM : tensor<64xi32>
    %e0 = tt.expand_dims %rmask {{axis = 1 : i32}} : tensor<64xi1> -> tensor<64x1xi1>
    %e1 = tt.expand_dims %mask {{axis = 0 : i32}} : tensor<32xi1> -> tensor<1x32xi1>
    %b0 = tt.broadcast %e0 : tensor<64x1xi1> -> tensor<64x32xi1>
    %b1 = tt.broadcast %e1 : tensor<1x32xi1> -> tensor<64x32xi1>
    %both = arith.andi %b0, %b1 : tensor<64x32xi1>
    tt.return
  }}
}}
"""
    module = parse_module(make_context(), text).module
    facts = AxisInfoAnalysis(module)
    ops = {op.results[0].name_hint: op for op in module.walk() if op.results and op.results[0].name_hint}
    return facts.of(ops["mask"].results[0]).constancy + facts.of(ops["both"].results[0]).constancy


@pytest.mark.parametrize("pred, swap", [("slt", False), ("ult", False), ("sge", False), ("sgt", True), ("sle", True)])
def test_bounds_mask_is_constant_over_runs_of_the_bounds_divisibility(pred: str, swap: bool) -> None:
    assert _facts(pred, "{tt.divisibility = 16 : i32}", swap) == (16, 16, 16)


@pytest.mark.parametrize("pred, swap, bound", [
    ("slt", False, ""),  # N of unknown divisibility: a run may end anywhere
    ("eq", False, "{tt.divisibility = 16 : i32}"),  # (true at one element only)
    ("slt", True, "{tt.divisibility = 16 : i32}"),  # N < offs: the range is not on the side the rule reads
])
def test_other_comparisons_stay_element_wise(pred: str, swap: bool, bound: str) -> None:
    assert _facts(pred, bound, swap) == (1, 16, 1)


def test_a_conversion_keeps_the_facts_of_its_operand() -> None:
    """A layout conversion moves values between threads, not their facts (triton's rule): a mask or
    offsets converted before an access are as constant/contiguous as before (else a rewrite that
    converts a mask would make the access look as if it could not vectorize, and so cost nothing more
    in any layout)."""
    text = """#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @k(%n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #a>
    %sN = tt.splat %n : i32 -> tensor<64xi32, #a>
    %mask = arith.cmpi slt, %r, %sN : tensor<64xi32, #a>
    %moved = ttg.convert_layout %mask : tensor<64xi1, #a> -> tensor<64xi1, #b>
    %offs = ttg.convert_layout %r : tensor<64xi32, #a> -> tensor<64xi32, #b>
    tt.return
  }
}
"""
    module = parse_module(make_context(), text).module
    facts = AxisInfoAnalysis(module)
    cvts = [op for op in module.walk() if op.name == "ttg.convert_layout"]
    assert facts.of(cvts[0].results[0]).constancy == (16,)
    assert facts.of(cvts[1].results[0]).contiguity == (64,)
