"""RemoveLayoutConversions' bookkeeping shortcuts answer as the full computations do.

A signature that passed the op-alone check passes on one lookup (validity._PASSED);
Ledger.update hands the ops it found attached to the validity check; IsolatedFromAbove of
a module is judged per block; the input's figures are the copy's Ledger's, and one
Journal serves anchoring and the rounds. Each is compared with what it replaces, on
corpus dumps and on a change where the shortcut must not apply.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.ir.xdsl_adapt import isolation_unchecked
from xpu_passes.ir import journal
from xpu_passes.transforms.remove_layout_conversions import locality
from xpu_passes.transforms.remove_layout_conversions import solution
from xpu_passes.transforms.remove_layout_conversions import validity
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.transforms.remove_layout_conversions.locality import Contexts
from xpu_passes.layouts.propagation import encoding, with_encoding
from xpu_passes.transforms import remove_layout_conversions as rlc

from support import RLC_STEP
from samples import LOOP as MEMOS_LOOP

_needs_corpus = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu (the corpus)")
DUMPS = [("sparsemax_fwd", "256-w4-s1", 0), ("flash_attention_fwd", "64x32x64-w4-s2", 0),
         ("gemm_add_block_ptr", "8x128x64-w4-s3", 1)]


def rlc_dump(kernel: str, config: str, position: int) -> Path:
    """support.rlc_dump, from the whole corpus (sparsemax is a workload)."""
    from xpu_passes.corpus import entries

    entry = next(e for e in entries(specs="all") if e["kernel"] == kernel and e["config"] == config)
    return Path(entry["dir"]) / [s["file"] for s in entry["steps"] if s["step"] == RLC_STEP][position]



def _full_alone(op: Operation) -> bool:
    """_errs_alone without any table: the verifier (nested ops aside), empty blocks, _op_error."""
    try:
        with isolation_unchecked():
            op.verify(verify_nested_ops=False)
        for r in op.regions:
            if any(b.first_op is None for b in r.blocks) and not op.has_trait(NoTerminator):
                return True
    except VerifyException:
        return True
    return validity._op_error(op) is not None


def _other_layout(module: Operation, t: TensorType) -> object | None:
    """A layout of another tensor of t's rank in `module`, not t's."""
    for op in walk_list(module):
        for r in op.results:
            u = r.type
            if isinstance(u, TensorType) and u.get_shape() == t.get_shape() and encoding(u) != encoding(t):
                return encoding(u)
    return None


@pytest.mark.parametrize(("kernel", "config", "position"), DUMPS, ids=[d[0] for d in DUMPS])
@pytest.mark.triton
@_needs_corpus
def test_passed_signatures_answer_as_the_full_check(kernel: str, config: str, position: int) -> None:
    """Every op of a dump, then each op of a sample whose result was moved to another layout
    (and its users): the table's answer is the verifier's and _op_error's, valid or not."""
    module = parse_module(make_context(), rlc_dump(kernel, config, position).read_text()).module
    ops = walk_list(module)
    with isolation_unchecked():
        for _ in range(2):  # the second time through the table
            assert [validity._errs_alone(o, Contexts()) for o in ops] == [_full_alone(o) for o in ops]
    assert validity._PASSED
    changed = bad = 0
    for op in ops:
        r = op.results[0] if len(op.results) == 1 else None
        if changed == 25 or r is None or not isinstance(r.type, TensorType) or op.regions:
            continue
        layout = _other_layout(module, r.type)
        if layout is None:
            continue
        j = Journal(module, ops).begin()
        journal.replace_value_with_new_type(r, with_encoding(r.type, layout))
        for o in [op, *(u.operation for u in r.uses)]:
            want = _full_alone(o)
            with isolation_unchecked():
                assert validity._errs_alone(o, Contexts()) == want, o.name
            bad += want
        j.rollback()
        changed += 1
    assert changed and bad  # some changes were caught as errors: the table did not hide them


# test_rlc_memos' loop, with an op after it that reads its result
LOOP = MEMOS_LOOP.replace("    tt.return", "    %t = arith.addf %r, %r : tensor<16x32xf32, #a>\n    tt.return")


def test_a_yield_passed_before_is_checked_again_when_its_parent_changes() -> None:
    """A yield's _op_error reads its parent's results, which its signature does not hold:
    a yield never answers from the table (its key is unchanged, its answer is not)."""
    module = parse_module(make_context(), LOOP).module
    loop = next(o for o in module.walk() if o.name == "scf.for")
    yield_ = loop.body.block.last_op
    assert not validity._errs_alone(yield_, Contexts())
    key = locality.general_key(yield_, Contexts().of(yield_))
    assert key is not None and key[0] not in validity._PASSED
    b = encoding(module.body.block.first_op.body.block.args[1].type)
    j = Journal(module).begin()
    journal.replace_value_with_new_type(loop.results[0], with_encoding(loop.results[0].type, b))
    assert locality.general_key(yield_, Contexts().of(yield_))[0] == key[0]
    assert validity._errs_alone(yield_, Contexts()) and _full_alone(yield_)
    j.rollback()
    assert not validity._errs_alone(yield_, Contexts())


