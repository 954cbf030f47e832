"""`ttg`'s types: `!ttg.memdesc<...>` and `!ttg.async.token`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, IntAttr, UnitAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects.struct_attr import StructAttr


@irdl_attr_definition
class MemDescType(ParametrizedAttribute, TypeAttribute):
    """`!ttg.memdesc<2x256x32xbf16, #shared, #smem, mutable(, allocShape)?>`."""

    name = "ttg.memdesc"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    encoding: Attribute
    memory_space: Attribute
    mutable: Attribute  # UnitAttr when mutable, else NoneAttr-like empty array
    alloc_shape: ArrayAttr[IntAttr]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        dims, elem = parser.parse_ranked_shape()
        parser.parse_punctuation(",")
        enc = parser.parse_attribute()
        space: Attribute = ArrayAttr(())
        mutable: Attribute = ArrayAttr(())
        alloc: list[int] = []
        if parser.parse_optional_punctuation(","):
            space = parser.parse_attribute()
            if parser.parse_optional_punctuation(","):
                if parser.parse_optional_keyword("mutable"):
                    mutable = UnitAttr()
                    if parser.parse_optional_punctuation(","):
                        alloc = parser.parse_dimension_list()
                else:
                    alloc = parser.parse_dimension_list()
        parser.parse_punctuation(">")
        params = (ArrayAttr(IntAttr(d) for d in dims), elem, enc, space, mutable, ArrayAttr(IntAttr(d) for d in alloc))
        try:
            cls(*params)  # verify here, where the text position is known (as StructAttr does)
        except VerifyException as e:
            parser.raise_error(str(e), start, parser.pos)
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string("".join(f"{d.data}x" for d in self.shape.data))
        printer.print_attribute(self.element_type)
        printer.print_string(", ")
        printer.print_attribute(self.encoding)
        if self.memory_space != ArrayAttr(()):
            printer.print_string(", ")
            printer.print_attribute(self.memory_space)
        if isinstance(self.mutable, UnitAttr):
            printer.print_string(", mutable")
        # triton-xpu 3.3 never prints the allocation shape; later Triton prints it when it
        # differs from the shape. The printer's dialect spelling tells which Triton reads the text.
        if self.alloc_shape.data and self.alloc_shape != self.shape and not _prints_for_33(printer):
            printer.print_string(", " + "x".join(str(d.data) for d in self.alloc_shape.data))
        printer.print_string(">")

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def verify(self) -> None:
        """Triton's MemDescType::verify (the checks for the layouts we model), in its words."""
        shape = self.get_shape()
        alloc = tuple(d.data for d in self.alloc_shape.data) or shape
        if not shape:
            raise VerifyException("rank 0 memdesc is not allowed")
        elem = self.element_type
        bits = 64 if getattr(elem, "name", "") == "tt.ptr" else cast(int, getattr(elem, "bitwidth", 8))
        if bits != 1 and bits < 8:
            raise VerifyException(f"element type bit width must be 1 or at least 8; got {bits}")
        if 0 in shape:
            raise VerifyException("shape has 0 dimension")
        if 0 in alloc:
            raise VerifyException("alloc shape has 0 dimension")
        if len(alloc) < len(shape):
            raise VerifyException("alloc shape must have at least as many dimensions as shape")
        keys = {f.key for f in self.encoding.FIELDS} if isinstance(self.encoding, StructAttr) else set()
        order = cast(tuple[int, ...] | None, self.encoding.get("order")) if "order" in keys else None  # type: ignore[union-attr]
        if order is None:
            return  # another backend's or an unknown layout: not modelled here
        rank = len(order)
        if rank not in (len(shape), len(shape) - 1):
            raise VerifyException(
                f"rank must be equal to or one less than the shape size. Got {rank} and {len(shape)}"
            )
        for what, dims in (("shape", shape), ("alloc shape", alloc)):
            tail = dims[len(dims) - rank :] if len(dims) > rank else dims  # drop the pipelining dim
            if any(d <= 0 or d & (d - 1) for d in tail):
                raise VerifyException(
                    f"{what} must have power-of-2 and non-zero dimensions; got {', '.join(map(str, dims))}"
                )
        if any(a > b for a, b in zip(shape, alloc[len(alloc) - len(shape) :])):
            raise VerifyException("shape must be less than or equal to allocShape.")


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    name = "ttg.async.token"


_ASYNC_TOKEN = AsyncTokenType()


def _prints_for_33(printer: Printer) -> bool:
    """Printing for triton-xpu 3.3 (which spells `ttig` `triton_intel_gpu`)."""
    return "ttig" in getattr(printer, "renames", {})
