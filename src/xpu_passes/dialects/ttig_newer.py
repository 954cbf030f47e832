"""`ttig` ops our passes do not rewrite, read and printed back in Intel's syntax.

3.3's `ttig.alloc`, `ttig.glue`, `ttig.extract`, `ttig.broadcast`,
`ttig.sub_group_transpose`; Intel main's 2D block loads and descriptor ops.
Formats are the `assemblyFormat` of TritonIntelGPUOps.td: declarative where xDSL
expresses them; by hand where MLIR prints a type without its dialect prefix, infers
an operand type, or uses enum keywords inside `{...}`.
"""

from __future__ import annotations

import math
from typing import ClassVar, cast

from xdsl.dialects.builtin import I32, IntegerAttr, NoneAttr, TensorType, UnitAttr, i1, i32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
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

from xpu_passes.dialects._syntax import (
    emit,
    enum_keyword,
    i32_attr,
    parse_attr_dict,
    parse_keyword_enum,
    print_attr_dict,
    print_operands,
)
from xpu_passes.dialects.tt import PointerType, StrippedPtr, element_type, parse_cache_evict, print_cache_evict
from xpu_passes.dialects.tt_descriptors import (
    SCALE_DOT_ELEM,
    StrippedDesc,
    TensorDescType,
    _DescriptorGather,
    _DescriptorScatter,
)

BLOCK_IO_MODE = {"row_major": 0, "column_major": 1}


@irdl_op_definition
class AllocOp(IRDLOperation):
    """`ttig.alloc : <8x64xf32, 3>` (the pointer type printed without `!tt.ptr`)."""

    name = "ttig.alloc"
    result = result_def(PointerType)
    custom_directives = (StrippedPtr,)
    assembly_format = "attr-dict `:` custom<StrippedPtr>(type($result))"


@irdl_op_definition
class GlueOp(IRDLOperation):
    """3.3: `ttig.glue %a, %b : (T, T) -> U`."""

    name = "ttig.glue"
    srcs = var_operand_def()
    res = result_def()
    traits = traits_def(Pure())
    assembly_format = "$srcs attr-dict `:` functional-type($srcs, results)"

    def verify_(self) -> None:
        # Intel's GlueOp::verify, rule by rule and in its words.
        types = [v.type for v in self.srcs]
        if not types:
            return
        if any(t != types[0] for t in types):
            raise VerifyException("operands must have the same type")
        shape, result = _tile_shape(types[0]), _tile_shape(self.res.type)
        if shape is None or result is None:
            return
        if any(i > r for i, r in zip(shape, result)):
            raise VerifyException("operands cannot exceed result size along any dimension")
        for axis, (i, r) in enumerate(zip(shape, result)):
            if r % i:
                raise VerifyException(f"operands cannot be glued along axis {axis}")
        if len(types) * math.prod(shape) != math.prod(result):
            raise VerifyException("glued operands do not exactly cover the result shape")


