"""examples/gemm_epilogue.py, run as a user runs it: its table holds what triton.compile returned.

The native column is checked against a compile of the same kernel made here; ours against
what the plugin's pipeline is for on this kernel (the masked epilogue's conversion removed,
its SLM with it, no 2D block read or DPAS lost).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from xpu_passes.integration import oracle

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gemm_epilogue.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gemm_epilogue_example", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _table(stdout: str, title: str = "figure") -> dict[str, tuple[str, str]]:
    """The rows under the header line that starts with `title`, up to a blank line."""
    lines = stdout.splitlines()
    header = next(i for i, ln in enumerate(lines) if ln.startswith(title) and ln.split()[-2:] == ["native", "xpu-passes"])
    rows = {}
    for ln in lines[header + 1 :]:
        if not ln.strip():
            break
        label, native, ours = ln[:30].strip(), ln[30:47].strip(), ln[47:].strip()
        rows[label] = (native, ours)
    return rows


def test_the_example_prints_both_pipelines_figures(plugin: Any, tmp_path: Path) -> None:
    env = dict(os.environ, TMPDIR=str(tmp_path))
    r = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "compiled for PVC ('xpu' with the plugin)" in r.stdout
    rows = _table(r.stdout)
    example = _example()
    assert list(rows) == [label for label, _ in example.ROWS]
    assert list(tmp_path.iterdir()) == []  # its triton cache is gone

    import triton

    kernel = triton.compile(example.source("bf16", (8, 128, 64)), options=dict(num_warps=4, num_stages=3,
                                                                                  grf_mode="large"))
    native = oracle.figures(kernel.asm["ttgir"], kernel.asm["llir"], kernel.metadata.shared)
    assert rows["SLM bytes"][0] == str(native.shared_bytes) and native.shared_bytes > 0
    assert rows["ttg.convert_layout"][0] == str(native.converts) == "1"
    assert rows["2D block I/O loads / loads"][0] == f"{native.block_io_loads}/{native.loads}"
    assert rows["DPAS calls (LLVM IR)"][0] == str(native.dpas) and native.dpas > 0
    assert rows["2D block reads (LLVM IR)"][0] == str(native.block_reads) and native.block_reads > 0
    assert rows["SLM bytes"][1] == "0" and rows["ttg.convert_layout"][1] == "0"
    for same in ("DPAS calls (LLVM IR)", "2D block writes (LLVM IR)"):
        assert rows[same][1] == rows[same][0], same
    # (raising, on by default, reads the epilogue's D with 2D block reads too)
    assert int(rows["2D block reads (LLVM IR)"][1]) > int(rows["2D block reads (LLVM IR)"][0])
    _check_isa(example, r.stdout, native.dpas)


def _check_isa(example: ModuleType, stdout: str, dpas: int) -> None:
    """With IGC's figures where the package and ocloc have them; without (and saying why) where not."""
    if example.isa is None:
        assert "ISA" not in stdout
        return
    if not example.isa.available():
        assert example.isa.MISSING in stdout
        return
    rows = _table(stdout, "ISA")
    assert list(rows) == [label for label, _ in example.ISA_ROWS]
    assert all(n.isdigit() and o.isdigit() for n, o in rows.values())
    assert rows["dpas"] == (str(dpas), str(dpas))  # IGC keeps every DPAS the LLVM IR calls
    assert rows["slm messages"][1] == "0" != rows["slm messages"][0]  # ours needs no SLM


def test_offline_target_answers_for_the_missing_gpu(plugin: Any) -> None:
    """The README's recipe: after use_offline_pvc_target(), triton.compile(src) needs no target;
    what needs a device says that there is none (not "0 active drivers")."""
    from triton.backends import backends
    from triton.runtime.driver import driver

    if any(b.driver.is_active() for b in backends.values()):
        pytest.skip("this machine has a GPU: its driver is left alone")
    assert driver.active.get_current_target() == plugin.pvc_target()
    assert plugin.pvc_target().backend == "xpu"
    with pytest.raises(RuntimeError, match=r"no Intel GPU here: .* cannot get_current_device"):
        driver.active.get_current_device()
