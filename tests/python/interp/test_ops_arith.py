"""The interpreter's arith ops (interp/ops_arith.py) on hand-written TTIR: 32-bit integer
semantics, clampf and select, and poison that must not reach a store.

Every expected value is computed independently with NumPy from the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from xpu_passes.interp import run_kernel, validate

from interp.kernels import module, unary_kernel


def _int_kernel(op: str) -> str:
    return f"""
module {{
  tt.func public @ints(%out: !tt.ptr<i32>, %a: i32, %b: i32) {{
    %v = arith.{op} %a, %b : i32
    tt.store %out, %v : !tt.ptr<i32>
    tt.return
  }}
}}
"""


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _i32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


@pytest.mark.parametrize(
    "op, a, b, expected",
    [
        ("addi", 2**31 - 1, 1, -(2**31)),  # wraps like the GPU
        ("muli", 65536, 65536 + 3, _i32(65536 * (65536 + 3))),
        ("divsi", -7, 2, _c_div(-7, 2)),  # toward zero: -3
        ("remsi", -7, 2, -7 - 2 * _c_div(-7, 2)),  # sign of the dividend: -1
        ("divui", -7, 2, _i32((2**32 - 7) // 2)),
        ("remui", -7, 2, (2**32 - 7) % 2),
        ("shrui", -8, 1, _i32((2**32 - 8) >> 1)),
        ("shrsi", -8, 1, -4),
        ("ceildivsi", 7, 2, 4),
        ("floordivsi", -7, 2, -4),
        ("maxui", -1, 3, -1),
        ("minsi", -1, 3, -1),
    ],
)
def test_integer_semantics(op: str, a: int, b: int, expected: int) -> None:
    out = np.zeros(1, np.int32)
    run_kernel(module(_int_kernel(op)), [out, a, b], (1,))
    assert int(out[0]) == expected


def test_clampf_select_and_shared_memory_round_trip() -> None:
    body = """%lo = arith.constant dense<-0.5> : tensor<8xf32>
    %hi = arith.constant dense<0.5> : tensor<8xf32>
    %c = tt.clampf %v, %lo, %hi, propagateNan = all : tensor<8xf32>
    %m = ttg.local_alloc %c : (tensor<8xf32>) -> !ttg.memdesc<8xf32, #shared, #smem>
    %l = ttg.local_load %m : !ttg.memdesc<8xf32, #shared, #smem> -> tensor<8xf32>
    %z = arith.constant dense<0.0> : tensor<8xf32>
    %pos = arith.cmpf ogt, %l, %z : tensor<8xf32>
    %w = arith.select %pos, %l, %v : tensor<8xi1>, tensor<8xf32>"""
    text = unary_kernel(body, "f32", "f32").replace(
        "module {",
        "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
        "#smem = #ttg.shared_memory\nmodule {",
    )
    x = np.array([-2, -0.25, 0, 0.25, 2, np.nan, -np.inf, np.inf], np.float32)
    y = np.zeros(8, np.float32)
    run_kernel(module(text), [x, y], (1,))
    clamped = np.where(np.isnan(x), x, np.clip(x, -0.5, 0.5))
    np.testing.assert_array_equal(y, np.where(clamped > 0, clamped, x))


def test_poison_reaching_a_store_is_caught() -> None:
    before = module(unary_kernel("%w = arith.addf %v, %v : tensor<8xf32>", "f32", "f32"))
    after = module(unary_kernel("%w = ub.poison : tensor<8xf32>", "f32", "f32"))
    args = [np.zeros(8, np.float32), np.zeros(8, np.float32)]  # 0 + 0 is what zeros for poison would hide
    r = validate(before, after, args, grid=(1,))
    assert r.mismatch is not None and r.mismatch.expected == 0.0 and np.isnan(r.mismatch.got)
