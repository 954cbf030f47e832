"""axis_dispatch: the functions AxisInfoAnalysis visits are module.walk()'s, in its order; each op class
gets the transfer function its isinstance/name test names."""

from __future__ import annotations

from xdsl.dialects import arith, scf

from xpu_passes.analysis.axis_dispatch import FOR, IF, WHILE, code, funcs
from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module

TWO = """
module {
  tt.func @first(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %s = tt.splat %n : i32 -> tensor<16xi32>
    %lt = arith.cmpi slt, %r, %s : tensor<16xi32>
    %x = arith.extsi %r : tensor<16xi32> to tensor<16xi64>
    %f = arith.sitofp %r : tensor<16xi32> to tensor<16xf32>
    scf.for %i = %c0 to %n step %c1  : i32 {
      %m = arith.muli %i, %n : i32
    }
    tt.return
  }
  tt.func @second(%p: !tt.ptr<f16>) {
    tt.return
  }
}
"""


def test_funcs_are_the_walks_in_its_order() -> None:
    module = parse_module(make_context(), TWO).module
    walked = [o for o in module.walk() if isinstance(o, tt.FuncOp)]
    assert funcs(module) == walked and [f.sym_name.data for f in walked] == ["first", "second"]


def test_codes_follow_the_op_classes() -> None:
    module = parse_module(make_context(), TWO).module
    got = {o.name: code(o) for o in module.walk()}
    assert got["scf.for"] == FOR and got["arith.constant"] == 10 and got["tt.make_range"] == 11
    assert got["tt.splat"] == 12 and got["arith.extsi"] == 15 and got["arith.muli"] == 19
    assert got["arith.cmpi"] == 22
    assert got["arith.sitofp"] == 0 and got["tt.func"] == 0 and got["tt.return"] == 0  # results unknown
    assert len({FOR, IF, WHILE, 0}) == 4 and max(FOR, IF, WHILE) < 10  # (below the transfer functions)
    assert isinstance(next(o for o in module.walk() if code(o) == FOR), scf.ForOp)
    assert all(isinstance(o, arith.ConstantOp) for o in module.walk() if code(o) == 10)
