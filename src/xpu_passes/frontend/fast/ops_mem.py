"""Fast parsers of the pointer ops: `tt.load`, `tt.store`, `tt.advance`, `tt.make_tensor_ptr`,
`ttig.prefetch` (their types are derived from the pointer's: a load's result, a mask).

Same contract as fastops.py: one regex over the op's line, None (xDSL's parser) for
anything else; `tests/python/frontend/fast/test_ops.py` checks both paths build the same IR.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import TensorType, i32, i64
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from xpu_passes.frontend.fast.build import _VAL, _build, _derived, _operand, _split, _uses
from xpu_passes.ir.xdsl_adapt import new_op
from xpu_passes.frontend.fast.types import TYPE_TEXT

if TYPE_CHECKING:
    from xpu_passes.frontend.fast.build import _Builder
    from xpu_passes.frontend.fast.memo import MemoParser

_DICT = r"(?: (\{[^{}]*\}))?"
_STORE = re.compile(rf"({_VAL}), ({_VAL})(?:, ({_VAL}))?{_DICT} : ([^ ].*)")
_PREFETCH = re.compile(rf"({_VAL})(?:, ({_VAL}))?{_DICT} : ([^ ].*)")
_ADVANCE = re.compile(rf"({_VAL}), \[((?:{_VAL}, )*{_VAL})\] : (<.*>)")  # %p, [%a, %b] : <tensor<..>>
_LOAD = re.compile(rf"({_VAL})(?:, ({_VAL}))?(?:, ({_VAL}))?(?: (\{{[^{{}}]*\}}))? : ([^ ].*)")
_LIST = rf"\[((?:{_VAL}, )*{_VAL})\]"
_MAKE_TENSOR_PTR = re.compile(rf"({_VAL}), {_LIST}, {_LIST}, {_LIST} (\{{[^{{}}]*\}}) : (<.*>)")


def _stripped_ptr(p: MemoParser, m: re.Match[str], group: int) -> Attribute | None:
    # `<tensor<...>>` is `!tt.ptr<tensor<...>>` printed without its name.
    text = "!tt.ptr" + m.group(group)
    return p.typed_text(text) if TYPE_TEXT.fullmatch(text) else None


def _advance(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    t = _stripped_ptr(p, m, 3)
    if t is None:
        return None
    return new_op(cls, operands=[_operand(p, m, 1, 0, t), *_uses(p, m, 2, i32)], result_types=[t])  # type: ignore[list-item]


def _pointer_types(p: MemoParser, cls: type[Operation], m: re.Match[str], mask_group: int
                   ) -> tuple[Attribute, Attribute, Attribute | None, Any] | None:
    """A load's/store's pointer type (group 5), its pointee, its mask type if the mask is there, and the
    attributes (group 4); None where the op's own parser must say what is wrong."""
    from xpu_passes.dialects.tt import mask_type, pointee_type

    pt = p.fast_type(m.start(5), m.end(5))
    split = _split(p, m, 4, getattr(cls, "INHERENT", ()))
    if pt is None or split is None:
        return None
    try:
        pointee = _derived(p, "pointee", pt, pointee_type)
        mask = _derived(p, "mask", pt, mask_type) if m.group(mask_group) is not None else None
    except VerifyException:  # not a pointer
        return None
    return pt, pointee, mask, split


def _load(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    if (typed := _pointer_types(p, cls, m, 2)) is None:
        return None
    pt, result, mask, split = typed
    ops = [_operand(p, m, 1, 0, pt)]
    if mask is not None:
        ops.append(_operand(p, m, 2, 0, mask))
    if m.group(3) is not None:
        ops.append(_operand(p, m, 3, 0, result))
    return _build(cls, [ops[0], ops[1:2], ops[2:3]], [result], *split)


def _make_tensor_ptr(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    t = _stripped_ptr(p, m, 6)
    split = _split(p, m, 5, ("order",))
    if t is None or split is None or not isinstance(block := getattr(t, "pointee", None), TensorType):
        return None
    space = t.address_space.data  # type: ignore[attr-defined]
    base_t = _derived(p, "base", t, lambda t: type(t)(block.element_type, space))  # type: ignore[call-arg]
    operands = [_operand(p, m, 1, 0, base_t), _uses(p, m, 2, i64), _uses(p, m, 3, i64), _uses(p, m, 4, i32)]
    return _build(cls, operands, [t], *split)


def _store(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    if (typed := _pointer_types(p, cls, m, 3)) is None:
        return None
    pt, value, mask, split = typed
    ops = [_operand(p, m, 1, 0, pt), _operand(p, m, 2, 0, value)]
    if mask is not None:
        ops.append(_operand(p, m, 3, 0, mask))
    return new_op(cls, operands=ops, properties=split[0], attributes=split[1])


def _prefetch(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    from xpu_passes.dialects.tt import mask_type

    pt = p.fast_type(m.start(4), m.end(4))
    split = _split(p, m, 3, getattr(cls, "INHERENT", ()))
    if pt is None or split is None:
        return None
    try:
        mask = _derived(p, "mask", pt, mask_type) if m.group(2) is not None else None
    except VerifyException:
        return None
    props, attrs = split
    props.pop("operandSegmentSizes", None)  # recomputed from the operands, as the op's parser does
    masks = [_operand(p, m, 2, 0, mask)] if mask is not None else []
    return _build(cls, [_operand(p, m, 1, 0, pt), masks, []], [], props, attrs)

# The forms (an op class names one in its FAST_SYNTAX: dialects/declared.py).
FORMS: dict[str, tuple[re.Pattern[str], _Builder]] = {
    "advance": (_ADVANCE, _advance),
    "load": (_LOAD, _load),
    "make_tensor_ptr": (_MAKE_TENSOR_PTR, _make_tensor_ptr),
    "store": (_STORE, _store),
    "prefetch": (_PREFETCH, _prefetch),
}
