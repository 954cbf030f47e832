"""Fast parsers of the hottest op forms, keyed by op name (one place; see `FAST`).

xDSL's declarative `assembly_format` reads an op token by token through generic
directives and builds it through IRDL's argument matching: most of a parse's time.
Triton prints its hot ops (`arith.addi`, `tt.splat`, `ttg.convert_layout`, ...) one per
line in a handful of shapes. Here each shape is one regex over the op's line, the types
come from a per-module table of type texts, and the op is built with `Operation.create`
(what xDSL's generic form builds). Any line that is not exactly the expected shape
(attributes, `fastmath`, comments, several ops on a line, an error) goes to xDSL's parser
untouched, so diagnostics and rare forms are xDSL's. `tests/python/test_fastops.py`
checks that both paths build the same IR on the corpus.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrSizedOperandSegments
from xdsl.parser import UnresolvedOperand
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span


# (the verify-once table lives with verification; re-exported for its users)
from xpu_passes.ir.xdsl_adapt import new_op
from xpu_passes.frontend.verifier import VERIFIED, remember_verified, verify_key  # noqa: F401

if TYPE_CHECKING:
    from xpu_passes.frontend.fast.memo import MemoParser

_NAME = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_VAL = rf"%{_NAME}(?:#[0-9]+)?"
# One result or none, the op's name, one blank (or the line's end: `tt.return`).
_HEAD = re.compile(rf"(?:%({_NAME}) = )?([a-z_]+\.[a-z_0-9.]+)(?: |(?=\n)|\Z)")
_MULTI_HEAD = re.compile(rf'%{_NAME}:[0-9]+ = (scf\.for) |(?:%{_NAME}(?::[0-9]+)? = )?"(tt\.reduce|tt\.scan)"\(')
_NEXT_IS_VALUE = re.compile(r"\s*(?://[^\n]*\s*)*%")
_USE = re.compile(rf"%({_NAME})(?:#([0-9]+))?")

# The shapes (the text between the op name and its location).
_BINARY = re.compile(rf"({_VAL}), ({_VAL}) : ([^ ].*)")  # %a, %b : T
_CAST = re.compile(rf"({_VAL}) : ([^ ].*) to ([^ ].*)")  # %a : T1 to T2
_ARROW = re.compile(rf"({_VAL})(?: (\{{[^{{}}]*\}}))? : ([^ ].*) -> ([^ ].*)")  # %a {attrs}? : T1 -> T2
_CONSTANT = re.compile(r"([^{ ].*)")  # a typed attribute, no attribute dictionary
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


_INT = r"-?[0-9]+"
_FLOAT = r"-?[0-9]+\.[0-9]+(?:e[+-][0-9]+)?"
_NUMBER = re.compile(rf"(?:({_INT})|({_FLOAT})|dense<(?:({_INT})|({_FLOAT}))>) : (.*)|(true|false)")


def _number(p: MemoParser, m: re.Match[str]) -> Attribute | None:
    """`7 : i32`, `1.5e+00 : f32`, `true`, splat `dense<0.0> : tensor<...>` as xDSL's parser builds them."""
    if m.group(6) is not None:
        return IntegerAttr(1 if m.group(6) == "true" else 0, IntegerType(1))
    type = p.fast_type(m.start(5), m.end(5))
    if isinstance(type, TensorType):
        if m.group(3) is None and m.group(4) is None:
            return None
        element = type.element_type
        if m.group(3) is not None and isinstance(element, IntegerType | IndexType):
            return DenseIntOrFPElementsAttr.from_list(type, [int(m.group(3))])
        if m.group(4) is not None and isinstance(element, AnyFloat):
            return DenseIntOrFPElementsAttr.from_list(type, [float(m.group(4))])
        return None
    if m.group(1) is not None and isinstance(type, IntegerType | IndexType):
        return IntegerAttr(int(m.group(1)), type)
    if m.group(2) is not None and isinstance(type, AnyFloat):
        return FloatAttr(float(m.group(2)), type)
    return None


