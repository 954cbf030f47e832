"""Fast parsers of the op forms whose text holds attributes: `arith.constant`, compares
(`arith.cmpi`/`cmpf`), and `{...}? : T` (`tt.make_range`, `ub.poison`).

Same contract as frontend/fast/ops.py: one regex over the op's line, None (xDSL's parser)
for anything else; `tests/python/frontend/fast/test_syntax.py` checks each form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import OptionalDef

from xpu_passes.frontend.fast.build import _VAL, _derived, _operand, _split
from xpu_passes.ir.xdsl_adapt import new_op

if TYPE_CHECKING:
    from xpu_passes.frontend.fast.memo import MemoParser
    from xpu_passes.frontend.fast.build import _Builder

_CONSTANT = re.compile(r"([^{ ].*)")  # a typed attribute, no attribute dictionary
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
_ATTRS_RESULT = re.compile(r"(?:(\{[^{}]*\}) )?: ([^ ].*)")  # {end = .., start = ..}? : T

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


_DICT_PROPS: dict[type[Operation], tuple[frozenset[str], frozenset[str]]] = {}


def _dict_props(cls: type[Operation]) -> tuple[frozenset[str], frozenset[str]]:
    """The properties `cls`'s attr-dict holds (ParsePropInAttrDict; else none), and those it must hold."""
    found = _DICT_PROPS.get(cls)
    if found is None:
        op_def = cls.get_irdl_definition()  # type: ignore[attr-defined]
        in_dict = any(type(o).__name__ == "ParsePropInAttrDict" for o in op_def.options)
        props = frozenset(op_def.properties) if in_dict else frozenset()
        required = frozenset(n for n, d in op_def.properties.items()
                             if not isinstance(d, OptionalDef) and d.default_value is None)
        found = _DICT_PROPS[cls] = (props, required)
    return found


def _attrs_result(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    """`{...}? : T` (tt.make_range, ub.poison): the dictionary split as the op's format splits it."""
    inherent, required = _dict_props(cls)
    split = _split(p, m, 1, inherent)
    t = p.fast_type(m.start(2), m.end(2))
    if split is None or t is None or not required <= split[0].keys():
        return None
    return new_op(cls, result_types=[t], properties=split[0], attributes=split[1])


# The forms (an op class names one in its FAST_SYNTAX, or derives it: frontend/fast/syntax.py).
FORMS: dict[str, tuple[re.Pattern[str], _Builder]] = {
    "constant": (_CONSTANT, _constant),
    "compare": (_COMPARE, _compare),
    "attrs_result": (_ATTRS_RESULT, _attrs_result),
}
