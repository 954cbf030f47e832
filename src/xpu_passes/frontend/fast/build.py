"""What every fast op form is read and built with (frontend/fast/ops.py's table of forms and
the modules of forms it lists: ops_attrs, ops_mem, ops_more, regions): value names and
their uses, operands, attribute dictionaries, types derived per module, building the op;
and the four commonest forms' builders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrSizedOperandSegments
from xdsl.parser import UnresolvedOperand
from xdsl.utils.lexer import Span

from xpu_passes.ir.xdsl_adapt import new_op

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
