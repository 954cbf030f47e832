"""benchmarks/third_party.py without compiling the whole set: the triton-is-Intel's check, the capture
at the JIT layer (a kernel of an installed library, and an autotuned kernel's configs), and the
verdict of a row (worse, plugin-only failure, excluded)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from xpu_passes.integration import oracle

pytestmark = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu (extra [triton])")
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import third_party

    return third_party


def test_triton_is_intels(bench: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    assert bench.triton_is_intels() == ""
    from importlib import metadata

    monkeypatch.setattr(metadata, "packages_distributions", lambda: {"triton": ["triton"]})
    message = bench.triton_is_intels()
    assert "not Intel's" in message and "['triton']" in message and "\n" not in message


def _autotuned() -> Any:
    import triton
    import triton.language as tl

    configs = [triton.Config({"BLOCK": b}, num_warps=w) for b in (64, 128, 256) for w in (2, 4)]

    @triton.autotune(configs=configs, key=["n"])
    @triton.jit
    def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):  # a kernel of ours, only to test the capture
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

    return scale


@pytest.mark.parametrize("max_configs, expected", [(0, 6), (3, 3), (1, 1)])
def test_capture_launches_each_autotune_config(bench: ModuleType, max_configs: int, expected: int) -> None:
    torch = pytest.importorskip("torch")
    from third_party_kernels import capture, fake_xpu

    rec = capture.Recorder(lib="test", max_configs=max_configs)
    x = torch.zeros(1000, dtype=torch.bfloat16)
    with fake_xpu.pvc_device(), capture.capturing(rec):
        kernel = _autotuned()  # triton.autotune asks the active driver for its benchmarker
        kernel[lambda meta: (1,)](x, torch.empty_like(x), 1000)
    assert len(rec.launches) == expected
    first = rec.launches[0]
    assert first.signature == {"x_ptr": "*bf16", "y_ptr": "*bf16", "n": "i32", "BLOCK": "constexpr"}
    assert first.constexprs == {(3,): 64} and first.options == {"num_warps": 2, "num_stages": 3, "num_ctas": 1}
    assert {(0,), (1,)} <= set(first.attrs)  # the pointers' divisibility, as triton-xpu's binder sees it
    assert first.name == "test.scale(bf16)[BLOCK=64/w2-s3]"
    # nothing stays patched after the capture
    import triton.runtime.jit as jit

    assert jit.JITFunction.run is not None and "capturing" not in jit.JITFunction.run.__qualname__


def test_capture_and_compile_a_library_kernel(bench: ModuleType) -> None:
    if importlib.util.find_spec("liger_kernel") is None:
        pytest.skip("liger-kernel not installed (pip install --no-deps -r benchmarks/kernels-requirements.txt)")
    torch = pytest.importorskip("torch")
    from third_party_kernels import capture, fake_xpu
    from third_party_kernels.compile import compile_launch

    rec = capture.Recorder(lib="liger")
    with fake_xpu.pvc_device(), capture.capturing(rec):
        from liger_kernel.ops.swiglu import swiglu_forward

        swiglu_forward(torch.zeros(4, 3000, dtype=torch.bfloat16), torch.zeros(4, 3000, dtype=torch.bfloat16))
    (launch,) = rec.launches
    # the wrapper's own settings: BLOCK_SIZE = next power of 2 of the row, 8 warps from 2048 columns up
    assert launch.kernel == "_swiglu_forward_kernel" and launch.options["num_warps"] == 8
    assert dict((launch.fn.arg_names[p[0]], v) for p, v in launch.constexprs.items())["BLOCK_SIZE"] == 4096
    result = compile_launch(launch, None)
    assert result.figures is not None and result.ms and result.error == ""


def _row(bench: ModuleType, native: Any, ours: Any) -> Any:
    from corpus_compare import Result
    from third_party_kernels.compile import Row

    res = {"native": Result(native, ms=[1.0]) if native else Result(error="CompilationError: x"),
           "xpu": Result(ours, ms=[2.0]) if ours else Result(error="PipelineError: y")}
    return Row("lib.k(bf16)[B=1/w4-s2]", "k", "B=1/w4-s2", "call", res)


@pytest.mark.parametrize("native, ours, verdict", [
    (dict(shared_bytes=128), dict(shared_bytes=8192), "WORSE"),
    (dict(converts=1), dict(converts=2), "WORSE"),
    (dict(block_reads=4, dpas=8), dict(block_reads=2, dpas=8), "WORSE"),
    (dict(dpas=8), dict(dpas=4), "WORSE"),
    (dict(shared_bytes=8192, converts=1), dict(shared_bytes=32, converts=0), "ok"),
    (dict(block_writes=1), dict(block_writes=1), "ok"),
    (dict(), None, "FAIL"),
    (None, dict(), "excluded"),
])
def test_verdicts(bench: ModuleType, native: Any, ours: Any, verdict: str, capsys: pytest.CaptureFixture[str]) -> None:
    f = oracle.StaticFigures
    row = _row(bench, f(**native) if native is not None else None, f(**ours) if ours is not None else None)
    assert row.verdict("xpu") == verdict
    bad = bench.summary([row], [], ("xpu",))
    assert bad == (verdict in ("WORSE", "FAIL"))
    out = capsys.readouterr().out
    assert (f"{verdict} lib.k" in out) == (verdict in ("WORSE", "FAIL"))
    assert ("1 excluded" in out) == (verdict == "excluded")


def _isa(**figures: int) -> Any:
    from xpu_passes.integration import isa

    base = dict.fromkeys(isa.FIGURE_NAMES, 0) | {"instructions": 1000, "grf_count": 128, "simd": 16}
    return isa.IsaFigures(**(base | figures))


@pytest.mark.parametrize("native_isa, ours_isa, native_slm, verdict", [
    (_isa(spill_bytes=0, slm_messages=3), _isa(spill_bytes=960, slm_messages=17), 64, "WORSE"),  # same LLVM IR figures
    (_isa(instructions=1000), _isa(instructions=1040), 64, "ok"),  # within 5%
    (_isa(spill_bytes=100), _isa(spill_bytes=200), 148_480, "TRADE"),  # native cannot launch: over 128 KB
    (_isa(spill_bytes=960), _isa(spill_bytes=0), 64, "ok"),
    (_isa(), "isa_error=ocloc compile: floating point exception", 64, "FAIL"),  # IGC fails on ours only
])
def test_isa_verdicts(bench: ModuleType, tmp_path: Path, native_isa: Any, ours_isa: Any, native_slm: int,
                      verdict: str, capsys: pytest.CaptureFixture[str]) -> None:
    """With ISA figures on both sides a row is judged there (isa.judge), also after a CSV round trip."""
    from third_party_kernels import report
    from third_party_kernels.compile import isa_result

    def side(slm: int, figures: Any) -> Any:
        f = oracle.StaticFigures(shared_bytes=slm)
        cell = figures if isinstance(figures, str) else " ".join(f"isa_{k}={v}" for k, v in figures.as_dict().items())
        f.extra.update(report._extra(cell))
        return f

    row = _row(bench, side(native_slm, native_isa), side(64, ours_isa))
    for r in row.results.values():
        r.isa, r.isa_error = None, ""
        for k, v in isa_result(r.figures.extra).items():
            setattr(r, k, v)
    assert row.verdict("xpu") == verdict
    bad = bench.summary([row], [], ("xpu",))
    assert bad == (verdict in ("WORSE", "FAIL")) and (f"{verdict} lib.k" in capsys.readouterr().out) == (verdict != "ok")
    path = str(tmp_path / "t.csv")
    bench.write_csv([row], ("xpu",), path)
    back, _ = report.read_csv(path)
    assert back[0].verdict("xpu") == verdict and back[0].worse("xpu") == row.worse("xpu")
    assert bool(back[0].better("xpu")) == (verdict == "ok" and native_isa.spill_bytes > 0)


@pytest.mark.parametrize("native_slm, ours_slm, verdict", [
    (2688, 8192, "ok"),  # 4 warps: 16 work-groups per Xe-core either way
    (2576, 16384, "WORSE"),  # 8 against 16
])
def test_isa_verdicts_weigh_slm_by_occupancy(bench: ModuleType, tmp_path: Path, native_slm: int, ours_slm: int,
                                            verdict: str) -> None:
    """At the ISA, SLM counts by the work-groups an Xe-core holds, with the warps of the row's config (also read
    back from a CSV, whose figures have no warps column)."""
    from third_party_kernels import report
    from third_party_kernels.compile import isa_result

    def side(slm: int) -> Any:
        f = oracle.StaticFigures(shared_bytes=slm, warps=4)
        f.extra.update(report._extra(" ".join(f"isa_{k}={v}" for k, v in _isa().as_dict().items())))
        return f

    row = _row(bench, side(native_slm), side(ours_slm))
    for r in row.results.values():
        for k, v in isa_result(r.figures.extra).items():
            setattr(r, k, v)
    assert row.verdict("xpu") == verdict
    path = str(tmp_path / "t.csv")
    bench.write_csv([row], ("xpu",), path)
    back, _ = report.read_csv(path)
    assert back[0].results["xpu"].figures.warps == 4
    assert back[0].verdict("xpu") == verdict


def test_csv_report_reads_back_the_verdicts(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from third_party_kernels import report

    f = oracle.StaticFigures
    rows = [_row(bench, f(shared_bytes=128), f(shared_bytes=8192)), _row(bench, f(converts=1), f(converts=1)),
            _row(bench, f(), None), _row(bench, None, f())]
    path = str(tmp_path / "t.csv")
    bench.write_csv(rows, ("xpu",), path)
    back, pipelines = report.read_csv(path)
    assert pipelines == ("xpu",)
    assert [r.verdict("xpu") for r in back] == ["WORSE", "ok", "FAIL", "excluded"]
    table = report.markdown(back, pipelines)
    assert "| all | 4 | 1 | 1 / 0 / 1 / 0 /" in table and "SLM 128->8192" in table and "PipelineError: y" in table
    assert bench.main(["--report", path]) == 1


def test_runner_stops_a_row_at_its_deadline(bench: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from corpus_compare import Result
    from third_party_kernels import runner
    from third_party_kernels.compile import Row

    def compile_launch(launch: Any, pipeline: str | None) -> Result:  # native at once, ours never
        if pipeline is None:
            return Result(oracle.StaticFigures(), ms=[1.0])
        time.sleep(60)
        raise AssertionError("not stopped")

    monkeypatch.setattr(runner, "compile_launch", compile_launch)  # the forked process inherits it
    launch = object()
    start = time.monotonic()
    ((i, results),) = list(runner.run([launch], [0], ("xpu",), jobs=1, timeout=1.0))  # type: ignore[list-item]
    assert time.monotonic() - start < 30
    assert i == 0 and results["native"].figures is not None and results["native"].error == ""
    assert results["xpu"].error.startswith("Timeout: not finished in 1 s")
    assert Row("l.k", "k", "c", "", results).verdict("xpu") == "TIMEOUT"
    results["native"] = Result(error=results["xpu"].error)
    assert Row("l.k", "k", "c", "", results).verdict("xpu") == "excluded"


def test_dot_rows_line_counts_dpas_rows_and_spills(bench: ModuleType) -> None:
    """Issue 29's figure: strictly better among rows with DPAS, and spill where native spills."""
    from third_party_kernels.compile import isa_result

    def row(native: Any, ours: Any) -> Any:
        f = oracle.StaticFigures
        r = _row(bench, f(), f())
        for side, figures in (("native", native), ("xpu", ours)):
            r.results[side].figures.extra.update({f"isa_{k}": v for k, v in figures.as_dict().items()})
            for k, v in isa_result(r.results[side].figures.extra).items():
                setattr(r.results[side], k, v)
        return r

    rows = [row(_isa(dpas=8, spill_bytes=960), _isa(dpas=8, spill_bytes=0)),  # dot row, better, spills less
            row(_isa(dpas=8), _isa(dpas=8)),  # dot row, equal
            row(_isa(spill_bytes=64), _isa(spill_bytes=64))]  # no dot, native spills, ours the same
    line = bench.dot_rows_line(rows, "xpu")
    assert "DPAS (GEMM/attention) 2, strictly better 1 (50%)" in line
    assert "native spills on 2, ours spills less on 1" in line


def test_changed_lists_the_rows_whose_dumps_differ(bench: ModuleType, tmp_path: Path) -> None:
    """`--changed OLD NEW`: a row's --rows line once when its TTGIR differs (dtype variants share a line);
    equal rows and rows dumped on one side only are left out."""
    from third_party_kernels import dump

    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    rows = {"fla.k(bf16)[B=1/w4-s2]": ("a", "b"), "fla.k(fp16)[B=1/w4-s2]": ("a", "c"),
            "liger.g(fp32)[N=8/w8-s2]": ("same", "same"), "gemlite.h(i32)[M=1/w1-s1]": (None, "x")}
    for name, (a, b) in rows.items():
        if a is not None:
            (old / dump.file_of(name)).write_text(f"{name}\n{a}")
        (new / dump.file_of(name)).write_text(f"{name}\n{b}")
    assert dump.changed(str(old), str(new)) == ["fla\tk\t[B=1/w4-s2]"]
