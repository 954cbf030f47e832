"""RemoveLayoutConversions in place of triton-xpu's last one, on every corpus kernel.

The TTGIR right before the native pipeline's last RemoveLayoutConversions goes
through ours instead, then through the rest of the native pipeline and its
lowering. Ours must never be worse than native on SLM, conversions, 2D block reads
or DPAS, and the masked tensor-of-pointer GEMM epilogue at 256x256 with 32 warps
must need no SLM (native: 263,168 bytes, over PVC's 128 KB).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def _entries() -> list[dict]:
    if not oracle.available():
        return []
    from xpu_passes.corpus import entries

    return entries()


ENTRIES = _entries()


def ours_then_native(entry: dict) -> oracle.StaticFigures:
    from xpu_passes.corpus import resume_native

    last = [s["file"] for s in entry["steps"] if s["step"] == STEP][-1]
    ctx = make_context()
    parsed = parse_module(ctx, (Path(entry["dir"]) / last).read_text())
    RemoveLayoutConversions().apply(ctx, parsed.module)
    return resume_native(entry, last, print_module(parsed.module, parsed.spelling, debuginfo=True))


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e['kernel']}-{e['config']}")
def test_never_worse_than_native(entry: dict) -> None:
    native = entry["figures"]
    ours = ours_then_native(entry)
    assert ours.shared_bytes <= native["shared_bytes"]
    assert ours.converts <= native["converts"]
    assert ours.block_reads >= native["block_reads"]
    assert ours.dpas >= native["dpas"]


def test_masked_epilogue_256x256_needs_no_slm() -> None:
    entry = next(e for e in ENTRIES if e["kernel"] == "gemm_add_tensor_ptr" and e["config"] == "256x256x32-w32-s3")
    assert entry["figures"]["shared_bytes"] == 263168  # native, over 128 KB
    ours = ours_then_native(entry)
    assert ours.shared_bytes == 0 and ours.converts == 0 and ours.fits_slm
