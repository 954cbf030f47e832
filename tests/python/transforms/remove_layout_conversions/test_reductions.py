"""What RemoveLayoutConversions charges a reduction for the accumulators its layout holds
(transforms/remove_layout_conversions/reductions.py), and the slices that convert a reduction's
result instead of re-laying its operand (remat.Slice.cut, candidates._cut_variants)."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context, tt, ttg
from xpu_passes.frontend import parse_module
from xpu_passes.layouts.propagation import encoding
from xpu_passes.transforms.remove_layout_conversions import candidates, reductions, remat, remat_forward, slice_cost, solution

ROWS = "[1, 1]", "[32, 1]", "[4, 1]", "[0, 1]"  # the rows over 32 lanes and 4 warps (a load's layout)
COLS = "[1, 1]", "[2, 16]", "[4, 1]", "[1, 0]"  # the 16 columns over 16 lanes, 2 rows per warp
ONE_WARP = "[1, 1]", "[32, 1]", "[1, 1]", "[0, 1]"


def _layout(spec: tuple[str, str, str, str]) -> str:
    spt, tpw, warps, order = spec
    return f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = {warps}, order = {order}}}>"


def _reduce(layout: tuple[str, str, str, str], rows: int = 128, warps: int = 4) -> tuple[object, tt.ReduceOp]:
    text = f"""
#b = {_layout(layout)}
module attributes {{"ttg.num-warps" = {warps} : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @f(%x: tensor<{rows}x16xf32, #b>) {{
    %r = "tt.reduce"(%x) <{{axis = 0 : i32}}> ({{
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }}) : (tensor<{rows}x16xf32, #b>) -> tensor<16xf32, #ttg.slice<{{dim = 0, parent = #b}}>>
    tt.return
  }}
}}
"""
    module = parse_module(make_context(), text).module
    return module, next(op for op in module.walk() if isinstance(op, tt.ReduceOp))


def test_rows_over_lanes_and_warps_hold_every_column_in_each_lane() -> None:
    """celoss BLOCK_D=16's construct: a sum over the rows of a 128x16 f32 tile in the load's layout
    accumulates all 16 columns in each lane, written and read back across the 4 warps."""
    module, red = _reduce(ROWS)
    assert reductions.accumulators(red.operands[0].type, 0) == (16, 128, 32, 4)  # type: ignore[arg-type]
    assert reductions.traffic(red) == (16 - 1) * 128 * 4
    # The module's figures carry it on top of the reduction's scratch.
    fig = solution.figures(module)
    assert fig.cost == fig.slm + reductions.traffic(red)


def test_columns_over_lanes_hold_one_accumulator() -> None:
    _, red = _reduce(COLS)
    assert reductions.accumulators(red.operands[0].type, 0) == (1, 128, 2, 4)  # type: ignore[arg-type]
    assert reductions.traffic(red) == 0
    # Asked for the same reduction with its results in the other layout: what a slice would change.
    _, other = _reduce(ROWS)
    assert reductions.traffic(red, encoding(other.results[0].type)) == reductions.traffic(other)
    assert slice_cost.change_of(red, encoding(other.results[0].type)) == reductions.traffic(other)  # type: ignore


@pytest.mark.parametrize("layout, warps", [(ONE_WARP, 1), (ROWS, 4)])
def test_no_price_without_slm_or_beyond_the_fewest(layout: tuple[str, str, str, str], warps: int) -> None:
    """One warp holds the axis: no SLM round trip to price (shuffles are not priced). 16 rows over
    128 threads leave 16 columns x 1 row: the fewest a lane can hold is then what it holds."""
    _, red = _reduce(layout, rows=128 if warps == 1 else 4, warps=warps)
    if warps == 1:
        assert reductions.accumulators(red.operands[0].type, 0)[0] == 16  # type: ignore[arg-type]
    assert reductions.traffic(red) == 0


def test_other_ops_are_not_priced() -> None:
    module, _ = _reduce(ROWS)
    assert all(reductions.traffic(op) == 0 for op in module.walk() if not isinstance(op, tt.ReduceOp))


_FORWARD = f"""
#ld = {_layout(ROWS)}
#col = {_layout(COLS)}
module attributes {{"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @f(%a: tensor<128x16xf32, #ld>, %w: tensor<128x16xf32, #col>, %o: tensor<16x!tt.ptr<f32>, #ttg.slice<{{dim = 0, parent = #ld}}>>) {{
    %ac = ttg.convert_layout %a : tensor<128x16xf32, #ld> -> tensor<128x16xf32, #col>
    %e = math.exp %ac : tensor<128x16xf32, #col>
    %sa = "tt.reduce"(%e) <{{axis = 0 : i32}}> ({{
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }}) : (tensor<128x16xf32, #col>) -> tensor<16xf32, #ttg.slice<{{dim = 0, parent = #col}}>>
    %w2 = arith.mulf %w, %w : tensor<128x16xf32, #col>
    %sw = "tt.reduce"(%w2) <{{axis = 0 : i32}}> ({{
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }}) : (tensor<128x16xf32, #col>) -> tensor<16xf32, #ttg.slice<{{dim = 0, parent = #col}}>>
    %q = arith.divf %sw, %sa : tensor<16xf32, #ttg.slice<{{dim = 0, parent = #col}}>>
    %qc = ttg.convert_layout %q : tensor<16xf32, #ttg.slice<{{dim = 0, parent = #col}}>> -> tensor<16xf32, #ttg.slice<{{dim = 0, parent = #ld}}>>
    tt.store %o, %qc : tensor<16x!tt.ptr<f32>, #ttg.slice<{{dim = 0, parent = #ld}}>>
    tt.return
  }}
}}
"""


def test_a_forward_slice_through_a_reduction_has_a_cut_variant() -> None:
    """Forwarding #ld from %ac reaches the divf, whose other operand comes through the %w chain's
    reduction: the full slice recomputes %w2 and its reduction in #ld (and converts %w); its cut
    variant converts the reduction's 16 sums instead and leaves the %w chain alone."""
    module = parse_module(make_context(), _FORWARD).module
    cvt = next(op for op in module.walk() if isinstance(op, ttg.ConvertLayoutOp))
    full = remat.Slice()
    assert remat_forward.forward(cvt, full, admitted=True) and len(full.crossed) == 1
    cut = remat.Slice(cut=frozenset(full.crossed))
    assert remat_forward.forward(cvt, cut, admitted=True) and not cut.crossed
    names = lambda s: sorted(op.name for op in s.ops)  # noqa: E731
    assert names(full).count("tt.reduce") == 2 and names(cut).count("tt.reduce") == 1
    assert "arith.mulf" in names(full) and "arith.mulf" not in names(cut)
    (boundary,) = [v for v in cut.boundary if isinstance(v.owner, tt.ReduceOp)]
    assert boundary in cut.direct
    plan = candidates.options(cvt, set())
    assert not isinstance(plan, str) and {"forward", "forward-cut"} <= set(plan.slices)
    # The cut converts 16 values where the full slice re-lays a reduction into 16 accumulators per lane.
    assert plan.estimate_of("forward-cut")[0] < plan.estimate_of("forward")[0]  # type: ignore[index]


