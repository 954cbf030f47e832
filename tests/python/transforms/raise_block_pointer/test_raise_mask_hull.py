"""RaiseBlockPointer on a loop-invariant mask conjunct `i < r` along the dim a step-1 loop moves (DimPlan.hull):
bit-identical on the interpreter with buffers exactly as large as the input reads (so a block read past the
columns the input reads faults), on ragged, short (r < tile with several iterations) and empty (r <= 0) cases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from xpu_passes.dialects import tt
from xpu_passes.interp import Inputs, validate
from xpu_passes.transforms.raise_block_pointer import build

from transforms.raise_block_pointer.raise_support import lit_chunk, raise_text

LIT = Path(__file__).parents[3] / "lit" / "passes" / "raise-block-pointer-mask-hull.mlir"


def _chunk(func: str) -> str:
    return lit_chunk(func, LIT)


def _raise(func: str, **options: Any) -> tuple[ModuleOp, ModuleOp, list[str]]:
    return raise_text(_chunk(func), **options)


def _rows_inputs(M: int, K: int, stride: int, trips: int, grid: int, seed: int) -> Inputs:
    """@fixed_mask_rows: x[m, 16 * pid + 32 * t + j] read where m < min(M, 16) and 16 * pid + j < K; x holds
    exactly up to the last element the input reads (nothing past it)."""
    last = -1
    for pid in range(grid):
        r = min(K - 16 * pid, 16)
        if r > 0 and trips > 0 and M > 0:
            last = max(last, (min(M, 16) - 1) * stride + 16 * pid + 32 * (trips - 1) + r - 1)
    x = np.random.default_rng(seed).standard_normal(last + 1 if last >= 0 else 1).astype(np.float32)
    out = np.full(256 * grid, np.nan, np.float32)
    return Inputs([x, out, M, K, stride, trips], (grid,))


ROWS_CASES = [  # M, K, stride, trips, grid
    (16, 40, 80, 2, 2),  # r = 40, 24: whole tiles
    (5, 7, 48, 3, 1),  # r = 7 < 16 with three iterations: the last reads columns 64..70
    (10, 20, 64, 2, 2),  # program 1: r = 4
    (16, 8, 64, 3, 2),  # program 1: r = -8, nothing read
    (3, 0, 16, 2, 1),  # r = 0
    (0, 16, 16, 2, 1),  # no row
    (7, 33, 48, 0, 3),  # no iteration
]


@pytest.mark.parametrize("M,K,stride,trips,grid", ROWS_CASES)
def test_split_k_form_bit_identical(M: int, K: int, stride: int, trips: int, grid: int) -> None:
    before, after, remarks = _raise("fixed_mask_rows")
    (load,) = [o for o in after.walk() if isinstance(o, tt.LoadOp)]
    assert load.boundary_check == (0, 1) and load.mask is None
    assert any("mask i < %arg3 - 16*(get_program_id ...) is the same in every iteration" in r for r in remarks)
    r = validate(before, after, _rows_inputs(M, K, stride, trips, grid, M * K + trips))
    assert r.ok, str(r)


def test_the_clamp_is_needed() -> None:
    """Sensitivity: the unclamped extent as the shape reads past the last column the input reads (r < 16)."""
    before, after, _ = _raise("fixed_mask_rows")
    assert validate(before, after, _rows_inputs(5, 7, 48, 3, 1, 0)).ok
    orig = build.hull_shape
    try:
        build.hull_shape = lambda b, dp, size: b.lin(dp.shape, build.i64)  # type: ignore[assignment]
        _, unclamped, _ = _raise("fixed_mask_rows")
    finally:
        build.hull_shape = orig  # type: ignore[assignment]
    assert not validate(before, unclamped, _rows_inputs(5, 7, 48, 3, 1, 0)).ok
    assert validate(before, unclamped, _rows_inputs(16, 40, 80, 2, 2, 0)).ok  # (whole tiles: no difference)


@pytest.mark.parametrize("M,K", [(16, 16), (20, 40), (7, 5), (33, 48), (5, 0)])
def test_gemm_form_bit_identical(M: int, K: int) -> None:
    """@fixed_mask_gemm: A (M x K, row stride `s`) with `offs_k < K` fixed; B 16 rows per step of K."""
    before, after, _ = _raise("fixed_mask_gemm", dot_only=True, block_io_only=True)
    assert [o.boundary_check for o in after.walk() if isinstance(o, tt.LoadOp)][0] == (0, 1)
    rng = np.random.default_rng(M + K)
    trips, stride = -(-K // 16), 64
    grid = -(-M // 16)
    rows = min(M, 16 * grid)
    last_a = (rows - 1) * stride + 16 * (trips - 1) + min(K, 16) - 1 if rows and trips and K > 0 else 0
    a = rng.standard_normal(last_a + 1).astype(np.float16)
    b = rng.standard_normal(16 * 16 * max(trips, 1)).astype(np.float16)
    c = np.full(16 * 16 * max(grid, 1), np.nan, np.float32)
    r = validate(before, after, Inputs([a, b, c, M, K, stride], (max(grid, 1),)))
    assert r.ok, str(r)


@pytest.mark.parametrize("func,why", [("fixed_mask_step2", "mask is not a bounds check of the block"),
                                      ("fixed_mask_and_other", "mask is not a bounds check of the block"),
                                      ("fixed_mask_twice", "mask is not a bounds check of the block"),
                                      ("fixed_mask_before_after", "before and after the pointer's increment")])
def test_left_alone_with_the_reason(func: str, why: str) -> None:
    _, after, remarks = _raise(func)
    assert not [o for o in after.walk() if isinstance(o, tt.LoadOp) and o.is_block_pointer]
    assert any("left alone: " in r and why in r for r in remarks)


def test_other_not_a_padding_keeps_the_whole_mask_as_select() -> None:
    """`other` 1.5 is no padding: no padding on the load, the select on the whole mask (rows too)."""
    text = _chunk("fixed_mask_rows").replace(
        "%30 = tt.load %arg8, %20, %cst :", "%c15 = arith.constant dense<1.500000e+00> : tensor<16x16xf32>\n"
        "      %30 = tt.load %arg8, %20, %c15 :")
    before, after, _ = raise_text(text)
    (load,) = [o for o in after.walk() if isinstance(o, tt.LoadOp)]
    (sel,) = [o for o in after.walk() if o.name == "arith.select" and o.results[0].type == load.result.type]
    assert load.boundary_check == (0, 1) and load.padding is None
    assert sel.operands[0].owner.name == "arith.andi"  # the input's mask itself
    for case in ROWS_CASES:
        r = validate(before, after, _rows_inputs(*case, seed=1))
        assert r.ok, str(r)


def _gemm_with_bound(c: int, monkeypatch: Any = None) -> tuple[ModuleOp, ModuleOp]:
    """@fixed_mask_gemm with the loop bound (K + c) / 16 (c = 15: cdiv)."""
    text = _chunk("fixed_mask_gemm").replace("%27 = arith.addi %arg4, %c15_i32 : i32",
                                             f"%cb = arith.constant {c} : i32\n    %27 = arith.addi %arg4, %cb : i32")
    before, after, _ = raise_text(text, dot_only=True, block_io_only=True)
    return before, after


def _gemm_case(M: int, K: int, trips: int) -> Inputs:
    rng = np.random.default_rng(M * K + trips)
    stride = 64
    last_a = (M - 1) * stride + 16 * (trips - 1) + 15  # (columns past K are read, as the input does)
    a = rng.standard_normal(last_a + 1).astype(np.float16)
    b = rng.standard_normal(256 * trips).astype(np.float16)
    return Inputs([a, b, np.full(256, np.nan, np.float32), M, K, stride], (1,))


@pytest.mark.parametrize("c,select", [(15, False), (0, False), (31, True)])
def test_no_select_where_the_trip_count_proves_it_exact(c: int, select: bool) -> None:
    """cdiv(K, 16) (or K / 16) iterations: a short K (< 16) means one iteration, the checked load alone is exact;
    (K + 31) / 16 may run twice with K < 16: the conjunct stays as a select."""
    before, after = _gemm_with_bound(c)
    (load,) = [o for o in after.walk() if isinstance(o, tt.LoadOp) and o.is_block_pointer and o.boundary_check]
    assert load.padding.value.data == 1
    sels = [o for o in after.walk() if o.name == "arith.select" and o.results[0].type == load.result.type]
    assert bool(sels) == select
    for K in (5, 16, 20, 1, 0):
        r = validate(before, after, _gemm_case(16, K, max((K + c) // 16, 1)))
        assert r.ok, f"K={K}: {r}"


def test_the_select_is_needed_where_two_short_iterations_run(monkeypatch: Any) -> None:
    """Sensitivity: dropping the select for (K + 31) / 16 (two iterations at K = 5) reads columns 16..20."""
    from xpu_passes.transforms.raise_block_pointer import plan

    monkeypatch.setattr(plan, "single_trip_when_short", lambda *a: True)
    before, after = _gemm_with_bound(31)
    assert not validate(before, after, _gemm_case(16, 5, 2)).ok
