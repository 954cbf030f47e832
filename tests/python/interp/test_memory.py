"""The interpreter's loads and stores (interp/memory.py) on hand-written TTIR: masks and their
`other`, block pointers with boundary checks and padding, out-of-bounds accesses.

Every expected value is computed independently with NumPy from the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from xpu_passes.interp import InterpError, run_kernel, validate

from interp.kernels import MASKED, module


def test_masked_load_store_ragged() -> None:
    n = 100
    x = np.arange(n, dtype=np.float32) * 0.5
    y = np.full(n, 7.0, np.float32)
    run_kernel(module(MASKED), [x, y, n], (2,))
    np.testing.assert_array_equal(y, x + 1)


def test_masked_other_is_used_and_masked_lanes_not_stored() -> None:
    # n smaller than the buffers: lanes >= n read `other` and must not be written.
    x = np.ones(128, np.float32)
    y = np.full(128, 7.0, np.float32)
    run_kernel(module(MASKED), [x, y, 70], (2,))
    np.testing.assert_array_equal(y[:70], 2.0)
    np.testing.assert_array_equal(y[70:], 7.0)


def test_dropped_mask_is_an_out_of_bounds_error() -> None:
    text = MASKED.replace("tt.load %xa, %mask, %other", "tt.load %xa")
    with pytest.raises(InterpError, match=r"out-of-bounds load: buffer 0 \(size 100\) at element 100"):
        run_kernel(module(text), [np.zeros(100, np.float32), np.zeros(100, np.float32), 100], (2,))


def test_validate_catches_a_changed_other() -> None:
    before = module(MASKED)
    # The other value reaches no store here (masked lanes are not stored): equal.
    after = module(MASKED.replace("dense<-5.0>", "dense<3.0>"))
    args = [np.arange(128, dtype=np.float32), np.zeros(128, np.float32), 70]
    assert validate(before, after, args, grid=(2,)).ok
    # Storing without the mask writes the `other` lanes: the first differing element is 70.
    after = module(MASKED.replace("tt.store %ya, %w, %mask", "tt.store %ya, %w"))
    r = validate(before, after, args, grid=(2,))
    assert not r.ok and r.mismatch is not None
    assert (r.mismatch.buffer, r.mismatch.index, r.mismatch.expected, r.mismatch.got) == (1, 70, 0.0, -4.0)
    assert r.mismatch.count == 58
    assert "the buffer of argument 1 differs at element 70: expected 0.0, got -4.0 (58 elements differ)" in str(r)


# A block-pointer tile copy: tile (pid) of an MxN row-major matrix, 16x16 tiles,
# boundaryCheck and padding as given; the tile is advanced by (0, 16) `steps` times.
BLOCK = """
module {
  tt.func public @tile(%a: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32, %n: i32, %steps: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %c1_i64 = arith.constant 1 : i64
    %pid = tt.get_program_id x : i32
    %row = arith.muli %pid, %c16 : i32
    %m64 = arith.extsi %m : i32 to i64
    %n64 = arith.extsi %n : i32 to i64
    %pa = tt.make_tensor_ptr %a, [%m64, %n64], [%n64, %c1_i64], [%row, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
    %pc = tt.make_tensor_ptr %c, [%m64, %n64], [%n64, %c1_i64], [%row, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %pa, %y = %pc) -> (!tt.ptr<tensor<16x16xf32>>, !tt.ptr<tensor<16x16xf32>>) : i32 {
      %v = tt.load %x {LOADATTRS} : !tt.ptr<tensor<16x16xf32>>
      tt.store %y, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
      %x2 = tt.advance %x, [%c0, %c16] : <tensor<16x16xf32>>
      %y2 = tt.advance %y, [%c0, %c16] : <tensor<16x16xf32>>
      scf.yield %x2, %y2 : !tt.ptr<tensor<16x16xf32>>, !tt.ptr<tensor<16x16xf32>>
    }
    tt.return
  }
}
"""


@pytest.mark.parametrize("padding, fill", [("1 : i32", 0.0), ("2 : i32", np.nan)])
def test_block_pointer_boundary_check_and_padding(padding: str, fill: float) -> None:
    m, n = 20, 40  # ragged against 16x16 tiles
    attrs = f"boundaryCheck = array<i32: 0, 1>, padding = {padding}"
    a = np.arange(m * n, dtype=np.float32)
    # The output is bigger than MxN so that stores outside the boundary would be visible.
    c = np.full(m * n + 64, -1.0, np.float32)
    run_kernel(module(BLOCK.replace("LOADATTRS", attrs)), [a, c, m, n, 3], (2,))
    np.testing.assert_array_equal(c[: m * n], a)  # every in-bounds element copied, across the advances
    np.testing.assert_array_equal(c[m * n :], -1.0)  # nothing stored out of bounds


def test_block_pointer_padding_values_are_loaded() -> None:
    # Store into a 32x48 output that is bigger than the 20x40 source: padding shows.
    text = BLOCK.replace("LOADATTRS", "boundaryCheck = array<i32: 0, 1>, padding = 2 : i32")
    text = text.replace(
        "%pc = tt.make_tensor_ptr %c, [%m64, %n64], [%n64, %c1_i64]",
        "%c32_i64 = arith.constant 32 : i64\n    %c48_i64 = arith.constant 48 : i64\n"
        "    %pc = tt.make_tensor_ptr %c, [%c32_i64, %c48_i64], [%c48_i64, %c1_i64]",
    )
    a = np.arange(20 * 40, dtype=np.float32)
    c = np.zeros(32 * 48, np.float32)
    run_kernel(module(text), [a, c, 20, 40, 3], (2,))
    out = c.reshape(32, 48)
    np.testing.assert_array_equal(out[:20, :40], a.reshape(20, 40))
    assert np.isnan(out[20:, :]).all() and np.isnan(out[:, 40:]).all()


def test_block_pointer_without_boundary_check_reads_memory() -> None:
    # Unchecked dimension 1: the tile reads past column N into the next row, as the hardware would.
    text = BLOCK.replace("LOADATTRS", "boundaryCheck = array<i32: 0>")
    a = np.arange(16 * 24 + 16, dtype=np.float32)
    c = np.zeros(16 * 24, np.float32)
    run_kernel(module(text), [a, c, 16, 24, 2], (1,))
    np.testing.assert_array_equal(c, a[: 16 * 24])
    # With too small a buffer, the unchecked read is an error.
    with pytest.raises(InterpError, match="out-of-bounds load"):
        run_kernel(module(text), [a[: 16 * 24].copy(), c, 16, 24, 2], (1,))
