"""End to end: triton.compile for PVC with the plugin on and off.

A GEMM + masked add-matrix kernel (256x256x32, 32 warps) compiled through
`triton.compile` with an xpu target reaches SPIR-V both ways; with our pipeline it
needs no SLM (native: 263,168 bytes), and the two compiles have different cache keys.
Source lines reach the LLVM IR's debug info as they do natively. (test_plugin_fallback.py:
a failure of ours never breaks a compile; test_autoload.py: `XPU_PASSES_PIPELINE` alone.)
"""

from __future__ import annotations

import ast
import os
import re
import types
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.integration import oracle

from integration.plugin_support import compile_kernel, needs_triton

ROOT = Path(__file__).resolve().parents[3]
KERNELS_PY = ROOT / "src" / "xpu_passes" / "corpus" / "kernels.py"


@needs_triton
def test_raising_option_gives_the_tutorial_gemm_2d_block_reads(plugin: Any) -> None:
    """Issue 6's goal through triton.compile: tensor-of-pointer A/B (256x256x32, 32 warps, bf16)."""
    native = compile_kernel("gemm_tensor_ptr")
    plugin.enable("xpu", raise_block_pointer=True)
    ours = compile_kernel("gemm_tensor_ptr")
    assert "2d_block_read" not in native.asm["llir"] and native.metadata.shared > 128 * 1024
    assert ours.asm["llir"].count("2d_block_read") > 0 and ours.asm["llir"].count("matrix_mad") > 0
    assert ours.metadata.shared <= 128 * 1024 and len(ours.asm["spv"]) > 0
    assert "tt.make_tensor_ptr" in ours.asm["ttgir"] and ours.hash != native.hash


@needs_triton
def test_plugin_on_and_off(plugin: Any) -> None:
    native = compile_kernel()
    plugin.enable()
    ours = compile_kernel()
    plugin.disable()
    again = compile_kernel()

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
    k = compile_kernel("gemm_add_tensor_ptr", "64x128x32-w4-s3")
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

    native = compile_kernel(kernel, "64x128x32-w4-s3")
    # what the round trip hands triton (not never_worse's reading of triton's own print of its input)
    from xpu_passes.integration import roundtrip

    monkeypatch.setattr(roundtrip, "oracle", types.SimpleNamespace(**{**vars(oracle), "parse": spy}))
    # (without raising: a raised access drops the pointer arithmetic it replaces, and its source lines)
    plugin.enable("xpu", raise_block_pointer=False)
    ours = compile_kernel(kernel, "64x128x32-w4-s3")
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
    a = compile_kernel("gemm_block_ptr", "64x128x32-w4-s3")
    plugin.enable(rewrite_tensor_pointer=True)
    b = compile_kernel("gemm_block_ptr", "64x128x32-w4-s3")
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


def test_env_var_syntax() -> None:
    from xpu_passes.integration.plugin import parse_spec

    assert parse_spec("xpu") == ("xpu", {})
    assert parse_spec("xpu:strict") == ("xpu", {"strict": True})
    assert parse_spec(" builtin.module(cse, canonicalize) ") == ("builtin.module(cse, canonicalize)", {})
    assert parse_spec("xpu:rewrite_tensor_pointer, rlc=all") == ("xpu", {"rewrite_tensor_pointer": True, "rlc": "all"})
    assert parse_spec("native:") == ("native", {})
