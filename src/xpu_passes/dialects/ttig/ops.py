"""`ttig` ops of triton-xpu 3.3: `ttig.prefetch` (which our passes create), and `ttig.alloc`,
`ttig.glue`, `ttig.extract`, `ttig.broadcast`, `ttig.sub_group_transpose`, `ttig.upcast_mxfp`,
read and printed back in Intel's syntax.
Formats are the `assemblyFormat` of TritonIntelGPUOps.td: declarative where xDSL
expresses them; by hand where MLIR prints a type without its dialect prefix, infers
an operand type, or uses enum keywords inside `{...}`.
"""

from __future__ import annotations

import math
from typing import ClassVar, cast

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
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
    i32_attr,
    parse_attr_dict,
    parse_keyword_enum,
    print_attr_dict,
    print_operands,
)
from xpu_passes.dialects.tt.attributes import SCALE_DOT_ELEM
from xpu_passes.dialects.tt.types import PointerType, StrippedPtr, element_type, mask_type


@op_definition
class PrefetchOp(IRDLOperation):
    """`ttig.prefetch %ptr (, %mask)? {...} : PtrT`; the mask type follows from PtrT.

    3.3 prints every attribute (operand segments too) and cannot read a masked
    prefetch back; newer Intel Triton drops the segments. We read both.
    """

    name = "ttig.prefetch"
    FAST_SYNTAX: ClassVar[str] = "prefetch"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    boundaryCheck = opt_prop_def(DenseArrayBase)
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)
    isVolatile = opt_prop_def(BoolAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    INHERENT: ClassVar[tuple[str, ...]] = ("boundaryCheck", "cache", "evict", "isVolatile", "operandSegmentSizes")

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        xs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        props, attrs = parse_attr_dict(parser, cls.INHERENT)
        props.pop("operandSegmentSizes", None)  # recomputed from the operands
        parser.parse_punctuation(":")
        pt = parser.parse_type()
        types = [pt, mask_type(pt)][: len(xs)]
        if len(xs) > 2:
            parser.raise_error("ttig.prefetch takes a pointer and an optional mask")
        ops = [parser.resolve_operand(x, t) for x, t in zip(xs, types)]
        return cls.build(operands=[ops[0], ops[1:2], ops[2:3]], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        if self.mask is not None and self.mask.type != mask_type(self.ptr.type):
            raise VerifyException(f"mask must be {mask_type(self.ptr.type)}")


@op_definition
class AllocOp(IRDLOperation):
    """`ttig.alloc : <8x64xf32, 3>` (the pointer type printed without `!tt.ptr`)."""

    name = "ttig.alloc"
    result = result_def(PointerType)
    custom_directives = (StrippedPtr,)
    assembly_format = "attr-dict `:` custom<StrippedPtr>(type($result))"


@op_definition
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


@op_definition
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


@op_definition
class BroadcastOp(IRDLOperation):
    name = "ttig.broadcast"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        if element_type(self.src.type) != element_type(self.result.type):
            raise VerifyException("source and result must have the same element type")


@op_definition
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


@op_definition
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