def _constant(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    start, end = base + m.start(1), base + m.end(1)

    def parse() -> Attribute | None:
        number = _NUMBER.fullmatch(p._text, start, end)
        return _number(p, number) if number is not None else p.fast_attr(start, end)

    # One object per text: cheaper, and verify_key sees repeats (a resource's text names
    # the module's blob, so not those).
    if p._text.startswith("dense_resource", start):
        value = parse()
    else:
        value = p.shared_value("c", start, end, parse)
    type = getattr(value, "type", None)
    if not isinstance(type, Attribute):
        return None
    return new_op(cls, result_types=[type], properties={"value": value})  # type: ignore[dict-item]


_COMPARE = re.compile(rf"([a-z]+), ({_VAL}), ({_VAL}) : ([^ ].*)")  # pred, %a, %b : T
_MAKE_RANGE = re.compile(r"(\{[^{}]*\}) : ([^ ].*)")  # {end = .., start = ..} : T



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


_PREDICATES: dict[int, Attribute] = {}  # one object per predicate (verify_key sees repeats)


_WITH_ELEMENT: list[Callable[[Attribute, Attribute], Attribute]] = []  # dialects.tt's, imported on first use
# (imports in a function run on every call: the hot builders import at the top, or once)


def _compare(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    if not _WITH_ELEMENT:
        from xpu_passes.dialects.tt import with_element

        _WITH_ELEMENT.append(with_element)
    with_element = _WITH_ELEMENT[0]
    pred = getattr(cls, "PREDICATES", {}).get(m.group(1))
    t = p.fast_type(m.start(4), m.end(4))
    if pred is None or t is None:
        return None
    return new_op(cls, 
        operands=[_operand(p, m, 2, 0, t), _operand(p, m, 3, 0, t)],
        result_types=[_derived(p, "i1", t, lambda t: with_element(t, i1))],
        properties={"predicate": _PREDICATES.get(pred) or _PREDICATES.setdefault(pred, IntegerAttr(pred, i64))},
    )


def _make_range(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    split = _split(p, m, 1, ("start", "end"))
    t = p.fast_type(m.start(2), m.end(2))
    if split is None or t is None:
        return None
    return new_op(cls, result_types=[t], properties=split[0], attributes=split[1])


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


_SHAPES: list[tuple[re.Pattern[str], _Builder, tuple[str, ...]]] = [
    (_BINARY, _binary, tuple(f"arith.{n}" for n in (
        "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori", "xori", "shli", "shrsi",
        "shrui", "ceildivsi", "floordivsi", "maxsi", "minsi", "maxui", "minui",
        "addf", "subf", "mulf", "divf", "maxnumf", "minnumf", "maximumf", "minimumf", "remf",
    ))),  # fmt: skip
    (_CAST, _unary, tuple(f"arith.{n}" for n in (
        "extsi", "extui", "trunci", "extf", "truncf", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast",
        "index_cast", "index_castui",
    ))),  # fmt: skip
    (_ARROW, _arrow, ("tt.splat", "tt.broadcast", "ttg.convert_layout", "tt.expand_dims", "tt.bitcast",
                      "tt.int_to_ptr", "tt.ptr_to_int", "tt.reshape")),
    (_TWO_TYPES, _two_types, ("tt.addptr",)),
    (_CONSTANT, _constant, ("arith.constant",)),
    (_COMPARE, _compare, ("arith.cmpi", "arith.cmpf")),
    (_MAKE_RANGE, _make_range, ("tt.make_range",)),
]
_BY_NAME: dict[str, tuple[re.Pattern[str], _Builder, str]] = {}  # name -> shape, builder, dialect


def _register() -> None:
    from xpu_passes.frontend.fast import ops_mem as fastops_mem
    from xpu_passes.frontend.fast import ops_more as fastops_more

    for shape, build, names in _SHAPES + fastops_more.SHAPES + fastops_mem.SHAPES:
        for name in names:
            _BY_NAME[name] = (shape, build, name.split(".", 1)[0])


_register()
FAST_NAMES = frozenset(_BY_NAME)
REGION_NAMES = frozenset(("tt.func", "scf.for", "tt.reduce", "tt.scan"))  # ops with a body (fastregions.py); not verify_key's


_REGION_PARSERS: dict[str, Callable[[MemoParser, type[Operation], int], Operation | None]] = {}  # (fastregions imports this module)


def _region_op(p: MemoParser, name: str, at: int, start: int) -> Operation | None:
    """An op with a body (frontend/fast/regions.py): once its header is read, it is committed."""
    if not _REGION_PARSERS:
        from xpu_passes.frontend.fast.regions import parse_for, parse_func, parse_generic

        _REGION_PARSERS.update({"tt.func": parse_func, "scf.for": parse_for, "tt.reduce": parse_generic,
                                "tt.scan": parse_generic})
    cls = p.fast_op_class(name)
    if cls is None:
        return None
    try:
        op = _REGION_PARSERS[name](p, cls, at)
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
        return None if multi is None or not lex else _region_op(p, multi.group(1) or multi.group(2), start, start)
    res, name = head.groups()
    found = _BY_NAME.get(name)
    if found is None:
        if name in REGION_NAMES:
            return _region_op(p, name, start, start) if lex else None
        return None
    cls = p._op_classes.get(name) or p.fast_op_class(name)
    if cls is None:
        return None
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
