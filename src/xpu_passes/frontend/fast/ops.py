"""Fast parsers of the hottest op forms, by the form each op class declares (`FORMS`).

Which form reads an op is said once, on its class (`FAST_SYNTAX`, dialects/declared.py),
derived from its `assembly_format` where that is simple (frontend/fast/syntax.py); a
new op's syntax is added there, not here.

xDSL's declarative `assembly_format` reads an op token by token through generic
directives and builds it through IRDL's argument matching: most of a parse's time.
Triton prints its hot ops (`arith.addi`, `tt.splat`, `ttg.convert_layout`, ...) one per
line in a handful of shapes. Here each shape is one regex over the op's line, the types
come from a per-module table of type texts, and the op is built with `Operation.create`
(what xDSL's generic form builds). Any line that is not exactly the expected shape
(attributes, `fastmath`, comments, several ops on a line, an error) goes to xDSL's parser
untouched, so diagnostics and rare forms are xDSL's. `tests/python/frontend/fast/test_ops.py`
checks that both paths build the same IR on the corpus, `test_syntax.py` each declared form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError

from xpu_passes.frontend.fast import ops_attrs, ops_mem, ops_more
from xpu_passes.frontend.fast.build import (
    _ARROW, _BINARY, _CAST, _HEAD, _MULTI_HEAD, _NEXT_IS_VALUE, _TWO_TYPES, _Builder, _arrow, _binary, _two_types, _unary,
)
from xpu_passes.frontend.fast.regions import parse_for, parse_func, parse_generic
from xpu_passes.frontend.fast.syntax import form_name

if TYPE_CHECKING:
    from xpu_passes.frontend.fast.memo import MemoParser


# The forms, by the name an op class declares (dialects/declared.py) or derives (syntax.py).
FORMS: dict[str, tuple[re.Pattern[str], _Builder]] = {
    "binary": (_BINARY, _binary),
    "cast": (_CAST, _unary),
    "arrow": (_ARROW, _arrow),
    "two_types": (_TWO_TYPES, _two_types),
}
REGION_FORMS = ("func", "for", "generic_region")  # ops with a body (frontend/fast/regions.py)
_Form = tuple[re.Pattern[str], _Builder, str] | str | None
_BY_CLASS: dict[type[Operation], _Form] = {}  # op class -> (shape, builder, dialect), a region form, or None


FORMS.update(ops_attrs.FORMS)
FORMS.update(ops_more.FORMS)
FORMS.update(ops_mem.FORMS)


def fast_form(cls: type[Operation]) -> _Form:
    """How `cls`'s ops are read fast: (shape, builder, dialect), the name of a region form, or None."""
    found = _BY_CLASS.get(cls, _UNSEEN)
    if found is _UNSEEN:
        name = form_name(cls)
        if name is None or name in REGION_FORMS:
            found = name
        else:
            shape, build = FORMS[name]
            found = (shape, build, cls.name.split(".", 1)[0])  # type: ignore[attr-defined]
        _BY_CLASS[cls] = found
    return found  # type: ignore[return-value]


_UNSEEN = object()


_REGION_PARSERS: dict[str, Callable[[MemoParser, type[Operation], int], Operation | None]] = {
    "func": parse_func, "for": parse_for, "generic_region": parse_generic,
}


def _region_op(p: MemoParser, cls: type[Operation], form: str, at: int, start: int) -> Operation | None:
    """An op with a body (frontend/fast/regions.py): once its header is read, it is committed."""
    try:
        op = _REGION_PARSERS[form](p, cls, at)
        if op is None:
            p.resume_from(start)  # (reading the header's dictionaries moved the lexer)
        return op
    except ParseError:
        raise
    except Exception:
        if getattr(p, "failed_at", 0) is None:
            p.failed_at = start  # type: ignore[attr-defined]  # (as the parser locates an op's own error)
        raise


def parse_fast(p: MemoParser, start: int, lex: bool = True) -> Operation | None:
    """The op starting at `start` if it has one of the shapes above, else None (parser untouched).

    `lex=False` (a block's ops read in a row, parser._TrackingParser._parse_block_body): ops
    with a body are not read, and the lexer is left where it is (also on None: the caller
    resumes); the op's line ends at `p.fast_end`."""
    text = p._text
    head = _HEAD.match(text, start)
    if head is None:
        multi = _MULTI_HEAD.match(text, start)  # `%x:3 = scf.for`, `%x = "tt.reduce"(`
        if multi is None or not lex:
            return None
        cls = p.fast_op_class(multi.group(1) or multi.group(2))
        form = fast_form(cls) if cls is not None else None
        # (results before the name: scf.for's custom form; the generic form: tt.reduce's, tt.scan's)
        if form != ("for" if multi.group(1) else "generic_region"):
            return None
        return _region_op(p, cls, form, start, start)  # type: ignore[arg-type]
    res, name = head.groups()
    cls = p._op_classes.get(name) or p.fast_op_class(name)
    if cls is None:
        return None
    found = _BY_CLASS.get(cls, _UNSEEN)
    if found is _UNSEEN:
        found = fast_form(cls)
    if found is None:
        return None
    if found.__class__ is str:
        return _region_op(p, cls, found, start, start) if lex and found != "generic_region" else None
    after = head.end()
    name_end = after if text[after - 1 : after] != " " else after - 1
    end = text.find("\n", after)
    if end < 0:
        end = len(text)
    # From the name's end: an op with no operands has its location right after the name.
    body_end, loc = p.fast_trailing_loc(name_end, end)
    if body_end < 0:
        return None
    if body_end <= after and loc is None and _NEXT_IS_VALUE.match(text, end):
        return None  # `tt.return` then `%x ...`: its operands on the next line, or the next op
    shape, build, dialect = found
    m = shape.fullmatch(text, after, body_end if body_end > after else after)
    if m is None:
        return None
    stack = p.dialect_stack
    stack.append(dialect)
    try:
        op = build(p, cls, m, 0)
    except ParseError:
        op = None
    finally:
        stack.pop()
    if op is None:
        p.resume_from(start)
        return None
    if loc is not None:
        op.location = loc
    if lex:
        p.resume_from(end)
    else:
        p.fast_end = end  # type: ignore[attr-defined]
    if res is not None:
        p.define(res, op.results, start)
    return op
