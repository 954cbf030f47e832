"""The interpreter's casts (interp/ops_cast.py) and bf16 rounding (interp/types.py) on
hand-written TTIR: fp_to_fp's rounding modes, truncf to bf16, bitcasts.

Every expected value is computed independently with NumPy from the inputs.
"""

from __future__ import annotations

import numpy as np

from xpu_passes.interp import round_bf16, run_kernel

from interp.kernels import module, unary_kernel


def test_fp_to_fp_rounding_modes() -> None:
    x = np.array([1 + 2**-12, -(1 + 2**-12), 1 + 3 * 2**-12, 65520.0, 1e-8, -0.0, np.inf, np.nan], np.float32)
    rtne, rtz = np.zeros(8, np.float16), np.zeros(8, np.float16)
    run_kernel(module(unary_kernel("%w = tt.fp_to_fp %v, rounding = rtne : tensor<8xf32> -> tensor<8xf16>", "f32", "f16")), [x, rtne], (1,))
    run_kernel(module(unary_kernel("%w = tt.fp_to_fp %v, rounding = rtz : tensor<8xf32> -> tensor<8xf16>", "f32", "f16")), [x, rtz], (1,))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(rtne, x.astype(np.float16))
    # Toward zero: never larger in magnitude than the input, and within one f16 ulp of it.
    assert (np.abs(rtz[:5].astype(np.float64)) <= np.abs(x[:5].astype(np.float64))).all()
    assert rtz[2] == 1.0 and rtne[2] == np.float16(1 + 2**-10)  # 0.75 ulp above 1
    assert rtz[3] == np.float16(65504.0) and np.isinf(rtne[3])
    assert np.signbit(rtz[5]) and np.isinf(rtz[6]) and np.isnan(rtz[7])
    bf = np.zeros(8, np.float32)
    run_kernel(module(unary_kernel("%w = arith.truncf %v : tensor<8xf32> to tensor<8xbf16>", "f32", "bf16")), [x, bf], (1,))
    np.testing.assert_array_equal(bf[:6], round_bf16(x[:6]))


def test_bitcast_bf16_to_i16_and_back() -> None:
    x = round_bf16(np.linspace(-3, 3, 8))
    bits = np.zeros(8, np.int16)
    run_kernel(module(unary_kernel("%w = arith.bitcast %v : tensor<8xbf16> to tensor<8xi16>", "bf16", "i16")), [x, bits], (1,))
    np.testing.assert_array_equal(bits, (x.view(np.uint32) >> 16).astype(np.uint16).view(np.int16))
    back = np.zeros(8, np.float32)
    run_kernel(module(unary_kernel("%w = arith.bitcast %v : tensor<8xi16> to tensor<8xbf16>", "i16", "bf16")), [bits, back], (1,))
    np.testing.assert_array_equal(back, x)


def test_round_bf16_ties_to_even() -> None:
    one_and_half_ulp = np.float32(1.0) + np.float32(2.0**-8)  # exactly between 1.0 and 1 + 2^-7
    assert round_bf16(one_and_half_ulp) == 1.0
    assert round_bf16(np.float32(1.0 + 3 * 2.0**-8)) == np.float32(1.0 + 2 * 2.0**-7)
    assert np.isnan(round_bf16(np.float32(np.nan)))
