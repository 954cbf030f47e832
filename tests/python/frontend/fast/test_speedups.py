"""The front end's speed-ups give what xDSL's own code gives (speed itself: benchmarks/)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, IntegerType, TensorType
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, print_module
from xpu_passes.ir import xdsl_adapt
from xpu_passes.frontend.fast.memo import MemoParser
from xpu_passes.ir.xdsl_text import TextLexer, TextParser, TextPrinter

TRICKY = (
    '{-# x #-} 0xf32 0x 0xg 1.5e+3 1e5 ... "a\\"b" "" @"q" @f.g %1abc %x-y ^bb0 !tt.ptr #-x -> - -1 '
    "// comment: loc(\n a$b.c 0. 12.5E3x []{}<>=+*?|/ #-} é"
)


def _tokens(text: str, lexer_class: type[MLIRLexer]) -> list[tuple[object, int, int, str]]:
    lexer = lexer_class(Input(text, "t"))
    out: list[tuple[object, int, int, str]] = []
    while True:
        try:
            tok = lexer.lex()
        except ParseError as e:
            return out + [("error", e.span.start, e.span.end, e.msg)]
        out.append((tok.kind, tok.span.start, tok.span.end, type(tok.span).__name__))
        if tok.kind is MLIRTokenKind.EOF:
            return out


@pytest.mark.parametrize(
    "text", [TRICKY, "// only a comment: loc(", '"unterminated', "@", "%", "#-}", "x // c\n// d:"]
)
def test_fast_lexer_gives_xdsls_tokens(text: str) -> None:
    assert _tokens(text, TextLexer) == _tokens(text, MLIRLexer)


MODULE = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%arg0: !tt.ptr<f32> loc("k.py":1:2)) {
    %c = arith.constant dense<1.000000e+00> : tensor<256xf32, #blocked> loc(#loc1)
    %i = arith.constant dense<7> : tensor<256xi32, #blocked> loc(#loc1)
    %n = arith.constant dense<0xFF800000> : tensor<256xf32, #blocked> loc(#loc2)
    %0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked> loc(#loc2)
    %1 = tt.addptr %0, %i : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked> loc(#loc3)
    tt.store %1, %c : tensor<256x!tt.ptr<f32>, #blocked> loc(callsite(#loc1 at #loc2))
    tt.return loc(unknown)
  } loc(#loc)
} loc(#loc)
#loc = loc("k.py":1:0)
#loc1 = loc("k.py":2:4)
#loc2 = loc("k.py":3:4)
#loc3 = loc(callsite(#loc1 at #loc2))
"""


def test_memoized_parse_prints_what_xdsls_parser_reads() -> None:
    ctx = make_context()
    parsed = parse_module(ctx, MODULE, "m.mlir")
    ours = print_module(parsed.module, parsed.spelling, debuginfo=True)
    # The same text through xDSL's parser (our subclass: dense literals as MLIR reads them)
    # without the memo, the location fast path or the trailing alias definitions (given
    # first, as xDSL needs).
    body, tail = MODULE.split("} loc(#loc)\n#loc =")
    plain = TextParser(ctx, "#loc =" + tail + body + "} loc(#loc)\n", "m.mlir").parse_module()
    assert print_module(plain, parsed.spelling, debuginfo=True) == ours
    assert "dense<0xFF800000>" in ours and "dense<7>" in ours and "dense<1.000000e+00>" in ours


def test_memo_shares_repeated_types_and_reparses_other_text() -> None:
    ctx = make_context()
    parsed = parse_module(ctx, MODULE, "m.mlir")
    ops = {op.name: op for op in parsed.module.walk()}
    splat, addptr = ops["tt.splat"], ops["tt.addptr"]
    assert splat.results[0].type is addptr.operands[0].type, "one object for one type text"
    assert addptr.operands[1].type != addptr.operands[0].type
    p = MemoParser(ctx, "{a = 1 : i32, b} {a = 1 : i32, b}", "t")
    first, second = p.parse_optional_attr_dict(), p.parse_optional_attr_dict()
    assert first == second and first is not second, "each caller owns its dictionary"


