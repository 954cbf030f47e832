"""ir/journal: what the journal keeps of the op it tracks (by name; ttg.convert_layout unless told)."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.ir import journal
from xpu_passes.ir.journal import Journal

TEXT = """\
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: f32) -> tensor<32xf32, #b> {
    %s = tt.splat %x : f32 -> tensor<32xf32, #a>
    %c = ttg.convert_layout %s : tensor<32xf32, #a> -> tensor<32xf32, #b>
    %y = arith.addf %c, %c : tensor<32xf32, #b>
    %z = arith.addf %s, %s : tensor<32xf32, #a>
    tt.return %c : tensor<32xf32, #b>
  }
}
"""


@pytest.mark.parametrize(("tracked", "kept", "lost"), [
    (None, ["ttg.convert_layout"], ["ttg.convert_layout"]),  # the default: RemoveLayoutConversions'
    ("tt.splat", ["tt.splat"], ["tt.splat"]),
])
def test_the_tracked_op_is_kept_and_its_lost_uses_noted(tracked: str | None, kept: list[str], lost: list[str]) -> None:
    module = parse_module(make_context(), TEXT, "t").module
    j = Journal(module) if tracked is None else Journal(module, tracked=tracked)
    assert sorted(op.name for op in j.converts) == kept
    adds = [op for op in module.walk() if op.name == "arith.addf"]  # one on the conversion, one on the splat
    j.maybe_dead = set()  # (as after a kept sweep: only what lost a use since is a candidate)
    j.begin()
    for add in adds:
        journal.erase_op(add)
    assert sorted(op.name for op in j.dead_candidates()) == lost
    j.rollback()
    assert all(add.parent is not None for add in adds)
