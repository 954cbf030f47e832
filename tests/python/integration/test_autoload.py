"""`XPU_PASSES_PIPELINE` alone (the `.pth` hook, _autoload.py, with no import of the plugin)
switches our pipeline into triton's compile in a fresh interpreter; without it nothing of ours
loads; a bad value fails loudly at triton's import; the hook ships in regular and editable wheels.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from integration.plugin_support import needs_triton

ROOT = Path(__file__).resolve().parents[3]


PROBE = """
import json, sys

at_start = {"triton": "triton" in sys.modules, "xpu_passes": "xpu_passes" in sys.modules}
import triton
from triton.backends import backends
from triton.backends.compiler import BaseBackend
from triton.compiler.compiler import ASTSource, make_backend

from xpu_passes.integration import oracle
from xpu_passes.corpus import find


def offline_init(self, target):  # no Intel GPU here: PVC's properties, no device probe
    BaseBackend.__init__(self, target)
    self.device_arch = None
    self.binary_ext = "spv"
    self.properties = dict(oracle.PVC_PROPERTIES)


backends["intel"].compiler.__init__ = offline_init
loaded = "xpu_passes.integration.plugin" in sys.modules
from triton.backends.intel.compiler import XPUBackend  # the second copy of the class

spec, cfg = find(sys.argv[1], sys.argv[2])
src = ASTSource(spec.fn, spec.signature(), dict(cfg.constexprs), spec.attrs())
k = triton.compile(src, target=oracle.pvc_target(),
                   options=dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, grf_mode="large"))
print(json.dumps({
    "at_start": at_start,
    "plugin_loaded_by_triton_import": loaded,
    "backend_hash": make_backend(oracle.pvc_target()).hash(),
    "module_copy_patched": XPUBackend.__dict__["hash"].__module__ == "xpu_passes.integration.plugin",
    "shared": k.metadata.shared,
    "converts": k.asm["ttgir"].count("ttg.convert_layout") - oracle.renamings(k.asm["ttgir"]),
    "spv_bytes": len(k.asm["spv"]),
}))
"""


def _probe(tmp_path: Path, spec: str | None) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter that never imports our plugin compiles the masked 256x256 GEMM."""
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    env = {k: v for k, v in os.environ.items() if k != "XPU_PASSES_PIPELINE"}
    env["TRITON_CACHE_DIR"] = str(tmp_path / "cache")
    if spec is not None:
        env["XPU_PASSES_PIPELINE"] = spec
    return subprocess.run([sys.executable, str(script), "gemm_add_tensor_ptr", "256x256x32-w32-s3"], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)


def _hook_file() -> Path | None:
    import site

    dirs = [*site.getsitepackages(), site.getusersitepackages()]
    return next((Path(d) / "xpu-passes-autoload.pth" for d in dirs if (Path(d) / "xpu-passes-autoload.pth").exists()),
                None)


@needs_triton
@pytest.mark.parametrize("spec", ["xpu:strict", "text"])
def test_env_var_switches_the_pipeline_on_without_importing_ours(tmp_path: Path, spec: str) -> None:
    """A pipeline name with options, or a pass-pipeline text (here the default one plus RewriteTensorPointer)."""
    from xpu_passes import __version__
    from xpu_passes.integration.pipeline import pipeline_text

    if spec == "text":
        spec = pipeline_text("xpu", rewrite_tensor_pointer=True)
    assert _hook_file(), "xpu-passes-autoload.pth is not installed: reinstall (pip install -e .)"
    r = _probe(tmp_path, spec)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["at_start"]["triton"] is False  # the hook does not import triton at start-up
    assert out["plugin_loaded_by_triton_import"] and out["module_copy_patched"]
    # the cache key: our version, the text, the packages of its passes, strictness
    assert f"-xpu-passes-{__version__}-[builtin.module(triton-annotate-module" in out["backend_hash"]
    assert re.search(rf"-\[xpu-passes=={__version__}\+[0-9a-f]{{8}}\]-strict=", out["backend_hash"])  # + source hash
    assert ("tritonintelgpu-rewrite-tensor-pointer" in out["backend_hash"]) == ("rewrite-tensor" in spec)
    assert out["backend_hash"].endswith("strict=True")  # xpu:strict, or the suite's XPU_PASSES_STRICT
    assert out["shared"] == 0 and out["converts"] == 0 and out["spv_bytes"] > 0  # our pipeline ran


@needs_triton
def test_without_the_env_var_nothing_of_ours_loads(tmp_path: Path) -> None:
    r = _probe(tmp_path, None)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["at_start"] == {"triton": False, "xpu_passes": False}  # the .pth costs one env look-up
    assert not out["plugin_loaded_by_triton_import"] and not out["module_copy_patched"]
    assert "xpu-passes" not in out["backend_hash"]
    assert out["shared"] == 263168 and out["converts"] == 1  # triton-xpu's own result


@needs_triton
@pytest.mark.parametrize(("spec", "message"), [
    ("nope", "XPU_PASSES_PIPELINE='nope': unknown pipeline 'nope' (choose from xpu, native, or give a pass-pipeline"),
    ("xpu:fast", "unknown pipeline option(s) fast (choose from rewrite_tensor_pointer,"),
])  # fmt: skip
def test_a_bad_env_var_fails_loudly_at_triton_import(tmp_path: Path, spec: str, message: str) -> None:
    """Exit status 1 and the one-line message alone: the setting is the user's, no import traceback."""
    r = _probe(tmp_path, spec)
    assert r.returncode == 1 and r.stderr.startswith("xpu-passes: error: ") and message in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr


def test_the_hook_ships_in_regular_and_editable_wheels(tmp_path: Path) -> None:
    """What pip installs: both wheels carry the .pth at their root (-> site-packages)."""
    pytest.importorskip("setuptools", minversion="70.1")  # bdist_wheel inside setuptools
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "src", proj / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, proj / name)
    # (setuptools rewrites sys.argv while building: read the output directory first)
    build = "import sys, setuptools.build_meta as b; out = sys.argv[1]; b.build_wheel(out); b.build_editable(out)"
    r = subprocess.run([sys.executable, "-c", build, str(tmp_path / "dist")], cwd=proj, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    wheels = {"editable" if "editable" in w.name else "regular": w for w in (tmp_path / "dist").glob("*.whl")}
    assert set(wheels) == {"regular", "editable"}
    for kind, wheel in wheels.items():
        with zipfile.ZipFile(wheel) as z:
            names = z.namelist()
            pth = z.read("xpu-passes-autoload.pth").decode()
        assert pth.startswith("import os;") and 'os.environ.get("XPU_PASSES_PIPELINE") and' in pth, kind
        assert "xpu_passes._autoload" in pth and not any("_xpu_passes_build" in n for n in names), kind
    with zipfile.ZipFile(wheels["regular"]) as z:
        assert "xpu_passes/_autoload.py" in z.namelist()
