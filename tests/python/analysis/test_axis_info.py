"""Axis info on hand-written IR and on real kernels."""

from __future__ import annotations

import pytest
from xdsl.dialects import scf
from xdsl.ir import BlockArgument

from xpu_passes.integration import oracle
from xpu_passes.analysis.axis_arith import MAX_DIV, AxisInfo
from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module

TUTORIAL = """
module {
  tt.func @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %sam: i32 {tt.divisibility = 16 : i32},
             %M: i32 {tt.divisibility = 16 : i32}, %odd: i32, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bk = arith.constant dense<32> : tensor<64x32xi32>
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %sM = tt.splat %M : i32 -> tensor<64xi32>
    %wrap = arith.remsi %rm, %sM : tensor<64xi32>
    %sOdd = tt.splat %odd : i32 -> tensor<64xi32>
    %wrap_odd = arith.remsi %rm, %sOdd : tensor<64xi32>
    %em = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %ew = tt.expand_dims %wrap {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %ss = tt.splat %sam : i32 -> tensor<64x1xi32>
    %om = arith.muli %em, %ss : tensor<64x1xi32>
    %ek = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %bm = tt.broadcast %om : tensor<64x1xi32> -> tensor<64x32xi32>
    %bkk = tt.broadcast %ek : tensor<1x32xi32> -> tensor<64x32xi32>
    %off = arith.addi %bm, %bkk : tensor<64x32xi32>
    %base = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %ptrs = tt.addptr %base, %off : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %loop = scf.for %i = %c0 to %n step %c1 iter_args(%p = %ptrs) -> (tensor<64x32x!tt.ptr<f16>>)  : i32 {
      %q = tt.addptr %p, %bk : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
      scf.yield %q : tensor<64x32x!tt.ptr<f16>>
    }
    %oddt = tt.splat %odd : i32 -> tensor<64x32xi32>
    %w:3 = scf.while (%wp = %ptrs, %wq = %ptrs, %wi = %c0) : (tensor<64x32x!tt.ptr<f16>>, tensor<64x32x!tt.ptr<f16>>, i32) -> (tensor<64x32x!tt.ptr<f16>>, tensor<64x32x!tt.ptr<f16>>, i32) {
      %more = arith.cmpi slt, %wi, %n : i32
      scf.condition(%more) %wp, %wq, %wi : tensor<64x32x!tt.ptr<f16>>, tensor<64x32x!tt.ptr<f16>>, i32
    } do {
    ^bb0(%bp: tensor<64x32x!tt.ptr<f16>>, %bq: tensor<64x32x!tt.ptr<f16>>, %bi: i32):
      %np = tt.addptr %bp, %bk : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
      %nq = tt.addptr %bq, %oddt : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
      %ni = arith.addi %bi, %c1 : i32
      scf.yield %np, %nq, %ni : tensor<64x32x!tt.ptr<f16>>, tensor<64x32x!tt.ptr<f16>>, i32
    }
    %sel = scf.if %c -> (tensor<64x32xi32>) {
      scf.yield %off : tensor<64x32xi32>
    } else {
      scf.yield %bkk : tensor<64x32xi32>
    }
    tt.return
  }
}
"""


@pytest.fixture(scope="module")
def analysed() -> tuple[AxisInfoAnalysis, dict]:
    parsed = parse_module(make_context(), TUTORIAL)
    fn = next(o for o in parsed.module.walk() if isinstance(o, tt.FuncOp))
    values = {}
    for op in fn.walk():
        for r in op.results:
            if r.name_hint:
                values[r.name_hint] = r
    values["args"] = fn.body.blocks.first.args
    return AxisInfoAnalysis(parsed.module), values


def test_make_range_and_constants(analysed) -> None:
    ai, v = analysed
    assert ai[v["rm"]] == AxisInfo((64,), (MAX_DIV,), (1,), (1,))
    assert ai[v["bk"]].value == 32 and ai[v["bk"]].constancy == (64, 32) and ai[v["bk"]].divisibility == (32, 32)


def test_wrap_around_keeps_contiguity_only_up_to_the_divisor(analysed) -> None:
    ai, v = analysed
    assert ai[v["wrap"]].contiguity == (16,)  # % M with M divisible by 16
    assert ai[v["wrap_odd"]].contiguity == (1,)  # % a value of unknown divisibility
    assert ai[v["wrap"]].stride == (None,) and ai[v["ew"]].stride == (None, 0)


def test_tutorial_pointer_tile_is_strided_2d(analysed) -> None:
    ai, v = analysed
    sam = v["args"][1]
    p = ai[v["ptrs"]]
    assert p.contiguity == (1, 32)  # contiguous along K
    assert p.stride[1] == 1 and p.stride[0] is sam  # the pitch is the runtime stride_am
    assert p.divisibility == (16, 16)  # 16-byte aligned base; offsets start at 0


