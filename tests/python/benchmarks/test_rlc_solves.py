"""benchmarks/rlc_solves.py: it counts RemoveLayoutConversions' two solves without changing a decision.

The second solve (block pointers not anchored) runs only when the anchored one anchored
something and left a cost or a conversion; the benchmark's wrappers must leave the
pass's output as it is and be gone afterwards.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.integration import oracle
from xpu_passes.transforms.remove_layout_conversions import materialize
from xpu_passes.transforms import remove_layout_conversions as rlc

from support import rlc_dump as _dump

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> Any:
    root = Path(__file__).resolve().parents[3] / "benchmarks"
    monkeypatch.syspath_prepend(str(root))
    spec = importlib.util.spec_from_file_location("rlc_solves", root / "rlc_solves.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "rlc_solves", module)
    spec.loader.exec_module(module)
    return module


# (kernel, config, RLC position, solves): block pointers anchored with a conversion left (two solves);
# anchored with nothing left (one: nothing beats zero); no block pointer (one).
CASES = [("flash_attention_fwd", "64x32x64-w4-s2", 0, 2), ("gemm_add_tensor_ptr", "8x128x64-w4-s3", 1, 1),
         ("layer_norm_fwd", "256-w4-s1", 0, 1)]


@pytest.mark.parametrize(("kernel", "config", "position", "solves"), CASES, ids=["both", "anchored-zero", "none"])
def test_solves_counted_and_decisions_unchanged(bench: Any, kernel: str, config: str, position: int,
                                                solves: int) -> None:
    path = _dump(kernel, config, position)
    methods = (rlc.RemoveLayoutConversions._solve, rlc.RemoveLayoutConversions._remove,
               rlc.RemoveLayoutConversions._round, rlc.Work.settle, materialize.rewrite,
               materialize.erase_dead_converts)
    kept: list[bool] = []  # per conversion tried: was a rewrite kept (counted under the wrappers)
    remove = rlc.RemoveLayoutConversions._remove

    def counted(self: Any, w: Any, cvt: Any) -> str | None:
        why = remove(self, w, cvt)
        kept.append(why is None)
        return why

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rlc.RemoveLayoutConversions, "_remove", counted)
        figures, out = bench.measure(path)
    assert sum(figures["kept"]) == sum(kept) and sum(figures["trials"]) >= sum(kept)
    assert (rlc.RemoveLayoutConversions._solve, rlc.RemoveLayoutConversions._remove,
            rlc.RemoveLayoutConversions._round, rlc.Work.settle, materialize.rewrite,
            materialize.erase_dead_converts) == methods  # the wrappers are gone
    plain, _ = bench.rlc_decisions.run_one(path)
    assert out == plain  # wrapped, the pass decides alike
    assert figures["solves"] == solves and len(figures["cpu"]) == len(figures["trials"]) == solves
    if solves == 2:
        assert 0 <= figures["repeated"] <= figures["trials"][1] and figures["prefix"] <= figures["repeated"]
        assert not (figures["same_text"] and figures["second_won"])  # the same text is not better
        assert figures["reached"] is None or all(0 < x <= 1 for x in figures["reached"])
        assert figures["met"] is None or 0 < figures["met"] <= 1


def test_summary_counts_only_inputs_with_both_solves(bench: Any) -> None:
    rows = {"k-1--13": {"total": 1.0, "solves": 2, "cpu": [0.4, 0.5], "trials": [3, 4], "repeated": 2, "prefix": 1,
                        "same_text": True, "second_won": False, "reached": (0.9, 0.8), "met": 0.5},
            "k-1--15": {"total": 1.0, "solves": 1, "cpu": [0.9], "trials": [5]}}
    line = bench.summary(rows, "k")
    assert "2 inputs, 1 run both solves (0 won by the second, 1 with the same text)" in line
    assert "second solve 0.50 s (25%)" in line and "trials first/second 3/4" in line
