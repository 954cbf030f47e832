"""End to end: triton.compile for PVC with the plugin on and off.

A GEMM + masked add-matrix kernel (256x256x32, 32 warps) compiled through
`triton.compile` with an xpu target reaches SPIR-V both ways; with our pipeline it
needs no SLM (native: 263,168 bytes), and the two compiles have different cache keys.
`XPU_PASSES_PIPELINE` alone (the `.pth` hook, no import of the plugin) does the same in
a fresh interpreter; the hook ships in regular and editable wheels. Source lines reach
the LLVM IR's debug info as they do natively.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import types
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from xdsl.passes import ModulePass

from xpu_passes.integration import oracle

ROOT = Path(__file__).resolve().parents[3]
KERNELS_PY = ROOT / "src" / "xpu_passes" / "corpus" / "kernels.py"


def needs_triton(test: Any) -> Any:
    """Oracle tests: marked `triton`, skipped without triton-xpu."""
    return pytest.mark.triton(pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")(test))


def _compile(kernel: str = "gemm_add_tensor_ptr", config: str = "256x256x32-w32-s3") -> Any:
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.corpus import find

    spec, cfg = find(kernel, config)
    src = ASTSource(spec.fn, spec.signature(), dict(cfg.constexprs), spec.attrs())
    opts = dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, grf_mode="large")
    return triton.compile(src, target=oracle.pvc_target(), options=opts)


@needs_triton
def test_raising_option_gives_the_tutorial_gemm_2d_block_reads(plugin: Any) -> None:
    """Issue 6's goal through triton.compile: tensor-of-pointer A/B (256x256x32, 32 warps, bf16)."""
    native = _compile("gemm_tensor_ptr")
    plugin.enable("xpu", raise_block_pointer=True)
    ours = _compile("gemm_tensor_ptr")
    assert "2d_block_read" not in native.asm["llir"] and native.metadata.shared > 128 * 1024
    assert ours.asm["llir"].count("2d_block_read") > 0 and ours.asm["llir"].count("matrix_mad") > 0
    assert ours.metadata.shared <= 128 * 1024 and len(ours.asm["spv"]) > 0
    assert "tt.make_tensor_ptr" in ours.asm["ttgir"] and ours.hash != native.hash


@needs_triton
def test_plugin_on_and_off(plugin: Any) -> None:
    native = _compile()
    plugin.enable()
    ours = _compile()
    plugin.disable()
    again = _compile()

    assert native.metadata.shared == 263168 and again.metadata.shared == 263168
    assert ours.metadata.shared == 0
    assert "spv" in ours.asm and len(ours.asm["spv"]) > 0
    assert ours.asm["llir"].count("matrix_mad") == native.asm["llir"].count("matrix_mad")
    # no conversion moves data (the sliced epilogue's two only rename registers)
    assert "ttg.convert_layout" in native.asm["ttgir"] and oracle.figures(ours.asm["ttgir"], "", 0).converts == 0
    assert ours.hash != native.hash and again.hash == native.hash


@needs_triton
def test_locations_survive_the_round_trip(plugin: Any) -> None:
    plugin.enable()
    k = _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    assert 'loc("' in k.asm["ttgir"] and "kernels.py" in k.asm["ttgir"]
    assert "kernels.py" in k.asm["llir"]  # debug info of the final binary


def _debug_locations(llir: str) -> set[tuple[str, int, int]]:
    """(file, line, column) of every !DILocation, the file found through its scope chain."""
    nodes = dict(re.findall(r"^(![0-9]+) = (?:distinct )?(!DI.*)$", llir, re.M))

    def file_of(ref: str) -> str:
        node = nodes[ref]
        if node.startswith("!DIFile("):
            return os.path.basename(re.search(r'filename: "([^"]*)"', node).group(1))  # type: ignore[union-attr]
        return file_of(re.search(r"\b(?:file|scope): (![0-9]+)", node).group(1))  # type: ignore[union-attr]

    out = set()
    for node in nodes.values():
        if m := re.match(r"!DILocation\(line: ([0-9]+), column: ([0-9]+), scope: (![0-9]+)", node):
            out.add((file_of(m.group(3)), int(m.group(1)), int(m.group(2))))
    return out


