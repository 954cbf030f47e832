"""RemoveLayoutConversions' validity (transforms/remove_layout_conversions/validity.py): a conversion
triton-xpu 3.3 cannot lower is an error, found by the full check and by the incremental one alike;
the lit test remove-layout-conversions-fma-operand.mlir lowers the construct it comes from."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context, ttg
from xpu_passes.frontend import parse_module
from xpu_passes.ir.journal import walk_list
from xpu_passes.layouts.lowering import convert_refused
from xpu_passes.layouts.propagation import encoding
from xpu_passes.transforms.remove_layout_conversions.validity import has_errors, layout_errors

_PARENTS = {
    "blocked": "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>",
    "dpas": "#triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, "
            "threadsPerWarp = 16, warpsPerCTA = [2, 1], repCluster = [1, 1], A = [8, 8], B = [8, 16], C = [8, 16]}>",
}


def _module(parent: str, direction: str) -> str:
    """A conversion between a dot operand of `parent` and a blocked layout (`direction`: "from"/"to"
    the operand), or ("to DPAS operand") from it to the same operand of a DPAS (AccelerateMatmul's)."""
    k = ", kWidth = 1" if parent == "dpas" else ""
    src, dst = {"from": ("#D", "#b"), "to": ("#b", "#D"), "to DPAS operand": ("#D", "#E")}[direction]
    return f"""#b = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [2, 8], warpsPerCTA = [2, 1], order = [1, 0]}}>
#p = {_PARENTS[parent]}
#q = {_PARENTS["dpas"]}
#D = #ttg.dot_op<{{opIdx = 1, parent = #p{k}}}>
#E = #ttg.dot_op<{{opIdx = 1, parent = #q, kWidth = 1}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func public @f(%x: tensor<16x16xf32, {src}>) -> tensor<16x16xf32, {dst}> {{
    %y = ttg.convert_layout %x : tensor<16x16xf32, {src}> -> tensor<16x16xf32, {dst}>
    tt.return %y : tensor<16x16xf32, {dst}>
  }}
}}
"""


@pytest.mark.parametrize("parent", ["blocked", "dpas"])
@pytest.mark.parametrize("direction", ["from", "to", "to DPAS operand"])
def test_conversion_from_a_non_dpas_dot_operand_is_an_error(parent: str, direction: str) -> None:
    module = parse_module(make_context(), _module(parent, direction)).module
    cvt = next(op for op in module.walk() if isinstance(op, ttg.ConvertLayoutOp))
    refused = parent == "blocked" and direction == "from"
    assert convert_refused(encoding(cvt.operands[0].type), encoding(cvt.results[0].type)) == refused
    found = layout_errors(module)
    assert [why for _, why in found] == (
        ["a conversion from the dot-operand layout of a non-DPAS dot (triton-xpu 3.3 cannot lower it)"] if refused else [])
    # the incremental check (a change that touched the conversion) says the same
    assert has_errors(module, {cvt}, True, set(), set(walk_list(module)) & {cvt}) == refused
