"""`-verify-diagnostics` as MLIR does it: `// expected-error@+1 {{text}}` annotations in the input.

Every diagnostic a run produces (parse and verifier errors, pass failures, native passes'
diagnostics, our remarks) must be expected at its line, and every expectation met; the
failures are reported the way MLIR's SourceMgrDiagnosticVerifierHandler reports them
("unexpected error: ...", `expected error "..." was not produced`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KINDS = ("error", "warning", "remark", "note")

# MLIR's pattern: expected-<kind>[-re] [@(+N|-N|above|below|unknown)] {{message}}
_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)(-re)?\s*(?:@([+-]\d+|above|below|unknown))?\s*\{\{(.*)\}\}\s*$"
)
_DESIGNATOR_ONLY = re.compile(r"^\s*//\s*expected-(error|warning|remark|note)")


@dataclass
class Diagnostic:
    file: str
    line: int  # 0: unknown location
    col: int
    kind: str  # one of KINDS
    message: str
    source_line: str = ""
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}: " if self.line else f"{self.file}: "
        text = f"{where}{self.kind}: {self.message}"
        if self.source_line:
            text += f"\n{self.source_line}\n{' ' * (self.col - 1)}^"
        for note in self.notes:
            text += f"\nnote: {note}"
        return text


@dataclass
class Expected:
    kind: str
    line: int  # 0: @unknown
    message: str
    regex: re.Pattern[str] | None
    at_line: int  # where the annotation is written
    at_col: int
    matched: bool = False

    def matches(self, d: Diagnostic) -> bool:
        if d.kind != self.kind or d.line != self.line:
            return False
        return bool(self.regex.search(d.message)) if self.regex is not None else self.message in d.message


def _regex(text: str) -> re.Pattern[str]:
    """`-re` expectations: literal text with `{{regex}}` pieces, as in FileCheck."""
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?:{p})" for i, p in enumerate(parts)))


def expectations(text: str, line_offset: int = 0) -> list[Expected]:
    """The expectations written in one chunk of the input; line numbers are the input's."""
    out: list[Expected] = []
    pending_below: list[Expected] = []
    last_plain = 0
    for i, line_text in enumerate(text.split("\n")):
        line = i + 1 + line_offset
        m = _EXPECTED.search(line_text)
        if m is None:
            for e in pending_below:
                e.line = line
            pending_below = []
            last_plain = line
            continue
        kind, is_re, where, message = m.groups()
        e = Expected(kind, line, message, _regex(message) if is_re else None, line, m.start() + 1)
        if where is None:
            pass
        elif where == "unknown":
            e.line = 0
        elif where == "above":
            e.line = last_plain
        elif where == "below":
            pending_below.append(e)
        else:
            e.line = line + int(where)
        if not _DESIGNATOR_ONLY.match(line_text):  # an annotation after code on the same line
            for p in pending_below:
                p.line = line
            pending_below = []
            last_plain = line
        out.append(e)
    return out


def check(text: str, line_offset: int, name: str, diags: list[Diagnostic]) -> list[Diagnostic]:
    """What is wrong: unexpected diagnostics and unmet expectations, as MLIR reports them."""
    expected = expectations(text, line_offset)
    problems: list[Diagnostic] = []
    for d in diags:
        # As MLIR's SourceMgrDiagnosticVerifierHandler: the first matching expectation, met or not
        # (one `expected-error {{type}}` covers both errors of a failed type inference).
        e = next((e for e in expected if e.matches(d)), None)
        if e is not None:
            e.matched = True
            continue
        problems.append(Diagnostic(d.file, d.line, d.col, "error", f"unexpected {d.kind}: {d.message}"))
    for e in expected:
        if not e.matched:
            problems.append(
                Diagnostic(name, e.at_line, e.at_col, "error", f'expected {e.kind} "{e.message}" was not produced')
            )
    return sorted(problems, key=lambda p: (p.line, p.col))
