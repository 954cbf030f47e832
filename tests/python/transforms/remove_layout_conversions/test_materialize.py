"""RemoveLayoutConversions retypes in place the slice ops a rewrite would otherwise clone and erase.

An op whose every result use the rewrite moves (most of a forward slice) keeps its place and
gets new result values (transforms/remove_layout_conversions/materialize.py); a trial not kept is undone exactly
(ir/journal.py), and a kept one leaves what cloning did: the same text, the same use
lists in the same order. An op whose result is still used outside the slice is cloned.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Operation

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context, tt, ttg
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.ir import journal, journal_check
from xpu_passes.transforms.remove_layout_conversions import materialize
from xpu_passes.transforms.remove_layout_conversions import remat, remat_forward
from xpu_passes.transforms.remove_layout_conversions import validity
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.layouts.propagation import encoding
from xpu_passes.transforms.remove_layout_conversions.solution import Ledger, figures, layout_errors

from support import RLC_STEP, rlc_output

# %c's users take #a forward: %d, %k, %g0, %g and the first store die (retyped in place), so does the
# load %v (recomputed backward); %e and %pp (with %ps, %r) are recomputed backward in #a but keep
# users outside the slice. %q is read as it is by %g, and also by %t.
TEXT = """
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [2], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @f(%p: !tt.ptr<f32>, %q: i1, %x: tensor<64xf32, #a>, %y: tensor<64xf32, #b>) {
    %c = ttg.convert_layout %x : tensor<64xf32, #a> -> tensor<64xf32, #b>
    %e = arith.mulf %y, %y : tensor<64xf32, #b>
    %d = arith.addf %c, %e : tensor<64xf32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<f32>, #b>, tensor<64xi32, #b>
    %v = tt.load %pp : tensor<64x!tt.ptr<f32>, #b>
    %k = arith.constant dense<2.000000e+00> : tensor<64xf32, #b>
    %g0 = arith.mulf %d, %k : tensor<64xf32, #b>
    %g = arith.select %q, %g0, %v : tensor<64xf32, #b>
    tt.store %pp, %g : tensor<64x!tt.ptr<f32>, #b>
    %h = arith.subf %e, %y : tensor<64xf32, #b>
    %t = arith.select %q, %h, %h : tensor<64xf32, #b>
    tt.store %pp, %t : tensor<64x!tt.ptr<f32>, #b>
    tt.return
  }
}
"""



def _module() -> Operation:
    return parse_module(make_context(), TEXT).module


def _text(module: Operation) -> str:
    return print_module(module, Spelling.choose("triton-3.3"))


def _links(module: Operation) -> list:
    """Each op's class and result types, and the use lists of its results and arguments in
    order, by position in the walk (what a later slice walks)."""
    ops = walk_list(module)
    at = {id(o): i for i, o in enumerate(ops)}
    out = []
    for op in ops:
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        uses = [[(at[id(u.operation)], u.index) for u in v.uses] for v in values]
        out.append((op.name, [v.type for v in values], uses))
    return out


def _identity(module: Operation) -> list:
    """What the pass keys by identity: ops, their operand and result objects, use lists."""
    out = []
    for op in walk_list(module):
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        out.append((id(op), [id(v) for v in op.operands], [id(v) for v in values],
                    [[(id(u.operation), u.index) for u in v.uses] for v in values], dict(op.properties)))
    return out


def _forward(module: Operation) -> tuple[ttg.ConvertLayoutOp, remat.Slice]:
    cvt = next(o for o in walk_list(module) if isinstance(o, ttg.ConvertLayoutOp))
    s = remat.Slice()
    assert remat_forward.forward(cvt, s, admitted=True), s.why
    return cvt, s  # type: ignore[return-value]


def _named(module: Operation) -> dict[str, Operation]:
    """The function's ops by the name of their first result (stores by position)."""
    out, stores = {}, 0
    for op in walk_list(module):
        if op.results and op.results[0].name_hint:
            out[op.results[0].name_hint] = op
        elif isinstance(op, tt.StoreOp):
            stores += 1
            out[f"store{stores}"] = op
    return out


