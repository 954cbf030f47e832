"""What op classes declare (dialects/declared.py): verify-once is its own declaration, not a
side effect of having a fast form."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import all_dialects, make_context
from xpu_passes.dialects.declared import VERIFY_ONCE_PER_SIGNATURE, declared
from xpu_passes.dialects.tt import SplatOp
from xpu_passes.frontend import parse_module, verifier
from xpu_passes.frontend.fast.syntax import form_name

# The ops verified once per signature before the declaration existed (the fast parsers' op
# names but the block terminators): none lost, none added.
BEFORE = {
    *(f"arith.{n}" for n in (
        "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori", "xori", "shli", "shrsi",
        "shrui", "ceildivsi", "floordivsi", "maxsi", "minsi", "maxui", "minui",
        "addf", "subf", "mulf", "divf", "maxnumf", "minnumf", "maximumf", "minimumf",
        "extsi", "extui", "trunci", "extf", "truncf", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast",
        "index_cast", "constant", "cmpi", "cmpf", "select",
    )),
    "tt.splat", "tt.broadcast", "ttg.convert_layout", "tt.expand_dims", "tt.bitcast", "tt.int_to_ptr",
    "tt.ptr_to_int", "tt.reshape", "tt.addptr", "tt.make_range", "tt.dot", "tt.get_program_id",
    "tt.get_num_programs", "ub.poison", "math.exp", "math.exp2", "math.sqrt", "math.erf", "tt.advance",
    "tt.load", "tt.make_tensor_ptr", "tt.store", "ttig.prefetch",
}  # fmt: skip


def _ops() -> list[type]:
    return [op for d in all_dialects() for op in d.operations]


def test_the_ops_verified_once_are_those_verified_once_before() -> None:
    once = {op.name for op in _ops() if declared(op, VERIFY_ONCE_PER_SIGNATURE, False)}
    assert once == BEFORE, (once - BEFORE, BEFORE - once)


def test_verify_once_does_not_follow_from_a_fast_form() -> None:
    # Fast forms without verify-once exist (terminators, ops with a body): the two are apart.
    fast_only = {op.name for op in _ops() if form_name(op) is not None and not declared(op, VERIFY_ONCE_PER_SIGNATURE, False)}
    assert {"tt.return", "scf.yield", "tt.func", "scf.for", "tt.reduce"} <= fast_only


SPLATS = """module {
  tt.func @f(%a: f32) {
    %0 = tt.splat %a : f32 -> tensor<4xf32>
    %1 = tt.splat %a : f32 -> tensor<4xf32>
    %2 = tt.splat %a : f32 -> tensor<4xf32>
    tt.return
  }
}
"""


@pytest.mark.parametrize("once", [True, False])
def test_an_op_is_verified_once_per_signature_only_if_it_declares_it(once: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """tt.splat has a fast form either way; without the declaration each of its ops is verified."""
    calls = []
    original = SplatOp.verify_

    def counting(self: SplatOp) -> None:
        calls.append(self)
        original(self)

    monkeypatch.setattr(SplatOp, "verify_", counting)
    monkeypatch.setattr(SplatOp, VERIFY_ONCE_PER_SIGNATURE, once)
    monkeypatch.setattr(verifier, "_ONCE", {})  # (the per-class answers, read anew)
    verifier.VERIFIED.clear()
    parse_module(make_context(), SPLATS, "s.mlir")
    parse_module(make_context(), SPLATS, "s.mlir")
    assert form_name(SplatOp) is not None
    assert len(calls) == (1 if once else 6)
