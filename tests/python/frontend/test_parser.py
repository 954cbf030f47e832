"""The text-level parts of the front end: spellings and location aliases."""

from __future__ import annotations

import pytest

from xpu_passes.frontend.locations import extract_loc_defs
from xpu_passes.frontend.spelling import Spelling, denormalize, normalize

from samples import LOOPS

OLD = (
    'module attributes {"triton_gpu.num-warps" = 4 : i32, triton_intel_gpu.support_dpas} {\n'
    "  %1 = triton_gpu.convert_layout %0 : tensor<4xf32, #triton_gpu.blocked<{a}>> -> x"
    ' loc("triton_gpu.py":1:2)\n'
    "}\n"
)


def test_old_spelling_is_normalized_and_restored() -> None:
    text, _, seen = normalize(OLD)
    assert "triton_gpu." not in text.replace('"triton_gpu.py"', "")
    assert '"ttg.num-warps" = 4' in text and "ttig.support_dpas" in text
    assert '"triton_gpu.py"' in text, "string data is not a dialect name"
    assert seen.names == {"ttg": "triton_gpu", "ttig": "triton_intel_gpu"}
    assert denormalize(text, seen) == OLD


@pytest.mark.parametrize("text", [
    'ttg.x // triton_gpu.y\n  ^bb1:  // pred: ^bb0\n',  # a comment naming the old spelling: not a use
    'a "x//triton_gpu.y" // c\nb // d "e"\n"//"',  # `//` in strings, comments holding quotes
    '"unterminated // triton_gpu.c\nnext // d\n', '//', 'x\n//\n', '"a\\"//" // triton_gpu.z\n\n', "no comment",
])  # fmt: skip
def test_only_lines_with_a_comment_are_scanned_for_one(text: str) -> None:
    """Comments are cut line by line (a string or comment never spans lines): the same text as the
    whole-text substitution, so the same spelling is seen."""
    from xpu_passes.frontend import spelling

    whole = spelling._COMMENT.sub(lambda m: m.group(1) or "", text)
    assert spelling._uncommented(text) == whole
    assert normalize(text)[2].names == normalize(whole)[2].names


def test_columns_map_back_to_the_original_text() -> None:
    text, cmap, _ = normalize(OLD)
    for word in ("convert_layout", "blocked", "loc("):
        assert cmap.original_offset(text.index(word)) == OLD.index(word)


def test_new_spelling_is_kept_and_3_3_is_the_default() -> None:
    _, _, seen = normalize("ttg.convert_layout ttig.prefetch")
    assert seen.names == {"ttg": "ttg", "ttig": "ttig"}
    _, _, none = normalize("tt.load")
    assert none.names == Spelling.choose("triton-3.3").names
    assert denormalize("#ttig.dpas<{}> ttg.x", Spelling.choose("old")) == (
        "#triton_intel_gpu.dpas<{}> triton_gpu.x"
    )


def test_prefix_inside_longer_names_is_not_renamed() -> None:
    text, _, _ = normalize("my_triton_gpu.x foo.triton_gpu.y")
    assert text == "my_triton_gpu.x foo.triton_gpu.y"


def test_trailing_loc_defs_are_cut_and_ordered_by_use() -> None:
    src = (
        "module {\n} loc(#loc)\n"
        "#loc = loc(callsite(#loc2 at #loc1))\n"
        '#loc1 = loc("a.py":1:2)\n'
        '#loc2 = loc("#loc9.py":3:4)\n'
    )
    body, defs = extract_loc_defs(src)
    assert len(body) == len(src) and body.count("\n") == src.count("\n")
    assert "#loc1 =" not in body
    names = [d.name for d in defs]
    assert names.index("#loc1") < names.index("#loc") and names.index("#loc2") < names.index("#loc")
    assert defs[-1].refs == ("#loc2", "#loc1"), "aliases inside strings are not references"




def _print_loops(**options: bool) -> str:
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module

    parsed = parse_module(make_context(), LOOPS, "loops.mlir")
    return print_module(parsed.module, parsed.spelling, debuginfo=True, local_scope=True, **options)


def test_block_arg_locs_print_scf_loops_generically() -> None:
    """scf.for's custom syntax cannot carry its block arguments' locations; the option's
    generic form does: the induction variable gets the loop's (as MLIR's builder gives
    it), the iter_args and scf.while's before-region arguments stay unknown."""
    out = _print_loops(block_arg_locs=True)
    assert '%0 = "scf.for"(%c0_i32, %arg0, %c1_i32, %c0_i32) ({' in out
    assert '^bb0(%arg1: i32 loc("k.py":4:4), %arg2: i32 loc(unknown)):' in out
    assert '%1 = "scf.while"(%0) ({' in out and "^bb0(%arg1: i32 loc(unknown)):" in out
    assert '^bb0(%arg1: i32 loc("k.py":8:4)):' in out, "a location the input had is kept"
    # Only the loops are generic: their bodies keep the custom syntax.
    assert '%2 = arith.addi %arg2, %arg1 : i32 loc("k.py":5:12)' in out and 'scf.yield %2 : i32 loc("k.py":5:4)' in out
    assert 'scf.condition(%2) %arg1 : i32 loc("k.py":7:4)' in out
    assert '}) : (i32, i32, i32, i32) -> i32 loc("k.py":4:4)' in out