@irdl_op_definition
class ExtractOp(IRDLOperation):
    """3.3: `ttig.extract %t[2] : T -> U`."""

    name = "ttig.extract"
    base = operand_def()
    index = prop_def(IntegerAttr)
    res = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ExtractOp:
        x = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        idx = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation("]")
        props, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        r = parser.parse_type()
        props["index"] = i32_attr(idx)
        return cls.build(operands=[parser.resolve_operand(x, t)], result_types=[r], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string(f"[{self.index.value.data}]")
        print_attr_dict(printer, self, skip=("index",))
        emit(printer, " : ", self.base.type, " -> ", self.res.type)

    def verify_(self) -> None:
        # Intel's ExtractOp::verify, rule by rule and in its words.
        if _tile_element(self.base.type) != _tile_element(self.res.type):
            raise VerifyException("operand and result element type must match")
        shape, result = _tile_shape(self.base.type), _tile_shape(self.res.type)
        if shape is None or result is None:
            return
        if len(result) > len(shape):
            raise VerifyException("result rank cannot be greater than operand rank")
        result = [1] * (len(shape) - len(result)) + list(result)
        tiles = 1
        for dim, (o, r) in enumerate(zip(shape, result)):
            if o < r:
                raise VerifyException(f"operand shape cannot be smaller than result shape along dimension {dim}")
            if o % r:
                raise VerifyException(f"operands shape is not divisible by result shape along dimension {dim}")
            tiles *= o // r
        if self.index.value.data >= tiles:
            raise VerifyException(f"index must be less than {tiles}")


def _tile_shape(t: Attribute) -> tuple[int, ...] | None:
    """The shape of a tensor or of a pointer to one (what glue/extract tile)."""
    if isinstance(t, PointerType):
        t = t.pointee
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def _tile_element(t: Attribute) -> Attribute:
    return element_type(t.pointee if isinstance(t, PointerType) else t)


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    name = "ttig.broadcast"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        if element_type(self.src.type) != element_type(self.result.type):
            raise VerifyException("source and result must have the same element type")


@irdl_op_definition
class SubGroupTransposeOp(IRDLOperation):
    """`ttig.sub_group_transpose %buf, %x : tensor<16x16xf16>`; %buf is `!tt.ptr<f16, 3>`."""

    name = "ttig.sub_group_transpose"
    local_buffer = operand_def(PointerType)
    src = operand_def(TensorType)
    res = result_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser) -> SubGroupTransposeOp:
        buf = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        x = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        ops = [parser.resolve_operand(buf, PointerType(element_type(t), 3)), parser.resolve_operand(x, t)]
        return cls.build(operands=ops, result_types=[t], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, (self.local_buffer, self.src))
        print_attr_dict(printer, self)
        emit(printer, " : ", self.src.type)

    def verify_(self) -> None:
        t = cast(TensorType, self.src.type)
        if self.res.type != t:
            raise VerifyException("result must have the type of the source")
        n = _threads_per_warp(self)
        if not isinstance(t.encoding, NoneAttr) or (n is not None and tuple(t.get_shape()) != (n, n)):
            raise VerifyException(
                "can only be used on tensors of shape <sub_group_size x sub_group_size> with no encoding"
            )


def _threads_per_warp(op: IRDLOperation) -> int | None:
    module = op.get_toplevel_object()
    value = module.attributes.get("ttg.threads-per-warp") if isinstance(module, Operation) else None
    return value.value.data if isinstance(value, IntegerAttr) else None


def _check_rank2(t: Attribute) -> None:
    rank = len(cast(TensorType, t).get_shape())
    if rank < 2:
        raise VerifyException(f"result tensor must have rank >= 2, got {rank}")


@irdl_op_definition
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


@irdl_op_definition
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


@irdl_op_definition
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


@irdl_op_definition
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


@irdl_op_definition
class DescriptorGatherOp(_DescriptorGather):
    name = "ttig.descriptor_gather"

    def verify_(self) -> None:
        _intel_gather_checks(self.desc.type, self.x_offsets.type, self.result.type)


@irdl_op_definition
class DescriptorScatterOp(_DescriptorScatter):
    name = "ttig.descriptor_scatter"

    def verify_(self) -> None:
        _intel_gather_checks(self.desc.type, self.x_offsets.type, self.src.type)


@irdl_op_definition
class UpcastMXFPOp(IRDLOperation):
    """3.3: `ttig.upcast_mxfp %x, %s fp_type = e2m1 {fastMath = false} : T, S -> U`."""

    name = "ttig.upcast_mxfp"
    src = operand_def(TensorType)
    scale = operand_def(TensorType)
    fp_type = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> UpcastMXFPOp:
        x = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        sc = parser.parse_unresolved_operand()
        parser.parse_keyword("fp_type")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"fp_type": parse_keyword_enum(parser, SCALE_DOT_ELEM, "element type")}
        more, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        xt = parser.parse_type()
        parser.parse_punctuation(",")
        st = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        ops = [parser.resolve_operand(x, xt), parser.resolve_operand(sc, st)]
        return cls.build(operands=ops, result_types=[rt], properties=props | more, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, (self.src, self.scale))
        printer.print_string(f" fp_type = {enum_keyword(self.fp_type, SCALE_DOT_ELEM)}")
        print_attr_dict(printer, self, skip=("fp_type",))
        emit(printer, " : ", self.src.type, ", ", self.scale.type, " -> ", self.result.type)


OPS: list[type[IRDLOperation]] = [
    UpcastMXFPOp,
    AllocOp, GlueOp, ExtractOp, BroadcastOp, SubGroupTransposeOp, DescriptorPrefetchOp, ExtractDescOp,
    Subgroup2DBlockLoadOp, Subgroup2DBlockLoadFromPtrOp, DescriptorGatherOp, DescriptorScatterOp,
]  # fmt: skip
