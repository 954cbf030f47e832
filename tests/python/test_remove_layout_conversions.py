"""RemoveLayoutConversions in place of each of triton-xpu's, on every corpus kernel.

The TTGIR right before each native RemoveLayoutConversions (make_ttgir runs three)
goes through ours instead, then through the rest of the native pipeline and its
lowering. Ours must leave no more conversions than native at that point, verify
in triton-xpu, and never be worse than native on SLM, conversions, 2D block reads
or DPAS after lowering; the masked tensor-of-pointer GEMM epilogue at 256x256
with 32 warps must need no SLM (native: 263,168 bytes, over PVC's 128 KB).
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


def _cases() -> list[tuple[dict, int]]:
    if not oracle.available():
        return []
    from xpu_passes.corpus import entries

    return [(e, i) for e in entries() for i in range(sum(s["step"] == STEP for s in e["steps"]))]


CASES = _cases()


def _ours(entry: dict, position: int) -> tuple[str, str, str]:
    """(step file, native's TTGIR right after that RLC, ours instead)."""
    steps = entry["steps"]
    k = [j for j, s in enumerate(steps) if s["step"] == STEP][position]
    d = Path(entry["dir"])
    after = d / steps[k + 1]["file"] if k + 1 < len(steps) else d / "final.ttgir"
    ctx = make_context()
    parsed = parse_module(ctx, (d / steps[k]["file"]).read_text())
    RemoveLayoutConversions().apply(ctx, parsed.module)
    return steps[k]["file"], after.read_text(), print_module(parsed.module, parsed.spelling, debuginfo=True)


@pytest.mark.parametrize(("entry", "position"), CASES, ids=lambda c: c if isinstance(c, int) else f"{c['kernel']}-{c['config']}")
def test_never_worse_than_native(entry: dict, position: int) -> None:
    from xpu_passes.corpus import resume_native

    step_file, native_after, ours = _ours(entry, position)
    count = oracle.ttgir_counts
    assert count(ours)[0] <= count(native_after)[0]
    figures = resume_native(entry, step_file, ours)  # verifies, then compiles on natively
    native = entry["figures"]
    assert figures.shared_bytes <= native["shared_bytes"]
    assert figures.converts <= native["converts"]
    assert figures.block_reads >= native["block_reads"]
    assert figures.dpas >= native["dpas"]


def test_masked_epilogue_256x256_needs_no_slm() -> None:
    from xpu_passes.corpus import resume_native

    entry = next(e for e, _ in CASES if e["kernel"] == "gemm_add_tensor_ptr" and e["config"] == "256x256x32-w32-s3")
    assert entry["figures"]["shared_bytes"] == 263168  # native, over 128 KB
    step_file, _, ours = _ours(entry, -1)
    figures = resume_native(entry, step_file, ours)
    assert figures.shared_bytes == 0 and figures.converts == 0 and figures.fits_slm
