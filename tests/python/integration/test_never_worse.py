"""Never worse than native by construction (issue 27 points 2 and 3): integration/never_worse.py.

Ours is kept only when worse than triton-xpu's own RemoveLayoutConversions in no figure (a tie
keeps ours); a run of ours over its work budget takes native's result; both say so in a remark.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType

from xpu_passes.dialects import make_context, ttg
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.integration import never_worse, oracle
from xpu_passes.integration.pipeline import RLC, PipelineError, pipeline_text, plan
from xpu_passes.layouts.propagation import encoding
from xpu_passes.transforms.base import FIXPOINT, UNCHANGED, collecting_remarks
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions
from xpu_passes.transforms.remove_layout_conversions.solution import Figures, figures

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")

# tt.reshape carries the load's layout through: ours removes every conversion, native keeps one
# (tests/lit/passes/remove-layout-conversions-never-worse.mlir, its first case).
MODULE = """#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked6 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#blocked7 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ours_better(%in: tensor<8x64x!tt.ptr<f32>, #blocked>, %out: !tt.ptr<f32>) {
    %x = tt.load %in : tensor<8x64x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %x : tensor<8x64xf32, #blocked> -> tensor<8x64xf32, #blocked4>
    %r = tt.reshape %c : tensor<8x64xf32, #blocked4> -> tensor<8x32x2xf32, #blocked6>
    %c2 = ttg.convert_layout %r : tensor<8x32x2xf32, #blocked6> -> tensor<8x32x2xf32, #blocked7>
    %l, %h = tt.split %c2 : tensor<8x32x2xf32, #blocked7> -> tensor<8x32xf32, #blocked8>
    %s = arith.addf %l, %h : tensor<8x32xf32, #blocked8>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<8x32x!tt.ptr<f32>, #blocked8>
    %c3 = ttg.convert_layout %s : tensor<8x32xf32, #blocked8> -> tensor<8x32xf32, #ttg.slice<{dim = 2, parent = #blocked7}>>
    %c4 = ttg.convert_layout %q : tensor<8x32x!tt.ptr<f32>, #blocked8> -> tensor<8x32x!tt.ptr<f32>, #ttg.slice<{dim = 2, parent = #blocked7}>>
    tt.store %c4, %c3 : tensor<8x32x!tt.ptr<f32>, #ttg.slice<{dim = 2, parent = #blocked7}>>
    tt.return
  }
}
"""


@dataclass(frozen=True)
class WorseRLC(RemoveLayoutConversions):
    """Ours made worse on purpose: after the pass, every stored value goes to another layout and back."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        super().apply(ctx, op)
        for store in [o for o in op.walk() if o.name == "tt.store"]:
            v = store.operands[1]
            rank = len(v.type.get_shape())
            other = next(encoding(r.type) for o in op.walk() for r in o.results
                         if isinstance(r.type, TensorType) and len(r.type.get_shape()) == rank
                         and encoding(r.type) != encoding(v.type))
            there = ttg.ConvertLayoutOp.build(operands=[v], result_types=[_with_layout(v.type, other)])
            back = ttg.ConvertLayoutOp.build(operands=[there.result], result_types=[v.type])
            store.parent.insert_ops_before([there, back], store)  # type: ignore[union-attr]
            store.operands = [store.operands[0], back.result, *store.operands[2:]]
        self.said(None)  # type: ignore[arg-type]


def _with_layout(t: Any, layout: Any) -> Any:
    return TensorType(t.element_type, t.get_shape(), layout)


def _parse(text: str = MODULE) -> tuple[Context, ModuleOp]:
    ctx = make_context()
    return ctx, parse_module(ctx, text, "<test>").module


def _print(m: ModuleOp) -> str:
    return print_module(m, Spelling.choose("triton-3.3"))


@pytest.fixture()
def remarks() -> Any:
    with collecting_remarks() as sink:  # the test's remarks (this context's)
        yield sink


def test_native_wins_in_any_figure_and_ours_on_a_tie() -> None:
    ours = Figures(cost=100, slm=512, converts=1)
    assert never_worse.native_wins(ours, ours) == []  # a tie keeps ours
    assert never_worse.native_wins(ours, Figures(cost=200, slm=1024, converts=2)) == []
    # worse in one figure is worse, whatever the others (the kept result is never worse in any)
    assert never_worse.native_wins(ours, Figures(cost=800, slm=256, converts=3)) == ["slm 512 > 256"]
    assert never_worse.native_wins(ours, Figures(cost=50, slm=512, converts=1)) == ["cost 100 > 50"]
    assert never_worse.native_wins(ours, Figures(cost=100, slm=512, converts=0)) == ["converts 1 > 0"]


