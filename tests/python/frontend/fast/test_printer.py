"""The reused texts of frontend/fast/printer.py print exactly what printing op by op prints.

Each module is printed with print_module(fast=False) (every op through its own `print`, every
attribute and alias definition printed afresh) and on, in every form we print, twice
with it on (the second print reuses what the first left in the process-wide tables):
corpus dumps (TTIR and each TTGIR stage) and the inputs of the lit tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.frontend.spelling import Spelling

LIT = Path(__file__).resolve().parents[3] / "lit"

FORMS = {
    "debuginfo": dict(debuginfo=True),
    "no debuginfo": dict(),
    "local scope": dict(debuginfo=True, local_scope=True),
    "generic": dict(debuginfo=True, generic=True),
    "round trip": dict(debuginfo=True, block_arg_locs=True),
    "old spelling": dict(debuginfo=True, spelling=Spelling.choose("old")),
    "new spelling": dict(spelling=Spelling.choose("new")),
}


def _print(module: object, spelling: Spelling, fast: bool, options: dict) -> str:
    return print_module(module, **{"spelling": spelling, **options}, fast=fast)  # type: ignore[arg-type]


def _differences(text: str, name: str) -> Iterator[str]:
    parsed = parse_module(make_context(), text, name, verify=False)
    for form, options in FORMS.items():
        slow = _print(parsed.module, parsed.spelling, False, options)
        for attempt in ("first", "second"):
            fast = _print(parsed.module, parsed.spelling, True, options)
            if fast != slow:
                a, b = fast.splitlines(), slow.splitlines()
                i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                yield f"{name} ({form}, {attempt} print), line {i + 1}: {a[i:i + 1]} != {b[i:i + 1]}"


# Forms the one-string headers (fastforms.py, upstream_forms._scf_for_head) cover and those
# they leave to the op's own print: results, a declaration, a quoted argument attribute,
# an index and an i32 loop, a value used twice, an unnamed and a named location.
EDGE_FORMS = """\
#loc = loc("k.py":3:0)
module {
  tt.func private @decl(i32) -> i32 loc(#loc)
  tt.func public @f(%a: i32 {"quoted key" = 1 : i32, tt.divisibility = 16 : i32} loc(#loc), %n: index loc("k.py":3:9)) -> i32 {
    %c0 = arith.constant 0 : index loc(#loc)
    %c1 = arith.constant 1 : index loc(#loc)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) {
      %s = arith.addi %acc, %acc : i32 loc(fused["k.py":4:1, "k.py":4:2])
      scf.yield %s : i32 loc(#loc)
    } loc(#loc)
    %t:2 = scf.for %j = %a to %r step %a iter_args(%x = %r, %y = %a) -> (i32, i32)  : i32 {
      scf.yield %y, %x : i32, i32 loc(callsite("g"("k.py":5:1) at #loc))
    } loc(#loc)
    tt.return %t#0 : i32 loc(#loc)
  } loc(#loc)
  tt.func @g(%p: !tt.ptr<f32> {"quoted key" = 1 : i32}, %q: i32 {tt.divisibility = 16 : i32} loc(#loc)) attributes {noinline = false} {
    tt.return loc(unknown)
  } loc(#loc)
  tt.func public @h(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}, %q: i32) {
    tt.return
  } loc(#loc)
}
"""


def test_fast_headers_are_the_ops_own_print_on_edge_forms() -> None:
    assert not list(_differences(EDGE_FORMS, "edge forms"))
    printed = _print(parse_module(make_context(), EDGE_FORMS, "edge").module, Spelling.choose("triton-3.3"), True,
                     dict(debuginfo=True))
    assert '%arg0: i32 {"quoted key" = 1 : i32, tt.divisibility = 16 : i32} loc("k.py":3:0)' in printed
    assert "step %arg0 iter_args(%arg3 = %0, %arg4 = %arg0) -> (i32, i32)  : i32 {" in printed
    assert ('@g(%arg0: !tt.ptr<f32> {"quoted key" = 1 : i32} loc(unknown), %arg1: i32 {tt.divisibility = 16 : i32}'
            ' loc("k.py":3:0)) attributes {noinline = false} {') in printed
    assert ("tt.func public @h(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}"
            " loc(unknown), %arg1: i32 loc(unknown)) {") in printed


def _lit_inputs() -> Iterator[tuple[str, str]]:
    """Every chunk of every lit input that parses (negative tests do not)."""
    for path in sorted(LIT.rglob("*.mlir")):
        for i, chunk in enumerate(re.split(r"^// -----.*$", path.read_text(), flags=re.M)):
            yield f"{path.relative_to(LIT)}#{i}", chunk


def test_fast_print_is_the_op_by_op_print_on_lit_inputs() -> None:
    failures, printed = [], 0
    for name, text in _lit_inputs():
        try:
            parse_module(make_context(), text, name, verify=False)
        except Exception:  # noqa: BLE001  (a negative test's input)
            continue
        printed += 1
        failures += _differences(text, name)
    assert printed > 50
    assert not failures, "\n".join(failures)


@pytest.mark.triton
def test_fast_print_is_the_op_by_op_print_on_the_corpus() -> None:
    from xpu_passes.integration import oracle

    if not oracle.available():
        pytest.skip("needs triton-xpu")
    from xpu_passes.corpus import corpus_dump_files

    dumps = corpus_dump_files()
    assert len(dumps) > 200
    failures = [d for path in dumps for d in _differences(path.read_text(), f"{path.parent.name}/{path.name}")]
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:50])


def test_a_template_is_filled_with_each_ops_own_operands_and_attributes() -> None:
    """Two ops of one form, then the same form with its operands swapped, an attribute
    changed, and an attribute whose alias is first seen there (so the alias numbering
    follows the filled template's visits)."""
    text = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%arg0: tensor<64xi32, #blocked> loc("k.py":1:0), %arg1: tensor<64xi32, #blocked> loc("k.py":1:0)) {
    %0 = arith.addi %arg0, %arg1 : tensor<64xi32, #blocked> loc("k.py":2:0)
    %1 = arith.addi %arg1, %0 : tensor<64xi32, #blocked> loc("k.py":3:0)
    %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked> loc("k.py":4:0)
    %3 = tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<64xi32, #blocked> loc("k.py":5:0)
    %4 = ttg.convert_layout %3 : tensor<64xi32, #blocked> -> tensor<64xi32, #blocked1> loc("k.py":6:0)
    tt.return loc("k.py":7:0)
  } loc("k.py":1:0)
} loc("k.py":0:0)
"""
    parsed = parse_module(make_context(), text, "t", verify=False)
    _print(parsed.module, parsed.spelling, True, dict(debuginfo=True))  # the templates made
    out = _print(parsed.module, parsed.spelling, True, dict(debuginfo=True))
    assert "%1 = arith.addi %arg1, %0 : tensor<64xi32, #blocked> loc(#loc3)" in out
    assert "%3 = tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<64xi32, #blocked>" in out
    assert "-> tensor<64xi32, #blocked1> loc(#loc6)" in out
    assert out == _print(parsed.module, parsed.spelling, False, dict(debuginfo=True))


def test_attributes_equal_in_value_share_texts_and_only_those() -> None:
    """A module parsed again with the parser's tables emptied has new attribute objects:
    their texts and the op templates are found by value. Values that compare unequal
    but are close (signed zeros, i1 vs i32 zero) keep their own texts."""
    from xpu_passes.frontend.fast.memo import clear_shared

    text = """module {
  tt.func @f() -> f32 {
    %cst = arith.constant 0.000000e+00 : f32 loc("k.py":1:0)
    %cst_0 = arith.constant -0.000000e+00 : f32 loc("k.py":2:0)
    %false = arith.constant false loc("k.py":3:0)
    %c0_i32 = arith.constant 0 : i32 loc("k.py":4:0)
    %0 = arith.addf %cst, %cst_0 : f32 loc("k.py":5:0)
    %1 = arith.addf %cst_0, %cst : f32 loc("k.py":5:0)
    tt.return %0 : f32 loc("k.py":6:0)
  } loc("k.py":1:0)
} loc("k.py":0:0)
"""
    first = parse_module(make_context(), text, "t", verify=False)
    clear_shared()
    second = parse_module(make_context(), text, "t", verify=False)
    _print(first.module, first.spelling, True, dict(debuginfo=True))
    for options in FORMS.values():
        slow = _print(second.module, second.spelling, False, options)
        assert _print(second.module, second.spelling, True, options) == slow
    out = _print(second.module, second.spelling, True, dict(debuginfo=True))
    assert "%cst_0 = arith.constant -0.000000e+00 : f32" in out
    assert "%false = arith.constant false" in out and "%c0_i32 = arith.constant 0 : i32" in out
    assert "%1 = arith.addf %cst_0, %cst : f32" in out
