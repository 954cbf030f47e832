"""The fast op parsers (frontend/fastops.py) build exactly what xDSL's parsers build."""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, parser, print_module
from xpu_passes.frontend.fastops import FAST_NAMES


def _both(text: str, monkeypatch: pytest.MonkeyPatch, names: set[str] | None = None) -> tuple[str, str, int]:
    """Generic print with locations through the fast path, then without it; ops taken fast."""
    ctx = make_context()
    taken = 0
    original = parser.parse_fast

    def counting(p: object, start: int) -> object:
        nonlocal taken
        op = original(p, start)  # type: ignore[arg-type]
        if op is not None:
            taken += 1
            if names is not None:
                names.add(op.name)
        return op

    monkeypatch.setattr(parser, "parse_fast", counting)
    fast = parse_module(ctx, text, "t.mlir")
    monkeypatch.setattr(parser, "parse_fast", lambda p, start: None)
    slow = parse_module(make_context(), text, "t.mlir")
    monkeypatch.setattr(parser, "parse_fast", original)

    def show(m: parser.ParsedModule) -> str:
        return print_module(m.module, m.spelling, debuginfo=True, generic=True)

    return show(fast), show(slow), taken


def _corpus() -> list[Path]:
    from xpu_passes import oracle

    if not oracle.available():
        return []
    from xpu_passes.corpus import corpus_dump_files

    return corpus_dump_files()


def test_fast_and_xdsl_parsers_build_the_same_ir_on_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    dumps = _corpus()
    if not dumps:
        pytest.skip("no triton-xpu: no corpus")
    total, names = 0, set[str]()
    for path in dumps:
        fast, slow, taken = _both(path.read_text(), monkeypatch, names)
        assert fast == slow, path
        total += taken
    assert total > 10 * len(dumps), "the fast path is taken"
    assert names <= FAST_NAMES and len(names) >= 15


EDGES = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%arg0: !tt.ptr<f32>, %a: i32, %b: f32) {
    %0 = arith.addi %a, %a : i32
    %1 = arith.addi %0, %a overflow<nsw> : i32 loc("k.py":3:1)
    %2 = arith.addf %b, %b fastmath<fast> : f32 loc(#loc1)
    %3 = arith.mulf %2, %b : f32 // a comment
    %4 = arith.sitofp %1 : i32 to f32 loc(callsite(#loc1 at #loc1))
    %5 = tt.splat %arg0 : !tt.ptr<f32>
      -> tensor<64x!tt.ptr<f32>, #blocked>
    %6 = tt.splat %a : i32 -> tensor<64xi32, #blocked>
      loc(#loc1)
    %7 = tt.addptr %5, %6 : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked> loc(#loc1)
    %8 = tt.expand_dims %6 {axis = 0 : i32} : tensor<64xi32, #blocked> -> tensor<1x64xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 4], order = [1, 0]}>}>>
    %9 = arith.subi %a, %a : i32 loc(fused["k.py":1:1, "k.py":2:2])
    tt.return
  }
}
#loc1 = loc("k.py":2:4)
"""


def test_fast_path_edges_match_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    # Extra attributes, flags, comments, ops over two lines, other locations.
    fast, slow, taken = _both(EDGES, monkeypatch)
    assert fast == slow
    assert taken == 4  # %0, %4, %7, %8 (inline layouts); the others are xDSL's


@pytest.mark.parametrize("bad", [
    "%9 = arith.addi %a, %b : i32",  # operand types clash
    "%9 = arith.addi %a, %nope : i32",  # never defined
    "%9 = tt.splat %a : i32 -> tensor<64xi32, #nope>",  # unknown alias
    "%9 = tt.addptr %arg0, %a : !tt.ptr<f32>, i64",
    "%9 = arith.extsi %a : i32 to i16 loc(#loc9)",
    "%a = arith.addi %a, %a : i32",  # redefined
    "%x = arith.addi %y, %a : i32\n    %y = arith.addi %a, %a : i32",  # used before its definition
])  # fmt: skip
def test_fast_path_errors_are_xdsls(bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = EDGES.replace("    tt.return\n", f"    {bad}\n    tt.return\n")
    errors = []
    for fast in (parser.parse_fast, lambda p, start: None):
        monkeypatch.setattr(parser, "parse_fast", fast)
        with pytest.raises(TTGIRError) as e:
            parse_module(make_context(), text, "t.mlir")
        errors.append(str(e.value))
    assert errors[0] == errors[1]