def test_only_a_pass_that_asks_and_has_a_native_twin_is_guarded() -> None:
    assert not never_worse.guarded(RemoveLayoutConversions())  # the pass's default: xpu-opt shows ours
    assert never_worse.guarded(RemoveLayoutConversions(never_worse_than_native=True))
    # the repeat check compares our side of two runs: the guard's option aside, nothing else
    assert never_worse.same_pass(RemoveLayoutConversions(), RemoveLayoutConversions(never_worse_than_native=True))
    assert not never_worse.same_pass(RemoveLayoutConversions(), RemoveLayoutConversions(max_work_per_op=1))


def test_the_xpu_pipeline_compares_where_native_runs_its_pass() -> None:
    guarded = f"{RLC}{{never-worse-than-native=true}}"
    # the three positions of make_ttgir's RemoveLayoutConversions; not the one after OBIO (native has none)
    for positions in ("dot", "all"):  # ("dot", the default: the first two only in kernels with a tt.dot, run_plan)
        text = pipeline_text("xpu", never_worse_positions=positions)
        assert text.count(guarded) == 3 and text.count(f"{RLC},") == 1
    assert pipeline_text("xpu") == pipeline_text("xpu", never_worse_positions="dot")
    assert plan("xpu").guard_early_only_with_dot and not plan("xpu", never_worse_positions="all").guard_early_only_with_dot
    # the last position only: the earlier two and the one after OBIO run ours alone
    text = pipeline_text("xpu", never_worse_positions="last")
    assert text.count(guarded) == 1 and text.count(f"{RLC},") == 3
    assert text.index(guarded) > text.rindex(f"{RLC},")
    assert "never-worse" not in pipeline_text("xpu", never_worse=False)
    with pytest.raises(PipelineError, match="never_worse_positions"):
        pipeline_text("xpu", never_worse_positions="first")


@needs_triton
def test_kernels_without_a_dot_are_compared_at_the_last_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default ("dot"): a kernel without tt.dot compares only its last position (here idle: none),
    one with a tt.dot every position, as "all" does."""
    from support import compile_timed  # tests/python/support.py

    softmax, gemm = ("softmax", "1024-w4-s1"), ("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    every_text = pipeline_text("xpu")  # (a text: every position guarded, as written)
    out, default = compile_timed("xpu", softmax, monkeypatch)
    out_all, every = compile_timed(every_text, softmax, monkeypatch)
    assert default.get("never_worse_runs", 0) + default.get("repeats_compared", 0) == 0
    assert every.get("never_worse_runs", 0) == 1 and out == out_all  # (ours kept there: the same TTGIR)
    _, default = compile_timed("xpu", gemm, monkeypatch)
    _, every = compile_timed(every_text, gemm, monkeypatch)
    assert default["never_worse_runs"] == every["never_worse_runs"] >= 2


@needs_triton
def test_a_worse_result_of_ours_gives_way_to_natives(remarks: Any) -> None:
    native = never_worse.in_process(oracle.context())
    theirs = native(_print_for_triton(_parse()[1]), RLC)
    assert theirs is not None
    expected = _print(parse_module(make_context(), theirs, "<native>").module)
    ctx, m = _parse()
    said = never_worse.apply(WorseRLC(never_worse_than_native=True), ctx, m, native)
    assert said is None and _print(m) == expected
    assert figures(m).converts == 1  # native's one, not ours' two
    (r,) = [r for r in remarks.drain() if "kept" in r.message and r.op is m]
    assert r.message.startswith("native's result kept: ours would leave converts 2 > 1")


@needs_triton
def test_a_better_result_of_ours_is_kept(remarks: Any) -> None:
    ctx, m = _parse()
    said = never_worse.apply(RemoveLayoutConversions(never_worse_than_native=True), ctx, m,
                             never_worse.in_process(oracle.context()))
    assert figures(m).converts == 0 and said in (None, FIXPOINT)
    (r,) = [r for r in remarks.drain() if r.op is m]
    assert re.fullmatch(r"ours kept: 0 conversion\(s\), 0 bytes of SLM, weighted cost 0; native's pass not run .*",
                        r.message), r.message


def test_a_result_nothing_can_beat_is_not_compared(remarks: Any) -> None:
    """Ours leaves no conversion, no scratch and no cost: native's figures cannot be lower, its pass is not run."""
    calls: list[str] = []

    def native(text: str, flag: str) -> str | None:
        calls.append(flag)
        return None

    ctx, m = _parse()
    never_worse.apply(RemoveLayoutConversions(never_worse_than_native=True), ctx, m, native)
    assert figures(m) == Figures(0, 0, 0) and calls == []
    assert [r.message for r in remarks.drain() if r.op is m] == [
        "ours kept: 0 conversion(s), 0 bytes of SLM, weighted cost 0; native's pass not run (it cannot do better)"]
    # one conversion left (ours made worse): native's pass runs
    ctx, m = _parse()
    never_worse.apply(WorseRLC(never_worse_than_native=True), ctx, m, native)
    assert calls == [RLC]


