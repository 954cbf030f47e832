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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrSizedOperandSegments
from xdsl.parser import UnresolvedOperand
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span

from xpu_passes.frontend.fast.syntax import form_name
from xpu_passes.ir.xdsl_adapt import new_op
# (the verify-once table lives with verification; re-exported for its users)
from xpu_passes.frontend.verifier import VERIFIED, remember_verified, verify_key  # noqa: F401

if TYPE_CHECKING:
    from xpu_passes.frontend.fast.memo import MemoParser

_NAME = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_VAL = rf"%{_NAME}(?:#[0-9]+)?"
# One result or none, the op's name, one blank (or the line's end: `tt.return`).
_HEAD = re.compile(rf"(?:%({_NAME}) = )?([a-z_]+\.[a-z_0-9.]+)(?: |(?=\n)|\Z)")
_MULTI_HEAD = re.compile(rf'%{_NAME}:[0-9]+ = ([a-z_]+\.[a-z_0-9.]+) |(?:%{_NAME}(?::[0-9]+)? = )?"([a-z_]+\.[a-z_0-9.]+)"\(')
_NEXT_IS_VALUE = re.compile(r"\s*(?://[^\n]*\s*)*%")
_USE = re.compile(rf"%({_NAME})(?:#([0-9]+))?")

# The shapes (the text between the op name and its location).
_BINARY = re.compile(rf"({_VAL}), ({_VAL}) : ([^ ].*)")  # %a, %b : T
_CAST = re.compile(rf"({_VAL}) : ([^ ].*) to ([^ ].*)")  # %a : T1 to T2
_ARROW = re.compile(rf"({_VAL})(?: (\{{[^{{}}]*\}}))? : ([^ ].*) -> ([^ ].*)")  # %a {attrs}? : T1 -> T2
_TWO_TYPES = re.compile(rf"({_VAL}), ({_VAL}) : ([^ ].*)")  # %a, %b : T1, T2

# A builder gets the parser, the op class, the match and its offset, and returns the op or
# None (not this shape after all).
_Builder = Callable[["MemoParser", type[Operation], "re.Match[str]", int], "Operation | None"]


def use(p: MemoParser, name: str, index: int, start: int, type: Attribute):  # type: ignore[no-untyped-def]
    """The value `%name#index` written at `start`, of `type`: a defined value of that very
    type object directly, anything else (forward references, type clashes) through the
    parser's resolve_operand, which records and reports them."""
    values = p.ssa_values.get(name)
    if values is not None and index < len(values):
        value = values[index]
        # (what resolve_operand returns for a defined value of an equal type; types computed
        # from others, a load's result, a pointer's base, are equal but other objects)
        if value._type is type or value._type == type:
            return value
    return p.resolve_operand(UnresolvedOperand(Span(start, start + 1 + len(name), p.lexer.input), index), type)


def _operand(p: MemoParser, m: re.Match[str], group: int, base: int, type: Attribute):  # type: ignore[no-untyped-def]
    text = m.group(group)
    if "#" not in text:
        return use(p, text[1:], 0, base + m.start(group), type)
    u = _USE.fullmatch(text)
    assert u is not None
    return use(p, u.group(1), int(u.group(2)), base + m.start(group), type)


def _defined(p: MemoParser, text: str, type: Attribute):  # type: ignore[no-untyped-def]
    """`%name` (no `#index`) defined with the very object `type`, else None (then `use`)."""
    values = p.ssa_values.get(text[1:])
    if values:
        value = values[0]
        if value._type is type:
            return value
    return None


