"""Located diagnostics: `FILE:LINE:COL: error: message`, like MLIR tools print."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from xpu_passes.frontend.spelling import ColumnMap


@dataclass
class SourceMap:
    """Offsets in the text we parsed -> (line, column) in what the user wrote."""

    name: str
    original: str
    columns: ColumnMap = field(default_factory=ColumnMap)
    line_offset: int = 0  # lines before this chunk (--split-input-file)
    _starts: list[int] | None = field(default=None, init=False)  # computed on first use (a diagnostic)

    @property
    def _line_starts(self) -> list[int]:
        if self._starts is None:
            starts = [0]
            find = self.original.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._starts = starts
        return self._starts

    def locate(self, parsed_offset: int) -> tuple[int, int]:
        off = min(self.columns.original_offset(parsed_offset), len(self.original))
        starts = self._line_starts
        line = bisect.bisect_right(starts, off) - 1
        return line + 1 + self.line_offset, off - starts[line] + 1

    def line_text(self, line: int) -> str:
        i = line - 1 - self.line_offset
        starts = self._line_starts
        if not 0 <= i < len(starts):
            return ""
        end = self.original.find("\n", starts[i])
        return self.original[starts[i] : end if end >= 0 else None]


@dataclass
class TTGIRError(Exception):
    """A diagnostic tied to a place in the input."""

    file: str
    line: int
    col: int
    message: str
    source_line: str = ""
    notes: list[str] = field(default_factory=list)
    # Further errors at the same place, as MLIR emits them (the reason, then
    # "failed to infer returned types").
    more: list[str] = field(default_factory=list)
    # Notes at other places of the input: (line, column, message), e.g. MLIR's "prior use here".
    located_notes: list[tuple[int, int, str]] = field(default_factory=list)

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.col}: error: {self.message}"
        if self.source_line:
            text += f"\n{self.source_line}\n{' ' * (self.col - 1)}^"
        for note in self.notes:
            text += f"\nnote: {note}"
        for message in self.more:
            text += f"\n{self.file}:{self.line}:{self.col}: error: {message}"
        for line, col, message in self.located_notes:
            text += f"\n{self.file}:{line}:{col}: note: {message}"
        return text

    @classmethod
    def at(cls, smap: SourceMap, parsed_offset: int, message: str) -> "TTGIRError":
        line, col = smap.locate(parsed_offset)
        return cls(smap.name, line, col, message, smap.line_text(line))
