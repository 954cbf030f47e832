"""RaiseBlockPointer's rewrites are bit-identical on the interpreter (GEMM, epilogues, selects, loop masks,
column-major, versioned accesses; `other` as padding only when exact), and the checks can fail."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, i64

from xpu_passes.dialects import arith as arith_compat
from xpu_passes.dialects import tt
from xpu_passes.interp import Inputs, validate

from transforms.raise_block_pointer.raise_support import (
    check_bit_identical, gemm_inputs, lit_chunk, ops_of, raise_all, surface_model,
)

LOOP_START = Path(__file__).parents[3] / "lit" / "passes" / "raise-block-pointer-loop-start.mlir"
GEMM_SHAPES = [(40, 24, 40), (48, 32, 48), (33, 17, 5), (16, 16, 64)]


@pytest.mark.parametrize("M,N,K", GEMM_SHAPES)
def test_gemm_bit_identical(M: int, N: int, K: int) -> None:
    before, after, _ = raise_all(lit_chunk("gemm_tensor_ptr"))
    check_bit_identical(before, after, gemm_inputs(M, N, K, np.float16, M * N + K))


def test_epilogue_and_select_bit_identical_on_ragged_shapes() -> None:
    rng = np.random.default_rng(1)
    before, after, _ = raise_all(lit_chunk("add_matrix"))
    for M, N in [(40, 24), (16, 16), (7, 33)]:
        d = rng.standard_normal(M * N).astype(np.float32)
        c = np.full(M * N, np.nan, np.float32)
        check_bit_identical(before, after, Inputs([d, c, M, N, N, N], (-(-M // 16), -(-N // 16))))
    before, after, _ = raise_all(lit_chunk("select_mask"))
    for M, N in [(40, 16), (21, 11)]:
        a = rng.standard_normal(M * N).astype(np.float32)
        b = rng.standard_normal(16).astype(np.float32) * 3
        check_bit_identical(before, after, Inputs([a, b, M, N, N], (-(-M // 16),)))


def test_wrapped_epilogue_versioned_per_access_bit_identical() -> None:
    """Rows `(pid * 16 + arange) % M` outside any loop: the load and the store are each versioned."""
    text = lit_chunk("add_matrix").replace("    %6 = arith.addi %5, %4 : tensor<16xi32>\n", (
        "    %w6 = arith.addi %5, %4 : tensor<16xi32>\n    %wm = tt.splat %arg2 : i32 -> tensor<16xi32>\n"
        "    %6 = arith.remsi %w6, %wm : tensor<16xi32>\n"))
    before, after, remarks = raise_all(text)
    assert len(ops_of(after, scf.IfOp)) == 2 and len(ops_of(after, tt.MakeTensorPtrOp)) == 2
    assert len(remarks) == 2 and all("raised in the versioned copy" in r for r in remarks)
    rng = np.random.default_rng(8)
    for M, N in [(40, 24), (16, 16), (7, 33)]:
        d = rng.standard_normal(M * N).astype(np.float32)
        check_bit_identical(before, after, Inputs([d, np.full(M * N, np.nan, np.float32), M, N, N, N], (-(-M // 16), -(-N // 16))))


def test_loop_mask_position_form_nan_padding_bit_identical() -> None:
    before, after, remarks = raise_all(lit_chunk("row_sums"))
    assert remarks == ["raised; dim 1 has no bound in the IR: shape = the extent the tile reaches, unchecked"]
    (load,) = ops_of(after, tt.LoadOp)
    assert load.boundary_check == (0, 1) and load.padding.value.data == 2 and len(ops_of(after, tt.AdvanceOp)) == 1
    rng = np.random.default_rng(2)
    for M, K in [(40, 40), (16, 16), (5, 70)]:  # ragged rows and columns: NaN padding reaches the sums
        x = rng.standard_normal(M * K).astype(np.float32)
        check_bit_identical(before, after, Inputs([x, np.zeros(M * 16, np.float32), M, K, K], (-(-M // 16),)))


@pytest.mark.parametrize("func", ["rows_from_lo", "cols_from_lo"])
def test_loop_from_a_loop_invariant_start_bit_identical(func: str) -> None:
    """A loop from `lo = pid * B` with its pointer made at lo (the causal diagonal loop): raised, and exact on
    the interpreter and under 2D block I/O's surface, with n ragged, short of the tile, and past every row."""
    before, after, remarks = raise_all(lit_chunk(func, LOOP_START))
    assert len(ops_of(after, tt.AdvanceOp)) == 1 and not any("left alone" in r for r in remarks)
    rng = np.random.default_rng(9)
    for n, grid in [(10, 3), (3, 2), (64, 4)]:
        x = rng.standard_normal(4096).astype(np.float32)
        check_bit_identical(before, after, Inputs([x, np.zeros(1024, np.float32), 16, n], (grid,)))


