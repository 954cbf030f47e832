"""RemoveLayoutConversions rewrites in place and judges incrementally: the same answers as
judging a copy of the whole module.

A trial rewrites the module in place (ir/journal.py undoes it when it is not kept);
its validity is checked only on the ops it touched (and their ancestors), and the
module's figures are updated from the contributions of those ops (solution.Ledger). On
a few corpus dumps every step is also judged in full (the pass option check-incremental) and
every rejected trial must leave the module exactly as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context, ttg
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.transforms.remove_layout_conversions import candidates
from xpu_passes.ir import journal
from xpu_passes.transforms.remove_layout_conversions import materialize
from xpu_passes.transforms.remove_layout_conversions import solution
from xpu_passes.transforms.remove_layout_conversions import validity
from xpu_passes.ir.journal import Journal
from xpu_passes.layouts.propagation import encoding, with_encoding
from xpu_passes.transforms import remove_layout_conversions as rlc

from support import rlc_dump as _dump

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

# Small dumps with several accepted candidates each (loops, reductions, a dot).
DUMPS = [("flash_attention_fwd", "64x32x64-w4-s2", 0), ("layer_norm_fwd", "256-w4-s1", 0), ("gemm_add_block_ptr", "8x128x64-w4-s3", 1)]


def _fingerprint(module: Operation) -> tuple:
    """The module's text and all the identity a trial could disturb: which value objects are
    each op's operands and results, and every use list in its order."""
    ids = []
    for op in module.walk():
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        ids.append((id(op), [id(v) for v in op.operands], [id(v) for v in values],
                    [[(id(u.operation), u.index) for u in v.uses] for v in values], [v.name_hint for v in values]))
    return print_module(module, Spelling.choose("triton-3.3")), ids


