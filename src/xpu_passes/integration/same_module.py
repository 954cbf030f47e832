"""Two prints of one module, read without a parse: whether they print the same module up to the order of
its constants (the guards' shortcut: equal modules have equal figures, so neither needs a parse).

The stage guard parses both final TTGIRs to estimate what PVC pays beyond their figures (isa_estimate), and
the positions' guard parses native's result to cost it. Where ours and triton-xpu's end alike, both prints
often differ only in the order in which canonicalize left the hoisted `arith.constant`s (and so in those
constants' SSA names): liger cross_entropy's final TTGIRs (18 lines of 196 differ, all constants). Then
every figure either guard weighs is the same on both sides (each is a sum, count or maximum over the ops
that are not constants, of what their types, attributes and operand values are; constants get no SLM and
no message; triton-xpu's allocation numbers ops in walk order, and a permutation inside a run of adjacent
constants moves no other op), and a tie keeps ours.

`canonical(text)` is the print with each constant's name replaced by a key naming its value, its type
and the run of adjacent constant definitions it belongs to, and each run sorted. Two prints with the
same canonical form are the same module up to a permutation of constants inside each run, and locations
(those a print names by alias are dropped; no figure reads a location): every other line is equal once names
are mapped, the runs hold the same definitions, and a key names one constant only (a run defining two alike
has no canonical form). Refused (None), so compared the full way: more than one function or a warp-specialized
region (SSA names are per isolated region), a constant name defined twice, a quoted string holding a `%` (a
name could hide there unmapped).
"""

from __future__ import annotations

import re

_CONSTANT = re.compile(r"^( *)(%[\w$.-]+) = arith\.constant (.*?)(?: (loc\(.*\)))?$")
_NAME = re.compile(r"%[\w$.-]+")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_FUNCTIONS = re.compile(r"^ *(?:tt|func|llvm)\.func ", re.M)
_LOC_ALIAS = re.compile(r"^#loc\w* = loc\(")
_LOC_USE = re.compile(r" loc\(#loc\w*\)$")


def canonical(text: str) -> str | None:
    """`text` with its constants named by value, type and run, each run sorted (None: refused, see the module)."""
    if len(_FUNCTIONS.findall(text)) != 1 or "warp_specialize" in text or any("%" in q for q in _QUOTED.findall(text)):
        return None
    lines = [_LOC_USE.sub("", line) for line in text.split("\n") if not _LOC_ALIAS.match(line)]
    keys: dict[str, str] = {}
    given: set[str] = set()
    runs: list[tuple[int, int]] = []  # [start, end) of each run of adjacent constant definitions
    start = -1
    for i, line in enumerate(lines + [""]):
        m = _CONSTANT.match(line) if i < len(lines) else None
        if m is None:
            if start >= 0:
                runs.append((start, i))
                start = -1
            continue
        if start < 0:
            start = i
        key = f"%<{len(runs)}|{m[3]}>"
        if m[2] in keys or key in given:
            return None
        keys[m[2]] = key
        given.add(key)
    if not keys:
        return text

    def mapped(line: str) -> str:
        return _NAME.sub(lambda t: keys.get(t[0], t[0]), line)

    out = [mapped(line) for line in lines]
    for a, b in runs:
        out[a:b] = sorted(out[a:b])
    return "\n".join(out)


def same_module(a: str, b: str) -> bool:
    """Whether prints `a` and `b` are provably the same module up to the order of constants in their runs, and
    locations (False: not proved; they may still be)."""
    if a == b:
        return True
    ca = canonical(a)
    return ca is not None and ca == canonical(b)
