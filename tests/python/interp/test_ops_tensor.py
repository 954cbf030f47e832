"""The interpreter's tensor ops (interp/ops_tensor.py) on hand-written TTIR: dot (f16 and bf16
inputs, f32 accumulation) and program ids over a grid.

Every expected value is computed independently with NumPy from the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from xpu_passes.interp import InterpError, round_bf16, run_kernel

from interp.kernels import module


DOT = """
module {
  tt.func public @mm(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
    %c1 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %s16 = arith.constant 16 : i64
    %s32 = arith.constant 32 : i64
    %pa = tt.make_tensor_ptr %a, [%s16, %s32], [%s32, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x32xf16>>
    %pb = tt.make_tensor_ptr %b, [%s32, %s16], [%s16, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf16>>
    %pc = tt.make_tensor_ptr %c, [%s16, %s16], [%s16, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
    %x = tt.load %pa : !tt.ptr<tensor<16x32xf16>>
    %y = tt.load %pb : !tt.ptr<tensor<32x16xf16>>
    %acc = arith.constant dense<0.25> : tensor<16x16xf32>
    %d = tt.dot %x, %y, %acc, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
    tt.store %pc, %d : !tt.ptr<tensor<16x16xf32>>
    tt.return
  }
}
"""


def test_dot_f16_inputs_f32_accumulation() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal(16 * 32).astype(np.float16)
    b = rng.standard_normal(32 * 16).astype(np.float16)
    c = np.zeros(256, np.float32)
    run_kernel(module(DOT), [a, b, c], (1,))
    ref = a.reshape(16, 32).astype(np.float64) @ b.reshape(32, 16).astype(np.float64) + 0.25
    np.testing.assert_array_equal(c.reshape(16, 16), ref.astype(np.float32))


def test_bf16_loads_round_and_buffers_are_float32() -> None:
    text = DOT.replace("f16", "bf16")
    rng = np.random.default_rng(2)
    a = round_bf16(rng.standard_normal(16 * 32))
    b = round_bf16(rng.standard_normal(32 * 16))
    c = np.zeros(256, np.float32)
    run_kernel(module(text), [a, b, c], (1,))
    ref = a.reshape(16, 32).astype(np.float64) @ b.reshape(32, 16).astype(np.float64) + 0.25
    np.testing.assert_array_equal(c.reshape(16, 16), ref.astype(np.float32))
    with pytest.raises(InterpError, match=r"argument 0: !tt.ptr<bf16> needs a float32 array, got float16"):
        run_kernel(module(text), [a.astype(np.float16), b, c], (1,))


def test_multi_program_grid_ids() -> None:
    text = """
module {
  tt.func public @ids(%out: !tt.ptr<i32>) {
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %nx = tt.get_num_programs x : i32
    %row = arith.muli %y, %nx : i32
    %i = arith.addi %row, %x : i32
    %p = tt.addptr %out, %i : !tt.ptr<i32>, i32
    %c100 = arith.constant 100 : i32
    %v = arith.muli %y, %c100 : i32
    %w = arith.addi %v, %x : i32
    tt.store %p, %w : !tt.ptr<i32>
    tt.return
  }
}
"""
    out = np.full(6, -1, np.int32)
    run_kernel(module(text), [out], (3, 2))
    assert out.tolist() == [0, 1, 2, 100, 101, 102]
