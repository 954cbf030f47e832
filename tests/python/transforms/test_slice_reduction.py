"""xpu-slice-reduction on the lit test's kernels (ours): the row-by-row loop gives the lowering's fold.

Triton lowers a reduction along an axis each thread holds in registers as one sequential fold per
thread, rows in order (checked on triton-xpu's LLVM IR in the pass's docs). The interpreter's
tt.reduce is a pairwise tree, so `validate` (before vs after) is bit-identical only where the fold
order cannot matter (integer sums in floats, maxsi): there it checks the rows, their addresses and
masks. The order itself is checked against a sequential fold in numpy on data where order matters.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import scf

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.interp.core import run_kernel
from xpu_passes.interp.validate import validate
from xpu_passes.transforms.base import collecting_remarks
from xpu_passes.transforms.slice_reduction import SliceReduction

LIT = (Path(__file__).parents[2] / "lit" / "passes" / "slice-reduction.mlir").read_text()
GEMV, COLMAX, LEFT_WHOLE, ROW_DOT = LIT.split("// -----")
K, N, LDW = 64, 128, 256  # rows per program, columns per program, packed row stride (2 programs along N)


def _run(text: str, **options: int) -> tuple[object, object, list[str]]:
    ctx = make_context()
    before, after = parse_module(ctx, text), parse_module(ctx, text)
    before, after = getattr(before, "module", before), getattr(after, "module", after)
    with collecting_remarks() as sink:
        SliceReduction(**options).apply(ctx, after)  # type: ignore[arg-type]
    return before, after, [r.message for r in sink.drain()]


def _gemv_args(rng: np.random.Generator, x: np.ndarray, s: np.ndarray) -> list[object]:
    w = rng.integers(-(2**31), 2**31, size=(K // 8) * LDW, dtype=np.int64).astype(np.int32)
    return [x, w, s, np.zeros(2 * N, np.float32), LDW]


def test_gemv_rows_in_a_loop_equal_on_exact_data() -> None:
    before, after, remarks = _run(GEMV)
    assert remarks == []
    assert sum(isinstance(o, scf.ForOp) for o in after.walk()) == 1  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    for seed in (0, 1):  # integers: every fold order gives the same sums
        rng = np.random.default_rng(seed)
        x = rng.integers(-3, 4, K).astype(np.float32)
        s = rng.integers(-2, 3, 2 * N).astype(np.float32)
        res = validate(before, after, _gemv_args(rng, x, s), grid=(2, 1))  # type: ignore[arg-type]
        assert res.ok and res.compared == K + (K // 8) * LDW + 2 * N * 2, str(res)


@pytest.mark.parametrize("chunk", [4, 64])  # one row an iteration; 16 rows an iteration, cut apart in order
def test_gemv_loop_is_the_lowerings_sequential_fold(chunk: int) -> None:
    _, after, _ = _run(GEMV, chunk_registers=chunk)
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(K) * 1e4).astype(np.float32)  # magnitudes apart: the order shows
    s = rng.standard_normal(2 * N).astype(np.float32)
    args = _gemv_args(rng, x, s)
    run_kernel(after, args, (2, 1))  # type: ignore[arg-type]
    w = args[1]
    assert isinstance(w, np.ndarray)
    acc = np.full(2 * N, -0.0, np.float32)
    for k in range(K):
        q = (w[(k // 8) * LDW : (k // 8) * LDW + 2 * N] >> ((k % 8) * 4)) & 15
        acc = acc + x[k] * (q.astype(np.float32) * s)
    y = args[3]
    assert isinstance(y, np.ndarray)
    assert np.array_equal(y.view(np.int32), acc.view(np.int32))


def test_colmax_bit_identical() -> None:
    before, after, remarks = _run(COLMAX)
    assert remarks == []
    rng = np.random.default_rng(1)
    a = rng.integers(-(2**31), 2**31, size=32 * 128, dtype=np.int64).astype(np.int32)
    res = validate(before, after, [a, np.zeros(128, np.int32)], grid=(1,))  # type: ignore[arg-type]
    assert res.ok, str(res)


def test_left_whole_unchanged_with_reasons() -> None:
    before, after, remarks = _run(LEFT_WHOLE)
    assert print_module(after) == print_module(before)  # type: ignore[arg-type]
    nochunk = "; in chunks: no kept dim of the result is split on register bits alone"
    assert [r.split(": ", 1)[1] for r in remarks] == [
        "lanes or warps share the reduced axis (their fold is a tree, not a row order); "
        "in chunks: a loaded tensor of the tile is used elsewhere: it would be loaded twice and stay whole",
        "a loaded tensor of the tile is used elsewhere: it would be loaded twice and stay whole" + nochunk,
        "a load of the tile would move past tt.store, which may write memory" + nochunk,
        "arith.maxnumf on f32 has no exact identity to start the fold from" + nochunk,
        "a loaded tensor of the tile is used elsewhere: it would be loaded twice and stay whole" + nochunk,
    ]


def test_small_tiles_left_whole() -> None:
    _, after, remarks = _run(GEMV, min_registers=512)
    # said once: too small for both rules (the row loop and the chunks)
    assert remarks == ["reduction left whole: 256 elements per thread (< min-registers=512)"]
    assert not any(isinstance(o, scf.ForOp) for o in after.walk())  # type: ignore[attr-defined]


def test_row_dot_in_chunks_bit_identical() -> None:
    """Chunks of rows: each result element folds its own row as before (the interpreter's tree too)."""
    before, after, remarks = _run(ROW_DOT)
    assert remarks == []
    reduces = [o for o in after.walk() if isinstance(o, tt.ReduceOp)]  # type: ignore[attr-defined]
    assert [r.srcs[0].type.get_shape() for r in reduces] == [(32, 64)] * 4
    rng = np.random.default_rng(2)
    for m in (256, 200, 100):  # (a, b, y, M): 2 programs, rows masked from M on
        a = rng.standard_normal(256 * 64).astype(np.float16)
        b = rng.standard_normal(256 * 64).astype(np.float16)
        y = np.full(256, 7.0, np.float32)
        res = validate(before, after, [a, b, y, m], grid=(2,))  # type: ignore[arg-type]
        assert res.ok and res.compared == 256 * 64 * 2 + 256, str(res)
