"""The out-of-tree example pass package (examples/xpu-convert-report), installed as a user would.

pip installs a copy of it (no dependencies, no build isolation: only setuptools, already in the
venv; setuptools builds in the source tree, so each install builds its own copy) into a temporary
target directory, which goes on PYTHONPATH / sys.path: its
entry point in group `xpu_passes.passes` is then all xpu-opt and the plugin need.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.integration import oracle

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "examples" / "xpu-convert-report"
needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
# One worker at a time (./run-tests: --dist loadgroup): its lit run writes in the source tree.
pytestmark = pytest.mark.xdist_group("xpu-convert-report")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target, source = tmp_path_factory.mktemp("site"), tmp_path_factory.mktemp("src") / PACKAGE.name
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                        "--target", str(target), str(source)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert (target / "xpu_convert_report-0.1.0.dist-info" / "entry_points.txt").exists()
    return target


def _env(target: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(target), env.get("PYTHONPATH")]))
    return env


def test_its_lit_tests_pass(installed: Path) -> None:
    lit = Path(sys.executable).parent / "lit"
    r = subprocess.run([str(lit), "-v", str(PACKAGE / "tests")], env=_env(installed),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:]
    assert "Passed: 2" in r.stdout or (oracle.available() is False and "Passed: 1" in r.stdout), r.stdout


def test_xpu_opt_lists_it_with_its_package(installed: Path) -> None:
    r = subprocess.run([str(Path(sys.executable).parent / "xpu-opt"), "--list-passes"], env=_env(installed),
                       capture_output=True, text=True, timeout=120)
    line = next((ln for ln in r.stdout.splitlines() if "report-layout-conversions" in ln), "")
    assert "xpu-convert-report 0.1.0" in line, r.stdout[-2000:]


def test_not_installed_it_is_unknown() -> None:
    """Negative case: without the package on the path the pass does not exist (the install is what registers it)."""
    from xpu_passes.integration.pipeline import PipelineError, plan

    with pytest.raises(PipelineError, match="unknown pass 'report-layout-conversions'"):
        plan("builtin.module(report-layout-conversions)")


# ---------------------------------------------------------------- in triton.compile


@pytest.fixture()
def plugin(installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    import importlib

    from xpu_passes.integration import plugin as triton_plugin

    monkeypatch.syspath_prepend(str(installed))
    importlib.invalidate_caches()
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    triton_plugin.disable()
    triton_plugin.use_offline_pvc_target()
    yield triton_plugin
    triton_plugin.disable()


def _compile(kernel: str = "gemm_add_tensor_ptr", config: str = "64x128x32-w4-s3") -> Any:
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.corpus import find

    spec, cfg = find(kernel, config)
    src = ASTSource(spec.fn, spec.signature(), dict(cfg.constexprs), spec.attrs())
    opts = dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, grf_mode="large")
    return triton.compile(src, target=oracle.pvc_target(), options=opts)


@needs_triton
def test_in_triton_compile_it_reports_what_triton_allocates(plugin: Any) -> None:
    """triton-xpu's own pipeline + the report last: the kernel lowers, the one conversion left is
    tagged with the SLM bytes triton-xpu then allocates for it (33,280), and the cache key names the package."""
    from xpu_passes.integration.pipeline import pipeline_text

    text = pipeline_text("native")[:-1] + ",report-layout-conversions)"
    plugin.enable(text, strict=True)
    k = _compile()
    tags = re.findall(r"ttg\.convert_layout .*\{convert_report\.slm_bytes = (\d+) : i64\}", k.asm["ttgir"])
    assert tags == ["33280"] and k.metadata.shared == 33280
    assert len(k.asm["spv"]) > 0 and k.asm["llir"].count("matrix_mad") > 0
    from triton.compiler.compiler import make_backend

    # the native passes come with triton (in its own hash); the report pass from its package
    assert re.search(r"-\[xpu-convert-report==0\.1\.0\+[0-9a-f]{8}\]-strict=True$", make_backend(oracle.pvc_target()).hash())


@needs_triton
def test_in_triton_compile_with_our_pipeline_nothing_is_left_to_report(plugin: Any) -> None:
    """The default pipeline (ours) + the report: no conversion, so no tag, and no SLM."""
    from xpu_passes.integration.pipeline import pipeline_text

    plugin.enable(pipeline_text("xpu")[:-1] + ",report-layout-conversions)", strict=True)
    k = _compile(config="8x128x64-w4-s3")  # (at 64x128 ours keeps it too: removing it would spill)
    assert "convert_report" not in k.asm["ttgir"] and k.metadata.shared == 0


@needs_triton
def test_a_budget_overrun_falls_back_with_a_located_warning(plugin: Any) -> None:
    from xpu_passes.integration.pipeline import pipeline_text

    plugin.enable(pipeline_text("native")[:-1] + ",report-layout-conversions{budget=32768})", strict=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k = _compile()
    ours = [str(w.message) for w in caught if issubclass(w.category, plugin.XpuPassesWarning)]
    assert len(ours) == 1 and re.search(r"report-layout-conversions failed on 'ttg.convert_layout' at "
                                        r".*kernels.py:\d+:\d+, ttgir line \d+: this conversion needs 33280 bytes of "
                                        r"SLM, over the budget of 32768", ours[0]), ours
    assert k.metadata.shared == 33280 and "convert_report" not in k.asm["ttgir"]  # triton-xpu's own compile
