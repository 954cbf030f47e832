"""`ttg` ops of triton-xpu 3.3: convert_layout, shared memory (local_alloc/load/store/dealloc,
memdesc_subview/trans), fp4_to_fp, global_scratch_alloc.
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, UnitAttr, i32
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects.traits import EmitError

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import UnaryOp, parse_attr_dict, print_attr_dict
from xpu_passes.dialects.tt.types import PointerType
from xpu_passes.dialects.ttg.types import AsyncTokenType, MemDescType


@op_definition
class ConvertLayoutOp(UnaryOp):
    """`%y = ttg.convert_layout %x : tensor<..., #a> -> tensor<..., #b>`."""

    name = "ttg.convert_layout"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        s, r = cast(TensorType, self.src.type), cast(TensorType, self.result.type)
        if s.get_shape() != r.get_shape() or s.element_type != r.element_type:
            raise VerifyException("convert_layout changes only the layout, not shape or element type")


@op_definition
class LocalAllocOp(IRDLOperation):
    """`ttg.local_alloc %x : (T) -> !ttg.memdesc<...>` or `ttg.local_alloc : () -> ...`."""

    name = "ttg.local_alloc"
    src = opt_operand_def()
    result = result_def(MemDescType)
    alignment = opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> LocalAllocOp:
        x = parser.parse_optional_unresolved_operand()
        props, attrs = parse_attr_dict(parser, ("alignment",))
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        ops = [parser.resolve_operand(x, ft.inputs.data[0])] if x is not None else []
        return cls.build(operands=[ops], result_types=list(ft.outputs.data), properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        # Triton's declarative format emits the space before `($src^)?` even when there is
        # no src: `ttg.local_alloc  : () -> ...`.
        printer.print_string(" ")
        if self.src is not None:
            printer.print_operand(self.src)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)


@op_definition
class LocalLoadOp(IRDLOperation):
    """`ttg.local_load %m (token %t)? : !ttg.memdesc<...> -> tensor<...>`."""

    name = "ttg.local_load"
    src = operand_def(MemDescType)
    token = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)
    assembly_format = "$src (`token` $token^)? attr-dict `:` type($src) `->` type($result)"


@op_definition
class LocalStoreOp(IRDLOperation):
    """`ttg.local_store %v, %m : tensor<...> -> !ttg.memdesc<...>`."""

    name = "ttg.local_store"
    src = operand_def(TensorType)
    dst = operand_def(MemDescType)
    assembly_format = "$src `,` $dst attr-dict `:` type($src) `->` type($dst)"


@op_definition
class LocalDeallocOp(IRDLOperation):
    """`ttg.local_dealloc %m : !ttg.memdesc<...>`."""

    name = "ttg.local_dealloc"
    src = operand_def(MemDescType)
    assembly_format = "$src attr-dict `:` type($src)"


@op_definition
class MemDescSubviewOp(IRDLOperation):
    """`ttg.memdesc_subview %m[%i, %c0, %c0] : !ttg.memdesc<..> -> !ttg.memdesc<..>`."""

    name = "ttg.memdesc_subview"
    src = operand_def(MemDescType)
    offsets = var_operand_def(i32)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    assembly_format = "$src `[` $offsets `]` attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        src, dst = cast(MemDescType, self.src.type), cast(MemDescType, self.result.type)
        ss, ds = [d.data for d in src.shape.data], [d.data for d in dst.shape.data]
        if src.element_type != dst.element_type:
            raise EmitError("result element type must match desc element type")
        if len(self.offsets) != len(ss):
            raise EmitError("offsets must have the same rank as input")
        if len(ss) < len(ds):
            raise EmitError("result rank must be less than or equal to input rank")
        for i, d in enumerate(ds):
            if d > ss[i + len(ss) - len(ds)]:
                raise EmitError(f"result shape cannot be larger than input shape at dimension {i}")


@op_definition
class MemDescTransOp(UnaryOp):
    """`ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<..> -> !ttg.memdesc<..>`."""

    name = "ttg.memdesc_trans"
    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    order = prop_def(DenseArrayBase)
    traits = traits_def(Pure())


# ------------------------------------------------------------------ other ops


@op_definition
class Fp4ToFpOp(UnaryOp):
    name = "ttg.fp4_to_fp"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())


@op_definition
class GlobalScratchAllocOp(IRDLOperation):
    """`ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>`."""

    name = "ttg.global_scratch_alloc"
    nbytes = prop_def(IntegerAttr)
    alignment = opt_prop_def(IntegerAttr)
    third_party_allocation = opt_prop_def(UnitAttr)
    result = result_def(PointerType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"