@needs_triton
def test_a_tie_keeps_ours_and_says_unchanged(remarks: Any) -> None:
    # nothing to do for either: native leaves the module as it is (its figures: the input's)
    text = MODULE.replace("%c = ttg.convert_layout %x : tensor<8x64xf32, #blocked> -> tensor<8x64xf32, #blocked1>",
                          "%c = math.exp %x : tensor<8x64xf32, #blocked>").replace(
        "%e = math.exp %c : tensor<8x64xf32, #blocked1>", "%e = ttg.convert_layout %c : tensor<8x64xf32, #blocked> -> tensor<8x64xf32, #blocked1>")
    ctx, m = _parse(text)
    before = _print(m)
    calls: list[str] = []
    run = never_worse.in_process(oracle.context())

    def native(t: str, flag: str) -> str | None:
        calls.append(flag)
        return run(t, flag)

    p = RemoveLayoutConversions(never_worse_than_native=True, max_backward_remat_iterations=1)
    said = never_worse.apply(p, ctx, m, native)
    assert calls == [RLC]
    if said == UNCHANGED:
        assert _print(m) == before
    assert any(r.message.startswith("ours kept:") for r in remarks.drain())


@needs_triton
def test_over_budget_takes_natives_result(remarks: Any) -> None:
    native = never_worse.in_process(oracle.context())
    theirs = native(_print_for_triton(_parse()[1]), RLC)
    assert theirs is not None
    ctx, m = _parse()
    said = never_worse.apply(RemoveLayoutConversions(never_worse_than_native=True, max_work_per_op=1), ctx, m, native)
    assert said is None and _print(m) == _print(parse_module(make_context(), theirs, "<native>").module)
    got = [r.message for r in remarks.drain()]
    assert any(re.fullmatch(r"input kept: work budget spent \(\d+ > \d+ units\), max-work-per-op=1", g) for g in got)
    assert "native's result kept: ours ran out of its work budget" in got


def test_without_triton_ours_stands_and_says_why(remarks: Any) -> None:
    def missing(text: str, flag: str) -> str:
        raise RuntimeError("triton-xpu is not installed")

    ctx, m = _parse()
    never_worse.apply(WorseRLC(never_worse_than_native=True), ctx, m, missing)
    assert figures(m).converts == 2  # ours, worse on purpose: nothing to compare it with
    assert "ours kept: triton-xpu's pass could not be compared (triton-xpu is not installed)" in [
        r.message for r in remarks.drain()]
    ctx, m = _parse()
    before = _print(m)
    never_worse.apply(RemoveLayoutConversions(never_worse_than_native=True, max_work_per_op=1), ctx, m, missing)
    assert _print(m) == before  # over budget and nothing to fall back to: the input
    assert any(r.message.startswith("input kept: ours ran out of its work budget and triton-xpu's pass could not")
               for r in remarks.drain())


def _print_for_triton(m: ModuleOp) -> str:
    return print_module(m, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)