def test_block_arg_locs_is_off_by_default_and_needs_debuginfo() -> None:
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module

    out = _print_loops()
    assert "scf.for %arg1 = %c0_i32 to %arg0 step %c1_i32 iter_args(%arg2 = %c0_i32) -> (i32)  : i32 {" in out
    assert '"scf.' not in out
    # xDSL's scf.while printed its location after its type too; MLIR reads it only at the end.
    assert "scf.while (%arg1 = %0) : (i32) -> i32 {" in out and out.count('loc("k.py":6:4)') == 1
    parsed = parse_module(make_context(), LOOPS, "loops.mlir")
    plain = print_module(parsed.module, parsed.spelling, block_arg_locs=True)
    assert '"scf.' not in plain and "loc(" not in plain


# ------------------------------------------------ locations MLIR's parser gives

UNLOCATED = """tt.func @f(%arg0: i32 {triton_intel_gpu.x = 1 : i32}, %p: i1) -> i32 {
  cf.cond_br %p, ^bb1(%arg0 : i32), ^bb2
^bb1(%x: i32):  // pred: ^bb0
  tt.return %x : i32
^bb2:
  %c = "arith.constant"() {value = 1 : i32} : () -> i32
  %r:2 = scf.for %i = %c to %arg0 step %c iter_args(%a = %c, %b = %c) -> (i32, i32)  : i32 {
    %s = arith.addi %a, %i : i32 loc("k.py":3:4)
      scf.yield %s, %b : i32, i32
  } loc(unknown)
  %w = scf.while (%v = %r#0) : (i32) -> i32 {
    %t = arith.cmpi slt, %v, %arg0 : i32
    scf.condition(%t) %v : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  tt.return %w : i32
}
"""


def _ours_with_text_locations(text: str, name: str, **options: bool) -> str:
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module

    parsed = parse_module(make_context(), text, name, text_locations=True)
    return print_module(parsed.module, parsed.spelling, debuginfo=True, **options)


def test_unlocated_text_gets_its_positions_as_mlir_gives_them(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Ops at their name (generic ones at the quoted name), block and function arguments at
    their `%name`, an implicit module at 0:0; written locations (also `loc(unknown)`) kept.
    Checked against triton-xpu's parse and print of the same file, in both alias forms."""
    from xpu_passes.integration import oracle

    if not oracle.available():
        pytest.skip("needs triton-xpu")
    from samples import inline_aliases

    path = tmp_path / "k.mlir"
    path.write_text(UNLOCATED)
    ctx = oracle.context()
    from triton._C.libtriton import ir

    mod = ir.parse_mlir_module(str(path), ctx)
    mod.context = ctx
    want = str(mod)
    got = _ours_with_text_locations(UNLOCATED, str(path))
    assert got == want
    assert _ours_with_text_locations(UNLOCATED, str(path), local_scope=True) == inline_aliases(want)
    assert f'loc("{path}":0:0)' in got and f'loc("{path}":1:55)' in got and f'loc("{path}":6:8)' in got and "loc(unknown)" in got


def test_text_locations_only_when_asked() -> None:
    """Triton's prints that the plugin re-reads keep MLIR's unknown locations for what the
    text cannot carry (a loop's iter_args), never positions in an internal text."""
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module

    parsed = parse_module(make_context(), UNLOCATED, "k.mlir")
    out = print_module(parsed.module, parsed.spelling, debuginfo=True)
    assert '"k.mlir"' not in out and 'loc("k.py":3:4)' in out


def test_location_alias_defined_twice_is_mlirs_error() -> None:
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import TTGIRError, parse_module

    text = 'module {\n} loc(#loc1)\n#loc1 = loc("a.py":3:4)\n#loc1 = loc("a.py":5:6)\n'
    with pytest.raises(TTGIRError) as e:
        parse_module(make_context(), text, "d.mlir")
    assert (e.value.line, e.value.col, e.value.message) == (4, 1, "redefinition of attribute alias id 'loc1'")


def test_text_after_a_location_alias_is_read_not_dropped() -> None:
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import TTGIRError, parse_module

    for tail, col, message in (
        (" foo", 25, "custom op 'foo' is unknown (tried 'builtin.foo' as well)"),
        (")", 24, "expected operation name in quotes"),
    ):
        text = f'module {{\n}} loc(#loc1)\n#loc1 = loc("a.py":3:4){tail}\n'
        with pytest.raises(TTGIRError) as e:
            parse_module(make_context(), text, "t.mlir")
        assert (e.value.line, e.value.col, e.value.message) == (3, col, message)
    # A comment after it is fine, and a string holding `)` does not end it early.
    text = 'module {\n} loc(#loc1)\n#loc1 = loc("a)(.py":3:4) // note\n'
    assert parse_module(make_context(), text, "t.mlir").module is not None


@pytest.mark.parametrize("name", ["warp-specialize.mlir", "tt-declarative.mlir"])
def test_lit_module_prints_as_triton_xpu_does(name: str) -> None:
    """Ops triton-xpu 3.3 has (ttg.warp_specialize; the ops declared from Triton's
    assemblyFormat): the lit file's module, read from the file, prints byte for byte as
    triton-xpu prints it, locations from the text included."""
    from xpu_passes.integration import oracle

    if not oracle.available():
        pytest.skip("needs triton-xpu")
    from pathlib import Path

    from triton._C.libtriton import ir

    path = Path(__file__).parents[2] / "lit" / "dialects" / name
    ctx = oracle.context()
    mod = ir.parse_mlir_module(str(path), ctx)
    mod.context = ctx
    assert _ours_with_text_locations(path.read_text(), str(path)) == str(mod)
