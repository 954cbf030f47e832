"""The whole-stage comparison's twin (triton-xpu's own stage) starts where our side already reached one of its
states (integration/twin_fork.py), and ours starts where the twin did, in a kernel native_first runs first:
the twin's final TTGIR is still exactly triton-xpu's make_ttgir's, and ours is what it was."""

from __future__ import annotations

from typing import Any

import pytest

from xpu_passes.integration import oracle, twin_fork
from xpu_passes.integration.stages import Stage
from xpu_passes.registry import PassSpec

from integration.test_never_worse_native_first import _native  # (triton-xpu's own make_ttgir of a corpus kernel)

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")

RLC = "tritonintelgpu-remove-layout-conversions"


def _twin() -> list[Stage]:
    return [Stage(PassSpec("a", {"x": "1"}), False), Stage(PassSpec("b", {}), False), Stage(PassSpec(RLC, {}), False),
            Stage(PassSpec("c", {}), False)]


class _Module:
    """A stand-in for a triton module: the fork follows modules by identity only."""


def test_a_module_is_followed_while_the_natives_run_on_it_are_the_twins_next_stages() -> None:
    fork, mod = twin_fork.Fork(_twin()), _Module()
    fork.lineage[id(mod)] = (mod, 0)
    fork.ran(mod, [PassSpec("a", {"x": "1"})])
    fork.ran(mod, [PassSpec("b", {})])
    fork.reached(mod, "print after b", 32)
    assert fork.at == (2, "print after b", 32)
    # native's pass at the first position, on that very print: the twin's next stage
    done = _Module()
    fork.native_ran("print after b", RLC, done)
    assert fork.after == (3, done, 32)
    assert fork.start(None) == (done, 3, 32)  # (the later state, as it is: no parse)


def test_a_module_leaves_the_lineage_where_ours_differs_from_the_twin() -> None:
    fork, mod = twin_fork.Fork(_twin()), _Module()
    fork.lineage[id(mod)] = (mod, 0)
    fork.ran(mod, [PassSpec("a", {"x": "2"})])  # another option: not the twin's stage
    assert not fork.follows(mod)
    fork.reached(mod, "text", 16)
    assert fork.at is None and fork.start(None) is None
    # a module never followed, and a pass other than the twin's next one on the print
    other = _Module()
    fork.ran(other, [PassSpec("a", {"x": "1"})])
    assert not fork.follows(other)
    fork.at = (2, "print after b", 16)
    fork.native_ran("another print", RLC, _Module())
    fork.native_ran("print after b", "tritonintelgpu-accelerate-matmul", _Module())
    assert fork.after is None
    # an object at the same id is not the module followed
    fork.lineage[id(other)] = (_Module(), 1)
    assert not fork.follows(other)


def _compile(kernel: tuple[str, str], monkeypatch: pytest.MonkeyPatch, native: bool = False,
             share: bool = True, remarks: bool = False) -> tuple[str, dict[str, Any]]:
    """The kernel's TTIR through `xpu`: (final TTGIR, the compile's counts); `native`: the judge keeps
    triton-xpu's stage (so the result is the twin's); `share` False: neither side starts from the other."""
    import contextlib

    from xpu_passes import corpus
    from xpu_passes.integration import pipeline, roundtrip, stage_guard
    from xpu_passes.transforms.base import RemarkSink, collecting_remarks

    with monkeypatch.context() as m:
        if native:
            m.setattr(stage_guard, "judge_stages", lambda mine, theirs, context: (["forced"], "forced"))
        if not share:
            m.setattr(twin_fork.Fork, "start", lambda self, context: None)
            m.setattr(twin_fork, "opening", lambda body, twin, text: (body, 0, twin.stages))
        spec, cfg = corpus.find(*kernel)
        mod, opts, backend = corpus.make_ttir_module(spec, cfg)
        mod = backend.make_ttir(mod, {}, opts)
        with roundtrip.timing() as times, (collecting_remarks(RemarkSink()) if remarks else contextlib.nullcontext()):
            out = pipeline.run_plan(mod, {}, opts, backend.properties, pipeline.plan("xpu"))
    return str(out), times


@needs_triton
def test_in_a_kernel_with_a_dot_the_twin_starts_after_the_shared_passes_and_is_still_native(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gemm = ("gemm_add_tensor_ptr", "64x128x32-w4-s3")  # a tt.dot: ours runs first, every position guarded
    twin, times = _compile(gemm, monkeypatch, native=True)
    # annotate-module, convert-triton-to-tritongpu, coalesce, and native's RemoveLayoutConversions at our first position
    assert times.get("twin_stages_shared") in (3, 4)
    # the twin as it runs without the fork, from the TTIR (not make_ttgir's: our passes after the comparison,
    # reduce-variable-liveness among them, run on the stage kept)
    whole, times_whole = _compile(gemm, monkeypatch, native=True, share=False)
    assert twin == whole and "twin_stages_shared" not in times_whole
    # the kept stage (ours here) is what it is without the fork
    ours, times = _compile(gemm, monkeypatch)
    alone, times_alone = _compile(gemm, monkeypatch, share=False)
    assert ours == alone and "twin_stages_shared" not in times_alone


@needs_triton
def test_without_a_dot_ours_starts_from_the_twins_state_after_the_passes_both_open_with(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rms = ("rms_norm_bwd", "1024-w4-s1")  # no tt.dot, native's stage leaves a conversion: native first, then ours
    ours, times = _compile(rms, monkeypatch)
    assert times.get("ours_stages_shared") == 3 and times.get("native_stage_kept") == 0
    alone, times_alone = _compile(rms, monkeypatch, share=False)
    assert ours == alone and "ours_stages_shared" not in times_alone
    twin, _ = _compile(rms, monkeypatch, native=True)
    assert twin == _native(rms)
    # with remarks wanted raising runs to say why it is idle: nothing shared that way
    _, times = _compile(rms, monkeypatch, remarks=True)
    assert "ours_stages_shared" not in times
