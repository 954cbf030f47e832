"""Type lists read by the fast parsers (frontend/fast/ops_more.py `_type_list`) split at
top-level commas as a reference split does, and leave lists nested too deep to xDSL."""

from __future__ import annotations

import pytest


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
