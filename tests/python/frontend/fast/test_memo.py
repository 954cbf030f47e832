"""A function's type is one object per signature across parses (memo.function_type), so
its `tt.return` is verified once; a wrong return is still rejected on every parse."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module
from xpu_passes.frontend.fast.memo import clear_shared

F = """module {
  tt.func @f(%arg0: i32, %arg1: f32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    tt.return %0 : i32
  }
}
"""


def _ftype(text: str) -> object:
    func = next(op for op in parse_module(make_context(), text, "t").module.walk() if op.name == "tt.func")
    return func.properties["function_type"]


def test_same_signature_same_object_other_signature_other_object() -> None:
    first = _ftype(F)
    assert _ftype(F) is first
    other = _ftype(F.replace("%arg1: f32", "%arg1: i32"))
    assert other is not first and other != first
    clear_shared()
    again = _ftype(F)
    assert again == first and again is not first


def test_a_return_of_the_wrong_type_is_rejected_after_a_right_one() -> None:
    _ftype(F)
    bad = F.replace("-> i32 {", "-> f32 {")
    for _ in range(2):
        with pytest.raises(TTGIRError, match="tt.return"):
            parse_module(make_context(), bad, "t")
