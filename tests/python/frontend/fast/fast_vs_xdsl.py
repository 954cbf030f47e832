"""The fast parsers against xDSL's, for the front end's fast-path tests: a text parsed both ways
and printed (generic, with locations), the errors each way raises, and the fast-path edges kernel."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, parser, print_module


def both(text: str, monkeypatch: pytest.MonkeyPatch, names: set[str] | None = None) -> tuple[str, str, int]:
    """Generic print with locations through the fast path, then without it; ops taken fast."""
    ctx = make_context()
    taken = 0
    original = parser.parse_fast

    def counting(p: object, start: int, *lex: bool) -> object:
        nonlocal taken
        op = original(p, start, *lex)  # type: ignore[arg-type]
        if op is not None:
            taken += 1
            if names is not None:
                names.add(op.name)
        return op

    monkeypatch.setattr(parser, "parse_fast", counting)
    fast = parse_module(ctx, text, "t.mlir")
    monkeypatch.setattr(parser, "parse_fast", lambda p, start, *lex: None)
    monkeypatch.setattr(parser, "parse_block_args", lambda p, block: False)  # (block arguments: xDSL's too)
    slow = parse_module(make_context(), text, "t.mlir")
    monkeypatch.setattr(parser, "parse_fast", original)
    monkeypatch.undo()

    def show(m: parser.ParsedModule) -> str:
        return print_module(m.module, m.spelling, debuginfo=True, generic=True)

    return show(fast), show(slow), taken


def both_errors(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[TTGIRError, TTGIRError]:
    """The error parsing `text` raises through the fast path, then without it."""
    errors = []
    for fast in (parser.parse_fast, lambda p, start, *lex: None):
        monkeypatch.setattr(parser, "parse_fast", fast)
        with pytest.raises(TTGIRError) as e:
            parse_module(make_context(), text, "t.mlir")
        errors.append(e.value)
    fast_error, slow_error = errors
    return fast_error, slow_error


EDGES = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
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
    %c = arith.constant dense<0xFF800000> : tensor<64xf32, #blocked>
    %c1 = arith.constant dense<-1.500000e+00> : tensor<64xf32, #blocked> loc(#loc1)
    %c2 = arith.constant dense<1> : tensor<64xf32, #blocked>
    %c3 = arith.constant true
    %c4 = arith.constant -7 : i64
    %c5 = arith.constant 2.500000e-01 : f16
    %c6 = arith.constant dense<3> : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c7 = arith.constant {tt.x} 1 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %m = arith.cmpi slt, %r, %6 : tensor<64xi32, #blocked> loc(#loc1)
    %n = arith.cmpf "olt", %b, %b : f32
    %o = arith.cmpf oge, %b, %b fastmath<fast> : f32
    %l = tt.load %7, %m, %c1 cacheModifier = ca : tensor<64x!tt.ptr<f32>, #blocked>
    %l2 = tt.load %7, %m {isVolatile = true, tt.x = 1 : i32} : tensor<64x!tt.ptr<f32>, #blocked>
    %p = tt.make_tensor_ptr %arg0, [%c4, %c4], [%c4, %c4], [%a, %a] {order = array<i32: 1, 0>} : <tensor<8x16xf32, #blocked2>>
    %q = tt.advance %p, [%a, %0] : <tensor<8x16xf32, #blocked2>> loc(#loc1)
    %q2 = tt.advance %p, [%a, %0] : !tt.ptr<tensor<8x16xf32, #blocked2>>
    %t = tt.load %q {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<8x16xf32, #blocked2>>
    %cv = ttg.convert_layout %t : tensor<8x16xf32, #blocked2> -> tensor<8x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
    %sel = arith.select %c3, %a, %1 : i32 loc(#loc1)
    %sel2 = arith.select %m, %r, %6 : tensor<64xi1, #blocked>, tensor<64xi32, #blocked>
    %rs = tt.reshape %t : tensor<8x16xf32, #blocked2> -> tensor<128xf32, #blocked>
    %rs2 = tt.reshape %t allow_reorder : tensor<8x16xf32, #blocked2> -> tensor<128xf32, #blocked>
    tt.return
  }
}
#loc1 = loc("k.py":2:4)
"""