def test_increment_fitting_two_dims_takes_the_one_the_mask_checks() -> None:
    """Row stride a constant 16 and `ptrs += 16`: one row down or 16 columns right; the K mask decides."""
    text = lit_chunk("row_sums").replace("%6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>",
                                      "%6 = arith.constant dense<16> : tensor<16x1xi32>")
    before, after, _ = raise_all(text)
    (load,) = ops_of(after, tt.LoadOp)
    (adv,) = ops_of(after, tt.AdvanceOp)
    assert load.boundary_check == (0, 1) and [o.owner.value.value.data for o in adv.offsets] == [0, 16]
    x = np.random.default_rng(6).standard_normal(40 * 16 + 40).astype(np.float32)
    check_bit_identical(before, after, Inputs([x, np.zeros(40 * 16, np.float32), 40, 40, 16], (3,)))


def test_column_major_order_and_extents_bit_identical() -> None:
    before, after, _ = raise_all(lit_chunk("col_major"))
    ptrs = ops_of(after, tt.MakeTensorPtrOp)
    assert [p.order_values for p in ptrs] == [(0, 1), (0, 1)]
    n = 3 * 16
    x = np.random.default_rng(3).standard_normal(n * 16).astype(np.float16)
    check_bit_identical(before, after, Inputs([x, np.zeros(n * 16, np.float16), n], (3,)))


def test_surface_model_catches_a_short_shape() -> None:
    """The surface model is sensitive: a shape one row short of the tile's extent is caught."""
    from xdsl.dialects import arith
    from xdsl.rewriter import InsertPoint, Rewriter

    before, after, _ = raise_all(lit_chunk("col_major"))
    ptr = ops_of(after, tt.MakeTensorPtrOp)[0]  # shape [0, 0] (no tt.dot): a real one, one row short
    short, full = arith.ConstantOp(IntegerAttr(15, i64)), arith.ConstantOp(IntegerAttr(16, i64))
    Rewriter.insert_op([short, full], InsertPoint.before(ptr))
    ptr.operands = [ptr.base, short.result, full.result, *ptr.operands[3:]]
    x = np.random.default_rng(4).standard_normal(16 * 16).astype(np.float16)
    inputs = Inputs([x, np.zeros(16 * 16, np.float16), 16], (1,))
    assert validate(before, after, inputs).ok  # Triton's semantics ignore an unchecked shape...
    assert not validate(before, surface_model(after), inputs).ok  # ...2D block reads do not


@pytest.mark.parametrize("other,padding,select", [("0.000000e+00", 1, False), ("-0.000000e+00", None, True),
                                                   ("1.500000e+00", None, True), ("0x7FC00000", 2, False),
                                                   ("0xFFC00000", None, True)])
def test_other_becomes_padding_only_when_exact(other: str, padding: int | None, select: bool) -> None:
    """+0 and the quiet NaN are what padding gives; -0.0, 1.5 and -NaN keep a select on the checked load."""
    text = lit_chunk("add_matrix").replace("%cst = arith.constant dense<0.000000e+00>", f"%cst = arith.constant dense<{other}>")
    before, after, _ = raise_all(text)
    load = ops_of(after, tt.LoadOp)[0]
    assert load.boundary_check == (0, 1)
    assert (load.padding.value.data if load.padding is not None else None) == padding
    assert bool(ops_of(after, arith_compat.SelectOp)) == select
    d = np.random.default_rng(7).standard_normal(40 * 24).astype(np.float32)
    check_bit_identical(before, after, Inputs([d, np.zeros(40 * 24, np.float32), 40, 24, 24, 24], (3, 2)))


def test_validation_catches_a_dropped_bounds_check() -> None:
    """The check is sensitive: the same raise without boundaryCheck on the K loop differs or faults."""
    before, after, _ = raise_all(lit_chunk("gemm_tensor_ptr"))
    for ld in ops_of(after, tt.LoadOp):
        if ld.boundary_check:
            del ld.properties["boundaryCheck"]
            ld.properties.pop("padding", None)
    assert not validate(before, after, gemm_inputs(40, 24, 40, np.float16, 3)).ok
