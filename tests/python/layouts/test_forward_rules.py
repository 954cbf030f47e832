"""Slice collection's shortcuts answer as the full computation (forward walks, slice estimates).

The shortcuts: an elementwise user's rule (`forward_rules.keep_layout`) is not called, its
answer is the operand's layout; a reduction's result layout is one object per (axis, layout
object) (`forward_rules.sliced`). On a corpus dump with reductions and reshapes (sparsemax's
bitonic network), every conversion's forward slice is compared with the one walked with
both shortcuts off; the memo must not answer for another layout object. A slice's scans and
reductions (`slice_cost.scratch_ops`, read by `estimate` and `candidates.least`) are found by
class first: estimates are compared with those made testing every op.
"""

from __future__ import annotations

import pytest

from xdsl.ir import Operation, OpResult, SSAValue

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context, ttg
from xpu_passes.frontend import parse_module
from xpu_passes.dialects import tt
from xpu_passes.layouts import forward_rules
from xpu_passes.transforms.remove_layout_conversions import candidates
from xpu_passes.transforms.remove_layout_conversions import remat, remat_forward
from xpu_passes.transforms.remove_layout_conversions import slice_cost
from xpu_passes.layouts.propagation import slice_layout

from support import RLC_STEP, step_dump


def corpus(test):  # type: ignore[no-untyped-def]
    """A test on corpus dumps: they are made with triton-xpu."""
    return pytest.mark.triton(pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")(test))


def _walks(text: str) -> list[tuple[bool, list[int], dict[str, object], str]]:
    """Each conversion's forward walk: succeeded, its ops, its values' layouts, why it failed."""
    module = parse_module(make_context(), text).module
    names = {id(op): i for i, op in enumerate(module.walk())}

    def name(v: SSAValue) -> str:
        if isinstance(v, OpResult):
            return f"{names[id(v.op)]}:{v.index}"
        return f"{names[id(v.block.parent_op())]}^{v.index}"  # type: ignore[attr-defined]

    out = []
    for cvt in [op for op in module.walk() if isinstance(op, ttg.ConvertLayoutOp)]:
        s = remat.Slice()
        ok = remat_forward.forward(cvt, s, admitted=True)
        out.append((ok, [names[id(op)] for op in s.ops], {name(v): l for v, l in s.layout.items()}, s.why))
    return out


@corpus
def test_forward_slices_match_the_walk_without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    text = step_dump("sparsemax_fwd", "256-w4-s1", RLC_STEP, 0, specs="all").read_text()
    assert "tt.reduce" in text and "tt.reshape" in text, "the dump no longer has the constructs"
    fast = _walks(text)
    assert sum(ok for ok, *_ in fast) > 10, "too few forward slices to compare"
    monkeypatch.setattr(remat_forward, "keep_layout", object())  # every rule is called
    monkeypatch.setattr(forward_rules, "sliced", slice_layout)  # a fresh slice each time
    assert _walks(text) == fast


def test_sliced_answers_for_its_layout_object_only() -> None:
    text = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x32xf32, #a>, %y: tensor<16x32xf32, #b>) {
    tt.return
  }
}
"""
    module = parse_module(make_context(), text).module
    func = next(op for op in module.walk() if op.name == "tt.func")
    a, b = (arg.type.encoding for arg in func.body.block.args)
    first = forward_rules.sliced(1, a)
    assert first == slice_layout(1, a) and forward_rules.sliced(1, a) is first  # remembered
    assert forward_rules.sliced(0, a) == slice_layout(0, a) != first  # another axis: not that entry
    # An entry under b's id that pins another layout object (an id reused) must not answer for b.
    forward_rules._SLICED[(1, id(b))] = (a, first)
    try:
        assert forward_rules.sliced(1, b) == slice_layout(1, b) != first
    finally:
        forward_rules.forget()


def test_check_mode_finds_a_wrong_remembered_slice() -> None:
    text = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x32xf32, #a>) {
    tt.return
  }
}
"""
    module = parse_module(make_context(), text).module
    a = next(op for op in module.walk() if op.name == "tt.func").body.block.args[0].type.encoding
    forward_rules.sliced(1, a)
    forward_rules.forget(check=True)  # a right entry passes
    forward_rules._SLICED[(1, id(a))] = (a, slice_layout(0, a))
    with pytest.raises(AssertionError, match="wrong slice layout"):
        forward_rules.forget(check=True)
    assert not forward_rules._SLICED


def _estimates(text: str) -> tuple[list[tuple[object, ...]], list[remat.Slice]]:
    """Each conversion's backward and forward slice: (estimate, `candidates.least`) of each walked;
    the forward slices."""
    module = parse_module(make_context(), text).module
    out: list[tuple[object, ...]] = []
    forwards = []
    for cvt in [op for op in module.walk() if isinstance(op, ttg.ConvertLayoutOp)]:
        back, fwd = remat.Slice(), remat.Slice()
        if remat.backward(cvt.src, cvt.result.type.encoding, back, cvt):
            out.append(("backward", slice_cost.estimate(back, cvt)))
        if remat_forward.forward(cvt, fwd, admitted=True):
            out.append(("forward", slice_cost.estimate(fwd, cvt), candidates.least(fwd, cvt)))
            forwards.append(fwd)
    return out, forwards


def _every(ops: list[Operation]) -> list[Operation]:
    return [op for op in ops if isinstance(op, tt.ScanOp | tt.ReduceOp)]


@corpus
def test_estimates_match_testing_every_op(monkeypatch: pytest.MonkeyPatch) -> None:
    text = step_dump("sparsemax_fwd", "256-w4-s1", RLC_STEP, 0, specs="all").read_text()
    fast, forwards = _estimates(text)
    every = [_every(s.ops) for s in forwards]
    assert any(every), "no forward slice holds a reduction: the dump no longer has the construct"
    assert [slice_cost.scratch_ops(s.ops) for s in forwards] == every
    monkeypatch.setattr(slice_cost, "scratch_ops", _every)
    assert _estimates(text)[0] == fast


def test_scratch_ops_finds_none_among_other_ops() -> None:
    module = parse_module(make_context(), """
module {
  tt.func @f(%x: tensor<16xf32>) {
    %y = arith.addf %x, %x : tensor<16xf32>
    %z = "tt.reduce"(%y) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %m = arith.maxnumf %p, %q : f32
      tt.reduce.return %m : f32
    }) : (tensor<16xf32>) -> f32
    tt.return
  }
}
""").module
    ops = list(module.walk())
    assert slice_cost.scratch_ops([op for op in ops if not isinstance(op, tt.ReduceOp)]) == []
    assert [op.name for op in slice_cost.scratch_ops(ops)] == ["tt.reduce"]
