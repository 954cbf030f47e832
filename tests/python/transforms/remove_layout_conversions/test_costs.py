"""costs: axis facts belong to one pass run; a module's figures never use facts from before its rewrites."""

from __future__ import annotations

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms.remove_layout_conversions import costs
from xpu_passes.transforms.remove_layout_conversions.solution import figures

# A 1-element-per-lane load: one message per element, where contiguous pointers could be read 4 at a time.
KERNEL = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %pi = tt.splat %idx : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %qi = tt.addptr %pi, %r : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %g = tt.load %qi : tensor<1024x!tt.ptr<i32>, #blocked>
    %pa = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %qa = tt.addptr %pa, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %qa : tensor<1024x!tt.ptr<f32>, #blocked>
    %po = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %qo = tt.addptr %po, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %qo, %v : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
"""


def _gather_a(module: object) -> None:
    """Rewire `%qa`'s offsets from the contiguous range to the loaded indices (a gather now)."""
    ops = [o for o in module.walk() if isinstance(o, tt.AddPtrOp)]  # type: ignore[attr-defined]
    loaded = next(o for o in module.walk() if isinstance(o, tt.LoadOp)).results[0]  # type: ignore[attr-defined]
    ops[1].operands[1] = loaded


def test_figures_after_a_rewrite_are_a_fresh_parse_figures() -> None:
    ctx = make_context()
    module = parse_module(ctx, KERNEL).module
    before = figures(module)
    _gather_a(module)
    after = figures(module)
    assert after == figures(parse_module(ctx, print_module(module)).module)
    assert after.cost < before.cost  # a gather has no wider message to miss


def test_facts_are_cached_only_inside_a_run() -> None:
    module = parse_module(make_context(), KERNEL).module
    assert costs.facts_of(module) is not costs.facts_of(module)
    with costs.facts_scope():
        assert costs.facts_of(module) is costs.facts_of(module)
    assert costs._FACTS.get() is None  # pyright: ignore[reportPrivateUsage]


def test_messages_memoized_in_a_run_follow_a_retyped_or_rewired_pointer() -> None:
    from xpu_passes.ir.journal import retype_op

    module = parse_module(make_context(), KERNEL).module
    wide = parse_module(make_context(), KERNEL.replace("sizePerThread = [1]", "sizePerThread = [4]")).module
    load = [o for o in module.walk() if isinstance(o, tt.LoadOp)][1]  # type: ignore[attr-defined]
    wide_type = [o for o in wide.walk() if isinstance(o, tt.LoadOp)][1].operands[0].type  # type: ignore[attr-defined]
    fresh = costs.messages_of
    with costs.facts_scope():
        facts = costs.facts_of(module)
        first = costs._access_messages(load, facts)  # pyright: ignore[reportPrivateUsage]
        assert costs._access_messages(load, facts) is first  # pyright: ignore[reportPrivateUsage]
        pointer = load.operands[0].owner
        retype_op(pointer, [wide_type])  # retyped as RemoveLayoutConversions does: 4 contiguous elements per lane
        load.operands[0] = pointer.results[0]
        retyped = costs._access_messages(load, facts)  # pyright: ignore[reportPrivateUsage]
        assert retyped == fresh(load, facts) and retyped != first
        load.operands[0] = [o for o in module.walk() if isinstance(o, tt.AddPtrOp)][0].results[0]  # type: ignore[attr-defined]
        assert costs._access_messages(load, facts) == fresh(load, facts) != retyped  # pyright: ignore[reportPrivateUsage]


def test_a_guard_takes_a_modules_axis_facts_once_per_figures(monkeypatch: object) -> None:
    """never_worse weighs modules outside a pass run: one axis analysis per figures, not one per access."""
    from xpu_passes.integration import never_worse

    made: list[object] = []
    real = costs.AxisInfoAnalysis
    monkeypatch.setattr(costs, "AxisInfoAnalysis", lambda top: made.append(top) or real(top))  # type: ignore[attr-defined]
    module = parse_module(make_context(), KERNEL).module
    alone = figures(module)  # (outside a run: facts per load and store)
    assert len(made) > 1
    made.clear()
    assert never_worse._figures_and_facts(module)[0] == alone and len(made) == 1  # pyright: ignore[reportPrivateUsage]


# A loop carrying a tensor of pointers 8 contiguous elements per lane (a GEMM's A tile).
LOOP = """#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %s = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %s, %b : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (tensor<32x32x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %q : tensor<32x32x!tt.ptr<f16>, #blocked>
      %nq = tt.addptr %q, %step : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %nq : tensor<32x32x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
"""


def test_a_loop_carried_value_retyped_in_place_keeps_its_facts() -> None:
    """RemoveLayoutConversions retypes loop-carried values in place (new block arguments and loop
    results, made after the analysis): they keep the facts of the values they replace, so a load
    through a carried tensor of pointers moved into another layout is priced with its real
    contiguity (else as if it could never be vectorized: no layout would look worse for it)."""
    from xdsl.dialects import scf
    from xdsl.parser import Parser

    from xpu_passes.ir.journal import Journal
    from xpu_passes.transforms.remove_layout_conversions import materialize

    ctx = make_context()
    module = parse_module(ctx, LOOP).module
    loop = next(o for o in module.walk() if isinstance(o, scf.ForOp))
    layout = Parser(ctx, "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 4], "
                         "order = [0, 1]}>").parse_attribute()
    with costs.facts_scope():
        facts = costs.facts_of(module)
        arg, res = loop.body.block.args[1], loop.results[0]
        before = [facts.of(arg), facts.of(res)]
        assert before[0].contiguity == (1, 32)
        journal = Journal(module).begin()
        try:
            new = [materialize._retype_in_place(v, layout) for v in (arg, res)]
            assert [facts.of(v) for v in new] == before
        finally:
            journal.rollback()  # (an open session would fail the next test's)
