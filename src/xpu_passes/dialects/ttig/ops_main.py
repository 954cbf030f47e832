"""`ttig` ops of Intel main that triton-xpu 3.3 lacks, read and printed back: the 2D block loads and the
descriptor ops (prefetch, extract, gather, scatter). Formats are TritonIntelGPUOps.td's `assemblyFormat`.
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import I32, IntegerAttr, TensorType, UnitAttr, i32
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
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

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import (
    emit,
    enum_keyword,
    parse_attr_dict,
    parse_keyword_enum,
    print_attr_dict,
    print_operands,
)
from xpu_passes.dialects.tt.descriptors import _DescriptorGather, _DescriptorScatter
from xpu_passes.dialects.tt.ops_memory import parse_cache_evict, print_cache_evict
from xpu_passes.dialects.tt.types import PointerType, StrippedDesc, TensorDescType, element_type


BLOCK_IO_MODE = {"row_major": 0, "column_major": 1}


def _check_rank2(t: Attribute) -> None:
    rank = len(cast(TensorType, t).get_shape())
    if rank < 2:
        raise VerifyException(f"result tensor must have rank >= 2, got {rank}")


@op_definition
class DescriptorPrefetchOp(IRDLOperation):
    """`ttig.descriptor_prefetch %d[%x, %y] (cacheModifier = ..)? : !tt.tensordesc<..>`."""

    name = "ttig.descriptor_prefetch"
    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> DescriptorPrefetchOp:
        d = parser.parse_unresolved_operand()
        idx = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        props = parse_cache_evict(parser)
        more, attrs = parse_attr_dict(parser, ("cache", "evict"))
        parser.parse_punctuation(":")
        t = parser.parse_type()
        ops = [parser.resolve_operand(d, t), [parser.resolve_operand(i, i32) for i in idx]]
        return cls.build(operands=ops, properties=props | more, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.desc)
        printer.print_string("[")
        print_operands(printer, self.indices)
        printer.print_string("]")
        print_cache_evict(printer, self)
        print_attr_dict(printer, self, skip=("cache", "evict"))
        emit(printer, " : ", self.desc.type)

    def verify_(self) -> None:
        rank = len(cast(TensorDescType, self.desc.type).get_shape())
        if len(self.indices) != rank:
            raise VerifyException(f"expected {rank} indices, but got {len(self.indices)}")


@op_definition
class ExtractDescOp(IRDLOperation):
    """`ttig.extract_desc %d[4] : <64x32xf16> -> !tt.ptr<f16>` (a field of the descriptor)."""

    name = "ttig.extract_desc"
    desc = operand_def(TensorDescType)
    index = prop_def(IntegerAttr[I32])
    result = result_def()
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (StrippedDesc,)
    assembly_format = "$desc `[` $index `]` attr-dict `:` custom<StrippedDesc>(type($desc)) `->` type($result)"


@op_definition
class Subgroup2DBlockLoadOp(IRDLOperation):
    """`ttig.2d_block_load %p, %w, %h, %pitch[%x, %y] {row_major(, pad_nan)?} : !tt.ptr<f16> -> T`."""

    name = "ttig.2d_block_load"
    base_ptr = operand_def(PointerType)
    base_width = operand_def(i32)
    base_height = operand_def(i32)
    base_pitch = operand_def(i32)
    offset_x = operand_def(i32)
    offset_y = operand_def(i32)
    memory_layout = prop_def(IntegerAttr)
    pad_nan = opt_prop_def(UnitAttr)
    result = result_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser) -> Subgroup2DBlockLoadOp:
        xs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        xs += parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        if len(xs) != 6:
            parser.raise_error(f"expected 4 operands and 2 offsets, got {len(xs)} values")
        parser.parse_punctuation("{")
        props: dict[str, Attribute] = {"memory_layout": parse_keyword_enum(parser, BLOCK_IO_MODE, "memory layout")}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("pad_nan")
            props["pad_nan"] = UnitAttr()
        parser.parse_punctuation("}")
        more, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        pt = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        ops = [parser.resolve_operand(xs[0], pt), *(parser.resolve_operand(x, i32) for x in xs[1:])]
        return cls.build(operands=ops, result_types=[rt], properties=props | more, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands[:4])
        printer.print_string("[")
        print_operands(printer, self.operands[4:])
        printer.print_string("] {" + enum_keyword(self.memory_layout, BLOCK_IO_MODE))
        printer.print_string(", pad_nan}" if self.pad_nan is not None else "}")
        print_attr_dict(printer, self, skip=("memory_layout", "pad_nan"))
        emit(printer, " : ", self.base_ptr.type, " -> ", self.result.type)

    def verify_(self) -> None:
        _check_rank2(self.result.type)
        pointee = cast(PointerType, self.base_ptr.type).pointee
        if pointee != element_type(self.result.type):
            raise VerifyException(f"result element type must be the pointee type {pointee}")


@op_definition
class Subgroup2DBlockLoadFromPtrOp(IRDLOperation):
    """`ttig.2d_block_load_from_ptr %p, %pitch (, %mask, %other)? {row_major} {base_height = .., base_width = ..} : (..) -> T`."""

    name = "ttig.2d_block_load_from_ptr"
    ptr = operand_def()
    base_pitch = operand_def(i32)
    mask = opt_operand_def()
    other = opt_operand_def()
    base_width = prop_def(IntegerAttr)
    base_height = prop_def(IntegerAttr)
    memory_layout = prop_def(IntegerAttr)
    result = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    INHERENT: ClassVar[tuple[str, ...]] = ("base_width", "base_height", "operandSegmentSizes")

    @classmethod
    def parse(cls, parser: Parser) -> Subgroup2DBlockLoadFromPtrOp:
        xs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(xs) not in (2, 4):
            parser.raise_error(f"expected a pointer, a pitch and optionally a mask and other, got {len(xs)} values")
        parser.parse_punctuation("{")
        props: dict[str, Attribute] = {"memory_layout": parse_keyword_enum(parser, BLOCK_IO_MODE, "memory layout")}
        parser.parse_punctuation("}")
        more, attrs = parse_attr_dict(parser, cls.INHERENT)
        more.pop("operandSegmentSizes", None)
        parser.parse_punctuation(":")
        pos = parser.pos
        ft = parser.parse_function_type()
        ins = ft.inputs.data
        if len(ins) != len(xs):
            parser.raise_error(f"expected {len(xs)} operand types, got {len(ins)}", pos, parser.pos)
        vals = [parser.resolve_operand(x, t) for x, t in zip(xs, ins)]
        ops = [vals[0], vals[1], vals[2:3], vals[3:4]]
        return cls.build(operands=ops, result_types=list(ft.outputs.data), properties=props | more, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        printer.print_string(" {" + enum_keyword(self.memory_layout, BLOCK_IO_MODE) + "}")
        print_attr_dict(printer, self, skip=("memory_layout", "operandSegmentSizes"))
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)

    def verify_(self) -> None:
        _check_rank2(self.result.type)
        if self.mask is not None and self.other is None:
            raise VerifyException("'other' must be present when 'mask' is present")


def _intel_gather_checks(desc: Attribute, x: Attribute, data: Attribute) -> None:
    """Intel's verifyGatherScatterOp: a 1-row 2D block, rows = len(x), >= 256 bits per row."""
    block = cast(TensorDescType, desc).get_shape()
    if len(block) != 2:
        raise VerifyException(f"descriptor block must be a 2D tensor, but got {list(block)}")
    if block[0] != 1:
        raise VerifyException(f"descriptor block must have exactly 1 row, but got {block[0]}")
    xt, dt = cast(TensorType, x), cast(TensorType, data)
    if len(xt.get_shape()) != 1:
        raise VerifyException(f"x offsets must be a 1D tensor, but got {xt}")
    if len(dt.get_shape()) != 2:
        raise VerifyException(f"result must be a 2D tensor, but got {dt}")
    elem = dt.element_type
    bits = cast(int, getattr(elem, "bitwidth", 64))
    if bits > 64:
        raise VerifyException("dtype cannot be greater than 64 bits")
    rows, cols = dt.get_shape()
    if cols < 256 // bits:
        raise VerifyException(f"must have at least {256 // bits} columns for {elem}, but got {cols}")
    if rows != xt.get_shape()[0]:
        raise VerifyException(f"result tensor must have as many rows as indices ({xt.get_shape()[0]}), but got {dt}")
    if cols != block[1]:
        raise VerifyException(f"result tensor number of columns must match block ({block[1]}), but got {dt}")
    if elem != cast(TensorDescType, desc).element_type:
        raise VerifyException(f"result tensor element type must match block ('{cast(TensorDescType, desc).element_type}')")


@op_definition
class DescriptorGatherOp(_DescriptorGather):
    name = "ttig.descriptor_gather"

    def verify_(self) -> None:
        _intel_gather_checks(self.desc.type, self.x_offsets.type, self.result.type)


@op_definition
class DescriptorScatterOp(_DescriptorScatter):
    name = "ttig.descriptor_scatter"

    def verify_(self) -> None:
        _intel_gather_checks(self.desc.type, self.x_offsets.type, self.src.type)