@pytest.mark.parametrize(("kernel", "config", "position"), DUMPS, ids=[d[0] for d in DUMPS])
def test_incremental_judgement_equals_full(kernel: str, config: str | None, position: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Figures, validity, order keys and the live conversions are also computed in full at every
    # step (a disagreement raises), and a rejected trial must leave the module as it was.
    kept, undone = [], []
    before: list[tuple] = []
    real_begin, real_commit, real_rollback = Journal.begin, Journal.commit, Journal.rollback

    def begin(self: Journal) -> Journal:
        before.append(_fingerprint(self.module))
        return real_begin(self)

    def commit(self: Journal) -> None:
        self.check()
        if self.touched:
            kept.append(len(self.touched))
        real_commit(self)

    def rollback(self: Journal) -> None:
        real_rollback(self)
        assert _fingerprint(self.module) == before[-1], "a rejected trial changed the module"
        undone.append(1)

    monkeypatch.setattr(Journal, "begin", begin)
    monkeypatch.setattr(Journal, "commit", commit)
    monkeypatch.setattr(Journal, "rollback", rollback)
    ctx = make_context()
    module = parse_module(ctx, _dump(kernel, config, position).read_text()).module
    rlc.RemoveLayoutConversions(check_incremental=True).apply(ctx, module)
    assert kept, "no change was kept: the dump no longer exercises the incremental judgement"
    assert not validity.layout_errors(module)


@pytest.mark.parametrize(("kernel", "config", "position"), DUMPS, ids=[d[0] for d in DUMPS])
def test_every_trial_rolls_back_exactly(kernel: str, config: str | None, position: int) -> None:
    """Each conversion's rewrites, done in place then undone: the module is as before, to the
    identity of its values and the order of their use lists (the next slice reads them)."""
    ctx = make_context()
    module = parse_module(ctx, _dump(kernel, config, position).read_text()).module
    j = Journal(module)
    loads = rlc.block_loads(module)
    tried = 0
    for cvt in sorted(j.converts, key=j.order.__getitem__):
        found = candidates.options(cvt, loads)
        if isinstance(found, str):
            continue
        for how in found.good():
            before = _fingerprint(module)
            j.begin()
            materialize.rewrite(j, cvt, found.slices[how], how, loads, set())
            assert j.touched and _fingerprint(module) != before
            j.rollback()
            assert _fingerprint(module) == before, f"{how} rewrite of {cvt} not undone exactly"
            j.order.check()
            tried += 1
            break  # the other option's slice was computed on the module as it is now: still valid
    assert tried


def _retype_one(module: ModuleOp) -> None:
    """An elementwise op whose result alone moves to another layout of the module."""
    op = next(o for o in module.walk() if isinstance(o, arith.AddfOp | arith.MulfOp) and isinstance(o.result.type, TensorType))
    rank = len(op.result.type.get_shape())
    layouts = {encoding(v.type) for o in module.walk() for v in o.results
               if isinstance(v.type, TensorType) and len(v.type.get_shape()) == rank}
    other = next(iter(layouts - {encoding(op.result.type), None}))
    journal.replace_value_with_new_type(op.result, with_encoding(op.result.type, other))


def test_untouched_module_has_no_errors_and_a_retyped_result_is_found() -> None:
    ctx = make_context()
    module = parse_module(ctx, _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    assert not validity.layout_errors(module)
    j = Journal(module)
    assert not validity.has_errors(module, j.begin().touched, True, j.reshaped)
    j.commit()
    # Nothing else changed, and the check must still see it.
    j.begin()
    _retype_one(module)
    assert validity.layout_errors(module)
    assert validity.has_errors(module, j.touched, True, j.reshaped)
    j.rollback()
    assert not validity.layout_errors(module)


def test_erased_terminator_is_found() -> None:
    """A region that lost its terminator: only its parent tells (the ops left are unchanged)."""
    ctx = make_context()
    module = parse_module(ctx, _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    j = Journal(module)
    loop = next(o for o in module.walk() if isinstance(o, scf.ForOp))
    j.begin()
    journal.erase_op(loop.body.block.last_op)  # type: ignore[arg-type]
    assert validity.layout_errors(module)
    assert validity.has_errors(module, j.touched, True, j.reshaped)
    j.rollback()
    assert not validity.layout_errors(module)


def test_ledger_follows_inserted_and_erased_conversions() -> None:
    """Figures by delta: a conversion added inside a loop, then its source's users moved to it."""
    ctx = make_context()
    module = parse_module(ctx, _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    j, ledger = Journal(module), solution.Ledger(module)
    start = ledger.figures()
    assert start == solution.figures(module)
    loop = next(o for o in module.walk() if isinstance(o, scf.ForOp))
    v = next(o.results[0] for o in loop.body.block.ops
             if o.results and isinstance(o.results[0].type, TensorType) and o.results[0].uses)
    other = next(encoding(c.result.type) for c in j.converts if encoding(c.result.type) != encoding(v.type))
    j.begin()
    c = journal.created(ttg.ConvertLayoutOp.build(operands=[v], result_types=[with_encoding(v.type, other)]))
    journal.insert_op(c, InsertPoint.after(v.owner))  # type: ignore[arg-type]
    fig = ledger.update(j.touched)
    assert fig == solution.figures(module) and fig.converts == start.converts + 1 and fig.cost > start.cost
    journal.erase_op(c)
    assert ledger.update(j.touched) == start
    ledger.rollback()
    j.rollback()
    assert ledger.figures() == start == solution.figures(module)


def _convert_in_loop(module: ModuleOp, j: Journal) -> None:
    """A conversion added inside the loop (costlier), in `j`'s open session."""
    loop = next(o for o in module.walk() if isinstance(o, scf.ForOp))
    v = next(o.results[0] for o in loop.body.block.ops
             if o.results and isinstance(o.results[0].type, TensorType) and o.results[0].uses)
    other = next(encoding(c.result.type) for c in j.converts if encoding(c.result.type) != encoding(v.type))
    c = journal.created(ttg.ConvertLayoutOp.build(operands=[v], result_types=[with_encoding(v.type, other)]))
    journal.insert_op(c, InsertPoint.after(v.owner))  # type: ignore[arg-type]


@pytest.mark.parametrize("check", [False, True])
def test_a_trial_losing_before_its_spill_is_not_costed_further(check: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """update_unless_losing: None only where no spill (>= 0) could make the figures win, and the
    ledger updated all the same; check mode always costs."""
    # (position 1: after AccelerateMatmul, where the spill is costed)
    module = parse_module(make_context(), _dump("flash_attention_fwd", "64x32x64-w4-s2", 1).read_text()).module
    monkeypatch.setattr(solution, "spill_cost", lambda accesses, module: 5)  # (a spill that decides below)
    j, ledger = Journal(module), solution.Ledger(module, check=check)
    assert not ledger.placeholder
    start = ledger.figures()
    j.begin()
    _convert_in_loop(module, j)
    got = ledger.update_unless_losing(j.touched, start)
    full = ledger.figures()
    assert full == solution.figures(module) and full.cost > start.cost  # (updated, None or not)
    assert got == (full if check else None)
    before = full.cost - 5  # the cost before the spill
    F = solution.Figures
    for than, loses in [(F(before - 1, full.slm, full.converts), True),  # above it before the spill
                        (F(before, full.slm, full.converts), False),  # equal before the spill: costed
                        (F(before, full.slm, full.converts + 1), False),
                        (F(full.cost + 1, full.slm - 1, full.converts), True)]:  # more SLM
        ledger.rollback()
        assert ledger.figures() == start
        assert ledger.update_unless_losing(j.touched, than) == (None if loses and not check else full)
    ledger.rollback()
    j.rollback()
    assert ledger.figures() == start == solution.figures(module)


@pytest.mark.parametrize(("kernel", "config", "solutions"), [
    ("gemm_block_ptr", "8x128x64-w4-s3", 1),  # anchored: nothing left to beat
    ("flash_attention_fwd", "64x32x64-w4-s2", 2),  # anchored, conversions left: the other is weighed
])
def test_second_solution_only_when_the_first_leaves_a_cost(kernel: str, config: str, solutions: int,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Without anchoring, a solution can only win by being strictly cheaper: not possible when the
    anchored one has no cost and no conversion left, so it is not computed then."""
    found: list[tuple[bool, int, solution.Figures]] = []
    real = rlc.RemoveLayoutConversions._solve

    def solve(self: rlc.RemoveLayoutConversions, *args: object) -> rlc.Work:
        w = real(self, *args)  # type: ignore[arg-type]
        found.append((bool(args[2]), w.anchored, w.figures))
        return w

    monkeypatch.setattr(rlc.RemoveLayoutConversions, "_solve", solve)
    ctx = make_context()
    module = parse_module(ctx, _dump(kernel, config, 0).read_text()).module
    rlc.RemoveLayoutConversions().apply(ctx, module)
    assert len(found) == solutions and found[0][0] and found[0][1] > 0
    assert ((found[0][2].cost, found[0][2].converts) == (0, 0)) == (solutions == 1)


def test_a_failing_pass_leaves_no_session_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass that fails mid-trial (the plugin then compiles natively) must not leave the next
    run of the pass in the same process recording into a dropped module."""
    ctx = make_context()
    text = _dump("layer_norm_fwd", "256-w4-s1", 0).read_text()
    expected = parse_module(ctx, text).module
    rlc.RemoveLayoutConversions().apply(ctx, expected)

    def broken(self: solution.Ledger, ops: set) -> None:
        raise RuntimeError("broken")

    with monkeypatch.context() as m:
        m.setattr(solution.Ledger, "apply", broken)  # (what a fold's settle and a trial's update both call)
        with pytest.raises(RuntimeError):
            rlc.RemoveLayoutConversions().apply(ctx, parse_module(ctx, text).module)
    assert journal.active() is None
    module = parse_module(ctx, text).module
    rlc.RemoveLayoutConversions().apply(ctx, module)
    spelling = Spelling.choose("triton-3.3")
    assert print_module(module, spelling) == print_module(expected, spelling)


def test_a_value_from_outside_the_function_is_found() -> None:
    """IsolatedFromAbove is judged on the changed ops' operands (its verifier, which walks the
    whole function, is skipped in the incremental check): a use of a module-level value is found."""
    from xdsl.dialects.builtin import IntegerAttr, IntegerType

    ctx = make_context()
    module = parse_module(ctx, _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    j = Journal(module)
    user, index = next((o, i) for o in module.walk() for i, v in enumerate(o.operands)
                       if isinstance(v.type, IntegerType) and o.parent_op() is not module)
    func = next(o for o in module.body.block.ops)
    j.begin()
    outside = journal.created(arith.ConstantOp(IntegerAttr(1, user.operands[index].type)))
    journal.insert_op(outside, InsertPoint.before(func))
    assert not validity.has_errors(module, j.touched, True, j.reshaped)  # a constant alone is fine
    journal.set_operand(user, index, outside.result)
    assert validity.layout_errors(module)
    assert validity.has_errors(module, j.touched, True, j.reshaped)
    j.rollback()
    assert not validity.layout_errors(module)


def _remarks_and_output(path: Path) -> str:
    from xpu_passes.transforms.base import collecting_remarks

    ctx = make_context()
    module = parse_module(ctx, path.read_text()).module
    with collecting_remarks() as sink:
        rlc.RemoveLayoutConversions().apply(ctx, module)
    remarks = [f"{r.op.name}: {r.message}" for r in sink.remarks]
    return "\n".join([*remarks, print_module(module, Spelling.choose("triton-3.3"))])


def test_a_refused_forward_is_walked_only_for_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forward propagation that must fail (its source layout holds more replicas) is not walked
    while the trials run; the reason the walk gives is found when the conversion is kept, on the
    module as it was (the trials undone): the same output and remarks as walking it every time."""
    from xpu_passes.transforms.remove_layout_conversions import remat_forward

    path = _dump("flash_attention_fwd", "64x32x64-w4-s2", 0)
    lazy = _remarks_and_output(path)
    refused: list[bool] = []
    real = remat_forward.forward_refused
    monkeypatch.setattr(remat_forward, "forward_refused", lambda cvt: refused.append(real(cvt)) and False)
    walk = remat_forward.forward  # every walk checks the replicas itself (none is admitted by forward_refused now)
    monkeypatch.setattr(remat_forward, "forward", lambda cvt, s, admitted=False, **kw: walk(cvt, s, **kw))
    walked = _remarks_and_output(path)
    assert any(refused), "no forward was refused: the dump no longer exercises the lazy reason"
    assert "forward: the source layout holds more replicas" in lazy
    assert lazy == walked


_DEAD_CHAIN = """
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f() {
    %x = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %a = ttg.convert_layout %x : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %b = ttg.convert_layout %a : tensor<128xi32, #blocked1> -> tensor<128xi32, #blocked>
    %c = ttg.convert_layout %x : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %e = ttg.convert_layout %x : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %s = arith.addi %e, %e : tensor<128xi32, #blocked1>
    tt.return
  }
}
"""


def test_dead_conversions_are_erased_last_first_through_chains(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unused conversions go, last first in walk order, and so does one whose only user was one
    of them (%a, used by the dead %b); a conversion still used (%e) stays."""
    module = parse_module(make_context(), _DEAD_CHAIN).module
    j = Journal(module)
    names = {c: c.results[0].name_hint for c in j.converts}
    erased: list[str | None] = []
    real = journal.erase_op
    monkeypatch.setattr(journal, "erase_op", lambda op: (erased.append(names.get(op)), real(op)))
    j.begin()
    materialize.erase_dead_converts(j)
    assert erased == ["c", "b", "a"]
    assert [c.results[0].name_hint for c in j.converts] == ["e"]
    j.rollback()
    assert len(j.converts) == 4


def test_a_change_applied_then_costed_has_the_figures_of_an_update(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ledger.apply (a fold kept without costing: Work.settle(costed=False)) then `current` on the same state
    gives `update`'s figures; the spill is costed by `current` only."""
    module = parse_module(make_context(), _dump("flash_attention_fwd", "64x32x64-w4-s2", 1).read_text()).module
    j, ledger = Journal(module), solution.Ledger(module)
    start = ledger.figures()
    j.begin()
    _convert_in_loop(module, j)
    calls: list[int] = []
    spill = solution.spill_cost
    monkeypatch.setattr(solution, "spill_cost", lambda accesses, m: calls.append(1) or spill(accesses, m))
    ledger.apply(j.touched)
    assert not calls  # (not costed yet)
    fig = ledger.current()
    assert len(calls) == 1 and fig == solution.figures(module) and fig != start
    ledger.rollback()
    j.rollback()
    assert ledger.figures() == start