def _binary(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    t = p._types.get(m.group(3)) if not base else None
    if t is None:
        t = p.fast_type(base + m.start(3), base + m.end(3))
        if t is None:
            return None
    # (the commonest case inline: both operands defined earlier with this type object)
    a, b = m.group(1, 2)
    x = _defined(p, a, t) if "#" not in a else None
    y = _defined(p, b, t) if "#" not in b else None
    if x is None:
        x = _operand(p, m, 1, base, t)
    if y is None:
        y = _operand(p, m, 2, base, t)
    return new_op(cls, operands=[x, y], result_types=[t])


def _unary(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int, attrs_group: int = 0) -> Operation | None:
    n = m.lastindex or 0
    src = p.fast_type(base + m.start(n - 1), base + m.end(n - 1))
    dst = p.fast_type(base + m.start(n), base + m.end(n))
    if src is None or dst is None:
        return None
    props: dict[str, Attribute] = {}
    attrs: dict[str, Attribute] = {}
    if attrs_group and m.group(attrs_group) is not None:
        d = p.fast_attr_dict(base + m.start(attrs_group), base + m.end(attrs_group))
        if d is None:
            return None
        known = cls.get_irdl_definition().properties  # type: ignore[attr-defined]
        for k, v in d:
            (props if k in known else attrs)[k] = v
    return new_op(cls, operands=[_operand(p, m, 1, base, src)], result_types=[dst], properties=props, attributes=attrs)


def _arrow(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    # The commonest case inline: no attributes, both types read before, the operand
    # defined earlier with that type object; anything else through _unary.
    if m.group(2) is None and not base:
        a, src_text, dst_text = m.group(1, 3, 4)
        types = p._types
        src, dst = types.get(src_text), types.get(dst_text)
        if src is not None and dst is not None and "#" not in a and (x := _defined(p, a, src)) is not None:
            return new_op(cls, operands=[x], result_types=[dst])
    return _unary(p, cls, m, base, attrs_group=2)


def _two_types(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    # `T1, T2`: split at the top-level comma (types nest `<...>`).
    text, off = m.group(3), base + m.start(3)
    depth, cut = 0, -1
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "," and depth == 0:
            if cut >= 0:
                return None
            cut = i
    if cut < 0 or text[cut + 1 : cut + 2] != " ":
        return None
    t1, t2 = p.fast_type(off, off + cut), p.fast_type(off + cut + 2, off + len(text))
    if t1 is None or t2 is None:
        return None
    return new_op(cls, operands=[_operand(p, m, 1, base, t1), _operand(p, m, 2, base, t2)], result_types=[t1])





def _split(p: MemoParser, m: re.Match[str], group: int, inherent: object) -> tuple[dict[str, Attribute], dict[str, Attribute]] | None:
    """An op's `{...}` (if any) as (properties, attributes), as dialects._syntax.parse_attr_dict splits it."""
    props: dict[str, Attribute] = {}
    attrs: dict[str, Attribute] = {}
    if m.group(group) is not None:
        d = p.fast_attr_dict(m.start(group), m.end(group))
        if d is None:
            return None
        for k, v in d:
            (props if k in inherent else attrs)[k] = v  # type: ignore[operator]
    return props, attrs


def _derived(p: MemoParser, kind: str, t: Attribute, make: Callable[[Attribute], Attribute]) -> Attribute:
    """A type computed from `t` (a load's result, a compare's i1), one object per `t`."""
    key = (kind, id(t))
    hit = p.fast_derived.get(key)
    if hit is None:
        if len(p.fast_derived) > 20_000:
            p.fast_derived.clear()
        hit = p.fast_derived[key] = (t, make(t))
    return hit[1]


def _uses(p: MemoParser, m: re.Match[str], group: int, type: Attribute) -> list[object]:
    start = m.start(group)
    return [use(p, u.group(1), int(u.group(2) or 0), start + u.start(), type) for u in _USE.finditer(m.group(group))]


_SEGMENTED: dict[type[Operation], bool] = {}  # op class -> its operand segments are a property
_SIZES: dict[tuple[int, ...], Attribute] = {}


def _build(
    cls: type[Operation],
    operands: Sequence[object],
    result_types: Sequence[Attribute],
    props: dict[str, Attribute],
    attrs: dict[str, Attribute],
) -> Operation:
    """What `cls.build` builds for an op with AttrSizedOperandSegments (a list per
    variadic operand group), without IRDL's argument matching; one segment-size object
    per sizes, so that verify_key sees repeats."""
    as_property = _SEGMENTED.get(cls)
    if as_property is None:
        options = cls.get_irdl_definition().options  # type: ignore[attr-defined]
        option = next(o for o in options if isinstance(o, AttrSizedOperandSegments))
        as_property = _SEGMENTED[cls] = option.as_property
    flat: list[object] = []
    sizes: list[int] = []
    for group in operands:
        if isinstance(group, list):
            flat += group
            sizes.append(len(group))
        else:
            flat.append(group)
            sizes.append(1)
    key = tuple(sizes)
    segments = _SIZES.get(key)
    if segments is None:
        segments = _SIZES[key] = DenseArrayBase.from_list(i32, sizes)
    if as_property:
        props = {**props, AttrSizedOperandSegments.attribute_name: segments}
    else:
        attrs = {**attrs, AttrSizedOperandSegments.attribute_name: segments}
    return new_op(cls, operands=flat, result_types=result_types, properties=props, attributes=attrs)  # type: ignore[arg-type]


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


def _register() -> None:
    from xpu_passes.frontend.fast import ops_attrs as fastops_attrs
    from xpu_passes.frontend.fast import ops_mem as fastops_mem
    from xpu_passes.frontend.fast import ops_more as fastops_more

    FORMS.update(fastops_attrs.FORMS)
    FORMS.update(fastops_more.FORMS)
    FORMS.update(fastops_mem.FORMS)


_register()


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


_REGION_PARSERS: dict[str, Callable[[MemoParser, type[Operation], int], Operation | None]] = {}  # (fastregions imports this module)


def _region_op(p: MemoParser, cls: type[Operation], form: str, at: int, start: int) -> Operation | None:
    """An op with a body (frontend/fast/regions.py): once its header is read, it is committed."""
    if not _REGION_PARSERS:
        from xpu_passes.frontend.fast.regions import parse_for, parse_func, parse_generic

        _REGION_PARSERS.update({"func": parse_func, "for": parse_for, "generic_region": parse_generic})
    try:
        op = _REGION_PARSERS[form](p, cls, at)
        if op is None:
            p._resume_from(start)  # (reading the header's dictionaries moved the lexer)
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
    stack = p._parser_state.dialect_stack
    stack.append(dialect)
    try:
        op = build(p, cls, m, 0)
    except ParseError:
        op = None
    finally:
        stack.pop()
    if op is None:
        p._resume_from(start)
        return None
    if loc is not None:
        op.location = loc
    if lex:
        p._resume_from(end)
    else:
        p.fast_end = end  # type: ignore[attr-defined]
    if res is not None:
        p.define(res, op.results, start)
    return op
