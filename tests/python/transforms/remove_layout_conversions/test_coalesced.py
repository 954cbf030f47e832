"""coalesced: a module's tt.dot layouts (what an expensive load may be re-laid toward) are remembered for
one pass run only, per module, and check mode holds the remembered list to a fresh walk. An expensive load
is judged by its module's axis facts as the run keeps them (one analysis, not one per load), and check mode
holds them to the IR's."""

from __future__ import annotations

import pytest

from xpu_passes.analysis.axis_info import AxisInfo
from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.ir.clone import clone
from xpu_passes.ir.journal import replace_value_with_new_type
from xpu_passes.transforms.remove_layout_conversions import coalesced, costs

# A placeholder tt.dot (before AccelerateMatmul: its result in #blocked) beside a 2D gather in #blocked1.
KERNEL = """#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%p: tensor<16x16x!tt.ptr<f32>, #blocked1>, %a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    %v = tt.load %p : tensor<16x16x!tt.ptr<f32>, #blocked1>
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    tt.return %d : tensor<16x16xf32, #blocked>
  }
}
"""


def _parts(module: object) -> tuple[tt.LoadOp, tt.DotOp]:
    ops = list(module.walk())  # type: ignore[attr-defined]
    return next(o for o in ops if isinstance(o, tt.LoadOp)), next(o for o in ops if isinstance(o, tt.DotOp))


def _retype_dot(dot: tt.DotOp, like: object) -> None:
    """The dot's result in the load's layout (as a pass between two runs would leave it)."""
    replace_value_with_new_type(dot.results[0], like)  # type: ignore[arg-type]


def test_dot_layouts_are_remembered_per_run_and_forgotten_after() -> None:
    module = parse_module(make_context(), KERNEL).module
    load, dot = _parts(module)
    dot_layout, load_layout = dot.results[0].type.encoding, load.result.type.encoding
    toward = coalesced._toward_2d_block  # pyright: ignore[reportPrivateUsage]
    with coalesced.dots_scope():
        assert toward(load, dot_layout) and not toward(load, load_layout)
        _retype_dot(dot, load.result.type)
        assert toward(load, dot_layout)  # remembered for the run (a run never retypes a dot)
    assert coalesced._DOT_LAYOUTS.get() is None  # pyright: ignore[reportPrivateUsage]
    assert toward(load, load_layout) and not toward(load, dot_layout)  # no run: walked now
    with coalesced.dots_scope():  # a new run: walked again
        assert toward(load, load_layout) and not toward(load, dot_layout)


def test_each_module_of_a_run_has_its_own_list() -> None:
    module = parse_module(make_context(), KERNEL).module
    copy = clone(module)
    load, dot = _parts(module)
    copy_load, copy_dot = _parts(copy)
    dot_layout = dot.results[0].type.encoding
    toward = coalesced._toward_2d_block  # pyright: ignore[reportPrivateUsage]
    with coalesced.dots_scope():
        assert toward(load, dot_layout)
        _retype_dot(copy_dot, copy_load.result.type)
        assert not toward(copy_load, dot_layout) and toward(copy_load, copy_load.result.type.encoding)


def test_check_mode_holds_the_list_to_a_fresh_walk() -> None:
    module = parse_module(make_context(), KERNEL).module
    load, dot = _parts(module)
    dot_layout = dot.results[0].type.encoding
    toward = coalesced._toward_2d_block  # pyright: ignore[reportPrivateUsage]
    with coalesced.dots_scope(check=True):
        assert toward(load, dot_layout)
        assert toward(load, dot_layout)
        _retype_dot(dot, load.result.type)
        with pytest.raises(AssertionError, match="dot layouts changed"):
            toward(load, dot_layout)


# Two 2D gathers of the same pointers (function arguments: no contiguity known) in #blocked1.
TWO_LOADS = """#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%p: tensor<16x16x!tt.ptr<f32>, #blocked1>, %q: tensor<16x16x!tt.ptr<f32>, #blocked1>) {
    %v = tt.load %p : tensor<16x16x!tt.ptr<f32>, #blocked1>
    %w = tt.load %q : tensor<16x16x!tt.ptr<f32>, #blocked1>
    tt.store %q, %v : tensor<16x16x!tt.ptr<f32>, #blocked1>
    tt.store %p, %w : tensor<16x16x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}
"""


def test_loads_are_judged_by_the_facts_the_run_keeps_for_their_module() -> None:
    module = parse_module(make_context(), TWO_LOADS).module
    first, second = [o for o in module.walk() if isinstance(o, tt.LoadOp)]
    facts = coalesced._facts  # pyright: ignore[reportPrivateUsage]
    with costs.facts_scope(), coalesced.dots_scope():
        kept = costs.facts_of(module)
        assert facts(first) is kept and facts(second) is kept  # one analysis for both loads
        assert facts(first).of(first.operands[0]) == kept.of(first.operands[0])
    # No run: each question analyses the module as it is (nothing kept), with the same facts.
    outside = facts(first)
    assert outside is not kept and outside.of(first.operands[0]) == kept.of(first.operands[0])


def test_check_mode_holds_the_kept_facts_to_the_ir() -> None:
    module = parse_module(make_context(), TWO_LOADS).module
    first, second = [o for o in module.walk() if isinstance(o, tt.LoadOp)]
    facts = coalesced._facts  # pyright: ignore[reportPrivateUsage]
    with costs.facts_scope(), coalesced.dots_scope(check=True):
        facts(first)
        kept = costs.facts_of(module)
        ptr = second.operands[0]
        kept.info[ptr] = AxisInfo((1, 4), (1, 16), (1, 1), (None, None))  # not what the IR says of %q
        facts(first)  # (its own pointer's facts are the IR's)
        with pytest.raises(AssertionError, match="axis facts kept for the run"):
            facts(second)
