"""RewriteTensorPointer on every corpus kernel: triton-xpu verifies and lowers the result.

With the DPAS guard, block pointers that 2D block I/O can serve stay, so the 2D
block reads of the native lowering survive; without it, none is left.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms.rewrite_tensor_pointer import RewriteTensorPointer

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]


def _entries() -> list[dict]:
    if not oracle.available():
        return []
    from xpu_passes.corpus import entries

    return [e for e in entries() if "make_tensor_ptr" in (Path(e["dir"]) / "final.ttgir").read_text()]


ENTRIES = _entries()


def _rewrite(text: str, guard: bool) -> str:
    ctx = make_context()
    parsed = parse_module(ctx, text)
    RewriteTensorPointer(guard=guard).apply(ctx, parsed.module)
    return print_module(parsed.module, parsed.spelling, debuginfo=True)


def _figures(entry: dict, text: str) -> oracle.StaticFigures:
    from xpu_passes.corpus import find

    _, config = find(entry["kernel"], entry["config"])
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large"))
    return oracle.lower_text(text, opts, backend)


def test_block_pointer_kernels_are_covered() -> None:
    assert len(ENTRIES) >= 15


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e['kernel']}-{e['config']}")
def test_guard_keeps_block_reads_and_full_rewrite_lowers(entry: dict) -> None:
    text = (Path(entry["dir"]) / "final.ttgir").read_text()
    native = entry["figures"]
    kept = _figures(entry, _rewrite(text, guard=True))
    assert kept.block_reads == native["block_reads"] and kept.dpas == native["dpas"]
    rewritten = _rewrite(text, guard=False)
    assert "tt.make_tensor_ptr" not in rewritten and "tt.advance" not in rewritten
    full = _figures(entry, rewritten)
    assert full.block_reads == 0 and full.dpas == native["dpas"]
