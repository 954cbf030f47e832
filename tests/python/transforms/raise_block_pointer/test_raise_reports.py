"""What a raising run says of its result: UNCHANGED exactly when it left the module as given (candidates all
refused, remarks only, skip-transposed-reuse, nothing to raise), so the pipeline compiles the stage once, not
twice with and without raising (never_worse.compare_raising through the round trip's hand-back)."""

from __future__ import annotations

from pathlib import Path
import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.integration import oracle
from xpu_passes.integration.pipeline import pipeline_text
from xpu_passes.transforms import collecting_remarks, load_all
from xpu_passes.transforms.base import UNCHANGED, run_reporting
from xpu_passes.transforms.raise_block_pointer import RaiseBlockPointer

load_all()

LIT = Path(__file__).parents[3] / "lit" / "passes"
needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
# The options the lit tests and the pipeline run it with.
OPTIONS = {"default": RaiseBlockPointer(), "dot-only=false": RaiseBlockPointer(dot_only=False),
           "pipeline": RaiseBlockPointer(dot_only=True, block_io_only=True)}


def _chunks() -> list[tuple[str, str]]:
    """(file:index, module text) of every input of the raising lit tests."""
    out = []
    for f in sorted(LIT.glob("raise-block-pointer*.mlir")):
        for i, part in enumerate(f.read_text().split("// -----")):
            lines = [ln for ln in part.splitlines() if not ln.lstrip().startswith("//")]
            start = next((k for k, ln in enumerate(lines) if ln.startswith(("#", "module"))), len(lines))
            text = "\n".join(lines[start:])  # (past a RUN line's continuation)
            if "tt.func" in text:
                out.append((f"{f.stem}:{i}", text))
    return out


CHUNKS = _chunks()


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_unchanged_is_said_exactly_when_nothing_changed(option: str) -> None:
    p = OPTIONS[option]
    said_unchanged = changed = 0
    for where, text in CHUNKS:
        m = parse_module(make_context(), text, where).module
        before = print_module(m)
        with collecting_remarks():
            said = run_reporting(p, make_context(), m)
        same = print_module(m) == before
        assert (said == UNCHANGED) == same, f"{where} ({option}): said {said}, module {'un' if same else ''}changed"
        said_unchanged += same
        changed += not same
    assert said_unchanged and changed  # both cases seen with each option


@needs_triton
@pytest.mark.parametrize("kernel", [("gemm_block_ptr", "64x128x32-w4-s3"),  # block pointers already: nothing to raise
                                    ("attn_bwd_dkdv", "32x64x64-w4-s2")])  # skip-transposed-reuse