@needs_triton
def test_a_compile_over_budget_is_natives(remarks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Native's pipeline with ours at its RemoveLayoutConversions, over budget: native's TTGIR."""
    from support import compile_timed  # tests/python/support.py

    # (8x128: at 64x128 over 4 warps ours keeps the epilogue's conversion too: register pressure)
    kernel = ("gemm_add_tensor_ptr", "8x128x64-w4-s3")
    native, _ = compile_timed("native", kernel, monkeypatch)
    text = pipeline_text("native").replace(f"native-{RLC}", f"{RLC}{{max-work-per-op=1 never-worse-than-native=true}}")
    ours, times = compile_timed(text, kernel, monkeypatch)
    got = [r.message for r in remarks.drain() if r.pass_name == RLC and r.message.startswith(("ours", "native", "input"))]
    # the first two positions run out of one unit per op and take native's result; the last one
    # (after the pipeliner: 3 conversions of the epilogue) stays within it, and ours is better there
    assert [g.split(":")[0] for g in got] == ["input kept", "native's result kept"] * 2 + ["ours kept"], got
    assert got[1] == got[3] == "native's result kept: ours ran out of its work budget"
    assert times["native_kept"] == 2 and times["never_worse_runs"] == 3
    assert ours.count("ttg.convert_layout") < native.count("ttg.convert_layout")


def test_the_raising_pipeline_compares_with_and_without_raising() -> None:
    assert ("triton-raise-block-pointer{dot-only=true block-io-only=true wide-positions=true never-worse-than-native=true}"
            in pipeline_text("xpu", raise_block_pointer=True))
    assert "triton-raise-block-pointer{dot-only=true block-io-only=true wide-positions=true}" in pipeline_text(
        "xpu", raise_block_pointer=True, never_worse=False)


@needs_triton
def test_raising_that_helps_is_kept(remarks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py

    kernel = ("gemm_tensor_ptr", "64x128x32-w4-s3")  # A and B through tensors of pointers
    raised, times = compile_timed(pipeline_text("xpu", raise_block_pointer=True), kernel, monkeypatch)
    (r,) = [r.message for r in remarks.drain() if r.pass_name == "triton-raise-block-pointer" and "kept" in r.message]
    assert re.fullmatch(r"raised kept: .*, 4 2D block loads, ~.*; without: .*, 0, ~.*", r), r
    assert times.get("raising_dropped", 0) == 0 and "tt.make_tensor_ptr" in raised


@needs_triton
def test_raising_that_fails_compiles_without_it(remarks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py
    from xpu_passes.transforms.raise_block_pointer import RaiseBlockPointer

    kernel = ("gemm_tensor_ptr", "64x128x32-w4-s3")
    plain, _ = compile_timed(pipeline_text("xpu", raise_block_pointer=False), kernel, monkeypatch)

    def broken(self: Any, ctx: Any, op: Any) -> None:
        raise KeyError("broken on purpose")

    monkeypatch.setattr(RaiseBlockPointer, "apply", broken)
    remarks.drain()
    out, times = compile_timed(pipeline_text("xpu", raise_block_pointer=True), kernel, monkeypatch)
    assert out == plain and times["raising_dropped"] == 1
    (r,) = [r.message for r in remarks.drain() if r.message.startswith(("compiled without raising", "raised kept"))]
    assert r.startswith("compiled without raising: with it, triton-raise-block-pointer raised KeyError"), r


def _compiled_without_raising(remarks: Any, monkeypatch: pytest.MonkeyPatch,
                              worse: Callable[[tuple[Figures, int, Any]], tuple[Figures, int, Any]]) -> str:
    """gemm_tensor_ptr 64x128 with raising, its raised stage's figures made `worse`: it compiles as
    without raising (one raising dropped); the remark that says why."""
    from support import compile_timed  # tests/python/support.py

    kernel = ("gemm_tensor_ptr", "64x128x32-w4-s3")
    plain, _ = compile_timed(pipeline_text("xpu", raise_block_pointer=False), kernel, monkeypatch)
    real = never_worse._ttgir_figures

    def worse_when_raised(text: str) -> tuple[Figures, int, Any]:
        figs = real(text)
        return worse(figs) if "tt.make_tensor_ptr" in text else figs  # (the kernel has none of its own)

    monkeypatch.setattr(never_worse, "_ttgir_figures", worse_when_raised)
    remarks.drain()
    out, times = compile_timed(pipeline_text("xpu", raise_block_pointer=True), kernel, monkeypatch)
    assert out == plain and times["raising_dropped"] == 1
    (r,) = [r.message for r in remarks.drain() if r.message.startswith(("compiled without raising", "raised kept"))]
    return r


@needs_triton
def test_raising_that_loses_a_figure_compiles_without_it(remarks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def one_more_conversion(figs: tuple[Figures, int, Any]) -> tuple[Figures, int, Any]:
        f, blocks, est = figs
        return Figures(f.cost, f.slm, f.converts + 1), blocks, est

    r = _compiled_without_raising(remarks, monkeypatch, one_more_conversion)
    assert r.startswith("compiled without raising: with it, converts 1 > 0"), r


@needs_triton
def test_raising_that_adds_estimated_gathers_compiles_without_it(remarks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from xpu_passes.integration.isa_estimate import Estimate

    def more_gathers(figs: tuple[Figures, int, Any]) -> tuple[Figures, int, Any]:
        f, blocks, est = figs
        return f, blocks, Estimate(est.gathers + 1000, est.scatters, est.peak)

    r = _compiled_without_raising(remarks, monkeypatch, more_gathers)
    assert r.startswith("compiled without raising: with it, gathers "), r
