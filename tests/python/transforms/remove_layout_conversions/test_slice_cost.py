"""RemoveLayoutConversions' shortcuts decide as the pass does without them.

A backward trial whose rewritten module `slice_cost.floor` bounds as no cheaper, or a
trial `slice_cost.slm_rises` shows needs more SLM, is not made (it would be rejected);
the second solve (block pointers not anchored) is not run
when the first reached `least.least_result`, which no result can beat. Each test fails if a
shortcut changed an answer: outputs and remarks with and without it are compared, and check
mode (the pass option check-incremental) makes the skipped work anyway and holds it to the bound.
"""

from __future__ import annotations

import pytest

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.transforms.remove_layout_conversions import least
from xpu_passes.transforms.remove_layout_conversions.least import least_result
from xpu_passes.transforms.remove_layout_conversions import slice_cost
from xpu_passes.transforms.remove_layout_conversions import solution
from xpu_passes.ir.journal import walk_list
from xpu_passes.transforms import remove_layout_conversions as rlc

from support import rlc_dump as _dump, rlc_output as _run


def corpus(test):  # type: ignore[no-untyped-def]
    """A test on corpus dumps: they are made with triton-xpu."""
    return pytest.mark.triton(pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")(test))


FLASH = ("flash_attention_fwd", "64x32x64-w4-s2")


@corpus
@pytest.mark.parametrize("position", [0, 1], ids=["first-rlc", "second-rlc"])
def test_bounded_trials_are_skipped_and_decide_alike(position: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The construct: flash attention's running max, retyped in the loop while the original chain
    keeps other users (the conversions the slice reads through stay): the estimate says the trial
    saves, the module gets no cheaper. Skipped, the pass decides as when every trial is made."""
    text = _dump(*FLASH, position).read_text()
    answers: list[bool] = []
    real = slice_cost.loses

    def loses(low: tuple[int, int, bool], now: solution.Figures) -> bool:
        answers.append(real(low, now))
        return answers[-1]

    monkeypatch.setattr(slice_cost, "loses", loses)
    skipping = _run(text)
    if position == 0:
        assert any(answers), "no trial was bounded as losing: the dump no longer has the construct"
    monkeypatch.setattr(slice_cost, "loses", lambda low, now: False)
    assert _run(text) == skipping


@corpus
def test_check_mode_holds_every_bound_against_the_trial(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check mode makes each bounded trial and raises when its figures fall below the bound (or a
    skipped one wins): a bound that drops a surviving op's cost would fail here."""
    bounded: list[object] = []
    real = slice_cost.floor

    def floor(*args: object) -> tuple[int, int, bool] | None:
        low = real(*args)  # type: ignore[arg-type]
        if low is not None:
            bounded.append(low)
        return low

    monkeypatch.setattr(slice_cost, "floor", floor)
    for kernel, config, position in [(*FLASH, 0), ("layer_norm_fwd", "256-w4-s1", 0)]:
        _run(_dump(kernel, config, position).read_text(), check_incremental=True)
    assert len(bounded) > 10


@corpus
def test_a_bound_fails_check_mode_when_it_is_not_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is real: a bound one element above the truth is caught."""
    real = slice_cost.floor

    def too_high(*args: object) -> tuple[int, int, bool] | None:
        low = real(*args)  # type: ignore[arg-type]
        return None if low is None else (low[0] + 10**9, low[1], low[2])

    monkeypatch.setattr(slice_cost, "floor", too_high)
    with pytest.raises(AssertionError, match="below its bound"):
        _run(_dump(*FLASH, 0).read_text(), check_incremental=True)


@corpus
def test_trials_needing_more_slm_are_skipped_and_decide_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The construct: flash attention's epilogue (acc / l, stored) propagated forward, which
    converts the broadcast l into the accumulator's layout through more SLM than the module
    needs: rejected whatever its cost. Skipped, the pass decides as when every trial is made;
    check mode makes each such trial and raises unless its SLM rose."""
    text = _dump(*FLASH, 0).read_text()
    answers: list[bool] = []
    real = slice_cost.slm_rises

    def rises(s: object, slm: int) -> bool:
        answers.append(real(s, slm))  # type: ignore[arg-type]
        return answers[-1]

    monkeypatch.setattr(slice_cost, "slm_rises", rises)
    skipping = _run(text)
    assert any(answers), "no trial was found to need more SLM: the dump no longer has the construct"
    monkeypatch.setattr(slice_cost, "slm_rises", lambda s, slm: False)
    assert _run(text) == skipping
    monkeypatch.setattr(slice_cost, "slm_rises", real)
    assert _run(text, check_incremental=True) == skipping
    monkeypatch.setattr(slice_cost, "slm_rises", lambda s, slm: True)  # not a bound: caught
    with pytest.raises(AssertionError, match="below its bound"):
        _run(text, check_incremental=True)


@corpus
@pytest.mark.parametrize("position", [1, 2], ids=["second-rlc", "third-rlc"])
def test_second_solve_skipped_at_the_least_result(position: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """flash attention's later RLC inputs: the anchored solve leaves the one conversion of P
    (a tt.dot result, through elementwise ops, into the next tt.dot's operand) that no result
    avoids. The second solve is not run; the answer is the one running it gives, and check mode
    runs it and raises if it beats that floor."""
    text = _dump(*FLASH, position).read_text()
    solves: list[bool] = []
    real = rlc.RemoveLayoutConversions._solve

    def solve(self: rlc.RemoveLayoutConversions, *args: object) -> rlc.Work:
        solves.append(bool(args[2]))
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(rlc.RemoveLayoutConversions, "_solve", solve)
    skipping = _run(text, check_incremental=False)  # (check mode runs the second solve on purpose)
    assert solves == [True]
    with monkeypatch.context() as mp:
        mp.setattr(least, "least_result", lambda ops: (0, 0))
        solves.clear()
        assert _run(text, check_incremental=False) == skipping and solves == [True, False]
    solves.clear()
    assert _run(text, check_incremental=True) == skipping and solves == [True, False]

_DOTS = """
#bl = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}}>
#bl2 = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}}>
module attributes {{"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func @f(%a: tensor<16x16xf16, #ttg.dot_op<{{opIdx = 0, parent = #bl}}>>,
             %b: tensor<16x16xf16, #ttg.dot_op<{{opIdx = 1, parent = #bl}}>>, %c: tensor<16x16xf32, #bl>,
             %n: i32) -> tensor<16x16xf32, #bl> {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<16x16xf32, #bl>) : i32 {{
      %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{{opIdx = 0, parent = #bl}}>> * tensor<16x16xf16, #ttg.dot_op<{{opIdx = 1, parent = #bl}}>> -> tensor<16x16xf32, #bl>
      {path}
      %x = ttg.convert_layout %t : tensor<16x16xf16, #bl> -> tensor<16x16xf16, #ttg.dot_op<{{opIdx = 0, parent = #bl}}>>
      %e = tt.dot %x, %b, %acc : tensor<16x16xf16, #ttg.dot_op<{{opIdx = 0, parent = #bl}}>> * tensor<16x16xf16, #ttg.dot_op<{{opIdx = 1, parent = #bl}}>> -> tensor<16x16xf32, #bl>
      scf.yield {kept} : tensor<16x16xf32, #bl>
    }}
    tt.return %r : tensor<16x16xf32, #bl>
  }}
}}
"""
_TRUNC = "%t = arith.truncf %d : tensor<16x16xf32, #bl> to tensor<16x16xf16, #bl>"
_TRANS = ("%s = tt.trans %d {order = array<i32: 1, 0>} : tensor<16x16xf32, #bl> -> tensor<16x16xf32, #bl2>\n"
          "      %u = ttg.convert_layout %s : tensor<16x16xf32, #bl2> -> tensor<16x16xf32, #bl>\n"
          "      %t = arith.truncf %u : tensor<16x16xf32, #bl> to tensor<16x16xf16, #bl>")
_MIXED = ("%w = ttg.convert_layout %d : tensor<16x16xf32, #bl> -> tensor<16x16xf32, #bl2>\n"
          "      %t = arith.truncf %w : tensor<16x16xf32, #bl2> to tensor<16x16xf16, #bl>")


@pytest.mark.parametrize(("path", "kept", "least"), [
    (_TRUNC, "%e", (16 * 16 * 2 // 8 * 8, 1)), (_TRANS, "%e", (0, 0)), (_MIXED, "%e", (0, 0)), (_TRUNC, "%acc", (0, 0))],
    ids=["elementwise", "through-trans", "mixed-layouts", "dead-dot"])
def test_least_result(path: str, kept: str, least: tuple[int, int]) -> None:
    """One conversion's least cost (256 f16 elements, 2 bytes each: the narrowest value of the path;
    shuffled: /8, in a loop: x8) when a dot operand is
    computed by elementwise ops from a dot result in another layout; nothing through a tt.trans
    (it changes the layout itself), through an op whose operands and result disagree (invalid
    input: the proof needs one layout per elementwise op), or into a dot whose result reaches no
    store or return (dead code the pass may sweep, its conversion with it)."""
    module = parse_module(make_context(), _DOTS.format(path=path, kept=kept), verify=False).module
    assert least_result(walk_list(module)) == least


@corpus
def test_scratch_ops_are_the_scans_and_reductions() -> None:
    """scratch_ops (classes found first) lists what an isinstance filter lists, in order: on a dump
    with reductions, and on one without."""
    from xpu_passes.dialects import tt

    for kernel, config, position in [("layer_norm_fwd", "256-w4-s1", 0), ("gemm_block_ptr", "64x128x32-w4-s3", 0)]:
        ops = walk_list(parse_module(make_context(), _dump(kernel, config, position).read_text()).module)
        expected = [op for op in ops if isinstance(op, (tt.ScanOp, tt.ReduceOp))]
        assert slice_cost.scratch_ops(ops) == expected
        assert bool(expected) == (kernel == "layer_norm_fwd")