def test_a_kernel_raising_leaves_alone_compiles_its_stage_once(kernel: tuple[str, str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py

    plain, plain_times = compile_timed(pipeline_text("xpu", raise_block_pointer=False), kernel, monkeypatch,
                                       check_reports=True)
    out, times = compile_timed(pipeline_text("xpu", raise_block_pointer=True), kernel, monkeypatch,
                               check_reports=True)
    assert out == plain
    assert "raising_dropped" not in times  # (counted only where both stages ran)
    # (its round trip handed back; gemm_block_ptr has nothing raising reads: no round trip, pipeline.NEEDS_MATCH)
    made = int(kernel[0] != "gemm_block_ptr")
    assert times.get("handed_back", 0) == plain_times.get("handed_back", 0) + made
    rlc = "runs:tritonintelgpu-remove-layout-conversions"
    assert times[rlc] == plain_times[rlc]


@needs_triton
def test_a_kernel_raising_changes_compiles_its_stage_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py

    kernel = ("gemm_tensor_ptr", "64x128x32-w4-s3")  # A and B through tensors of pointers
    _, plain_times = compile_timed(pipeline_text("xpu", raise_block_pointer=False), kernel, monkeypatch)
    _, times = compile_timed(pipeline_text("xpu", raise_block_pointer=True), kernel, monkeypatch)
    rlc = "runs:tritonintelgpu-remove-layout-conversions"
    assert times["raising_dropped"] == 0 and times[rlc] == 2 * plain_times[rlc]


def test_needs_text_is_honest() -> None:
    """Where the pipeline's raising (dot-only) says it needs a tt.dot, an input without one is left as given,
    and one with a tt.dot is not assumed idle."""
    p = OPTIONS["pipeline"]
    assert p.needs_text == ("tt.dot",) and RaiseBlockPointer(dot_only=False).needs_text is None
    assert RaiseBlockPointer(dot_only=True, ignore_masks=True).needs_text is None  # (masks go everywhere)
    without = [(w, t) for w, t in CHUNKS if "tt.dot" not in t]
    assert without and len(without) < len(CHUNKS)
    for where, text in without:
        m = parse_module(make_context(), text, where).module
        with collecting_remarks():
            assert run_reporting(p, make_context(), m) == UNCHANGED, where


@needs_triton
def test_a_kernel_without_a_dot_makes_no_raising_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py

    from xpu_passes import corpus

    kernel = ("softmax", corpus.find("softmax")[1].name)
    plain, plain_times = compile_timed(pipeline_text("xpu", raise_block_pointer=False), kernel, monkeypatch)
    out, times = compile_timed(pipeline_text("xpu", raise_block_pointer=True), kernel, monkeypatch)
    assert out == plain and "runs:triton-raise-block-pointer" not in times
    assert times["round_trips"] == plain_times["round_trips"]
    _, timed_off = compile_timed(pipeline_text("xpu", raise_block_pointer=True), kernel, monkeypatch, skip_idle=False)
    assert timed_off["runs:triton-raise-block-pointer"] == 1  # (the check above can fail)


# ------------------------------------------------------------------ work budget (max-work-per-op)


def test_a_run_over_its_budget_keeps_its_input_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each input raising changes, with a budget one unit short of what its run spends: the module is as
    given (also where the budget runs out after rewrites: the copy is put back), one remark, OVER_BUDGET."""
    import xpu_passes.transforms.raise_block_pointer as rbp
    from xpu_passes.transforms.base import OVER_BUDGET, WorkBudget

    runs: list[WorkBudget] = []
    short: dict[str, int] = {}  # input -> the budget to give (spent - 1)
    made = rbp.WorkBudget.per_op.__func__  # type: ignore[attr-defined]

    def per_op(cls: type, per: int, ops: int) -> WorkBudget:
        b = made(cls, per, ops) if not short else WorkBudget(short["limit"])
        runs.append(b)
        return b

    monkeypatch.setattr(rbp.WorkBudget, "per_op", classmethod(per_op))
    restored: list[object] = []
    real = rbp.adopt_body
    monkeypatch.setattr(rbp, "adopt_body", lambda dst, src: (restored.append(dst), real(dst, src)))
    p = RaiseBlockPointer(dot_only=False)
    tried = 0
    for where, text in CHUNKS:
        short.clear()
        m = parse_module(make_context(), text, where).module
        before = print_module(m)
        with collecting_remarks():
            said = run_reporting(p, make_context(), m)
        if said == UNCHANGED:
            continue
        assert runs[-1].limit == p.max_work_per_op * sum(1 for _ in parse_module(make_context(), text, where)
                                                          .module.walk())
        short["limit"] = runs[-1].spent - 1
        m = parse_module(make_context(), text, where).module
        with collecting_remarks() as sink:
            said = run_reporting(p, make_context(), m)
        assert said == OVER_BUDGET and print_module(m) == before, where
        (r,) = [r.message for r in sink.remarks]
        assert r.startswith("input kept: work budget spent (") and r.endswith(", max-work-per-op=50"), r
        tried += 1
    assert tried > 10 and restored  # (some ran out after a rewrite)


@needs_triton
def test_a_kernel_over_raisings_budget_compiles_its_stage_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from support import compile_timed  # tests/python/support.py
    from xpu_passes.transforms.base import collecting_remarks as remarks

    kernel = ("gemm_tensor_ptr", "64x128x32-w4-s3")  # raised with the default budget (1.4 units per op)
    with remarks():  # (as below: with remarks wanted, idle passes run to say why)
        plain, plain_times = compile_timed(pipeline_text("xpu", raise_block_pointer=False), kernel, monkeypatch,
                                           check_reports=True)
    text = pipeline_text("xpu", raise_block_pointer=True)
    assert text.count("block-io-only=true ") == 1
    with remarks() as sink:
        out, times = compile_timed(text.replace("block-io-only=true ", "block-io-only=true max-work-per-op=1 "), kernel,
                                   monkeypatch, check_reports=True)
    assert out == plain and "raising_dropped" not in times
    rlc = "runs:tritonintelgpu-remove-layout-conversions"
    assert times[rlc] == plain_times[rlc]
    (r,) = [r.message for r in sink.remarks if r.pass_name == "triton-raise-block-pointer"]
    assert r.startswith("input kept: work budget spent (") and r.endswith("max-work-per-op=1"), r
