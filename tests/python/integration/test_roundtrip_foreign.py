"""A round trip checks for foreign layouts once for all its passes, and still leaves such a module alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.transforms import base
from xpu_passes.transforms.base import collecting_remarks, judged_clean
from xpu_passes.transforms.materialize_block_pointer import MaterializeBlockPointer
from xpu_passes.transforms.optimize_block_io_encoding import OptimizeBlockIOEncoding

LIT = Path(__file__).parents[2] / "lit"
FOREIGN = LIT / "dialects" / "foreign-layouts-passes.mlir"
CLEAN = LIT / "passes" / "materialize-block-pointer.mlir"


def _module(path: Path) -> object:
    text = path.read_text().split("// -----")[0]
    return parse_module(make_context(), text, path.name).module


@pytest.fixture
def remarks():
    with collecting_remarks() as sink:
        yield sink


def test_foreign_module_left_alone_by_every_pass(remarks) -> None:
    module = _module(FOREIGN)
    before = str(module)
    passes = [MaterializeBlockPointer(), OptimizeBlockIOEncoding()]
    with judged_clean(module):
        for p in passes:
            p.apply(make_context(), module)
    assert str(module) == before
    said = [(r.pass_name, r.message) for r in remarks.drain()]
    assert [n for n, _ in said] == [p.name for p in passes]
    assert all("#ttg.nvidia_mma is another backend's layout" in m for _, m in said)


def test_clean_module_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _module(CLEAN)
    calls = []
    real = base.foreign_layout_use
    monkeypatch.setattr(base, "foreign_layout_use", lambda m: calls.append(m) or real(m))
    with judged_clean(module):
        for p in (MaterializeBlockPointer(), OptimizeBlockIOEncoding(), MaterializeBlockPointer()):
            p.apply(make_context(), module)
    assert calls == [module]
    # outside the round trip each pass checks again
    MaterializeBlockPointer().apply(make_context(), module)
    assert calls == [module, module]
