"""The NumPy interpreter (interp/core.py) on hand-written TTIR: the ops with regions (reduce,
scan, scf, calls), a body of cf branches, and what it refuses (unknown ops, wrong arguments).

Every expected value is computed independently with NumPy from the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from xpu_passes.interp import InterpError, run_kernel
from xpu_passes.interp.core import located

from interp.kernels import MASKED, module, parse, unary_kernel


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


def test_scan_cumulative_sum_and_reverse() -> None:
    scan = """%w = "tt.scan"(%v) <{axis = 0 : i32, reverse = REV}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.scan.return %t : i32
    }) : (tensor<8xi32>) -> tensor<8xi32>"""
    x = np.arange(1, 9, dtype=np.int32)
    for rev, expected in (("false", np.cumsum(x)), ("true", np.cumsum(x[::-1])[::-1])):
        y = np.zeros(8, np.int32)
        run_kernel(module(unary_kernel(scan.replace("REV", rev), "i32", "i32")), [x, y], (1,))
        np.testing.assert_array_equal(y, expected)


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
