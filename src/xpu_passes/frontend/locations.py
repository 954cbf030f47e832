"""Location aliases that MLIR prints after the module.

MLIR prints `#loc3 = loc(...)` definitions after the module that uses them; xDSL
only resolves aliases defined before use. We cut those definitions out of the text
(blanking them so line numbers stay put) and parse them first, in dependency order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A top-level location alias definition: MLIR prints each on one line, at column 1.
_LOC_DEF = re.compile(r"^(#[A-Za-z_$.][\w$.\-]*)[ \t]*=[ \t]*loc\(.*$", re.MULTILINE)
_ALIAS_REF = re.compile(r"#[A-Za-z_$.][\w$.\-]*")


@dataclass(frozen=True)
class LocDef:
    name: str
    text: str  # the whole definition line
    offset: int  # where the line starts in the input
    refs: tuple[str, ...]  # aliases the definition uses


def extract_loc_defs(text: str) -> tuple[str, list[LocDef]]:
    """Blank out location alias definitions; return the text and the definitions."""
    defs: list[LocDef] = []
    pieces: list[str] = []
    pos = 0
    for m in _LOC_DEF.finditer(text):
        body = m.group(0)[len(m.group(1)) :]
        refs = tuple(r for r in _ALIAS_REF.findall(_strip_strings(body)) if r != m.group(1))
        defs.append(LocDef(m.group(1), m.group(0), m.start(), refs))
        pieces.append(text[pos : m.start()])
        pieces.append(" " * len(m.group(0)))
        pos = m.end()
    pieces.append(text[pos:])
    return "".join(pieces), dependency_order(defs)


def dependency_order(defs: list[LocDef]) -> list[LocDef]:
    """Definitions ordered so that each follows the aliases it refers to.

    Unknown references and cycles are left for the parser to report.
    """
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
