"""MLIR pass-pipeline text: `builtin.module(a, b{x=1 y=2}, c)` <-> PassSpec lists (no imports beyond the stdlib)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


class PipelineError(ValueError):
    """A pipeline that cannot be built or run as asked."""


class PipelineSyntaxError(PipelineError):
    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"{message} (column {column})")
        self.message = message
        self.column = column


@dataclass(frozen=True)
class PassSpec:
    name: str
    options: dict[str, str]  # as written in the text
    column: int = dataclasses.field(default=0, compare=False)  # where the name is in a pipeline text (1-based)


_NAME_END = set(",{}() \t\r\n")


def parse_pipeline(text: str) -> list[PassSpec]:
    """'builtin.module(a, b{x=1 y=2}, c)' or 'a,b{x=1}' -> specs; nested op anchors are flattened."""
    specs: list[PassSpec] = []
    pos = _parse_list(text, 0, specs, closing=None)
    if pos != len(text):
        raise PipelineSyntaxError(f"unexpected '{text[pos]}'", pos + 1)
    return specs


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _parse_list(text: str, pos: int, out: list[PassSpec], closing: str | None) -> int:
    pos = _skip_ws(text, pos)
    if closing is not None and pos < len(text) and text[pos] == closing:
        return pos + 1
    while True:
        pos = _skip_ws(text, pos)
        start = pos
        while pos < len(text) and text[pos] not in _NAME_END:
            pos += 1
        if pos == start:
            what = f"'{text[pos]}'" if pos < len(text) else "end of text"
            raise PipelineSyntaxError(f"expected a pass name, found {what}", pos + 1)
        name = text[start:pos]
        pos = _skip_ws(text, pos)
        options: dict[str, str] = {}
        if pos < len(text) and text[pos] == "{":
            options, pos = _parse_options(text, pos)
            pos = _skip_ws(text, pos)
        if pos < len(text) and text[pos] == "(":  # an op anchor: builtin.module(...), tt.func(...)
            pos = _parse_list(text, pos + 1, out, closing=")")
            pos = _skip_ws(text, pos)
        else:
            out.append(PassSpec(name, options, start + 1))
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        if closing is None:
            return pos
        if pos < len(text) and text[pos] == closing:
            return pos + 1
        what = f"'{text[pos]}'" if pos < len(text) else "end of text"
        raise PipelineSyntaxError(f"expected ',' or '{closing}', found {what}", pos + 1)


def _parse_options(text: str, pos: int) -> tuple[dict[str, str], int]:
    """`{a=1 b="x y" c={1,2}}` starting at the brace; returns the options and the position after it."""
    open_at = pos
    pos += 1
    tokens: list[str] = []
    cur: list[str] = []
    depth = 0
    while True:
        if pos >= len(text):
            raise PipelineSyntaxError("unterminated '{'", open_at + 1)
        c = text[pos]
        if c in "\"'":
            end = text.find(c, pos + 1)
            if end < 0:
                raise PipelineSyntaxError("unterminated string", pos + 1)
            cur.append(text[pos + 1 : end])
            pos = end + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                break
            depth -= 1
        if c.isspace() and depth == 0:
            if cur:
                tokens.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        pos += 1
    if cur:
        tokens.append("".join(cur))
    options: dict[str, str] = {}
    for tok in tokens:
        key, _, value = tok.partition("=")
        if not key:
            raise PipelineSyntaxError(f"option without a name: '{tok}'", open_at + 1)
        if value.startswith("{") and value.endswith("}"):
            value = value[1:-1]
        options[key] = value if "=" in tok else "true"
    return options, pos + 1


def parse_options_text(name: str, text: str) -> dict[str, str]:
    """Options of a command-line flag `-pass=opt=v` / `-pass="opt=v opt2=w"`."""
    try:
        return _parse_options("{" + text + "}", 0)[0]
    except PipelineSyntaxError as e:
        raise PipelineSyntaxError(f"options of '{name}': {e.message}", e.column) from None


def _format_value(value: str) -> str:
    return f'"{value}"' if any(c.isspace() for c in value) or value == "" else value


def format_pipeline(specs: list[PassSpec]) -> str:
    parts = []
    for s in specs:
        opts = " ".join(f"{k}={_format_value(v)}" for k, v in s.options.items())
        parts.append(f"{s.name}{{{opts}}}" if opts else s.name)
    return f"builtin.module({','.join(parts)})"
