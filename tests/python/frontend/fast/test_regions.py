"""Block argument lists read by frontend/fastregions.parse_block_args build what xDSL's
_parse_optional_block_arg_list builds, and leave every other form and error to it."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, parser, print_module

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