def test_memo_does_not_reuse_a_prefix_of_longer_text() -> None:
    # `dense<1>` then another type after it; `(i32) -> i32` then `(i32) -> i32x...`.
    ctx = make_context()
    p = MemoParser(ctx, "dense<1> : tensor<2xi32> dense<1> : tensor<2xi64> (i32) -> i32 (i32) -> i32 (i32) -> i64", "t")
    a, b = p.parse_attribute(), p.parse_attribute()
    assert isinstance(a, DenseIntOrFPElementsAttr) and isinstance(b, DenseIntOrFPElementsAttr)
    assert a.get_element_type() == IntegerType(32) and b.get_element_type() == IntegerType(64)
    t1, t2, t3 = p.parse_type(), p.parse_type(), p.parse_type()
    assert t1 is t2 and str(t3) == "(i32) -> i64"
    assert p._current_token.kind is MLIRTokenKind.EOF


def test_location_fast_path_keeps_errors_located() -> None:
    ctx = make_context()
    bad = MODULE.replace("loc(#loc3)", "loc(#nope)")
    with pytest.raises(TTGIRError) as e:
        parse_module(ctx, bad, "m.mlir")
    assert (e.value.line, e.value.col) == (8, 100) and e.value.message == "undefined symbol alias '#nope'"


def test_a_splat_dense_literal_is_stored_as_xdsl_stores_it() -> None:
    # (read by packing one element and repeating its bytes, not one element per position)
    ctx = make_context()
    for text, t, values in (
        ("dense<-3> : tensor<256x256xi32>", TensorType(IntegerType(32), [256, 256]), [-3] * 65536),
        ("dense<1.5> : tensor<4xf32>", TensorType(Float32Type(), [4]), [1.5] * 4),
        ("dense<true> : tensor<0xi1>", TensorType(IntegerType(1), [0]), []),
    ):
        ours = TextParser(ctx, text, "t").parse_attribute()
        assert ours == DenseIntOrFPElementsAttr.from_list(t, values) == Parser(ctx, text, "t").parse_attribute()
    mixed = TextParser(ctx, "dense<[1.0, 1.0, 2.0]> : tensor<3xf32>", "t").parse_attribute()
    assert isinstance(mixed, DenseIntOrFPElementsAttr) and mixed.get_values() == (1.0, 1.0, 2.0)


def test_pass_catalog_matches_the_pass_classes() -> None:
    from xpu_passes import registry
    from xpu_passes.transforms import load_all

    classes = {factory().name: factory() for factory in load_all().values()}
    assert set(registry.OURS) <= set(classes)
    for name, (module, _) in registry.OURS.items():
        cls = classes[name]
        assert cls.__module__ == f"xpu_passes.transforms.{module}"
        assert registry.python_passes()[name]() is cls


def test_dialects_load_when_first_named() -> None:
    ctx = make_context()
    assert [d.name for d in ctx.loaded_dialects] == ["builtin"]
    parse_module(ctx, MODULE, "m.mlir")
    assert {"tt", "ttg", "arith"} <= {d.name for d in ctx.loaded_dialects}


def test_location_alias_definitions_keep_xdsls_errors() -> None:
    ctx = make_context()
    with pytest.raises(TTGIRError) as e:
        parse_module(ctx, MODULE.replace("at #loc2))", "at #nope))"), "m.mlir")
    assert (e.value.line, e.value.col) == (16, 36) and e.value.message == "undefined symbol alias '#nope'"
    # The usual forms are read without the parser; these are left to it (and its errors).
    for bad, col in (("#loc3 = loc(callsite(#loc3 at", 28), ("#loc3 = loc(callsite(#blocked at", 31)):
        with pytest.raises(TTGIRError) as e:
            parse_module(ctx, MODULE.replace("#loc3 = loc(callsite(#loc1 at", bad), "m.mlir")
        assert (e.value.line, e.value.col) == (16, col), e.value.message


@pytest.mark.parametrize("text", ["/a/b/kernels.py", "", 'q"uote', "back\\slash", "tab\t", "é", "~ !#[]"])
def test_string_literals_print_as_xdsl_prints_them(text: str) -> None:
    from io import StringIO

    from xdsl.printer import Printer

    ours, theirs = StringIO(), StringIO()
    TextPrinter(stream=ours).print_string_literal(text)
    Printer(stream=theirs).print_string_literal(text)
    assert ours.getvalue() == theirs.getvalue()


_DOMINANCE = """module {
  tt.func @f(%a: i32, %c: i1) {
    BODY
    tt.return
  }
}
"""


