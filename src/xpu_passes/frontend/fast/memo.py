"""Parse each distinct type, attribute, attribute dictionary and location text once per module.

TTGIR repeats a handful of types (`tensor<128x64xf16, #blocked1>`) and locations on
every op; xDSL's per-token parser re-reads them each time. `MemoParser` remembers the
text each parse covered and, when the same text comes again (with the same next token,
so the parse would have stopped at the same place), jumps over it and returns the same
attribute: attributes are immutable values, so sharing one object is safe.

Process-wide: the result of a text depends on the aliases it names, so an entry keeps
them and serves only a module whose aliases are the same objects (layout aliases are
shared across modules, see _parse_layout_def).
Locations of the usual forms (`loc(#loc3)`, `loc("f.py":12:5)`, `loc(unknown)`,
`loc(callsite(#a at #b))`) are read with one regex instead of the token parser.
"""

from __future__ import annotations

import re
import threading
from typing import Any
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, IntAttr, LocationAttr, StringAttr, UnknownLoc
from xdsl.context import Context
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xpu_passes.frontend.fast.types import TYPE_TEXT, build_type, clear_function_types
from xpu_passes.frontend.verifier import VERIFIED
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.ir.xdsl_text import TextParser

_PREFIX = 6  # texts are bucketed by their first characters (kind + this many)
_MIN_LEN = 6  # shorter texts parse about as fast as a lookup
_ALIAS = r"#[a-zA-Z$._-][a-zA-Z0-9$._-]*"  # xDSL's suffix-id (ASCII)
_SIMPLE_LOC = re.compile(
    r"loc\((?:"
    rf"(?P<alias>{_ALIAS})"
    r'|"(?P<file>[^"\\\n\v\f]*)":(?P<line>[0-9]+):(?P<col>[0-9]+)'
    r"|(?P<unknown>unknown)"
    rf"|callsite\((?P<callee>{_ALIAS}) at (?P<caller>{_ALIAS})\)"
    r")\)"
)

# What may follow an op that ends its line: another op, a block label, `}` or the end.
_NEXT_WORD = re.compile(r"\s*(?://[^\n]*\s*)*(?:([%^}\"]|[a-zA-Z_][a-zA-Z0-9_$.]*|\Z))")
# A layout alias defined on one line with nothing aliased or typed-aliased inside.
_LAYOUT_DEF = re.compile(rf"({_ALIAS})[ \t]*=[ \t]*(#([a-z_]+\.[a-z_]+)<[^#!\n]*>)[ \t]*(?=\n|\Z)")
_MAX_SHARED = 20_000  # entries of a process-wide table before it starts over
_LAYOUTS: dict[tuple[type, str], Attribute] = {}
# typed_text's: (text, pointer class, aliases named), all by id -> the type; pins the objects.
_TYPES = IdTable(_MAX_SHARED)
# Attribute texts the fast op parsers read (constants' values, attribute dictionaries), by
# kind, context and text and the aliases named; the entry keeps those aliases alive.
_VALUES = IdTable(_MAX_SHARED)
# Types computed from a type (a load's result, a compare's i1) by kind and the type's
# identity; the entry keeps the type alive (fastops._derived).
_DERIVED: dict[tuple[str, int], tuple[Attribute, Attribute]] = {}
# The process-wide tables here are shared by threads parsing at once: each access is one dict or
# list operation (atomic under the GIL), entries are immutable and checked on use (by text, by
# the identity of the aliases they name), so a thread sees an entry whole or misses it.
# _memoized's texts: (context kind, bucket) -> entries (text, next token's kind and first
# characters, value, the aliases the text names and their values).
_MEMO: dict[tuple[int, str], list[tuple[str, object, str, Any, tuple[tuple[str, Any], ...]]]] = {}
_MAX_BUCKET = 64
# What a text may name that an alias defines: `#name` and `!name` (`!tt.ptr` too: harmless).
_REFS = re.compile(r"[#!][a-zA-Z$._-][a-zA-Z0-9$._-]*")
_LOCS: dict[tuple[str, str, str], FileLineColLoc] = {}  # file_line_col's
_CALLSITES = IdTable(_MAX_SHARED)  # _callsite's
# Contexts with the same dialects registered read a text alike: one number per such set.
_CTX_KINDS: dict[tuple[object, ...], int] = {}
_LOCK = threading.Lock()  # (numbering the context kinds)
_NAMED = re.compile(_ALIAS)
_LOC_DEF_HEAD = re.compile(rf"({_ALIAS})[ \t]*=[ \t]*(?=loc\()")


