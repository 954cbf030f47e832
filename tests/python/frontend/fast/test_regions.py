"""The fast parsers of frontend/fast/regions.py build what xDSL's parsers build, and leave every
other form and error to them: block argument lists (parse_block_args, against xDSL's
_parse_optional_block_arg_list), `tt.func` headers and `scf.for` headers."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, parser, print_module

from frontend.fast.fast_vs_xdsl import both, both_errors

_MODULE = """#blocked = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}}>
#loc1 = loc("k.py":1:2)
#loc2 = loc("k.py":3:4)
module attributes {{"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func @k(%x: tensor<64xf32, #blocked>, %y: tensor<64xi32, #blocked>) -> f32 {{
    %r:2 = "tt.reduce"(%x, %y) <{{axis = 0 : i32}}> ({{
    ^bb0({args}):
      tt.reduce.return %a, %c : f32, i32
    }}) : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> (f32, i32)
    tt.return %r#0 : f32
  }}
}}
"""
_GOOD = [
    "%a: f32 loc(callsite(#loc1 at #loc2)), %b: f32 loc(#loc1), %c: i32 loc(\"k.py\":5:6), %1: i32 loc(unknown)",
    "%a: f32, %b: f32, %c: i32, %d: i32",  # no locations
    "%a: f32 loc(#loc1), %b: f32, %c : i32, %d: i32",  # `%c :`: xDSL's
    "%a: f32, %b: f32 loc(fused[#loc1, #loc2]), %c: i32, %d: i32",  # not a simple location: xDSL's
]
_BAD = [
    "%a: f32, %a: f32, %c: i32, %d: i32",  # defined twice
    "%a: f32 loc(#nope), %b: f32, %c: i32, %d: i32",  # undefined alias
    "%a: f32, %b: tensor<64xf32, #nope>, %c: i32, %d: i32",  # undefined layout
    "%a: f32, %b: f32, %c: i32, %d: i32,",  # trailing comma
    "%a: f32, %b: f32, %c: i32, %d: i32 {x}",  # an attribute
]


def _parse(args: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    taken: list[bool] = []
    original = parser.parse_block_args

    def spy(p: object, block: object) -> bool:
        taken.append(bool(fast and original(p, block)))  # type: ignore[arg-type]
        return taken[-1]

    monkeypatch.setattr(parser, "parse_block_args", spy)
    try:
        m = parse_module(make_context(), _MODULE.format(args=args), "t.mlir")
        out = print_module(m.module, m.spelling, debuginfo=True, generic=True)
        # name hints and locations of the block's arguments, as read
        block = next(op for op in m.module.walk() if op.name == "tt.reduce").regions[0].block
        out += "".join(f"\n{a.name_hint} {a.location}" for a in block.args)
    except TTGIRError as e:
        out = f"error {e.line}:{e.col}: {e.message}"
    finally:
        monkeypatch.undo()
    return f"{out}\ntaken {any(taken)}"


@pytest.mark.parametrize("args", _GOOD)
def test_block_arguments_match_xdsl(args: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _parse(args, True, monkeypatch), _parse(args, False, monkeypatch)
    assert fast.rsplit("\n", 1)[0] == slow.rsplit("\n", 1)[0]
    assert not fast.startswith("error")
    assert fast.endswith(f"taken {args is not _GOOD[2] and args is not _GOOD[3]}")


@pytest.mark.parametrize("args", _BAD)
def test_block_argument_errors_are_xdsls(args: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _parse(args, True, monkeypatch), _parse(args, False, monkeypatch)
    assert fast.startswith("error") and fast.rsplit("\n", 1)[0] == slow.rsplit("\n", 1)[0]


_TWICE = """#loc1 = loc("k.py":1:2)
module {{
  tt.func @k(%x: tensor<64xf32>, %y: tensor<64xi32>) -> f32 {{
    %r:2 = "tt.reduce"(%x, %y) <{{axis = 0 : i32}}> ({{
    ^bb0(%a: f32 loc(#loc1), %b: f32 loc(#loc1), %c: i32, %d: i32):
      tt.reduce.return %a, %c : f32, i32
    }}) : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
    {second}
    %s:2 = "tt.reduce"(%x, %y) <{{axis = 0 : i32}}> ({{
    ^bb0(%a: f32 loc(#loc1), %b: f32 loc(#loc1), %c: i32, %d: i32):
      tt.reduce.return %b, %d : f32, i32
    }}) : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
    tt.return %s#0 : f32
  }}
}}
"""


@pytest.mark.parametrize("second", ["", "%a = arith.constant 1.0 : f32"])  # the same text read again; then %a defined
def test_a_block_argument_list_read_again_is_its_own(second: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _TWICE.format(second=second)
    outs = []
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(parser, "parse_block_args", lambda p, block: False)
        try:
            m = parse_module(make_context(), text, "t.mlir")
            reduces = [op for op in m.module.walk() if op.name == "tt.reduce"]
            args = [a for op in reduces for a in op.regions[0].block.args]
            assert len({id(a) for a in args}) == 8 and all(a.owner.parent.parent in reduces for a in args)
            outs.append(print_module(m.module, m.spelling, debuginfo=True, generic=True)
                        + str([(a.name_hint, str(a.location), a.index) for a in args]))
        except TTGIRError as e:
            outs.append(f"error {e.line}:{e.col}: {e.message}")
    assert outs[0] == outs[1]
    assert outs[0].startswith("error 10:10: SSA value %a is already defined") == bool(second)


FUNCS = """module {
  tt.func private @"q name"(%a: i32 {tt.divisibility = 16 : i32}, %b: tensor<4xf32>) -> (i32, tensor<4xf32>) attributes {noinline = false} {
    tt.return %a, %b : i32, tensor<4xf32>
  } loc(#loc1)
  tt.func @r(%a: i32 loc("k.py":1:2), %0: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc(#loc1)) -> i32 {
    tt.return %a : i32
  }
  tt.func @e() {
    tt.return
  }
  tt.func @s(%a: i32) -> (i32 {tt.x = 1 : i32}) {
    tt.return %a : i32
  }
  tt.func @t(%a: i32,
             %b: i32) {
    tt.return
  }
  tt.func nested @u(%a: f32) -> f32 attributes {tt.y} { tt.return %a : f32 }
}
#loc1 = loc("k.py":2:4)
"""


def test_function_headers_match_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    # Visibility, quoted names, argument attributes and locations, results, `attributes`;
    # result attributes, a header over two lines, a body on the header's line: xDSL's.
    names: set[str] = set()
    fast, slow, taken = both(FUNCS, monkeypatch, names)
    assert fast == slow
    assert taken == 8  # @"q name", @r, @e and five tt.return
    assert "tt.func" in names


@pytest.mark.parametrize("bad", [
    ("tt.func @e() {", "tt.func @e() attributes {sym_name = \"x\"} {"),  # a reserved name
    ("tt.func @e() {\n    tt.return", "tt.func @e() {\n    %x = arith.addi %nope, %nope : i32\n    tt.return"),
    ("tt.func @e() {\n    tt.return", "tt.func @e() -> i32 {\n    tt.return"),  # the verifier's
    ("tt.func @e() {", "tt.func @e(%a: i32, %a: i32) {"),  # an argument named twice
    ("tt.func @e() {\n    tt.return\n  }", "tt.func @e() {\n    tt.return"),  # not closed
    # A value from above the function: defined before it, or after it (IsolatedFromAbove's error;
    # the fast path skips that check only for a body read with nothing in scope).
    ("  tt.func @e() {\n    tt.return", "  %v = arith.constant 1 : i32\n  tt.func @e() {\n    %w = arith.addi %v, %v : i32\n    tt.return"),
    ("  tt.func @e() {\n    tt.return\n  }", "  tt.func @e() {\n    %w = arith.addi %v, %v : i32\n    tt.return\n  }\n  %v = arith.constant 1 : i32"),
])  # fmt: skip
def test_function_header_errors_are_xdsls(bad: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = FUNCS.replace(*bad)
    fast, slow = both_errors(text, monkeypatch)
    assert (fast.line, fast.col, fast.message) == (slow.line, slow.col, slow.message)


FORS = """module {
  tt.func @f(%lo: i32, %hi: i32, %x: f32, %i0: index) -> f32 {
    %r:2 = scf.for %i = %lo to %hi step %lo iter_args(%a = %x, %b = %lo) -> (f32, i32)  : i32 {
      scf.yield %a, %b : f32, i32
    } loc(#loc1)
    %s = scf.for %i = %lo to %hi step %lo iter_args(%a = %r#0) -> f32 : i32 {
      scf.yield %a : f32
    } {tt.num_stages = 2 : i32}
    scf.for %j = %i0 to %i0 step %i0 {
    }
    %t = scf.for %i = %lo to %hi step %lo iter_args(%a = %s) -> (f32) : i32 { scf.yield %a : f32 }
    tt.return %s : f32
  }
}
#loc1 = loc("k.py":2:4)
"""


def test_loop_headers_match_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    # Results bound as a tuple, `-> T` and `-> (T)`, index loops (and their implicit yield),
    # attributes and locations after the body; a body on the header's line: xDSL's.
    names: set[str] = set()
    fast, slow, taken = both(FORS, monkeypatch, names)
    assert fast == slow
    assert taken == 7  # tt.func, three scf.for, two scf.yield, tt.return
    assert "scf.for" in names


@pytest.mark.parametrize("bad", [
    ("%r:2 = scf.for", "%r:3 = scf.for"),  # binds more results than the loop has
    ("iter_args(%a = %x, %b = %lo)", "iter_args(%a = %lo, %b = %lo)"),  # an init's type clashes
    ("to %hi step %lo iter_args(%a = %x,", "to %nope step %lo iter_args(%a = %x,"),
    ("%i0: index) -> f32 {", "%i0: i32) -> f32 {"),  # index bounds given an i32
    ("scf.yield %a, %b : f32, i32", "scf.yield %a : f32"),  # the verifier's
])  # fmt: skip
def test_loop_header_errors_are_xdsls(bad: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = FORS.replace(*bad)
    fast, slow = both_errors(text, monkeypatch)
    assert (fast.line, fast.col, fast.message) == (slow.line, slow.col, slow.message)