def _jit_source() -> dict[int, str]:
    """Line number -> text for the lines of kernels.py inside @triton.jit functions."""
    text = KERNELS_PY.read_text().splitlines()
    lines: dict[int, str] = {}
    for node in ast.parse("\n".join(text)).body:
        if isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list):
            lines.update((n, text[n - 1]) for n in range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


@needs_triton
@pytest.mark.parametrize("kernel", ["gemm_add_tensor_ptr", "gemm_gelu"])
def test_source_lines_reach_the_llvm_debug_info(plugin: Any, monkeypatch: pytest.MonkeyPatch, kernel: str) -> None:
    """The final LLVM IR of our pipeline carries exactly the native compile's source positions.

    The round trip prints scf loops in generic form so that triton's parser reads their
    block arguments' locations; from the custom syntax it would give them their position
    in the round-trip text, which LLVM reports as a kernels.py line (the accumulator's phis).
    """
    texts: list[str] = []
    parse = oracle.parse

    def spy(text: str, ctx: Any = None) -> Any:
        texts.append(text)
        return parse(text, ctx)

    native = _compile(kernel, "64x128x32-w4-s3")
    # what the round trip hands triton (not never_worse's reading of triton's own print of its input)
    from xpu_passes.integration import roundtrip

    monkeypatch.setattr(roundtrip, "oracle", types.SimpleNamespace(**{**vars(oracle), "parse": spy}))
    # (without raising: a raised access drops the pointer arithmetic it replaces, and its source lines)
    plugin.enable("xpu", raise_block_pointer=False)
    ours = _compile(kernel, "64x128x32-w4-s3")
    assert texts and all('"scf.for"' in t for t in texts), "the round trip did not print the K loop generically"

    source = _jit_source()
    n = {(line, col) for f, line, col in _debug_locations(native.asm["llir"]) if f == KERNELS_PY.name}
    o = {(line, col) for f, line, col in _debug_locations(ours.asm["llir"]) if f == KERNELS_PY.name}
    # Native positions are real: inside a jit function, on a code line, within it.
    assert n and all(line in source and source[line].strip() and col <= len(source[line]) for line, col in n)
    assert o == n, f"lost {sorted(n - o)}, extra {sorted(o - n)}"


@needs_triton
def test_pipeline_options_change_the_cache_key(plugin: Any) -> None:
    plugin.enable()
    a = _compile("gemm_block_ptr", "64x128x32-w4-s3")
    plugin.enable(rewrite_tensor_pointer=True)
    b = _compile("gemm_block_ptr", "64x128x32-w4-s3")
    assert a.hash != b.hash
    assert b.metadata.shared == a.metadata.shared == 0  # the guard keeps the DPAS block pointers


@needs_triton
def test_bad_pipeline_is_refused() -> None:
    from xpu_passes.integration.pipeline import PipelineError, check_order
    from xpu_passes.integration.plugin import enable

    with pytest.raises(PipelineError, match="unknown pipeline"):
        enable("nope")
    with pytest.raises(PipelineError, match="must run after 'tritonintelgpu-materialize-block-pointer'"):
        check_order(["tritonintelgpu-rewrite-tensor-pointer", "tritonintelgpu-materialize-block-pointer"])


# ------------------------------------------------------ never break a compile

@dataclass(frozen=True)
class FailOnDot(ModulePass):
    """Gives up on the first tt.dot it meets, as a pass that cannot handle an op does."""

    name = "test-fail-on-dot"

    def apply(self, ctx: Any, op: Any) -> None:
        from xpu_passes.transforms.base import PassError

        dot = next(o for o in op.walk() if o.name == "tt.dot")
        raise PassError(dot, "cannot handle this dot")


@dataclass(frozen=True)
class DropReturn(ModulePass):
    """Leaves a function without its terminator: output triton-xpu must reject."""

    name = "test-drop-return"

    def apply(self, ctx: Any, op: Any) -> None:
        next(o for o in op.walk() if o.name == "tt.return").detach()


@dataclass(frozen=True)
class Crash(ModulePass):
    """A user pass with a bug."""

    name = "test-crash"

    def apply(self, ctx: Any, op: Any) -> None:
        {}["missing"]  # noqa: B018


def _after_mbp(pass_name: str) -> str:
    """The default pipeline's text with `pass_name` right after our MaterializeBlockPointer."""
    from xpu_passes.integration.pipeline import MBP, pipeline_text

    return pipeline_text("xpu").replace(f"{MBP},", f"{MBP},{pass_name},", 1)


@pytest.fixture()
def failing_passes() -> Any:
    from xpu_passes.registry import _REGISTERED, register_pass

    for cls in (FailOnDot, DropReturn, Crash):
        register_pass(cls)
    yield
    for cls in (FailOnDot, DropReturn, Crash):
        _REGISTERED.pop(cls.name, None)


@needs_triton
@pytest.mark.parametrize(("pass_name", "message"), [
    # the pass, the op, the kernel's source line of the op, its line in the TTGIR
    ("test-fail-on-dot", r"test-fail-on-dot failed on 'tt.dot' at .*kernels.py:\d+:\d+, ttgir line \d+: "
                         r"cannot handle this dot"),
    ("test-drop-return", r"triton-xpu rejected the output of test-drop-return: loc\(.*kernels.py\":\d+:\d+\): "
                         r"error: block with no terminator"),
    ("test-crash", r"test-crash raised KeyError: 'missing' \(at .*test_plugin.py:\d+\)"),
])  # fmt: skip
def test_a_failure_of_ours_compiles_natively_with_one_warning(plugin: Any, failing_passes: Any, pass_name: str,
                                                              message: str) -> None:
    """By default (not strict) the kernel gets triton-xpu's own code and exactly one warning."""
    native = _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    plugin.enable(_after_mbp(pass_name), strict=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k = _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    ours = [w for w in caught if issubclass(w.category, plugin.XpuPassesWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert re.search(message, str(ours[0].message)), str(ours[0].message)
    assert "compiled with triton-xpu's own pipeline" in str(ours[0].message)
    assert k.metadata.shared == native.metadata.shared == 33280 and len(k.asm["spv"]) > 0
    assert k.asm["ttgir"] == native.asm["ttgir"]  # the native result, bit for bit


@needs_triton
def test_strict_makes_a_failure_of_ours_an_error(plugin: Any, failing_passes: Any) -> None:
    from xpu_passes.integration.pipeline import PassFailure

    plugin.enable(_after_mbp("test-fail-on-dot"), strict=True)
    with pytest.raises(PassFailure, match=r"test-fail-on-dot failed on 'tt.dot' at .*kernels.py:\d+"):
        _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")


@needs_triton
def test_the_test_suite_runs_strict(plugin: Any, failing_passes: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """conftest.py sets XPU_PASSES_STRICT: enable() with no strict argument raises."""
    from xpu_passes.integration.pipeline import PassFailure

    assert plugin.strict_by_default()
    plugin.enable(_after_mbp("test-crash"))
    with pytest.raises(PassFailure, match="test-crash raised KeyError"):
        _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    monkeypatch.setenv(plugin.STRICT_ENV, "0")
    assert not plugin.strict_by_default()


@needs_triton
def test_unreadable_ttgir_falls_back(plugin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Our parser refusing triton's IR (planted: it refuses tt.dot) is a fallback, located in the TTGIR."""
    from xpu_passes.integration import roundtrip
    from xpu_passes.frontend import TTGIRError

    real = roundtrip.parse_module

    def picky(ctx: Any, text: str, name: str = "<stdin>") -> Any:
        line = next((i for i, t in enumerate(text.splitlines(), 1) if "tt.dot" in t), 0)
        if line:
            raise TTGIRError(name, line, 5, "unsupported op 'tt.dot'")
        return real(ctx, text, name)

    monkeypatch.setattr(roundtrip, "parse_module", picky)
    plugin.enable("xpu", strict=False)
    with pytest.warns(plugin.XpuPassesWarning, match=r"could not read triton's TTGIR .*<ttgir>:\d+:5: error: "
                                                     r"unsupported op 'tt.dot'"):
        k = _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    assert k.metadata.shared == 33280


# -------------------------------------------------------------- XPU_PASSES_PIPELINE

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


def test_env_var_syntax() -> None:
    from xpu_passes.integration.plugin import parse_spec

    assert parse_spec("xpu") == ("xpu", {})
    assert parse_spec("xpu:strict") == ("xpu", {"strict": True})
    assert parse_spec(" builtin.module(cse, canonicalize) ") == ("builtin.module(cse, canonicalize)", {})
    assert parse_spec("xpu:rewrite_tensor_pointer, rlc=all") == ("xpu", {"rewrite_tensor_pointer": True, "rlc": "all"})
    assert parse_spec("native:") == ("native", {})
