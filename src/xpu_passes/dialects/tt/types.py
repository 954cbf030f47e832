"""`tt`'s types: `!tt.ptr<...>` and `!tt.tensordesc<...>`, and the element/pointee/mask type helpers."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr, TensorType, i1
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects._syntax import emit, stripped_type_directive
from xpu_passes.ir.xdsl_adapt import next_token_text


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`!tt.ptr<T>` or `!tt.ptr<T, addrspace>`; T may be a tensor (block pointer)."""

    name = "tt.ptr"

    pointee: Attribute
    address_space: IntAttr

    def __init__(self, pointee: Attribute, address_space: int = 1) -> None:
        super().__init__(pointee, IntAttr(address_space))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        pointee = parser.parse_type()
        space = 1
        if parser.parse_optional_punctuation(","):
            space = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(">")
        return (pointee, IntAttr(space))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.pointee)
        if self.address_space.data != 1:
            printer.print_string(f", {self.address_space.data}")
        printer.print_string(">")

    @property
    def is_block(self) -> bool:
        return isinstance(self.pointee, TensorType)


# `type($x)` of a !tt.ptr-constrained value in a declarative format (`<f16>`).
StrippedPtr = stripped_type_directive("StrippedPtr", PointerType)


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def with_element(t: Attribute, elem: Attribute) -> Attribute:
    """The same shape and layout as `t` (a tensor or a scalar) with another element."""
    if isinstance(t, TensorType):
        return TensorType(elem, t.get_shape(), t.encoding)
    return elem


def pointee_type(ptr_type: Attribute) -> Attribute:
    """What a load through `ptr_type` yields: scalar, tensor, or block."""
    if isinstance(ptr_type, PointerType):
        return ptr_type.pointee
    if isinstance(ptr_type, TensorType) and isinstance(ptr_type.element_type, PointerType):
        return with_element(ptr_type, ptr_type.element_type.pointee)
    raise VerifyException(f"expected a pointer or tensor of pointers, got {ptr_type}")


def mask_type(ptr_type: Attribute) -> Attribute:
    return with_element(pointee_type(ptr_type), i1)


@irdl_attr_definition
class TensorDescType(ParametrizedAttribute, TypeAttribute):
    """`!tt.tensordesc<64x32xf16(, #layout)?>` (Intel main) or 3.3's `!tt.tensordesc<tensor<64x32xf16>>`."""

    name = "tt.tensordesc"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    layout: Attribute  # NoneAttr when absent
    tensor_form: IntAttr  # 1: 3.3's `<tensor<...>>`

    def __init__(
        self, shape: Sequence[int], element: Attribute, layout: Attribute | None = None, tensor_form: bool = False
    ) -> None:
        super().__init__(ArrayAttr(IntAttr(d) for d in shape), element, layout or NoneAttr(), IntAttr(int(tensor_form)))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        layout: Attribute = NoneAttr()
        if next_token_text(parser) == "tensor":
            block = parser.parse_type()
            if not isinstance(block, TensorType):
                parser.raise_error("expected a ranked tensor type")
            parser.parse_punctuation(">")
            return (ArrayAttr(IntAttr(d) for d in block.get_shape()), block.element_type, block.encoding, IntAttr(1))
        dims, elem = parser.parse_ranked_shape()
        if parser.parse_optional_punctuation(","):
            layout = parser.parse_attribute()
        parser.parse_punctuation(">")
        return (ArrayAttr(IntAttr(d) for d in dims), elem, layout, IntAttr(0))

    def print_parameters(self, printer: Printer) -> None:
        if self.tensor_form.data:
            emit(printer, "<", self.block_type(), ">")
            return
        printer.print_string("<" + "".join(f"{d.data}x" for d in self.shape.data))
        printer.print_attribute(self.element_type)
        if not isinstance(self.layout, NoneAttr):
            emit(printer, ", ", self.layout)
        printer.print_string(">")

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def block_type(self) -> TensorType:
        enc = NoneAttr() if not self.tensor_form.data else self.layout
        return TensorType(self.element_type, self.get_shape(), enc)


# `type($x)` of a !tt.tensordesc-constrained value in a declarative format (`<64x32xf16>`).
StrippedDesc = stripped_type_directive("StrippedDesc", TensorDescType)
