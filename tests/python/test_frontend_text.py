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
