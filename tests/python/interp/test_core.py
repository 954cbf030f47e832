"""The NumPy interpreter on hand-written TTIR: masks, block pointers, dot, reduce, scf, integers, refusals.

Every expected value is computed independently with NumPy from the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import ParsedModule, parse_module
from xpu_passes.interp import InterpError, round_bf16, run_kernel, validate
from xpu_passes.interp.core import located


def parse(text: str) -> ParsedModule:
    return parse_module(make_context(), text, "test.mlir")


def module(text: str):
    return parse(text).module


# A masked 1D copy-and-add with `other`: y[i] = x[i] + 1 for i < n, 64-wide programs.
MASKED = """
module {
  tt.func public @add_one(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c64 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %s = tt.splat %start : i32 -> tensor<64xi32>
    %offs = arith.addi %s, %r : tensor<64xi32>
    %ns = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %other = arith.constant dense<-5.0> : tensor<64xf32>
    %v = tt.load %xa, %mask, %other : tensor<64x!tt.ptr<f32>>
    %one = arith.constant dense<1.0> : tensor<64xf32>
    %w = arith.addf %v, %one : tensor<64xf32>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %ya, %w, %mask : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
"""


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


def test_round_bf16_ties_to_even() -> None:
    one_and_half_ulp = np.float32(1.0) + np.float32(2.0**-8)  # exactly between 1.0 and 1 + 2^-7
    assert round_bf16(one_and_half_ulp) == 1.0
    assert round_bf16(np.float32(1.0 + 3 * 2.0**-8)) == np.float32(1.0 + 2 * 2.0**-7)
    assert np.isnan(round_bf16(np.float32(np.nan)))


REDUCE = """
module {
  tt.func public @rowstats(%x: !tt.ptr<f32>, %sums: !tt.ptr<f32>, %maxs: !tt.ptr<f32>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %c = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %five = arith.constant dense<4> : tensor<8x1xi32>
    %rows = arith.muli %re, %five : tensor<8x1xi32>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %rb = tt.broadcast %rows : tensor<8x1xi32> -> tensor<8x4xi32>
    %cb = tt.broadcast %ce : tensor<1x4xi32> -> tensor<8x4xi32>
    %offs = arith.addi %rb, %cb : tensor<8x4xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x4x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<8x4x!tt.ptr<f32>>, tensor<8x4xi32>
    %v = tt.load %xa : tensor<8x4x!tt.ptr<f32>>
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<8x4xf32>) -> tensor<8xf32>
    %m = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<8x4xf32>) -> tensor<4xf32>
    %sp = tt.splat %sums : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %sa = tt.addptr %sp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %sa, %s : tensor<8x!tt.ptr<f32>>
    %mp = tt.splat %maxs : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %ma = tt.addptr %mp, %c : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %ma, %m : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_reduce_sum_and_max_along_each_axis() -> None:
    x = np.random.default_rng(3).integers(-50, 50, 32).astype(np.float32)  # sums exact in f32
    sums, maxs = np.zeros(8, np.float32), np.zeros(4, np.float32)
    run_kernel(module(REDUCE), [x, sums, maxs], (1,))
    np.testing.assert_array_equal(sums, x.reshape(8, 4).sum(1))
    np.testing.assert_array_equal(maxs, x.reshape(8, 4).max(0))


SCF = """
module {
  tt.func public @loops(%out: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %sum = scf.for %i = %c0 to %n step %c3 iter_args(%acc = %c0) -> (i32) : i32 {
      %odd = arith.remsi %i, %c1 : i32
      %is_even = arith.cmpi eq, %odd, %c0 : i32
      %t = scf.if %is_even -> (i32) {
        %a = arith.addi %acc, %i : i32
        scf.yield %a : i32
      } else {
        scf.yield %acc : i32
      }
      scf.yield %t : i32
    }
    %w:2 = scf.while (%x = %n, %k = %c0) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi sgt, %x, %c1 : i32
      scf.condition(%more) %x, %k : i32, i32
    } do {
    ^bb0(%x: i32, %k: i32):
      %h = arith.divsi %x, %c3 : i32
      %k1 = arith.addi %k, %c1 : i32
      scf.yield %h, %k1 : i32, i32
    }
    %p1 = tt.addptr %out, %c1 : !tt.ptr<i32>, i32
    tt.store %out, %sum : !tt.ptr<i32>
    tt.store %p1, %w#1 : !tt.ptr<i32>
    tt.return
  }
}
"""


def test_scf_for_if_while() -> None:
    out = np.zeros(2, np.int32)
    run_kernel(module(SCF), [out, 100], (1,))
    k, x = 0, 100
    while x > 1:
        x, k = x // 3, k + 1
    assert out.tolist() == [sum(range(0, 100, 3)), k]


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


def test_unknown_op_is_refused_with_its_name_and_location() -> None:
    text = """
module {
  tt.func public @k(%i: i64, %v: f32) {
    %p = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}
"""
    parsed = parse(text)  # pointers are (buffer, offset) here: an integer address has no buffer
    with pytest.raises(InterpError, match=r"cannot interpret 'tt.int_to_ptr'") as e:
        run_kernel(parsed.module, [0, 1.0], (1,))
    assert located(e.value, parsed).startswith("test.mlir:4:5: error: cannot interpret 'tt.int_to_ptr'")


def test_argument_errors() -> None:
    m = module(MASKED)
    with pytest.raises(InterpError, match="takes 3 arguments, got 2"):
        run_kernel(m, [np.zeros(4, np.float32), np.zeros(4, np.float32)], (1,))
    with pytest.raises(InterpError, match="argument 1 is a pointer"):
        run_kernel(m, [np.zeros(4, np.float32), 3, 4], (1,))


CALL = """
module {
  tt.func private @axpy(%a: f32, %x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, f32) {
    %as = tt.splat %a : f32 -> tensor<8xf32>
    %ax = arith.mulf %as, %x : tensor<8xf32>
    %r = arith.addf %ax, %y : tensor<8xf32>
    %two = arith.constant 2.0 : f32
    %a2 = arith.mulf %a, %two : f32
    tt.return %r, %a2 : tensor<8xf32>, f32
  }
  tt.func public @k(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %a: f32) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %xv = tt.load %xa : tensor<8x!tt.ptr<f32>>
    %yv = tt.load %ya : tensor<8x!tt.ptr<f32>>
    %res:2 = tt.call @axpy(%a, %xv, %yv) : (f32, tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, f32)
    %e = tt.extern_elementwise %res#0 {libname = "", libpath = "", pure = true, symbol = "__imf_erff"} : (tensor<8xf32>) -> tensor<8xf32>
    tt.store %ya, %e : tensor<8x!tt.ptr<f32>>
    tt.store %x, %res#1 : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_call_with_results_and_extern_elementwise() -> None:
    import math

    x = np.linspace(-1, 1, 8).astype(np.float32)
    y = np.linspace(0.5, -0.5, 8).astype(np.float32)
    x0, y0 = x.copy(), y.copy()
    run_kernel(module(CALL), [x, y, 0.75], (1,))
    axpy = np.float32(0.75) * x0 + y0
    np.testing.assert_allclose(y, [math.erf(v) for v in axpy], rtol=1e-6)
    assert x[0] == 1.5 and (x[1:] == x0[1:]).all()
    with pytest.raises(InterpError, match=r"'tt.extern_elementwise' calling '__imf_no_such_fn'"):
        run_kernel(module(CALL.replace("__imf_erff", "__imf_no_such_fn")), [x, y, 0.75], (1,))


def _unary_kernel(body: str, src: str, dst: str, n: int = 8) -> str:
    """A kernel loading n `src` values, applying `body` (%v -> %w), storing n `dst` values."""
    return f"""
module {{
  tt.func public @k(%x: !tt.ptr<{src}>, %y: !tt.ptr<{dst}>) {{
    %r = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32>
    %xp = tt.splat %x : !tt.ptr<{src}> -> tensor<{n}x!tt.ptr<{src}>>
    %xa = tt.addptr %xp, %r : tensor<{n}x!tt.ptr<{src}>>, tensor<{n}xi32>
    %yp = tt.splat %y : !tt.ptr<{dst}> -> tensor<{n}x!tt.ptr<{dst}>>
    %ya = tt.addptr %yp, %r : tensor<{n}x!tt.ptr<{dst}>>, tensor<{n}xi32>
    %v = tt.load %xa : tensor<{n}x!tt.ptr<{src}>>
    {body}
    tt.store %ya, %w : tensor<{n}x!tt.ptr<{dst}>>
    tt.return
  }}
}}
"""


def test_fp_to_fp_rounding_modes() -> None:
    x = np.array([1 + 2**-12, -(1 + 2**-12), 1 + 3 * 2**-12, 65520.0, 1e-8, -0.0, np.inf, np.nan], np.float32)
    rtne, rtz = np.zeros(8, np.float16), np.zeros(8, np.float16)
    run_kernel(module(_unary_kernel("%w = tt.fp_to_fp %v, rounding = rtne : tensor<8xf32> -> tensor<8xf16>", "f32", "f16")), [x, rtne], (1,))
    run_kernel(module(_unary_kernel("%w = tt.fp_to_fp %v, rounding = rtz : tensor<8xf32> -> tensor<8xf16>", "f32", "f16")), [x, rtz], (1,))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(rtne, x.astype(np.float16))
    # Toward zero: never larger in magnitude than the input, and within one f16 ulp of it.
    assert (np.abs(rtz[:5].astype(np.float64)) <= np.abs(x[:5].astype(np.float64))).all()
    assert rtz[2] == 1.0 and rtne[2] == np.float16(1 + 2**-10)  # 0.75 ulp above 1
    assert rtz[3] == np.float16(65504.0) and np.isinf(rtne[3])
    assert np.signbit(rtz[5]) and np.isinf(rtz[6]) and np.isnan(rtz[7])
    bf = np.zeros(8, np.float32)
    run_kernel(module(_unary_kernel("%w = arith.truncf %v : tensor<8xf32> to tensor<8xbf16>", "f32", "bf16")), [x, bf], (1,))
    np.testing.assert_array_equal(bf[:6], round_bf16(x[:6]))


def test_bitcast_bf16_to_i16_and_back() -> None:
    x = round_bf16(np.linspace(-3, 3, 8))
    bits = np.zeros(8, np.int16)
    run_kernel(module(_unary_kernel("%w = arith.bitcast %v : tensor<8xbf16> to tensor<8xi16>", "bf16", "i16")), [x, bits], (1,))
    np.testing.assert_array_equal(bits, (x.view(np.uint32) >> 16).astype(np.uint16).view(np.int16))
    back = np.zeros(8, np.float32)
    run_kernel(module(_unary_kernel("%w = arith.bitcast %v : tensor<8xi16> to tensor<8xbf16>", "i16", "bf16")), [bits, back], (1,))
    np.testing.assert_array_equal(back, x)


def test_scan_cumulative_sum_and_reverse() -> None:
    scan = """%w = "tt.scan"(%v) <{axis = 0 : i32, reverse = REV}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) : (tensor<8xi32>) -> tensor<8xi32>"""
    x = np.arange(1, 9, dtype=np.int32)
    for rev, expected in (("false", np.cumsum(x)), ("true", np.cumsum(x[::-1])[::-1])):
        y = np.zeros(8, np.int32)
        run_kernel(module(_unary_kernel(scan.replace("REV", rev), "i32", "i32")), [x, y], (1,))
        np.testing.assert_array_equal(y, expected)


def test_clampf_select_and_shared_memory_round_trip() -> None:
    body = """%lo = arith.constant dense<-0.5> : tensor<8xf32>
    %hi = arith.constant dense<0.5> : tensor<8xf32>
    %c = tt.clampf %v, %lo, %hi, propagateNan = all : tensor<8xf32>
    %m = ttg.local_alloc %c : (tensor<8xf32>) -> !ttg.memdesc<8xf32, #shared, #smem>
    %l = ttg.local_load %m : !ttg.memdesc<8xf32, #shared, #smem> -> tensor<8xf32>
    %z = arith.constant dense<0.0> : tensor<8xf32>
    %pos = arith.cmpf ogt, %l, %z : tensor<8xf32>
    %w = arith.select %pos, %l, %v : tensor<8xi1>, tensor<8xf32>"""
    text = _unary_kernel(body, "f32", "f32").replace(
        "module {",
        "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
        "#smem = #ttg.shared_memory\nmodule {",
    )
    x = np.array([-2, -0.25, 0, 0.25, 2, np.nan, -np.inf, np.inf], np.float32)
    y = np.zeros(8, np.float32)
    run_kernel(module(text), [x, y], (1,))
    clamped = np.where(np.isnan(x), x, np.clip(x, -0.5, 0.5))
    np.testing.assert_array_equal(y, np.where(clamped > 0, clamped, x))


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


def test_poison_reaching_a_store_is_caught() -> None:
    before = module(_unary_kernel("%w = arith.addf %v, %v : tensor<8xf32>", "f32", "f32"))
    after = module(_unary_kernel("%w = ub.poison : tensor<8xf32>", "f32", "f32"))
    args = [np.zeros(8, np.float32), np.zeros(8, np.float32)]  # 0 + 0 is what zeros for poison would hide
    r = validate(before, after, args, grid=(1,))
    assert r.mismatch is not None and r.mismatch.expected == 0.0 and np.isnan(r.mismatch.got)


# A kernel that returns early (`if pid >= n: return`): a body of blocks joined by cf branches.
EARLY_RETURN = """
module {
  tt.func public @early(%y: !tt.ptr<i32>, %n: i32) {
    %pid = tt.get_program_id x : i32
    %done = arith.cmpi sge, %pid, %n : i32
    cf.cond_br %done, ^bb1, ^bb2(%pid : i32)
  ^bb1:
    tt.return
  ^bb2(%i: i32):
    %p = tt.addptr %y, %i : !tt.ptr<i32>, i32
    %v = arith.addi %i, %i : i32
    cf.br ^bb3(%p, %v : !tt.ptr<i32>, i32)
  ^bb3(%q: !tt.ptr<i32>, %w: i32):
    tt.store %q, %w : !tt.ptr<i32>
    tt.return
  }
}
"""


def test_cf_branches_of_an_early_return() -> None:
    y = np.full(6, -1, np.int32)
    run_kernel(module(EARLY_RETURN), [y, 4], (6,))
    np.testing.assert_array_equal(y, [0, 2, 4, 6, -1, -1])  # programs 4 and 5 returned early
