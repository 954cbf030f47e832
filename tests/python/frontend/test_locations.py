"""Location alias definitions found only where a line starts with `#`: the same matches
as the regex over the whole text, on every corpus dump and on edge texts."""

from __future__ import annotations

import pytest

from xpu_passes.corpus import corpus_dump_files
from xpu_passes.frontend.locations import _LOC_DEF, _loc_def_matches, extract_loc_defs

EDGES = [
    '#loc = loc("a.py":1:2)\nmodule {\n}\n#loc1 = loc("a.py":3:4)\n',  # (a definition at offset 0)
    'module {\n} loc(#loc)\n#loc = loc("a.py":1:2)\n#loc1 = loc(callsite(#loc at #loc))\n#loc2 = loc(unknown)',
    '#blocked = #ttg.blocked<{}>\nmodule {\n}\n#loc = loc("x\n#loc9 = loc(\\"y\\":1:1)":1:1)\n#loc1 = loc("z":1:1)\n',
    'module {\n}\n #loc = loc("indented":1:1)\n#loc1 = loc("a":1:1)\r\n#loc2 = loc("b":1:1)\n#',
    "",
    "#",
    "\n#loc = loc(",
]


def _spans(matches: object) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(1)) for m in matches]  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", EDGES)
def test_same_matches_as_the_regex_on_edge_texts(text: str) -> None:
    assert _spans(_loc_def_matches(text)) == _spans(_LOC_DEF.finditer(text))


def test_same_matches_and_definitions_on_every_corpus_dump() -> None:
    files = corpus_dump_files()
    assert files
    for path in files:
        text = path.read_text()
        assert _spans(_loc_def_matches(text)) == _spans(_LOC_DEF.finditer(text)), path


def test_definitions_and_blanked_text_as_with_the_whole_text_regex(monkeypatch: pytest.MonkeyPatch) -> None:
    from xpu_passes.frontend import locations

    texts = [*EDGES[:4], *(p.read_text() for p in corpus_dump_files()[::7])]
    fast = [extract_loc_defs(t) for t in texts]
    monkeypatch.setattr(locations, "_loc_def_matches", _LOC_DEF.finditer)
    assert fast == [extract_loc_defs(t) for t in texts]


def _defs(*specs: tuple[str, tuple[str, ...]]) -> list:  # type: ignore[type-arg]
    from xpu_passes.frontend.locations import LocDef

    return [LocDef(name, f"{name} = loc(...)", i, refs) for i, (name, refs) in enumerate(specs)]


@pytest.mark.parametrize("specs, expected", [
    ((("#a", ()), ("#b", ()), ("#c", ("#a", "#b"))), ["#a", "#b", "#c"]),  # MLIR's order: kept
    ((("#c", ("#a", "#b")), ("#a", ()), ("#b", ())), ["#a", "#b", "#c"]),  # refs first
    ((("#d", ("#c",)), ("#c", ("#a",)), ("#a", ())), ["#a", "#c", "#d"]),
    ((("#a", ("#nope",)), ("#b", ())), ["#a", "#b"]),  # unknown: left to the parser
])  # fmt: skip
def test_definitions_follow_the_aliases_they_refer_to(specs: tuple, expected: list[str]) -> None:  # type: ignore[type-arg]
    from xpu_passes.frontend.locations import dependency_order

    assert [d.name for d in dependency_order(_defs(*specs))] == expected
