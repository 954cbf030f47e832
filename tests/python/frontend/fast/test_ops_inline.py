"""The inlined commonest cases of fastops' `%a, %b : T` and `%a : T -> U` shapes and the
per-text location cache (memo.fast_trailing_loc) build what the general path builds, and
report its errors."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, print_module
from xpu_passes.frontend.fast import build as fastops
from xpu_passes.frontend.fast import memo

_MODULE = """#blocked = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}}>
#blocked1 = #ttg.blocked<{{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func @k(%x: tensor<64xf32, #blocked>, %y: tensor<64xf32, #blocked>) {{
    %a = arith.addf %x, %y : tensor<64xf32, #blocked> loc(#loc1)
    %b = ttg.convert_layout %a : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked1> loc(#loc1)
    %c = arith.mulf %b, %b : tensor<64xf32, #blocked1> loc(callsite(#loc1 at #loc2))
    %d = ttg.convert_layout %c : tensor<64xf32, #blocked1> -> tensor<64xf32, #blocked> loc(callsite(#loc1 at #loc2))
    {line}
    tt.return loc(#loc2)
  }}
}}
#loc1 = loc("k.py":1:2)
#loc2 = loc("k.py":3:4)
"""
_GOOD = [
    "%e = arith.subf %d, %x : tensor<64xf32, #blocked> loc(#loc1)",
    "%e = ttg.convert_layout %d : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked1> loc(unknown)",
    "%e = ttg.convert_layout %d {tt.x} : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked1>",
    "%e = ttg.convert_layout %d#0 : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked1> loc(#loc2)",
]
_BAD = [
    "%e = arith.subf %d, %b : tensor<64xf32, #blocked> loc(#loc1)",  # %b is #blocked1
    "%e = ttg.convert_layout %b : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked1> loc(#loc1)",
    "%e = ttg.convert_layout %z : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked1> loc(#loc1)",  # undefined
    "%e = arith.subf %d, %x : tensor<64xf32, #blocked> loc(#loc9)",  # undefined location alias
    "%e = arith.addf %f, %f : tensor<64xf32, #blocked>\n    %f = arith.addf %x, %x : tensor<64xf32, #blocked>",  # used first
]


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """The paths these inline cases bypass: the shared builders, a location read per op."""
    monkeypatch.setattr(fastops, "_defined", lambda p, text, type: None)
    original = memo.MemoParser.__init__

    def uncached(p: memo.MemoParser, *args: object) -> None:
        original(p, *args)  # type: ignore[arg-type]
        p._loc_texts = _NeverStored()

    monkeypatch.setattr(memo.MemoParser, "__init__", uncached)


class _NeverStored(dict):  # type: ignore[type-arg]
    def __setitem__(self, key: object, value: object) -> None:
        pass


def _read(line: str) -> str:
    try:
        m = parse_module(make_context(), _MODULE.format(line=line), "t.mlir")
    except TTGIRError as e:
        return f"error {e.line}:{e.col}: {e.message}"
    return print_module(m.module, m.spelling, debuginfo=True, generic=True)


@pytest.mark.parametrize("line", _GOOD)
def test_inline_cases_build_what_the_general_path_builds(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _read(line)
    _general(monkeypatch)
    assert not fast.startswith("error") and fast == _read(line)


@pytest.mark.parametrize("line", _BAD)
def test_inline_cases_report_the_general_paths_errors(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _read(line)
    _general(monkeypatch)
    assert fast.startswith("error") and fast == _read(line)


def test_a_location_text_is_read_once_per_module(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []
    original = memo.MemoParser._simple_loc

    def counting(p: memo.MemoParser, m: object) -> object:
        reads.append(1)
        return original(p, m)  # type: ignore[arg-type]

    monkeypatch.setattr(memo.MemoParser, "_simple_loc", counting)
    _read(_GOOD[0])
    # `#loc1`, `callsite(#loc1 at #loc2)`, `#loc2`: once each for the 6 located ops
    assert len(reads) == 3
    _general(monkeypatch)
    _read(_GOOD[0])
    assert len(reads) == 3 + 6


def test_new_op_with_a_region_is_what_create_builds() -> None:
    import io

    from xdsl.dialects.builtin import IntegerAttr, f32, i32
    from xdsl.ir import Block, Region
    from xdsl.printer import Printer

    from xpu_passes.dialects.tt import ReduceOp
    from xpu_passes.ir.xdsl_adapt import new_op

    make_context()

    def build(make):  # type: ignore[no-untyped-def]
        arg = Block(arg_types=[f32]).args[0]
        region = Region(Block(arg_types=[f32, f32]))
        op = make(ReduceOp, operands=[arg], result_types=[f32], properties={"axis": IntegerAttr(0, i32)},
                  attributes={}, regions=[region])
        out = io.StringIO()
        Printer(stream=out, print_generic_format=True).print_op(op)
        assert region.parent is op and op.regions == (region,)
        return out.getvalue()

    assert build(new_op) == build(lambda cls, **kw: cls.create(**kw))
    attached = Region(Block())
    ReduceOp.create(regions=[attached])
    with pytest.raises(ValueError, match="already attached"):
        new_op(ReduceOp, result_types=[f32], regions=[attached])
