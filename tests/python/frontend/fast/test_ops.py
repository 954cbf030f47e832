"""The fast op parsers (frontend/fast/ops.py) build exactly what xDSL's parsers build."""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, parser, print_module
from xpu_passes.frontend.fast.ops import fast_form


def _both(text: str, monkeypatch: pytest.MonkeyPatch, names: set[str] | None = None) -> tuple[str, str, int]:
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
        fast, slow, taken = _both(path.read_text(), monkeypatch, names)
        assert fast == slow, path
        total += taken
    assert total > 10 * len(dumps), "the fast path is taken"
    ctx = make_context()
    assert all(fast_form(ctx.get_op(n)) is not None for n in names) and len(names) >= 15  # (only declared forms)
    assert {"tt.func", "scf.for", "tt.reduce"} <= names


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


def test_fast_path_edges_match_xdsl(monkeypatch: pytest.MonkeyPatch) -> None:
    # Extra attributes, flags, comments, ops over two lines, other locations.
    fast, slow, taken = _both(EDGES, monkeypatch)
    assert fast == slow
    # %0, %4, %7, %8 (an inline layout), %c1, %c3..%c6, %r, %m, %l2, %p, %q, %t, %cv, %sel, %sel2, %rs, tt.return,
    # tt.func; the others are xDSL's.
    assert taken == 22


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
    fast, slow, taken = _both(FUNCS, monkeypatch, names)
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
    errors = []
    for fast in (parser.parse_fast, lambda p, start, *lex: None):
        monkeypatch.setattr(parser, "parse_fast", fast)
        with pytest.raises(TTGIRError) as e:
            parse_module(make_context(), text, "t.mlir")
        errors.append(e.value)
    fast, slow = errors
    assert (fast.line, fast.col, fast.message) == (slow.line, slow.col, slow.message)


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
    fast, slow, taken = _both(MORE, monkeypatch, names)
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
    errors = []
    for fast in (parser.parse_fast, lambda p, start, *lex: None):
        monkeypatch.setattr(parser, "parse_fast", fast)
        with pytest.raises(TTGIRError) as e:
            parse_module(make_context(), text, "t.mlir")
        errors.append(e.value)
    fast, slow = errors
    assert (fast.line, fast.col) == (slow.line, slow.col)
    if bad.startswith(("%bad = arith.addf", "%bad = tt.get_program_id x : i64", "%bad = math.exp")):
        # xDSL's declarative parser checks the type constraint; the fast path leaves it to
        # the verifier, whose message names the op and the operand too.
        op = bad.split()[2]
        assert slow.message in fast.message and fast.message.startswith(f"'{op}' op ")
    else:
        assert fast.message == slow.message


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
    fast, slow, taken = _both(FORS, monkeypatch, names)
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
    errors = []
    for fast in (parser.parse_fast, lambda p, start, *lex: None):
        monkeypatch.setattr(parser, "parse_fast", fast)
        with pytest.raises(TTGIRError) as e:
            parse_module(make_context(), text, "t.mlir")
        errors.append(e.value)
    fast, slow = errors
    assert (fast.line, fast.col, fast.message) == (slow.line, slow.col, slow.message)


class _Types:
    """What fastops_more._type_list reads of a parser: the text, and each type's text."""

    def __init__(self, text: str) -> None:
        self._text = text

    def fast_type(self, start: int, end: int) -> str | None:
        piece = self._text[start:end]
        return None if not piece or piece != piece.strip() else piece


def _split_by_depth(text: str) -> list[str] | None:
    # The reference: cut at `, ` outside `<...>`.
    out, depth, cut = [], 0, 0
    for i, c in enumerate(text):
        depth += (c == "<") - (c == ">")
        if c == "," and depth == 0:
            if text[i + 1 : i + 2] != " ":
                return None
            out.append(text[cut:i])
            cut = i + 2
    out.append(text[cut:])
    return None if any(not p or p != p.strip() for p in out) else out


@pytest.mark.parametrize("text", [
    "i32",
    "i32, f32",
    "tensor<64xf32, #blocked>, !tt.ptr<tensor<8x16xf32, #blocked2>>, i64",
    "tensor<8x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, i32",
    "!tt.ptr<tensor<8x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.slice<{dim = 0, parent = #b}>}>>>, i1",
    "i32,f32",  # no space after the comma
    "i32, ",  # nothing after it
    "i32 , f32",
])  # fmt: skip
def test_type_lists_split_at_top_level_commas(text: str) -> None:
    from xpu_passes.frontend.fast.ops_more import _type_list

    assert _type_list(_Types(text), 0, len(text)) == _split_by_depth(text)  # type: ignore[arg-type]


def test_type_lists_nested_deeper_than_the_split_reads_go_to_xdsl() -> None:
    from xpu_passes.frontend.fast.ops_more import _type_list

    deep = "i32, " + "!tt.ptr<" * 6 + "f32" + ">" * 6
    assert _split_by_depth(deep) is not None
    assert _type_list(_Types(deep), 0, len(deep)) is None  # type: ignore[arg-type]
