"""The fast op parsers (frontend/fast/ops.py, ops_more.py, ops_mem.py) build exactly what xDSL's
parsers build, on the corpus and on edge cases, and raise xDSL's errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend.fast.ops import fast_form

from frontend.fast.fast_vs_xdsl import EDGES, both, both_errors


def _corpus() -> list[Path]:
    from xpu_passes.integration import oracle

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
        fast, slow, taken = both(path.read_text(), monkeypatch, names)
        assert fast == slow, path
        total += taken
    assert total > 10 * len(dumps), "the fast path is taken"
    ctx = make_context()
    assert all(fast_form(ctx.get_op(n)) is not None for n in names) and len(names) >= 15  # (only declared forms)
    assert {"tt.func", "scf.for", "tt.reduce"} <= names


def test_fast_path_edges_match_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    # Extra attributes, flags, comments, ops over two lines, other locations.
    fast, slow, taken = both(EDGES, monkeypatch)
    assert fast == slow
    # %0, %4, %7, %8 (an inline layout), %c1, %c3..%c6, %r, %m, %l2, %p, %q, %t, %cv, %sel, %sel2, %rs, tt.return,
    # tt.func; the others are xDSL's.
    assert taken == 22


MORE = """#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @g(%p: !tt.ptr<tensor<8x16xf32, #blocked>>, %t: tensor<8x16xf32, #blocked>, %q: tensor<8x16x!tt.ptr<f32>, #blocked>, %m: tensor<8x16xi1, #blocked>, %a: tensor<8x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<16x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<8x16xf32, #mma>) -> (i32, f32) {
    %x = tt.get_program_id x : i32 loc(#loc1)
    %y = tt.get_program_id z : i32
    %n = tt.get_num_programs y : i32
    %u = ub.poison : f32 loc(#loc1)
    %v = ub.poison : tensor<8x16xf32, #blocked>
    %g = math.exp2 %u : f32
    %h = math.sqrt %u fastmath<fast> : f32
    tt.store %p, %t {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<8x16xf32, #blocked>> loc(#loc1)
    tt.store %q, %t, %m : tensor<8x16x!tt.ptr<f32>, #blocked>
    tt.store %q, %t, %m cacheModifier = wb : tensor<8x16x!tt.ptr<f32>, #blocked>
    tt.store %q, %t {tt.x = 1 : i32, cache = 1 : i32} : tensor<8x16x!tt.ptr<f32>, #blocked>
    ttig.prefetch %p {boundaryCheck = array<i32: 0, 1>, cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>, ttig.block_io = "row_major"} : !tt.ptr<tensor<8x16xf32, #blocked>> loc(#loc1)
    ttig.prefetch %q, %m {isVolatile = false} : tensor<8x16x!tt.ptr<f32>, #blocked>
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<8x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<8x16xf32, #mma> loc(#loc1)
    %e = tt.dot %a, %b, %c {maxNumImpreciseAcc = 2 : i32} : tensor<8x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<8x16xf32, #mma>
    %f = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<8x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<8x16xf32, #mma>
    %r = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%r1: f32, %r2: f32):
      %s = arith.addf %r1, %r2 : f32
      tt.reduce.return %s : f32 loc(#loc1)
    }) : (tensor<8x16xf32, #blocked>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %sc:2 = "tt.scan"(%t, %t) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%s1: f32, %s2: f32, %s3: f32, %s4: f32):
      tt.scan.return %s1, %s3 : f32, f32
    }) : (tensor<8x16xf32, #blocked>, tensor<8x16xf32, #blocked>) -> (tensor<8x16xf32, #blocked>, tensor<8x16xf32, #blocked>) loc(#loc1)
    %r2 = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%q1: f32, %q2: f32):
      %q3 = arith.addf %q1, %q2 : f32
      tt.reduce.return %q3 : f32
    }) {tt.x = 1 : i32} : (tensor<8x16xf32, #blocked>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %z = scf.for %i = %x to %y step %x iter_args(%k = %u) -> (f32) : i32 {
      scf.yield %k : f32
    }
    scf.for %i = %x to %y step %x : i32 {
      scf.yield
    } loc(#loc1)
    tt.return
      %x, %z : i32, f32 loc(#loc1)
  }
  tt.func @h(%x: i32) -> (i32, i32) {
    tt.return %x, %x : i32,
      i32
  }
  tt.func @k(%x: i32) -> (i32, i32) {
    tt.return %x, %x : i32, i32 loc(#loc1)
  }
}
#loc1 = loc("k.py":2:4)
"""


def test_more_fast_shapes_match_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    # Terminators (also with their operands on the next line), stores, prefetches, dots,
    # program ids, poison: each form the fast path reads, and the neighbours it must not.
    names: set[str] = set()
    fast, slow, taken = both(MORE, monkeypatch, names)
    assert fast == slow
    # %x, %y, %n, %u, %v, 2 stores, 2 prefetches, %d, %e, %f, %r, %s, tt.reduce.return, %sc,
    # tt.scan.return, %r2 (its attributes and signature read by xDSL's code), %q3, its tt.reduce.return,
    # 2 scf.yield, the last tt.return, the 3 tt.func, the 2 scf.for, %g; xDSL's: the store with a
    # cacheModifier, the ops over two lines, %h (flags).
    assert taken == 30
    assert {"tt.store", "ttig.prefetch", "tt.dot", "tt.get_program_id", "ub.poison", "scf.yield",
            "tt.reduce.return", "tt.return", "tt.reduce", "tt.scan", "tt.scan.return"} <= names


@pytest.mark.parametrize("bad", [
    "%bad = arith.addi %a, %b : i32",  # operand types clash
    "%bad = arith.addi %a, %nope : i32",  # never defined
    "%bad = tt.splat %a : i32 -> tensor<64xi32, #nope>",  # unknown alias
    "%bad = tt.addptr %arg0, %a : !tt.ptr<f32>, i64",
    "%bad = arith.extsi %a : i32 to i16 loc(#loc9)",
    "%a = arith.addi %a, %a : i32",  # redefined
    "%bad = tt.load %a : i32",  # not a pointer
    "%bad = arith.cmpi foo, %a, %a : i32",
    "%bad = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<64xi32, #blocked>",  # the op's verifier
    "%bad = tt.advance %arg0, [%a] : <tensor<8xf32>>",
    "%bad = arith.addf %a, %a : i32",  # the verifier's (not a float): same place, op named
    "%bad = tt.splat %a : i32 -> tensor<64xi32, #ttg.slice<{dim = 5, parent = #nope}>>",
    "%x = arith.addi %y, %a : i32\n    %y = arith.addi %a, %a : i32",  # used before its definition
    "tt.store %a, %b : i32",  # not a pointer
    # a load's result (a type computed from the pointer's) used with another type
    "%bad = ttg.convert_layout %t : tensor<8x16xf16, #blocked2> -> tensor<8x16xf16, #blocked>",
    "tt.store %7, %6 : tensor<64x!tt.ptr<f32>, #blocked>",  # the value's type clashes
    "%bad = tt.get_program_id w : i32",
    "%bad = tt.get_program_id x : i64",  # the verifier's
    "%bad = ub.poison : #blocked",
    "ttig.prefetch %7, %a {isVolatile = false} : tensor<64x!tt.ptr<f32>, #blocked>",  # mask clashes
    "%bad = tt.dot %6, %6, %6, inputPrecision = tf64 : tensor<64xi32, #blocked> * tensor<64xi32, #blocked> -> tensor<64xi32, #blocked>",
    "%bad = tt.dot %6, %6, %6 : tensor<64xi32, #blocked> * tensor<64xi32, #blocked> -> tensor<64xi32, #blocked>",
    "tt.return %a : i32",  # the function returns nothing
    "%bad = math.exp %a : i32",  # not a float: the verifier's
    "%bad = arith.select %a, %a, %a : i32",  # the condition is not i1: a type clash
    "%bad = arith.select %c3, %a, %b : i32, f32",  # the verifier's
    # generic tt.reduce: results bound, the operand's type, the signature read by xDSL's code
    "%bad:2 = \"tt.reduce\"(%6) <{axis = 0 : i32}> ({\n    ^bb0(%z1: i32, %z2: i32):\n      tt.reduce.return %z1 : i32\n    }) : (tensor<64xi32, #blocked>) -> i32",
    "%bad = \"tt.reduce\"(%6) <{axis = 0 : i32}> ({\n    ^bb0(%z1: i32, %z2: i32):\n      tt.reduce.return %z1 : i32\n    }) : (tensor<64xf32, #blocked>) -> i32",
    "%bad = \"tt.reduce\"(%6) <{axis = 0 : i32}> ({\n    ^bb0(%z1: i32, %z2: i32):\n      tt.reduce.return %z1 : i32\n    }) {tt.x} : (tensor<64xf32, #blocked>) -> i32",
])  # fmt: skip
def test_fast_path_errors_are_xdsls(bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = EDGES.replace("    tt.return\n", f"    {bad}\n    tt.return\n")
    fast, slow = both_errors(text, monkeypatch)
    assert (fast.line, fast.col) == (slow.line, slow.col)
    if bad.startswith(("%bad = arith.addf", "%bad = tt.get_program_id x : i64", "%bad = math.exp")):
        # xDSL's declarative parser checks the type constraint; the fast path leaves it to
        # the verifier, whose message names the op and the operand too.
        op = bad.split()[2]
        assert slow.message in fast.message and fast.message.startswith(f"'{op}' op ")
    else:
        assert fast.message == slow.message
