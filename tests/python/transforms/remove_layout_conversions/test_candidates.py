"""RemoveLayoutConversions' candidate rewrites (transforms/remove_layout_conversions/candidates.py): a forward slice that
cannot sort before the backward one is estimated only when the backward trial is not kept."""

from __future__ import annotations

import pytest

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.transforms.remove_layout_conversions import candidates
from xpu_passes.transforms.remove_layout_conversions import solution

from support import rlc_dump as _dump, rlc_output as _run

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]


def test_a_deferred_forward_slice_is_estimated_on_the_undone_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """The construct: a conversion whose backward slice sorts first and whose forward slice was
    deferred, the backward trial not kept (flash_attention_fwd 128x64x64's first input has one):
    the forward slice is then estimated and tried on the module as it was, deciding as the eager
    estimate does. Check mode also asserts that no deferred slice is cheaper than the backward one."""
    text = _dump("flash_attention_fwd", "128x64x64-w8-s3", 0).read_text()
    late: list[object] = []
    real = candidates.Plan._estimate_later

    def estimate_later(self: candidates.Plan) -> None:
        late.append(self.cvt)
        real(self)

    monkeypatch.setattr(candidates.Plan, "_estimate_later", estimate_later)
    lazy = _run(text, check_incremental=True)
    # Since conversions are costed in bytes this dump (nor any of the corpus) no longer defers a
    # forward slice that is then estimated (`late` stays empty); the decisions must still agree.
    monkeypatch.setattr(candidates, "_reads_through", lambda s, target: True)  # every forward slice estimated at once
    late.clear()
    eager = _run(text)
    assert not late and lazy == eager


def test_the_lower_bound_counts_scratch_a_slice_saves() -> None:
    """`least` is a lower bound only if it counts reductions whose scratch shrinks: on every
    forward slice of a dump with reductions, it is at most the estimate."""
    from xpu_passes.dialects import ttg
    from xpu_passes.transforms.remove_layout_conversions import remat, remat_forward
    from xpu_passes.transforms.remove_layout_conversions import slice_cost
    from xpu_passes.ir.journal import walk_list

    module = parse_module(make_context(), _dump("layer_norm_fwd", "256-w4-s1", 0).read_text()).module
    checked = 0
    for cvt in [o for o in walk_list(module) if isinstance(o, ttg.ConvertLayoutOp)]:
        s = remat.Slice()
        if remat_forward.forward_refused(cvt) or not remat_forward.forward(cvt, s) or candidates._reads_through(s, cvt):
            continue
        assert candidates.least(s, cvt) <= slice_cost.estimate(s, cvt)
        checked += 1
    assert checked


REDUCE = """
#a = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x64xf32, #b>, %y: tensor<16x64xf32, #a>) {
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %m = arith.maxnumf %p, %q : f32
      tt.reduce.return %m : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}
"""


def _reduce() -> tuple[object, object, object]:
    """The reduction of REDUCE, and its layouts #a and #b."""
    from xpu_passes.dialects import tt
    from xpu_passes.layouts.propagation import encoding

    module = parse_module(make_context(), REDUCE).module
    red = next(o for o in module.walk() if isinstance(o, tt.ReduceOp))
    x, y = red.parent_block().args  # type: ignore[union-attr]
    return red, encoding(y.type), encoding(x.type)


def test_a_scratch_change_follows_its_reductions_operand_types() -> None:
    """The construct: a rewrite retypes a reduction's operand in place (its scratch changes):
    the remembered change is not served again, it is computed for the new types."""
    from xpu_passes.transforms.remove_layout_conversions import costs
    from xpu_passes.ir import journal
    from xpu_passes.transforms.remove_layout_conversions import slice_cost
    from xpu_passes.layouts.propagation import slice_layout, with_encoding

    red, a, _ = _reduce()
    target = slice_layout(1, a)  # type: ignore[arg-type]
    from xpu_passes.transforms.remove_layout_conversions.reductions import traffic

    def change() -> int:  # the scratch and the accumulators' traffic (reductions.py)
        return costs.scratch_change(red, target) + traffic(red, target) - traffic(red)  # type: ignore[arg-type]

    before = slice_cost.change_of(red, target)  # type: ignore[arg-type]
    assert before == change() and costs.scratch_change(red, target) < 0  # type: ignore[arg-type]  # cross-warp scratch saved
    x = red.operands[0]  # type: ignore[attr-defined]
    journal.replace_value_with_new_type(x, with_encoding(x.type, a))  # type: ignore[arg-type]
    after = slice_cost.change_of(red, target)  # type: ignore[arg-type]
    assert after == change() == 0  # type: ignore[arg-type]
    slice_cost.forget()


def test_remembered_operand_layouts_are_per_op_and_layout_and_checked() -> None:
    """operand_layouts' answers are kept per (op, layout) for one pass run: another layout of the
    same op gets its own; the check at the end of the run finds an answer its rule no longer gives
    (here the op's axis changed under it, which no rewrite does); forget drops them all."""
    from xdsl.dialects.builtin import IntegerAttr, i32

    from xpu_passes.layouts import propagation

    red, _, b = _reduce()
    s1, s0 = propagation.slice_layout(1, b), propagation.slice_layout(0, b)  # type: ignore[arg-type]
    assert propagation.operand_layouts(red, s1) == [b] and propagation.operand_layouts(red, s0) is None  # type: ignore[arg-type]
    assert propagation.operand_layouts(red, s1) is propagation.operand_layouts(red, s1)  # type: ignore[arg-type]  # remembered
    red.properties["axis"] = IntegerAttr(0, i32)  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match="stale answer for 'tt.reduce'"):
        propagation.forget(check=True)
    propagation.forget(check=True)  # forgotten: nothing left to find
    assert propagation.operand_layouts(red, s0) == [b]  # type: ignore[arg-type]  # asked again: the rule's answer now
    propagation.forget()