def test_an_op_made_invalid_misses_the_table_and_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """An addf whose operand moves to another layout has another signature: no hit, an error;
    its old signature still answers on one lookup (the verifier is not run again)."""
    module = parse_module(make_context(), LOOP).module
    add = [o for o in module.walk() if o.name == "arith.addf"][-1]
    assert not validity._errs_alone(add, Contexts())
    calls: list[Operation] = []
    real = type(add).verify

    def counting(self: Operation, verify_nested_ops: bool = True) -> None:
        calls.append(self)
        real(self, verify_nested_ops)

    monkeypatch.setattr(type(add), "verify", counting)
    assert not validity._errs_alone(add, Contexts()) and not calls  # the table's answer
    b = encoding(module.body.block.first_op.body.block.args[1].type)
    j = Journal(module).begin()
    journal.replace_value_with_new_type(add.operands[0], with_encoding(add.operands[0].type, b))
    assert validity._errs_alone(add, Contexts()) and _full_alone(add)
    j.rollback()
    assert not validity._errs_alone(add, Contexts())


def test_check_mode_recomputes_a_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under XPU_PASSES_RLC_CHECK a hit is checked the long way: a table that lied is caught."""
    module = parse_module(make_context(), LOOP).module
    add = [o for o in module.walk() if o.name == "arith.addf"][-1]
    assert not validity._errs_alone(add, Contexts(), False)
    monkeypatch.setattr(validity, "_op_error", lambda op: "planted")
    with pytest.raises(AssertionError, match="passed fails now"):
        validity._errs_alone(add, Contexts(), True)


def test_the_attached_ops_handed_over_are_the_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """has_errors with Ledger.update's attached ops answers as without them; under check mode a
    set that is not the change's is refused."""
    module = parse_module(make_context(), LOOP).module
    add = [o for o in module.walk() if o.name == "arith.addf"][-1]
    ledger = solution.Ledger(module)
    b = encoding(module.body.block.first_op.body.block.args[1].type)
    j = Journal(module).begin()
    journal.replace_value_with_new_type(add.operands[0], with_encoding(add.operands[0].type, b))
    ledger.update(j.touched)
    assert ledger.attached == locality.attached_of(module, j.touched) and add in ledger.attached
    assert validity.has_errors(module, j.touched, True, j.reshaped, ledger.attached)
    assert validity.has_errors(module, j.touched, True, j.reshaped)
    with pytest.raises(AssertionError, match="attached"):
        validity.has_errors(module, j.touched, True, j.reshaped, set(), check=True)
    ledger.rollback()
    j.rollback()


@pytest.mark.parametrize(("kernel", "config", "position"), DUMPS, ids=[d[0] for d in DUMPS])
@pytest.mark.triton
@_needs_corpus
def test_isolated_module_agrees_with_the_verifier_on_dumps(kernel: str, config: str, position: int) -> None:
    """Valid dumps are isolated; the same dump with one op of the function reading a value
    defined outside it (a new function's) is not, for the verifier too (isolated_module for the
    module, isolated for the changed ops)."""
    module = parse_module(make_context(), rlc_dump(kernel, config, position).read_text()).module
    assert locality.isolated_module(walk_list(module))
    assert locality.isolated(set(walk_list(module)[1:]))  # (per changed op: all of them, nested ones too)
    module.verify()
    f = next(o for o in module.body.block.ops if isinstance(o, tt.FuncOp))
    other = f.clone()
    module.body.block.add_op(other)
    user = next(o for o in walk_list(f) if o.operands and o is not f and o.parent is f.body.block)
    outside = other.body.block.args[0] if other.body.block.args else next(iter(other.body.block.ops)).results[0]
    old = user.operands[0]
    user.operands = (outside, *user.operands[1:])
    assert not locality.isolated_module(walk_list(module))
    assert not locality.isolated({user}) and not locality.isolated(set(walk_list(f)[1:]))
    with pytest.raises(VerifyException):
        module.verify()
    user.operands = (old, *user.operands[1:])
    assert locality.isolated_module(walk_list(module)) and locality.isolated(set(walk_list(f)[1:]))


