"""Location aliases that MLIR prints after the module.

MLIR prints `#loc3 = loc(...)` definitions after the module that uses them; xDSL
only resolves aliases defined before use. We cut those definitions out of the text
(blanking them so line numbers stay put) and parse them first, in dependency order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

# A top-level location alias definition: MLIR prints each on one line, at column 1.
_LOC_DEF = re.compile(r"^(#[A-Za-z_$.][\w$.\-]*)[ \t]*=[ \t]*(?=loc\()", re.MULTILINE)
_ALIAS_REF = re.compile(r"#[A-Za-z_$.][\w$.\-]*")
_ALIAS = r"#[A-Za-z_$.][\w$.\-]*"
_SIMPLE = re.compile(
    r'loc\((?:"(?P<file>[^"\\\n]*)":(?P<line>[0-9]+):(?P<col>[0-9]+)'
    rf"|callsite\((?P<callee>{_ALIAS}) at (?P<caller>{_ALIAS})\)|(?P<unknown>unknown))\)"
)


class LocAliasError(ValueError):
    """A location alias definition MLIR rejects, at `offset` in the input."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset


class LocDef(NamedTuple):  # (a tuple: one per alias, built fast)
    name: str
    text: str  # the definition, `#loc3 = loc(...)`
    offset: int  # where it starts in the input
    refs: tuple[str, ...]  # aliases the definition uses
    # The forms MLIR prints most, read here: ("file", name, line, col) for
    # `loc("name":line:col)`, ("callsite", callee, caller), ("unknown",).
    form: tuple[str, ...] | None = None


def extract_loc_defs(text: str) -> tuple[str, list[LocDef]]:
    """Blank out location alias definitions; return the text and the definitions.

    Only the definition is cut: what follows its `loc(...)` stays for the parser to read
    (and reject, as MLIR does). A name defined twice is MLIR's "redefinition" error.
    """
    defs: list[LocDef] = []
    seen: set[str] = set()
    pieces: list[str] = []
    pos = 0
    for m in _loc_def_matches(text):
        if m.start() < pos:
            continue  # inside the previous definition (a string spanning lines)
        name = m.group(1)
        if name in seen:
            raise LocAliasError(m.start(), f"redefinition of attribute alias id '{name[1:]}'")
        seen.add(name)
        simple = _SIMPLE.match(text, m.end())
        if simple is not None:  # nothing to scan
            end = simple.end()
            refs: tuple[str, ...] = ()
            if simple["file"] is not None:
                form: tuple[str, ...] = ("file", simple["file"], simple["line"], simple["col"])
            elif simple["callee"] is not None:
                form = ("callsite", simple["callee"], simple["caller"])
                refs = tuple(r for r in (simple["callee"], simple["caller"]) if r != name)
            else:
                form = ("unknown",)
            defs.append(LocDef(name, text[m.start() : end], m.start(), refs, form))
        else:
            end = _loc_end(text, m.end())
            body = text[m.end() : end]
            refs = tuple(r for r in _ALIAS_REF.findall(_strip_strings(body)) if r != name) if "#" in body else ()
            defs.append(LocDef(name, text[m.start() : end], m.start(), refs))
        pieces.append(text[pos : m.start()])
        blank = text[m.start() : end]
        pieces.append(" " * len(blank) if "\n" not in blank else re.sub(r"[^\n]", " ", blank))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces), dependency_order(defs)


def _loc_def_matches(text: str) -> Iterator[re.Match[str]]:
    """_LOC_DEF.finditer(text): the same matches, tried only where a line starts with `#`
    (the regex engine alone tries `^` at every character of the text, most of the cost)."""
    match = _LOC_DEF.match
    if text.startswith("#") and (m := match(text, 0)) is not None:
        yield m
    find = text.find
    i = find("\n#")
    while i >= 0:
        m = match(text, i + 1)
        if m is not None:
            yield m
            i = find("\n#", m.end())
        else:
            i = find("\n#", i + 1)


def _loc_end(text: str, start: int) -> int:
    """The end of the `loc(...)` at `start`: its closing parenthesis, strings skipped; the
    end of the line if it does not close there (the parser reports it)."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"' and text[i] != "\n":
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "\n":
            break
        i += 1
    line_end = text.find("\n", start)
    return n if line_end < 0 else line_end


def dependency_order(defs: list[LocDef]) -> list[LocDef]:
    """Definitions ordered so that each follows the aliases it refers to.

    Unknown references and cycles are left for the parser to report.
    """
    seen: set[str] = set()
    for d in defs:  # (the usual case: MLIR prints an alias after those it refers to)
        if d.refs and not seen.issuperset(d.refs):
            break
        seen.add(d.name)
    else:
        return defs
    by_name = {d.name: d for d in defs}
    done: set[str] = set()
    order: list[LocDef] = []
    for root in defs:
        stack: list[tuple[LocDef, int]] = [(root, 0)]
        visiting = {root.name}
        while stack:
            d, i = stack.pop()
            if d.name in done:
                continue
            if i < len(d.refs):
                stack.append((d, i + 1))
                dep = by_name.get(d.refs[i])
                if dep is not None and dep.name not in done and dep.name not in visiting:
                    visiting.add(dep.name)
                    stack.append((dep, 0))
                continue
            done.add(d.name)
            order.append(d)
    return order


def _strip_strings(text: str) -> str:
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)


_NUMBERED = re.compile(r"#loc(\d*)$")


def cut_off_alias(name: str, defs: list[LocDef]) -> bool:
    """Whether an undefined location alias `name` says the input was cut off: MLIR numbers
    `#loc`, `#loc1`, ... in the order it prints them (after the module, but those of block
    arguments before it), so a use of one numbered past every definition the input holds
    means the rest of the file is missing."""
    used = _NUMBERED.match(name)
    if used is None:
        return False
    numbers = [int(m[1] or 0) for d in defs if (m := _NUMBERED.match(d.name))]
    # (none defined at all: more likely a hand-written name than a cut, say what the parser says)
    return bool(numbers) and int(used[1] or 0) > max(numbers)