def test_a_forward_trial_undone_leaves_the_module_as_it_was() -> None:
    module = _module()
    before, ids, start = _text(module), _identity(module), figures(module)
    assert not layout_errors(module)
    named = _named(module)
    j, ledger = Journal(module), Ledger(module)
    cvt, s = _forward(module)
    j.begin()
    materialize.rewrite(j, cvt, s, "forward", set(), set())
    # Retyped where they are: the same op objects, now in #a (the constant's value too).
    layout = encoding(cvt.src.type)
    for name in ("d", "k", "g0", "g", "v"):
        op = named[name]
        assert op.parent is not None and encoding(op.results[0].type) == layout, name
    k = named["k"]
    value = k.properties["value"]
    assert isinstance(value, DenseIntOrFPElementsAttr) and value.type == k.results[0].type
    assert named["store1"].parent is not None and named["store1"].operands[1] is named["g"].results[0]
    fig = ledger.update(j.touched)
    assert fig == figures(module)  # (the target goes, %y gets a conversion)
    assert not validity.has_errors(module, j.touched, True, j.reshaped)
    ledger.rollback()
    j.rollback()
    assert _text(module) == before
    assert _identity(module) == ids, "the rollback did not restore values, use lists or properties"
    assert ledger.figures() == figures(module) == start
    assert not layout_errors(module)
    j.order.check()
    assert journal_check.linked(module)


def _rewritten(in_place: bool, monkeypatch: pytest.MonkeyPatch) -> Operation:
    module = _module()
    j = Journal(module)
    cvt, s = _forward(module)
    load = _named(module)["v"]
    new_loads: set[Operation] = set()
    j.begin()
    materialize.rewrite(j, cvt, s, "forward", {load}, new_loads, in_place=in_place)
    j.commit()
    j.check()
    # The load's clone, or the load itself, is what the pass then knows may move again.
    (moved,) = new_loads
    assert moved.parent is not None and (moved is load) == in_place
    assert encoding(moved.results[0].type) == encoding(cvt.src.type)
    return module


def test_a_kept_forward_trial_is_what_cloning_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    cloned = _rewritten(False, monkeypatch)
    in_place = _rewritten(True, monkeypatch)
    assert _text(in_place) == _text(cloned)
    assert _links(in_place) == _links(cloned)  # use lists in the same order: later slices walk them
    assert _text(in_place) != TEXT


def test_an_op_used_outside_the_slice_is_cloned(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _module()
    named = _named(module)
    j = Journal(module)
    cvt, s = _forward(module)
    old_b = encoding(named["e"].results[0].type)
    assert named["e"] in s.members and named["pp"] in s.members
    j.begin()
    new, retyped, _ = materialize.materialize(s, sorted(s.ops, key=j.order.__getitem__))
    assert {named[n] for n in ("d", "k", "g0", "g", "v", "store1")} <= retyped
    assert not retyped & {named[n] for n in ("e", "pp", "ps", "r")}
    # The originals keep their type and their users outside the slice; copies in #a serve the slice.
    for name, user in (("e", "h"), ("pp", "store2")):
        op = named[name]
        assert encoding(op.results[0].type) == old_b
        assert any(u.operation is named[user] for u in op.results[0].uses)
        copy = new[id(op.results[0])]
        assert copy.owner is not op and encoding(copy.type) == encoding(cvt.src.type)  # type: ignore[union-attr]
    j.rollback()
    assert _text(module) == _text(_module())


def test_a_missed_use_abandons_the_rewrite(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were an op retyped in place while something outside the slice still read its old result,
    the rewrite raises (the pass then undoes it and says so) instead of leaving broken IR."""
    module = _module()
    named = _named(module)
    j = Journal(module)
    cvt, s = _forward(module)
    real = materialize._dying  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(materialize, "_dying", lambda s, ops, slots, target: real(s, ops, slots, target) | {named["e"]})
    before = _text(module)
    j.begin()
    with pytest.raises(RuntimeError, match="retyped in place"):
        materialize.rewrite(j, cvt, s, "forward", set(), set())
    j.rollback()
    assert _text(module) == before


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
def test_the_pass_prints_what_cloning_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    # A kernel whose forward slices cover most of the network (issue 14's slowest RLC).
    from xpu_passes.corpus import entries

    entry = next(e for e in entries(specs="workloads") if e["kernel"] == "sparsemax_fwd" and e["config"] == "256-w4-s1")
    text = (Path(entry["dir"]) / next(s["file"] for s in entry["steps"] if s["step"] == RLC_STEP)).read_text()
    cloned = rlc_output(text, in_place=False)
    assert rlc_output(text, in_place=True) == cloned


def test_check_mode_sees_a_retype_not_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check mode compares the module after each rollback with the one at begin(): a retype whose
    record is lost (results, a constant's value) is found; so is a use list out of step."""
    module = _module()
    k = _named(module)["k"]
    j = Journal(module, check=True)
    j.begin()
    journal.retype_op(k, [k.results[0].type], dict(k.properties))  # new values, the same types
    j._undo.pop()  # pyright: ignore[reportPrivateUsage]  # the record lost
    with pytest.raises(AssertionError, match="did not restore"):
        j.rollback()
    module = _module()
    j = Journal(module)
    j.check()
    g = _named(module)["g"]
    g.operands[0].first_use = None  # a use list that no longer names its operand
    with pytest.raises(AssertionError, match="use lists"):
        j.check()