class MemoParser(TextParser):
    """xDSL's parser with per-module memoized types, attributes and locations."""

    def __init__(self, ctx: Context, input: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, input, name)
        self._text: str = self.lexer.input.content
        self._files: dict[str, StringAttr] = {}  # file names and line numbers of locations
        self._ints: dict[str, IntAttr] = {}
        self._types: dict[str, Attribute] = {}  # fast path (frontend/fast/ops.py): type text -> type
        self._op_classes: dict[str, type[Operation] | None] = {}
        self._loc_texts: dict[str, LocationAttr] = {}  # fast_trailing_loc's: ` loc(...)` -> location
        self.fast_values: dict[str, Any] = {}  # shared_value's per-module front
        names = (ctx.allow_unregistered, *sorted(ctx.registered_dialect_names))
        kind = _CTX_KINDS.get(names)
        if kind is None:
            with _LOCK:  # (numbered under a lock: two new sets in two threads get two numbers)
                kind = _CTX_KINDS.setdefault(names, len(_CTX_KINDS))
        self._ctx_kind = kind
        self.fast_derived = _DERIVED  # fastops._derived

    def parse_optional_type(self):  # type: ignore[override]
        start = self.current_token.span.start
        m = TYPE_TEXT.match(self._text, start)
        if m is not None and (found := self.typed_text(m.group())) is not None:
            self.resume_from(m.end())
            return found
        return self._memoized("t", super().parse_optional_type)

    def typed_text(self, text: str) -> Attribute | None:
        """A type of the usual forms (frontend/fast/types.py), once per distinct text.

        Process-wide too, keyed by the text and the aliases it names (by identity: layout
        aliases are shared, see _parse_layout_def); the entry keeps them alive."""
        found = self._types.get(text)
        if found is not None:
            return found
        aliases = self.attribute_aliases
        named: list[object] = [self._pointer_class(), *[aliases.get(n) for n in _NAMED.findall(text)]]
        key = (text, *map(id, named))
        found = _TYPES.get(key)
        if found is None:
            found = build_type(text, self._encoding, self._pointer_class)
            if found is None:
                return None
            _TYPES.put(key, named, found)
        self._types[text] = found
        return found

    def _encoding(self, text: str) -> Attribute | None:
        if "<" not in text:
            return self.attribute_aliases.get(text)
        found = self._types.get(text)
        if found is None:  # an inline layout: xDSL's parser, once per text
            sub = MemoParser(self.ctx, text, self.lexer.input.name)
            sub.attribute_aliases = self.attribute_aliases
            try:
                found = sub.parse_optional_attribute()
            except ParseError:
                return None
            if found is None or sub.current_token.kind is not MLIRTokenKind.EOF:
                return None
            self._types[text] = found
        return found

    def _pointer_class(self) -> type[Attribute] | None:
        return self.ctx.get_optional_type("tt.ptr")

    def parse_optional_attribute(self) -> Attribute | None:
        return self._memoized("a", super().parse_optional_attribute)

    def parse_optional_dictionary_attr_dict(self) -> dict[str, Attribute]:
        if self.current_token.kind is not MLIRTokenKind.L_BRACE:
            return {}
        parse = super().parse_optional_dictionary_attr_dict
        return dict(self._memoized("d", parse))  # type: ignore[arg-type,call-overload]  # a copy: callers own it

    def parse_optional_location(self) -> LocationAttr | None:
        tok = self.current_token
        if tok.text != "loc":
            return super().parse_optional_location()
        start = tok.span.start
        m = _SIMPLE_LOC.match(self._text, start)
        loc = self._simple_loc(m) if m is not None else None
        if loc is None:
            return self._memoized("l", super().parse_optional_location)
        self.resume_from(m.end())  # type: ignore[union-attr]
        return loc

    def _parse_alias_def(self) -> None:
        # `#loc3 = loc(...)`: one regex for the name, the location's fast path for the rest.
        m = _LOC_DEF_HEAD.match(self._text, self.current_token.span.start)
        if m is None:
            return self._parse_layout_def()
        if m.group(1) in self.attribute_aliases:
            return super()._parse_alias_def()  # (and its re-declaration error)
        loc = _SIMPLE_LOC.match(self._text, m.end())
        value = self._simple_loc(loc) if loc is not None else None
        if value is None:
            return super()._parse_alias_def()
        self.attribute_aliases[m.group(1)] = value
        self.resume_from(loc.end())  # type: ignore[union-attr]

    def _parse_layout_def(self) -> None:
        """`#blocked = #ttg.blocked<{...}>` on one line, nothing aliased inside: the same
        text gives the same attribute in every module, so it is parsed once per process."""
        start = self.current_token.span.start
        m = _LAYOUT_DEF.match(self._text, start)
        if m is None or m.group(1) in self.attribute_aliases:
            return super()._parse_alias_def()
        cls = self.ctx.get_optional_attr(m.group(3))
        if cls is None:
            return super()._parse_alias_def()
        key = (cls, m.group(2))
        found = _LAYOUTS.get(key)
        if found is None:
            super()._parse_alias_def()
            if self.current_token.span.start < m.end():
                return  # (not all of the line: leave it to the parser)
            found = self.attribute_aliases[m.group(1)]
            if len(_LAYOUTS) > _MAX_SHARED:
                _LAYOUTS.clear()
            _LAYOUTS[key] = found
            return
        self.attribute_aliases[m.group(1)] = found
        self.resume_from(m.end())

    def _simple_loc(self, m: re.Match[str]) -> LocationAttr | None:
        if (alias := m.group("alias")) is not None:
            attr = self.attribute_aliases.get(alias)
            return attr if isinstance(attr, LocationAttr) else None  # else: the parser's error
        if (file := m.group("file")) is not None:
            return self.file_line_col(file, m.group("line"), m.group("col"))
        if m.group("unknown") is not None:
            return UnknownLoc()
        # callsite(#a at #b)
        return _callsite(self.attribute_aliases.get(m.group("callee")), self.attribute_aliases.get(m.group("caller")))

    def simple_loc_form(self, form: tuple[str, ...]) -> LocationAttr | None:
        """A location of locations.LocDef's forms; None: the parser's (and its errors)."""
        if form[0] == "file":
            return self.file_line_col(*form[1:])
        if form[0] == "unknown":
            return UnknownLoc()
        callee, caller = (self.attribute_aliases.get(n) for n in form[1:])
        return _callsite(callee, caller)

    def file_line_col(self, file: str, line: str, col: str) -> FileLineColLoc:
        """`loc("file":line:col)` (no escapes in `file`), one object per text, process-wide
        (building one verifies its parameters: most of a location alias's cost)."""
        key = (file, line, col)
        found = _LOCS.get(key)
        if found is None:
            name = self._files.get(file)
            if name is None:
                name = self._files[file] = StringAttr(file)
            if len(_LOCS) > _MAX_SHARED:
                _LOCS.clear()
            found = _LOCS[key] = FileLineColLoc(name, self._int(line), self._int(col))
        return found

    # For frontend/fast/ops.py: each returns None where the text is not exactly what it expects.

    def fast_type(self, start: int, end: int) -> Attribute | None:
        """The type whose text is exactly `text[start:end]`."""
        key = self._text[start:end]
        found = self._types.get(key)
        if found is not None:
            return found
        if TYPE_TEXT.fullmatch(key) and (found := self.typed_text(key)) is not None:
            return found
        if not key or key[-1].isspace() or "//" in key:
            return None
        self.resume_from(start)
        found = self.parse_optional_type()
        if found is None or not self._ends_at(end):
            return None
        self._types[key] = found
        return found

    def fast_attr(self, start: int, end: int) -> Attribute | None:
        """The attribute whose text is exactly `text[start:end]`."""
        self.resume_from(start)
        found = self.parse_optional_attribute()
        return found if found is not None and self._ends_at(end) else None

    def fast_attr_dict(self, start: int, end: int) -> tuple[tuple[str, Attribute], ...] | None:
        """The attribute dictionary whose text is exactly `text[start:end]`, as its items."""

        def parse() -> tuple[tuple[str, Attribute], ...] | None:
            self.resume_from(start)
            found = self.parse_optional_dictionary_attr_dict()
            return tuple(found.items()) if self._ends_at(end) else None

        return self.shared_value("d", start, end, parse)

    def shared_value(self, kind: str, start: int, end: int, parse: Callable[[], Any]) -> Any:
        """What `parse` gives for `text[start:end]` (None: not the expected text), parsed
        once per process: keyed by the text and the aliases it names, by identity (as
        typed_text); a value is immutable, so one object serves every module."""
        text = self._text[start:end]
        local = kind + text
        found = self.fast_values.get(local)
        if found is not None:
            return found
        aliases = self.attribute_aliases
        named = [aliases.get(n) for n in _REFS.findall(text)] if "#" in text or "!" in text else []
        key = (kind, self._ctx_kind, text, *map(id, named))
        found = _VALUES.get(key)
        if found is None:
            found = parse()
            if found is None:
                return None
            _VALUES.put(key, named, found)
        self.fast_values[local] = found
        return found

    def define(self, name: str, values: Sequence[SSAValue], start: int) -> None:
        """The results `values` of an op read by a fast path, named `%name` at `start`."""
        self._register_ssa_definition(name, values, Span(start, start + 1 + len(name), self.lexer.input))

    def _ends_at(self, end: int) -> bool:
        # The last parse stopped at `end`: the next token starts there (or after blanks).
        next_start = self.current_token.span.start
        return next_start >= end and not self._text[end:next_start].strip()

    def fast_op_class(self, name: str) -> type[Operation] | None:
        if name not in self._op_classes:
            self._op_classes[name] = self.ctx.get_optional_op(name)
        return self._op_classes[name]

    def fast_trailing_loc(self, start: int, end: int) -> tuple[int, LocationAttr | None]:
        """Where an op's line `text[start:end]` ends before its location, and the location
        (-1 if the location is not one of the simple forms, or the op may go on after the line)."""
        text = self._text
        at = text.rfind(" loc(", start, end)
        if at < 0:
            # No location on this line: the next line must not continue the op.
            nxt = _NEXT_WORD.match(text, end)
            if nxt is None or nxt.group(1) == "loc":
                return -1, None
            return end, None
        # (one read per distinct text: an alias, once defined, is never redefined)
        loc = self._loc_texts.get(key := text[at:end])
        if loc is not None:
            return at, loc
        m = _SIMPLE_LOC.match(text, at + 1, end)
        if m is None or m.end() != end:
            return -1, None
        loc = self._simple_loc(m)
        if loc is None:
            return -1, None
        self._loc_texts[key] = loc
        return at, loc

    def _int(self, digits: str) -> IntAttr:
        found = self._ints.get(digits)
        if found is None:
            found = self._ints[digits] = IntAttr(int(digits))
        return found

    def _memoized(self, kind: str, parse: Callable[[], Any]) -> Any:
        """Process-wide: an entry holds the aliases its text names and serves a module
        whose aliases are those very objects (as typed_text)."""
        text = self._text
        start = self.current_token.span.start
        bucket = (self._ctx_kind, kind + text[start : start + _PREFIX])
        entries = _MEMO.get(bucket)
        if entries is not None:
            aliases = self.attribute_aliases
            for key, follow_kind, follow, value, named in entries:
                if text.startswith(key, start) and all(aliases.get(n) is a for n, a in named):
                    self.resume_from(start + len(key))
                    after = self.current_token
                    if after.kind is follow_kind and after.text.startswith(follow):
                        return value
                    self.resume_from(start)  # a different next token: parse for real
                    break
        result = parse()
        if result is not None:
            after = self.current_token
            key = text[start : after.span.start].rstrip()
            # (a resource's text names the module's blob: never shared)
            if len(key) >= _MIN_LEN and after.text and "//" not in key and "dense_resource" not in key:
                named = tuple((n, self.attribute_aliases.get(n)) for n in set(_REFS.findall(key)))
                entries = _MEMO.setdefault(bucket, [])
                if len(entries) >= _MAX_BUCKET:
                    del entries[0]
                if len(_MEMO) > _MAX_SHARED:
                    _MEMO.clear()
                    _MEMO[bucket] = entries
                entries.append((key, after.kind, after.text[:2], result, named))
        return result


def _callsite(callee: Attribute | None, caller: Attribute | None) -> CallSiteLoc | None:
    """`callsite(callee at caller)`, one object per pair (by identity; the entry keeps them)."""
    if not isinstance(callee, LocationAttr) or not isinstance(caller, LocationAttr):
        return None
    key = (id(callee), id(caller))
    hit = _CALLSITES.get(key)
    if hit is None:
        hit = CallSiteLoc(callee, caller)
        _CALLSITES.put(key, (callee, caller), hit)
    return hit


def clear_shared() -> None:
    """Forget the process-wide tables (layouts, types, verified op signatures)."""
    _LAYOUTS.clear()
    _TYPES.clear()
    _VALUES.clear()
    _DERIVED.clear()
    _MEMO.clear()
    _LOCS.clear()
    _CALLSITES.clear()
    clear_function_types()
    VERIFIED.clear()
