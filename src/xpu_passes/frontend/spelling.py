"""Dialect spellings: `triton_gpu`/`ttg` and `triton_intel_gpu`/`ttig`.

Our dialects only define the canonical names (`ttg`, `ttig`). Old spellings are
rewritten in the text before parsing, and back after printing, so that a file keeps
the spelling its reader expects (triton-xpu 3.3 only reads `triton_intel_gpu`).
Renaming shortens lines, so we keep a column map to report errors where the user
sees them.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

# (canonical, old) dialect names.
DIALECTS: tuple[tuple[str, str], ...] = (("ttg", "triton_gpu"), ("ttig", "triton_intel_gpu"))

# A string literal, or a dialect prefix that is not part of a longer identifier.
_TOKEN = r'"(?:[^"\\\n]|\\.)*"|(?<![\w$.\-])({names})\.(?=[\w$])'
_EQUALS = re.compile(r"\s*=")
# Line comments, skipping string literals that contain `//`.
_COMMENT = re.compile(r'("(?:[^"\\\n]|\\.)*")|//[^\n]*')


def _token_re(names: list[str]) -> re.Pattern[str]:
    return re.compile(_TOKEN.format(names="|".join(names)))


def _rename(m: re.Match[str], renames: dict[str, str]) -> str | None:
    """The replacement for a prefix match or a quoted attribute key, else None.

    A quoted key (`"triton_gpu.num-warps" = 4`) is a name; other strings are data.
    """
    if m.group(1) is not None:
        return renames[m.group(1)] + "."
    literal = m.group(0)[1:-1]
    head, dot, rest = literal.partition(".")
    if dot and head in renames and _EQUALS.match(m.string, m.end()):
        return f'"{renames[head]}.{rest}"'
    return None


@dataclass
class Spelling:
    """Which name to print for each canonical dialect."""

    names: dict[str, str] = field(default_factory=lambda: {"ttg": "ttg", "ttig": "ttig"})

    @classmethod
    def choose(cls, style: str, seen: "Spelling | None" = None) -> "Spelling":
        """`input` keeps what the input used (3.3's names where it used none)."""
        if style == "new":
            return cls()
        if style == "old":
            return cls({c: o for c, o in DIALECTS})
        if style == "triton-3.3":
            return cls({"ttg": "ttg", "ttig": "triton_intel_gpu"})
        if style == "input":
            return seen if seen is not None else cls.choose("triton-3.3")
        raise ValueError(f"unknown spelling style '{style}' (input, new, old, triton-3.3)")


@dataclass
class ColumnMap:
    """Maps offsets in the normalized text back to (line, column) in the original."""

    # Per normalized offset of each rewrite: cumulative characters removed before it.
    _starts: list[int] = field(default_factory=list)
    _shift: list[int] = field(default_factory=list)

    def add(self, new_offset: int, removed: int) -> None:
        total = (self._shift[-1] if self._shift else 0) + removed
        self._starts.append(new_offset)
        self._shift.append(total)

    def original_offset(self, new_offset: int) -> int:
        i = bisect.bisect_right(self._starts, new_offset) - 1
        return new_offset + (self._shift[i] if i >= 0 else 0)


def _uses_prefix(name: str, code: str) -> bool:
    """`name.` not inside a longer name (a quoted `"name.` counts). The literal comes
    first in the pattern so that the regex engine scans for it instead of trying the
    look-behind at every character (the old form took ~10 ms on a large dump)."""
    return re.search(rf"{name}\.(?<![\w$.\-]{name}\.)", code) is not None


def _uncommented(text: str) -> str:
    """`text` without its line comments. Neither a string nor a comment spans lines, so only the lines
    holding a `//` are scanned (triton prints none but multi-block functions' `// pred:`; scanning
    every string literal of the text, its location strings, took ~1 ms a module)."""
    at = text.find("//")
    if at < 0:
        return text
    out: list[str] = []
    pos = 0
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        out.append(text[pos:start])
        out.append(_COMMENT.sub(lambda m: m.group(1) or "", text[start:end]))
        pos = end
        at = text.find("//", end)
    out.append(text[pos:])
    return "".join(out)


def normalize(text: str) -> tuple[str, ColumnMap, Spelling]:
    """Rewrite old dialect names to canonical ones; report which spelling was used."""
    old_to_new = {o: c for c, o in DIALECTS}
    seen = Spelling.choose("triton-3.3")
    code = _uncommented(text)
    for canon, old in DIALECTS:
        # Canonical spelling wins when a file mixes both.
        if _uses_prefix(canon, code):
            seen.names[canon] = canon
        elif _uses_prefix(old, code):
            seen.names[canon] = old
    # Only the lines holding an old `name.` can change (a token never spans lines): the
    # rest, mostly location strings, is copied without visiting its tokens.
    hits = sorted(i for old in old_to_new for i in _find_all(text, old + "."))
    cmap = ColumnMap()
    if not hits:
        return text, cmap, seen
    pattern = _token_re(list(old_to_new))
    out: list[str] = []
    pos = new_len = line_end = 0
    for hit in hits:
        if hit < line_end:
            continue
        end = text.find("\n", hit)
        line_end = len(text) if end < 0 else end
        for m in pattern.finditer(text, text.rfind("\n", 0, hit) + 1, line_end):
            if (repl := _rename(m, old_to_new)) is None:
                continue
            out.append(text[pos : m.start()])
            new_len += m.start() - pos
            out.append(repl)
            new_len += len(repl)
            cmap.add(new_len, m.end() - m.start() - len(repl))
            pos = m.end()
    out.append(text[pos:])
    return "".join(out), cmap, seen


def denormalize(text: str, spelling: Spelling) -> str:
    """Print canonical dialect names in the chosen spelling.

    A token never spans lines, so only the lines that hold a `name.` are scanned (most
    of a printed module is location strings, which the pattern would otherwise visit
    one by one)."""
    renames = {c: n for c, n in spelling.names.items() if c != n}
    if not renames:
        return text
    hits = [i for c in renames for i in _find_all(text, c + ".")]
    if not hits:
        return text
    pattern = _token_re(list(renames))
    out: list[str] = []
    pos = 0
    for hit in sorted(hits):
        if hit < pos:  # on a line already done
            continue
        start = text.rfind("\n", 0, hit) + 1
        end = text.find("\n", hit)
        end = len(text) if end < 0 else end
        out.append(text[pos:start])
        last = start
        for m in pattern.finditer(text, start, end):
            if (repl := _rename(m, renames)) is not None:
                out.append(text[last : m.start()])
                out.append(repl)
                last = m.end()
        out.append(text[last:end])
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _find_all(text: str, needle: str) -> list[int]:
    found = []
    i = text.find(needle)
    while i >= 0:
        found.append(i)
        i = text.find(needle, i + 1)
    return found