def test_loop_carried_pointer_reaches_a_fixpoint(analysed) -> None:
    ai, v = analysed
    loop = next(op for op in v["loop"].owner.parent_block().ops if isinstance(op, scf.ForOp))
    carried = ai[loop.body.block.args[1]]
    assert carried.contiguity == (1, 32) and carried.stride[1] == 1
    assert carried.divisibility[1] == 16  # advancing by 32 f16 elements keeps 16 bytes
    assert isinstance(loop.body.block.args[1], BlockArgument)


def test_if_results_join_both_branches(analysed) -> None:
    ai, v = analysed
    sel = ai[v["sel"]]
    assert sel.contiguity == (1, 32) and sel.constancy == (1, 1)


def test_while_carried_pointers_join_inits_and_yields(analysed) -> None:
    ai, v = analysed
    loop = next(op for op in v["loop"].owner.parent_block().ops if isinstance(op, scf.WhileOp))
    even, odd = ai[loop.results[0]], ai[loop.results[1]]
    assert even.contiguity == (1, 32) and even.stride[1] == 1
    assert even.divisibility[1] == 16  # advancing by 32 f16 keeps the 16-byte alignment
    assert odd.contiguity == (1, 32)  # adding a splat keeps rows contiguous...
    assert odd.divisibility[1] < 16  # ...but an odd advance loses the alignment after the first trip
    assert ai[loop.after_region.block.args[1]].divisibility[1] < 16


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
def test_real_tensor_of_pointer_gemm_loads() -> None:
    """In the tutorial-style GEMM, A's addresses are a 256x32 tile, contiguous along K."""
    from pathlib import Path

    from xpu_passes.corpus import entries

    e = next(x for x in entries() if x["kernel"] == "gemm_tensor_ptr" and x["config"].startswith("256x256"))
    parsed = parse_module(make_context(), (Path(e["dir"]) / "final.ttir").read_text())
    ai = AxisInfoAnalysis(parsed.module)
    loads = [op for op in parsed.module.walk() if isinstance(op, tt.LoadOp)]
    a = ai[loads[0].ptr]
    assert a.contiguity[1] == 32 and a.stride[1] == 1 and a.divisibility[1] >= 16
    b = ai[loads[1].ptr]
    assert b.contiguity[1] == 1  # `% N` wraps, and N's divisibility is unknown: no proof


def test_splat_shortcut_answers_as_splat_int() -> None:
    """The byte-wise splat check gives splat_int's answer on splats, non-splats, i1 and negatives."""
    from xdsl.dialects import arith

    from xpu_passes.analysis.axis_info import _splat_int
    from xpu_passes.analysis.values import splat_int

    text = """
module {
  tt.func @k() {
    %a = arith.constant dense<32> : tensor<64x32xi32>
    %b = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    %c = arith.constant dense<true> : tensor<8xi1>
    %d = arith.constant dense<-3> : tensor<2x2xi64>
    %e = arith.constant dense<[7, 7, 7, 8]> : tensor<4xi8>
    %f = arith.constant 5 : i32
    %g = arith.constant dense<1.0> : tensor<4xf32>
    tt.return
  }
}
"""
    parsed = parse_module(make_context(), text)
    consts = [op for op in parsed.module.walk() if isinstance(op, arith.ConstantOp)]
    got = [_splat_int(c) for c in consts]
    assert got == [splat_int(c) for c in consts]
    assert got == [32, None, -1, -3, None, 5, None]


def test_of_computes_copies_made_after_the_analysis() -> None:
    """A copy of the pointer computation (RLC recomputes it in another layout) gets the
    original's facts on demand; an unknown block argument stays unknown."""
    parsed = parse_module(make_context(), TUTORIAL)
    ai = AxisInfoAnalysis(parsed.module)
    ops = {r.name_hint: r.owner for op in parsed.module.walk() for r in op.results if r.name_hint}
    ptrs = ops["ptrs"]
    chain = [ops[n] for n in ("rm", "em", "ss", "om", "rk", "ek", "bm", "bkk", "off", "base")]
    copies = {}
    for op in [*chain, ptrs]:
        c = op.clone(value_mapper={o: copies.get(o, o) for o in op.operands})
        ptrs.parent.insert_op_before(c, ptrs)
        copies[op.results[0]] = c.results[0]
    copy = copies[ptrs.results[0]]
    assert copy not in ai.info
    assert ai.of(copy) == ai[ptrs.results[0]]
    assert ai.of(copy).contiguity == (1, 32) and ai.of(copy).divisibility[1] == 16  # (bytes: the f16 base)
