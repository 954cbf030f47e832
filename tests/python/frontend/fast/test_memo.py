"""A function's type is one object per signature across parses (memo.function_type), so
its `tt.return` is verified once; a wrong return is still rejected on every parse. The
process-wide tables of texts give each module the meaning of its own aliases."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module
from xpu_passes.frontend.fast.memo import clear_shared

from frontend.fast.fast_vs_xdsl import EDGES

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


def test_process_wide_tables_follow_each_modules_aliases() -> None:
    # The same type text under another definition of its alias, and the same alias text in
    # another module: each module gets its own meaning; equal texts share one object.
    one = EDGES
    two = EDGES.replace("sizePerThread = [1], threadsPerWarp", "sizePerThread = [2], threadsPerWarp", 1)
    ctx = make_context()
    ops = []
    for text in (one, two, one):
        parsed = parse_module(ctx, text, "t.mlir")
        ops.append(next(op for op in parsed.module.walk() if op.name == "tt.make_range"))
    t1, t2, t3 = (op.results[0].type for op in ops)
    assert t1 is t3 and t1 != t2
    assert "sizePerThread = [2]" in str(t2.encoding) and "sizePerThread = [1]" in str(t1.encoding)


def test_process_wide_attribute_texts_follow_each_modules_aliases() -> None:
    # The same attribute dictionary text (xDSL's parser, memoized process-wide) naming
    # aliases defined otherwise in another module: each module gets its own meaning.
    text = """#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
!t = i32
module attributes {"ttg.num-warps" = 4 : i32, my.layout = #a, my.type = !t} {
}
"""
    other = text.replace("sizePerThread = [1]", "sizePerThread = [2]").replace("!t = i32", "!t = f32")
    ctx = make_context()
    first, second, again = (parse_module(ctx, t, "t.mlir").module for t in (text, other, text))
    assert first.attributes["my.layout"] != second.attributes["my.layout"]
    assert str(first.attributes["my.type"]) == "i32" and str(second.attributes["my.type"]) == "f32"
    assert first.attributes["my.layout"] is again.attributes["my.layout"]