def test_a_slice_crossing_no_reduction_has_no_cut_variant() -> None:
    module = parse_module(make_context(), _FORWARD).module
    cvt = [op for op in module.walk() if isinstance(op, ttg.ConvertLayoutOp)][1]  # %qc: past both reductions
    plan = candidates.options(cvt, set())
    assert isinstance(plan, str) or not any(how.endswith("-cut") for how in plan.slices)


def test_a_cut_backward_slice_converts_the_reductions_below_its_root() -> None:
    """Backward from %qc (a divf of two reductions' results): cut, both sums are converted."""
    module = parse_module(make_context(), _FORWARD).module
    cvt = [op for op in module.walk() if isinstance(op, ttg.ConvertLayoutOp)][1]
    s = remat.Slice(cut=frozenset(op for op in module.walk() if isinstance(op, tt.ReduceOp)))
    assert remat.backward(cvt.src, encoding(cvt.result.type), s, cvt)
    assert not any(isinstance(op, tt.ReduceOp) for op in s.ops)
    assert {type(v.owner) for v in s.boundary} == {tt.ReduceOp}


def test_a_conversion_of_a_reduction_result_is_never_cut_at_its_root() -> None:
    """Its cut would be the conversion itself: the backward slice re-lays the reduction."""
    module, red = _reduce(COLS)
    block = red.parent
    other = encoding(_reduce(ROWS)[1].results[0].type)  # slice(0) of the rows' layout
    t = red.results[0].type
    cvt = ttg.ConvertLayoutOp.build(operands=[red.results[0]],
                                    result_types=[type(t)(t.element_type, t.get_shape(), other)])  # type: ignore
    block.insert_op_after(cvt, red)  # type: ignore[union-attr]
    s = remat.Slice(cut=frozenset({red}))
    assert remat.backward(cvt.operands[0], other, s, cvt)
    assert red in s.members and not s.crossed
