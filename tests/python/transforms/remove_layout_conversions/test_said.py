"""What RemoveLayoutConversions says of a run whose result a new run would change (`XpuPass.said`):
nothing. Its example (a load the rewrite made movable) is built here, since no corpus dump has it
any more (cumsum_2d's first run became a true fixpoint): test_base's
test_rlc_says_nothing_when_a_new_run_starts_elsewhere, on a construct of our own."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.integration import roundtrip
from xpu_passes.transforms.base import FIXPOINT, run_reporting
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

# A load through a converted splat address: not movable when the run starts (its address is a
# conversion's result, a gather), movable once the first conversion is gone (one splat address,
# a cache hit). The run's own loads are the ones it started with; a new run's are not.
SPLAT_LOAD = """
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#c = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @splat_load(%ptr: !tt.ptr<f32>) -> tensor<256xf32, #c> {
    %p = tt.splat %ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #a>
    %pb = ttg.convert_layout %p : tensor<256x!tt.ptr<f32>, #a> -> tensor<256x!tt.ptr<f32>, #b>
    %v = tt.load %pb : tensor<256x!tt.ptr<f32>, #b>
    %vc = ttg.convert_layout %v : tensor<256xf32, #b> -> tensor<256xf32, #c>
    tt.return %vc : tensor<256xf32, #c>
  }
}
"""


def _converts(m: ModuleOp) -> int:
    return sum(op.name == "ttg.convert_layout" for op in m.walk())


def test_rlc_says_nothing_when_a_load_became_movable() -> None:
    ctx = make_context()
    m = parse_module(ctx, SPLAT_LOAD, "<test>").module
    assert run_reporting(RemoveLayoutConversions(), ctx, m) is None  # not a fixpoint: the loads differ
    first = roundtrip.content(m)
    assert _converts(m) == 1  # the address's conversion went, the loaded value's stayed
    # what a second run does shows why: it recomputes the load (now movable) and is then a fixpoint
    assert run_reporting(RemoveLayoutConversions(), ctx, m) == FIXPOINT
    second = roundtrip.content(m)
    assert second != first and _converts(m) == 0
