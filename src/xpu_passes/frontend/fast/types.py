"""The types Triton's IR is made of, read with one regex instead of xDSL's token parser.

`i32`, `!tt.ptr<f16>`, `tensor<64x128xf16, #blocked>`, `tensor<64x!tt.ptr<f16>, #blocked>`,
`!tt.ptr<tensor<64x32xbf16, #blocked>>`: xDSL reads each token by token (~1 ms for a
tensor type on this machine); most of a module's distinct types are these. Each is built
with the constructor xDSL's parser uses, so the type is the same; any other text (inline
layouts, other element types, dynamic shapes) is left to xDSL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import IndexType, TensorType, bf16, f16, f32, f64, i1, i8, i16, i32, i64
from xdsl.ir import Attribute

_SCALAR = r"(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64|index)(?![\w$.])"
_SPACE = r"(?:, [0-9]+)?"
_PTR = rf"!tt\.ptr<{_SCALAR}{_SPACE}>"
# An encoding: an alias, or a layout printed inline without nesting (`#ttg.dot_op<{..., parent = #mma}>`).
_ENCODING = r"#[a-zA-Z_][a-zA-Z0-9_$.-]*(?:<\{[^{}<>]*\}>)?"
_TENSOR = rf"tensor<(?:(?!0x)[0-9]+x)+(?:{_SCALAR}|{_PTR})(?:, {_ENCODING})?>"
TYPE_TEXT = re.compile(rf"{_TENSOR}|!tt\.ptr<{_TENSOR}{_SPACE}>|{_PTR}|{_SCALAR}")

_TENSOR_PARTS = re.compile(rf"tensor<((?:[0-9]+x)+)(.*?)(?:, ({_ENCODING}))?>")
_PTR_PARTS = re.compile(r"!tt\.ptr<(.*?)(?:, ([0-9]+))?>")

# xDSL's own objects (`builtin.i32`...): the types the fast op parsers pass for operands
# (`tt.make_tensor_ptr`'s i64 shape) are then the very objects defining ops' results have,
# so fastops.use finds them by identity.
_SCALARS: dict[str, Attribute] = {
    "i1": i1, "i8": i8, "i16": i16, "i32": i32, "i64": i64,
    "f16": f16, "bf16": bf16, "f32": f32, "f64": f64, "index": IndexType(),
}  # fmt: skip


def build_type(
    text: str, encoding: Callable[[str], Attribute | None], pointer: Callable[[], type[Attribute] | None]
) -> Attribute | None:
    """The type of a text TYPE_TEXT matched in full, or None (an alias not defined...: xDSL's error).

    `encoding` gives the attribute of an encoding's text, `pointer` the class of `!tt.ptr`."""
    scalar = _SCALARS.get(text)
    if scalar is not None:
        return scalar
    if text.startswith("tensor<"):
        m = _TENSOR_PARTS.fullmatch(text)
        if m is None:
            return None
        element = build_type(m.group(2), encoding, pointer)
        if element is None:
            return None
        shape = [int(d) for d in m.group(1)[:-1].split("x")]
        if m.group(3) is None:
            return TensorType(element, shape)
        layout = encoding(m.group(3))
        return None if layout is None else TensorType(element, shape, layout)
    m = _PTR_PARTS.fullmatch(text)
    cls = pointer()
    if m is None or cls is None:
        return None
    pointee = build_type(m.group(1), encoding, pointer)
    if pointee is None:
        return None
    return cls(pointee, int(m.group(2) or 1))  # type: ignore[call-arg]


_MAX_FUNCTION_TYPES = 20_000  # entries before the table starts over
_FUNCTION_TYPES: dict[tuple[int, ...], Any] = {}  # function_type's


def function_type(inputs: list[Attribute], outputs: list[Attribute]) -> Any:
    """`FunctionType.from_lists(inputs, outputs)`, one object per list of type objects (by
    identity; the object keeps them): a function's verified terminators are then verified
    once for all its parses (their key holds the function's type)."""
    key = (*map(id, inputs), -1, *map(id, outputs))
    hit = _FUNCTION_TYPES.get(key)
    if hit is None:
        from xdsl.dialects.builtin import FunctionType

        if len(_FUNCTION_TYPES) > _MAX_FUNCTION_TYPES:
            _FUNCTION_TYPES.clear()
        hit = _FUNCTION_TYPES[key] = FunctionType.from_lists(inputs, outputs)
    return hit


def clear_function_types() -> None:
    _FUNCTION_TYPES.clear()