@pytest.mark.parametrize("body", [
    "%x = arith.addi %y, %a : i32\n    %y = arith.addi %a, %a : i32",  # used before its definition
    "scf.if %c {\n      %y = arith.addi %a, %a : i32\n    }\n    %x = arith.addi %y, %a : i32",  # out of its region
])  # fmt: skip
def test_parse_skips_the_dominance_check_only_where_it_cannot_fail(body: str) -> None:
    # The parser leaves out the dominance check for text with no forward reference and
    # one block per region; these have a forward reference: still caught.
    with pytest.raises(TTGIRError) as e:
        parse_module(make_context(), _DOMINANCE.replace("BODY", body), "t.mlir")
    assert "does not dominate" in e.value.message or "use of undefined value" in e.value.message
    ok = parse_module(make_context(), _DOMINANCE.replace("BODY", "%y = arith.addi %a, %a : i32"), "t.mlir")
    assert ok.module.ops.first is not None


def _whole_text_normalize(text: str) -> tuple[str, list[int], list[int]]:
    """normalize's rename as a scan of every token of the text (what the line-local scan replaces)."""
    from xpu_passes.frontend import spelling as S

    old_to_new = {o: c for c, o in S.DIALECTS}
    out, starts, shifts, pos, new_len = [], [], [], 0, 0
    for m in S._token_re(list(old_to_new)).finditer(text):
        if (repl := S._rename(m, old_to_new)) is None:
            continue
        out.append(text[pos : m.start()])
        new_len += m.start() - pos + len(repl)
        out.append(repl)
        starts.append(new_len)
        shifts.append((shifts[-1] if shifts else 0) + len(m.group(0)) - len(repl))
        pos = m.end()
    return "".join(out) + text[pos:], starts, shifts


@pytest.mark.parametrize("text", [
    'x = triton_gpu.a "triton_gpu.b" "triton_gpu.c" = 1 loc("triton_gpu.d":1:2) triton_intel_gpu.e\n',
    '"s triton_gpu.x" triton_gpu.y\n"unterminated triton_gpu.z\n"a" = triton_intel_gpu.w "\\" triton_gpu.q"',
    'no old names: ttg.a "triton_gpu" xtriton_gpu.b triton_gpu_c.d\n',
    'triton_gpu.a\n\n"triton_intel_gpu.k"\n  = 3',  # a key whose `=` is on the next line
])  # fmt: skip
def test_normalize_renames_what_a_whole_text_scan_renames(text: str) -> None:
    from xpu_passes.frontend.spelling import normalize

    normalized, columns, _ = normalize(text)
    assert (normalized, columns._starts, columns._shift) == _whole_text_normalize(text)


def test_new_op_builds_what_create_builds() -> None:
    from xdsl.dialects.builtin import i32
    from xdsl.ir import Block

    ctx = make_context()
    block = Block(arg_types=[i32, i32])
    for name in ("arith.addi", "arith.constant", "tt.return"):
        cls = ctx.get_optional_op(name)
        assert cls is not None
        operands = list(block.args) if name == "arith.addi" else []
        results = [i32] if name != "tt.return" else []
        a = cls.create(operands=operands, result_types=results)
        b = xdsl_adapt.new_op(cls, operands, results)
        assert vars(a).keys() == vars(b).keys()
        assert (a.properties, a.attributes, a.location, a.regions, a.successors) == (
            b.properties, b.attributes, b.location, b.regions, b.successors)
        assert [r.type for r in a.results] == [r.type for r in b.results] and [r.op for r in b.results] == [b] * len(results)
        assert [u.operation for v in block.args for u in v.uses].count(b) == len(operands)


def test_terminators_verified_once_per_parent_and_function_type() -> None:
    # The same tt.return / scf.yield signature verified in a valid place does not let it
    # through under another function type or another parent.
    good = """module {
  tt.func @f(%a: i32) -> i32 {
    %c = arith.constant 1 : index
    scf.for %i = %c to %c step %c {
      scf.yield
    }
    tt.return %a : i32
  }
}
"""
    parse_module(make_context(), good, "good.mlir")
    for bad, message in (
        (good.replace("-> i32 {", "-> f32 {"), "'tt.return' op returns ['i32'] but the function returns ['f32']"),
        (good.replace("    tt.return %a : i32\n", "    scf.yield\n"), "'scf.yield' op 'scf.yield' expects parent op"),
    ):
        with pytest.raises(TTGIRError) as e:
            parse_module(make_context(), bad, "bad.mlir")
        assert e.value.message.startswith(message), e.value.message
