"""RemoveLayoutConversions' candidate rewrites (layouts/candidates.py): a forward slice that
cannot sort before the backward one is estimated only when the backward trial is not kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.layouts import candidates, solution
from xpu_passes.transforms import base
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def _dump(kernel: str, config: str, position: int) -> Path:
    from xpu_passes.corpus import entries

    entry = next(e for e in entries() if e["kernel"] == kernel and e["config"] == config)
    return Path(entry["dir"]) / [s["file"] for s in entry["steps"] if s["step"] == STEP][position]


def _run(text: str) -> str:
    """The pass's output and remarks."""
    ctx = make_context()
    module = parse_module(ctx, text).module
    base.REMARKS.enabled = True
    base.REMARKS.drain()
    try:
        RemoveLayoutConversions().apply(ctx, module)
        remarks = [f"{r.op.name}: {r.message}" for r in base.REMARKS.drain()]
    finally:
        base.REMARKS.enabled = False
    return "\n".join([*remarks, print_module(module, Spelling.choose("triton-3.3"))])


def test_a_deferred_forward_slice_is_estimated_on_the_undone_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """The construct: a conversion whose backward slice sorts first and whose forward slice was
    deferred, the backward trial not kept (flash_attention_fwd 128x64x64's first input has one):
    the forward slice is then estimated and tried on the module as it was, deciding as the eager
    estimate does. Check mode also asserts that no deferred slice is cheaper than the backward one."""
    text = _dump("flash_attention_fwd", "128x64x64-w8-s3", 0).read_text()
    late: list[object] = []
    real = candidates.Plan._estimate_later

    def estimate_later(self: candidates.Plan) -> None:
        late.append(self.cvt)
        real(self)

    monkeypatch.setattr(candidates.Plan, "_estimate_later", estimate_later)
    monkeypatch.setattr(solution, "CHECK_INCREMENTAL", True)
    lazy = _run(text)
    assert late, "no deferred forward slice was estimated late: the dump no longer has the construct"
    monkeypatch.setattr(solution, "CHECK_INCREMENTAL", False)
    monkeypatch.setattr(candidates, "_reads_through", lambda s, target: True)  # every forward slice estimated at once
    late.clear()
    eager = _run(text)
    assert not late and lazy == eager


def test_the_lower_bound_counts_scratch_a_slice_saves() -> None:
    """`least` is a lower bound only if it counts reductions whose scratch shrinks: on every
    forward slice of a dump with reductions, it is at most the estimate."""
    from xpu_passes.dialects import ttg
    from xpu_passes.layouts import remat, slice_cost
    from xpu_passes.layouts.journal import walk_list

    module = parse_module(make_context(), _dump("layer_norm_fwd", "256-w4-s1", 0).read_text()).module
    checked = 0
    for cvt in [o for o in walk_list(module) if isinstance(o, ttg.ConvertLayoutOp)]:
        s = remat.Slice()
        if remat.forward_refused(cvt) or not remat.forward(cvt, s) or candidates._reads_through(s, cvt):
            continue
        assert candidates.least(s, cvt) <= slice_cost.estimate(s, cvt)
        checked += 1
    assert checked
