"""MaterializeBlockPointer against triton-xpu's native pass, on every corpus kernel.

The input of each case is the TTGIR triton-xpu had right before running its own
MaterializeBlockPointer; the tags on block-pointer loads must be the same.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms.materialize_block_pointer import MaterializeBlockPointer

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

STEP = "tritonintelgpu-materialize-block-pointer"


def _inputs() -> list[Path]:
    if not oracle.available():
        return []
    from xpu_passes.corpus import dumps_before

    return dumps_before(STEP)


def load_tags(text: str, block_pointers: bool = True) -> list[str | None]:
    """The block_io tag of every block-pointer (or tensor-of-pointer) tt.load, in order."""
    tags = []
    for line in text.splitlines():
        if " = tt.load " in line and (": !tt.ptr<tensor<" in line) == block_pointers:
            m = re.search(r'block_io = "(\w+)"', line)
            tags.append(m.group(1) if m else None)
    return tags


def ours(text: str) -> str:
    ctx = make_context()
    parsed = parse_module(ctx, text)
    MaterializeBlockPointer().apply(ctx, parsed.module)
    return print_module(parsed.module, parsed.spelling, debuginfo=True)


INPUTS = _inputs()


def test_every_kernel_has_an_input() -> None:
    assert len(INPUTS) >= 20


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.parent.name)
def test_tags_equal_native(path: Path) -> None:
    text = path.read_text()
    native = oracle.run_native_pass(text, STEP)
    mine = ours(text)
    assert load_tags(mine) == load_tags(native)
    # And triton-xpu accepts what we print.
    oracle.parse_verify(mine)


def test_some_kernels_are_tagged_and_some_not() -> None:
    tags = [t for p in INPUTS for t in load_tags(ours(p.read_text()))]
    assert {"row_major", "column_major"} <= set(tags)


def test_extra_tags_on_tensors_of_pointers_are_listed() -> None:
    """Tags beyond triton-xpu 3.3 (tensor-of-pointer accesses), kernel by kernel."""
    extra = {p.parent.name: load_tags(ours(p.read_text()), block_pointers=False) for p in INPUTS}
    for name, tags in sorted(extra.items()):
        print(f"{name}: {tags}")
    # None of the corpus's tensor-of-pointer loads is provably a tile (wrap-around
    # offsets, bounds masks along rows): no extra tag, as triton-xpu.
    assert all(t is None for tags in extra.values() for t in tags)


def test_axis_analysis_only_for_accesses_it_can_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    """1D accesses are told apart before the module's axis analysis is built: a module with only
    1D tensor-of-pointer accesses (a bitonic sort's row) never builds it; a 2D one does, once."""
    from xpu_passes.transforms import materialize_block_pointer as mbp

    built = []
    real = mbp.AxisInfoAnalysis
    monkeypatch.setattr(mbp, "AxisInfoAnalysis", lambda m: built.append(m) or real(m))
    head = ('#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>\n'
            '#r = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>\n'
            'module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32, '
            'ttig.support_sg_2d_block} {\n')
    row = ('  tt.func @row(%p: tensor<64x!tt.ptr<f32>, #r>) {\n'
           '    %x = tt.load %p : tensor<64x!tt.ptr<f32>, #r>\n    tt.store %p, %x : tensor<64x!tt.ptr<f32>, #r>\n'
           '    tt.return\n  }\n')
    tile = ('  tt.func @tile(%p: tensor<16x16x!tt.ptr<f32>, #b>) {\n'
            '    %x = tt.load %p : tensor<16x16x!tt.ptr<f32>, #b>\n    tt.store %p, %x : tensor<16x16x!tt.ptr<f32>, #b>\n'
            '    tt.return\n  }\n')
    for body, builds in ((row, 0), (row + tile, 1)):
        built.clear()
        ctx = make_context()
        module = parse_module(ctx, head + body + "}\n").module
        MaterializeBlockPointer().apply(ctx, module)
        assert len(built) == builds
