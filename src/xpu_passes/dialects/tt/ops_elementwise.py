"""`tt` elementwise ops: casts (bitcast, int/ptr, fp_to_fp) and math (precise sqrt/div, mulhiui, clampf)."""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import IntegerAttr
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import (
    UnaryOp,
    emit,
    enum_keyword,
    parse_attr_dict,
    parse_keyword_enum,
    print_attr_dict,
)
from xpu_passes.dialects.traits import Rules, same_operands_and_result_encoding, same_operands_and_result_shape
from xpu_passes.dialects.tt._checks import _bits, _check
from xpu_passes.dialects.tt.attributes import PropagateNan, ROUNDING
from xpu_passes.dialects.tt.types import PointerType, element_type


# ------------------------------------------------------- casts and math


@op_definition
class BitcastOp(UnaryOp):
    name = "tt.bitcast"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    traits = traits_def(Pure(), Rules((same_operands_and_result_shape, same_operands_and_result_encoding)))

    def verify_(self) -> None:
        s, d = element_type(self.src.type), element_type(self.result.type)
        if isinstance(s, PointerType) or isinstance(d, PointerType):
            _check(isinstance(s, PointerType) and isinstance(d, PointerType),
                   "Cannot bitcast pointer to non-pointer type")
            _check(cast(PointerType, s).address_space == cast(PointerType, d).address_space,
                   "Cannot bitcast pointer between different address spaces")
            return
        _check(_bits(s) == _bits(d), lambda: f"Cannot bitcast data-type of size {_bits(s)} to data-type of size "
                                             f"{_bits(d)}")


@op_definition
class IntToPtrOp(UnaryOp):
    name = "tt.int_to_ptr"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    traits = traits_def(Pure(), Rules((same_operands_and_result_shape, same_operands_and_result_encoding)))


@op_definition
class PtrToIntOp(UnaryOp):
    name = "tt.ptr_to_int"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    traits = traits_def(Pure(), Rules((same_operands_and_result_shape, same_operands_and_result_encoding)))


@op_definition
class FpToFpOp(IRDLOperation):
    """`tt.fp_to_fp %x (, rounding = rtne)? : T -> U`."""

    name = "tt.fp_to_fp"
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    src = operand_def()
    result = result_def()
    rounding = opt_prop_def(IntegerAttr)
    traits = traits_def(Pure(), Rules((same_operands_and_result_shape, same_operands_and_result_encoding)))

    @classmethod
    def parse(cls, parser: Parser) -> FpToFpOp:
        x = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, ())
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("rounding")
            parser.parse_punctuation("=")
            props["rounding"] = parse_keyword_enum(parser, ROUNDING, "rounding mode")
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        r = parser.parse_type()
        return cls.build(operands=[parser.resolve_operand(x, t)], result_types=[r], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_attr_dict(printer, self, skip=("rounding",))
        if self.rounding is not None:
            printer.print_string(f", rounding = {enum_keyword(self.rounding, ROUNDING)}")
        emit(printer, " : ", self.src.type, " -> ", self.result.type)


class _SameType(IRDLOperation):
    """`op %a, %b attr-dict : T` with operands and result all of type T."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    args = var_operand_def(T)
    result = result_def(T)
    assembly_format = "$args attr-dict `:` type($result)"

    def verify_(self) -> None:
        for a in self.args:
            _check(a.type == self.result.type, "operands and result must have the same type")


@op_definition
class PreciseSqrtOp(_SameType):
    name = "tt.precise_sqrt"
    traits = traits_def(Pure())


@op_definition
class PreciseDivFOp(_SameType):
    name = "tt.precise_divf"
    traits = traits_def(Pure())


@op_definition
class MulhiUIOp(_SameType):
    name = "tt.mulhiui"
    traits = traits_def(Pure())


@op_definition
class ClampFOp(IRDLOperation):
    """`tt.clampf %x, %lo, %hi, propagateNan = none : T`."""

    name = "tt.clampf"
    T: ClassVar = VarConstraint("T", AnyAttr())
    x = operand_def(T)
    min = operand_def(T)
    max = operand_def(T)
    result = result_def(T)
    propagateNan = prop_def(IntegerAttr)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (PropagateNan,)
    assembly_format = (
        "$x `,` $min `,` $max `,` `propagateNan` `=` custom<PropagateNan>($propagateNan) attr-dict `:` type($result)"
    )
