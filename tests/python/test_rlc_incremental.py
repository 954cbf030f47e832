"""RemoveLayoutConversions judges trials incrementally: the same answers as judging the whole module.

A trial's validity is checked only on the ops its rewrite touched (and their ancestors),
and the module's figures come from per-op contributions cached by identity. On a few
corpus dumps, every trial is also judged in full (solution.CHECK_INCREMENTAL) and every
accepted candidate's figures are recomputed from cold caches: any disagreement fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.rewriter import Rewriter

from xpu_passes import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.layouts import solution
from xpu_passes.layouts.propagation import encoding, with_encoding
from xpu_passes.transforms import remove_layout_conversions as rlc

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"
# Small dumps with several accepted candidates each (loops, reductions, a dot).
DUMPS = [("flash_attention_fwd", "64x32x64-w4-s2", 0), ("layer_norm_fwd", "256-w4-s1", 0), ("gemm_add_block_ptr", "8x128x64-w4-s3", 1)]


def _dump(kernel: str, config: str | None, position: int) -> Path:
    from xpu_passes.corpus import entries

    entry = next(e for e in entries() if e["kernel"] == kernel and config in (None, e["config"]))
    files = [s["file"] for s in entry["steps"] if s["step"] == STEP]
    return Path(entry["dir"]) / files[position]


@pytest.mark.parametrize(("kernel", "config", "position"), DUMPS, ids=[d[0] for d in DUMPS])
def test_incremental_judgement_equals_full(kernel: str, config: str | None, position: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solution, "CHECK_INCREMENTAL", True)  # trial_has_errors raises on a disagreement
    accepted = []
    real_accept = rlc._Work.accept

    def accept(self: rlc._Work, copy: ModuleOp, m: dict, fig: solution.Figures) -> None:
        solution._CONTRIBUTION.clear()
        assert solution.figures(copy) == fig  # cached contributions == computed afresh
        assert not solution.layout_errors(copy)
        accepted.append(fig)
        real_accept(self, copy, m, fig)

    monkeypatch.setattr(rlc._Work, "accept", accept)
    ctx = make_context()
    module = parse_module(ctx, _dump(kernel, config, position).read_text()).module
    rlc.RemoveLayoutConversions().apply(ctx, module)
    assert accepted, "no candidate was accepted: the dump no longer exercises the incremental judgement"


def _elementwise_pair(module: ModuleOp) -> tuple[ModuleOp, dict, arith.AddfOp]:
    copy = module.clone()
    m = dict(zip(module.walk(), copy.walk()))
    op = next(o for o in copy.walk() if isinstance(o, arith.AddfOp | arith.MulfOp) and isinstance(o.result.type, TensorType))
    return copy, m, op


def test_untouched_copy_has_no_errors_and_a_retyped_result_is_found() -> None:
    ctx = make_context()
    module = parse_module(ctx, _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    assert not solution.layout_errors(module)
    copy, m, _ = _elementwise_pair(module)
    assert not solution.trial_has_errors(module, copy, m, True)
    # An elementwise op whose result alone moves to another layout of the module: nothing else
    # changed, and the check must still see it.
    copy, m, op = _elementwise_pair(module)
    rank = len(op.result.type.get_shape())
    layouts = {encoding(v.type) for o in copy.walk() for v in o.results
               if isinstance(v.type, TensorType) and len(v.type.get_shape()) == rank}
    other = next(iter(layouts - {encoding(op.result.type), None}))
    Rewriter.replace_value_with_new_type(op.result, with_encoding(op.result.type, other))
    assert solution.layout_errors(copy)
    assert solution.trial_has_errors(module, copy, m, True)


def test_erased_terminator_is_found() -> None:
    """A region that lost its terminator: only its parent tells (the ops left are unchanged)."""
    ctx = make_context()
    module = parse_module(ctx, _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    copy = module.clone()
    m = dict(zip(module.walk(), copy.walk()))
    from xdsl.dialects import scf

    loop = next(o for o in copy.walk() if isinstance(o, scf.ForOp))
    loop.body.block.last_op.detach()  # type: ignore[union-attr]
    assert solution.layout_errors(copy)
    assert solution.trial_has_errors(module, copy, m, True)
