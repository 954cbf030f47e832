"""The text-level parts of the front end: spellings and location aliases."""

from __future__ import annotations

from xpu_passes.frontend.locations import extract_loc_defs
from xpu_passes.frontend.spelling import Spelling, denormalize, normalize

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


LOOPS = """module {
  tt.func @loops(%n: i32 loc("k.py":1:0)) {
    %c0 = arith.constant 0 : i32 loc("k.py":2:8)
    %c1 = arith.constant 1 : i32 loc("k.py":3:8)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32)  : i32 {
      %s = arith.addi %a, %i : i32 loc("k.py":5:12)
      scf.yield %s : i32 loc("k.py":5:4)
    } loc("k.py":4:4)
    %w = scf.while (%x = %r) : (i32) -> i32 {
      %k = arith.cmpi slt, %x, %n : i32 loc("k.py":7:10)
      scf.condition(%k) %x : i32 loc("k.py":7:4)
    } do {
    ^bb0(%y: i32 loc("k.py":8:4)):
      %z = arith.addi %y, %c1 : i32 loc("k.py":9:8)
      scf.yield %z : i32 loc("k.py":9:4)
    } loc("k.py":6:4)
    tt.return loc("k.py":10:4)
  } loc("k.py":1:0)
} loc("k.py":0:0)
"""


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