@pytest.mark.parametrize("anchor", [True, False])
@pytest.mark.triton
@_needs_corpus
def test_a_solution_reuses_the_inputs_walk(anchor: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """_solve maps the copy's ops to the input's through the input's walk (not walked again):
    op for op, as a fresh walk would; after anchoring (which changes this block-pointer dump)
    the Journal and Ledger are the anchored module's."""
    module = parse_module(make_context(), rlc_dump("gemm_add_block_ptr", "8x128x64-w4-s3", 1).read_text()).module
    ops = walk_list(module)
    assert solution.figures(module, ops) == solution.figures(module)
    seen: list[rlc.Work] = []
    monkeypatch.setattr(rlc.RemoveLayoutConversions, "_round", lambda self, w: seen.append(w) and False)
    w = rlc.RemoveLayoutConversions()._solve(module, ops, anchor, lambda: True, set())
    assert seen and seen[0] is w and bool(w.anchored) == anchor
    assert list(w.origin.values()) == walk_list(module) and all(c.name == o.name for c, o in w.origin.items())
    w.journal.check()
    assert w.ledger.figures() == solution.figures(w.module) == w.figures
    assert (w.figures != solution.figures(module)) == anchor  # (anchoring moved a conversion)


def _run_rlc(module: Operation, check: bool = False) -> tuple[list[tuple[Operation, str]], str]:
    """RemoveLayoutConversions on `module` (`check`: in check mode): its remarks (op, message) and the module's text."""
    from xpu_passes.frontend import Spelling, print_module
    from xpu_passes.transforms import base

    with base.collecting_remarks() as sink:
        rlc.RemoveLayoutConversions(check_incremental=check).apply(make_context(), module)
    remarks = [(r.op, r.message) for r in sink.remarks]
    return remarks, print_module(module, Spelling.choose("triton-3.3"))


IDLE = """
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [2], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%p: tensor<64x!tt.ptr<f32>, #a>, %x: tensor<64xf32, #a>, %y: tensor<64xf32, #b>) {
    %s = arith.addf %x, %x : tensor<64xf32, #a>
    tt.store %p, %s : tensor<64x!tt.ptr<f32>, #a>
    tt.return
  }
}
"""


@pytest.mark.parametrize("valid", [True, False])
def test_a_module_without_conversions_or_block_pointers_is_left_as_solving_leaves_it(
        valid: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """No conversion and no block pointer: the pass is not solved (the input is kept, its ops
    themselves) and says what solving says: nothing, or that the input is invalid."""
    def module() -> tuple[Operation, Operation]:
        m = parse_module(make_context(), IDLE).module
        add = next(o for o in m.walk() if o.name == "arith.addf")
        if not valid:  # the sum stored in #b: triton rejects the store (operands in two layouts)
            from xdsl.rewriter import Rewriter

            y = m.body.block.first_op.body.block.args[2]
            Rewriter.replace_value_with_new_type(add.results[0], y.type)
        return m, add

    m, add = module()
    solved = []
    real = rlc.RemoveLayoutConversions._solve
    monkeypatch.setattr(rlc.RemoveLayoutConversions, "_solve", lambda *a: solved.append(1) or real(*a))
    remarks, text = _run_rlc(m)
    assert not solved and next(o for o in m.walk() if o.name == "arith.addf") is add
    m2, _ = module()
    remarks2, text2 = _run_rlc(m2, check=True)  # check mode solves and compares
    assert solved and text2 == text
    assert [(o.name, why) for o, why in remarks] == [(o.name, why) for o, why in remarks2]
    assert bool(remarks) == (not valid) and all(o in list(m.walk()) for o, _ in remarks)


@pytest.mark.parametrize("what", ["conversion", "block pointer"])
def test_a_module_with_a_conversion_or_a_block_pointer_is_solved(what: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative case: one conversion, or one block pointer (anchoring may retype it), and the pass solves."""
    text = IDLE.replace("tt.store %p, %s", "%c = ttg.convert_layout %s : tensor<64xf32, #a> -> tensor<64xf32, #b>\n"
                        "    tt.store %p, %s") if what == "conversion" else IDLE.replace(
        "    tt.return", "    %b = tt.make_tensor_ptr %p0, [%i64, %i64], [%i64, %i64], [%i32, %i32] {order = array<i32: 1, 0>}"
        " : <tensor<8x8xf32, #c>>\n    tt.return").replace(
        "%y: tensor<64xf32, #b>) {", "%y: tensor<64xf32, #b>, %p0: !tt.ptr<f32>, %i64: i64, %i32: i32) {").replace(
        "module", "#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], "
        "order = [1, 0]}>\nmodule", 1)
    m = parse_module(make_context(), text).module
    solved = []
    real = rlc.RemoveLayoutConversions._solve
    monkeypatch.setattr(rlc.RemoveLayoutConversions, "_solve", lambda *a: solved.append(1) or real(*a))
    _run_rlc(m)
    assert solved


@pytest.mark.triton
@_needs_corpus
def test_the_idle_dumps_of_the_corpus_come_out_as_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    """sparsemax_fwd's second and third RLC inputs have nothing to rewrite: the same text and
    remarks unsolved as solved (check mode), and its first input is solved."""
    for position in (1, 2):
        text = rlc_dump("sparsemax_fwd", "256-w4-s1", position).read_text()
        assert "ttg.convert_layout" not in text and "tt.make_tensor_ptr" not in text
        fast = _run_rlc(parse_module(make_context(), text).module)
        full = _run_rlc(parse_module(make_context(), text).module, check=True)
        assert fast[1] == full[1] and fast[0] == full[0] == []
    assert "ttg.convert_layout" in rlc_dump("sparsemax_fwd", "256-w4-s1", 0).read_text()
