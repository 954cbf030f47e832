"""`ttg` ops of Intel main that triton-xpu 3.3 lacks, read and printed back: memdesc views
(reshape, reinterpret, index, subslice), local gather/scatter, `ttg.barrier`, the pipeliner's
`ttg.predicate_stage` and `ttg.mask`/`ttg.mask.return` (no format: generic form), and
`ttg.local_atomic_scatter_rmw`. Formats are Triton's `assemblyFormat` (TritonGPUOps.td):
declarative where xDSL can express them, by hand where MLIR prints a memdesc type without its
`!ttg.memdesc` prefix or uses `oilist`/custom directives. Verifiers say what Triton's say.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, I32, IntegerAttr, IntegerType, TensorType, UnitAttr, i1, i32
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import Offsets, UnaryOp
from xpu_passes.dialects.tt.attributes import RMWKind
from xpu_passes.dialects.ttg.types import AsyncTokenType, MemDescType


ADDR_SPACE = {"none": 0, "local": 1, "global_read": 2, "global_write": 4, "tensor_read": 8, "tensor_write": 16}


_ALL = 0b11111


@op_definition
class BarrierOp(IRDLOperation):
    """`ttg.barrier local|global_read` or `ttg.barrier all` (a bit enum, MLIR's custom printer)."""

    name = "ttg.barrier"
    addrSpace = prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        bits = 0
        while True:
            pos = parser.pos
            word = parser.parse_optional_identifier() or parser.parse_optional_str_literal()
            if word == "all":
                bits |= _ALL
            elif word in ADDR_SPACE:
                bits |= ADDR_SPACE[word]
            else:
                parser.raise_error(f"unknown addrSpace '{word}'", pos, parser.pos)
            if not parser.parse_optional_punctuation("|"):
                break
        return cls.build(properties={"addrSpace": IntegerAttr(bits, i32)})

    def print(self, printer: Printer) -> None:
        bits = self.addrSpace.value.data
        if bits == _ALL:
            printer.print_string(" all")
            return
        words = [w for w, b in ADDR_SPACE.items() if b and bits & b] or ["none"]
        printer.print_string(" " + "|".join(words))


class _MemDescView(UnaryOp):
    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    traits = traits_def(Pure())


@op_definition
class MemDescReshapeOp(_MemDescView):
    name = "ttg.memdesc_reshape"


@op_definition
class MemDescReinterpretOp(_MemDescView):
    name = "ttg.memdesc_reinterpret"


@op_definition
class MemDescIndexOp(IRDLOperation):
    name = "ttg.memdesc_index"
    src = operand_def(MemDescType)
    index = operand_def(i32)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    assembly_format = "$src `[` $index `]` attr-dict `:` type($src) `->` type($result)"


@op_definition
class MemDescSubsliceOp(IRDLOperation):
    """`ttg.memdesc_subslice %m[0, 16] : !ttg.memdesc<..> -> !ttg.memdesc<..>` (custom<Offsets>)."""

    name = "ttg.memdesc_subslice"
    src = operand_def(MemDescType)
    offsets = prop_def(DenseArrayBase)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    custom_directives = (Offsets,)
    assembly_format = "$src `[` custom<Offsets>($offsets) `]` attr-dict `:` type($src) `->` type($result)"


@op_definition
class LocalGatherOp(IRDLOperation):
    name = "ttg.local_gather"
    src = operand_def(MemDescType)
    indices = operand_def(TensorType)
    token = opt_operand_def(AsyncTokenType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src `[` $indices `]` (`token` $token^)? attr-dict `:` type($src) `,` type($indices) `->` type($result)"
    )


@op_definition
class LocalScatterOp(IRDLOperation):
    name = "ttg.local_scatter"
    dst = operand_def(MemDescType)
    values = operand_def(TensorType)
    indices = operand_def(TensorType)
    token = opt_operand_def(AsyncTokenType)
    axis = prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$dst `[` $indices `]` `,` $values (`token` $token^)? attr-dict `:` type($dst) `,` type($indices) `,` type($values)"
    )


# ------------------------------------------------------------ pipeliner ops


@op_definition
class PredicateStageOp(IRDLOperation):
    name = "ttg.predicate_stage"
    T: ClassVar = VarConstraint("T", AnyAttr())
    iv = operand_def(T)
    ub = operand_def(T)
    step = operand_def(T)
    maxStage = prop_def(IntegerAttr[I32])
    stage = prop_def(IntegerAttr[I32])
    result = result_def(i1)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) `->` type($result)"
    )


@op_definition
class MaskOp(IRDLOperation):
    """No assemblyFormat in Triton: printed in generic form, `"ttg.mask"(%p) ({...}) : (i1) -> T`."""

    name = "ttg.mask"
    pred = operand_def(i1)
    result = var_result_def()
    region = region_def("single_block")


@op_definition
class MaskReturnOp(IRDLOperation):
    name = "ttg.mask.return"
    result = var_operand_def()
    traits = traits_def(HasParent(MaskOp), IsTerminator(), Pure(), ReturnLike())
    assembly_format = "$result attr-dict `:` type($result)"


# ------------------------------------------------------------ shared-memory atomics


@op_definition
class LocalAtomicScatterRMWOp(IRDLOperation):
    """`ttg.local_atomic_scatter_rmw add, %m[%idx], %v (, %mask)? {axis = 0 : i32} : (M, V, I(, K)?) -> V`."""

    name = "ttg.local_atomic_scatter_rmw"
    dst = operand_def(MemDescType)
    values = operand_def(TensorType)
    indices = operand_def(TensorType)
    mask = opt_operand_def(TensorType)
    atomic_rmw_op = prop_def(IntegerAttr)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (RMWKind,)
    assembly_format = (
        "custom<RMWKind>($atomic_rmw_op) `,` $dst `[` $indices `]` `,` $values (`,` $mask^)? attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        dst = self.dst.type
        vals, idx = self.values.type, self.indices.type
        assert isinstance(dst, MemDescType) and isinstance(vals, TensorType) and isinstance(idx, TensorType)
        if not isinstance(dst.mutable, UnitAttr):
            raise VerifyException("Cannot store into immutable memory")
        if not isinstance(idx.element_type, IntegerType):
            raise VerifyException("indices must have integer element type")
        if vals.get_shape() != idx.get_shape():
            raise VerifyException("values shape must match indices shape")
        mask = self.mask.type if self.mask is not None else None
        if isinstance(mask, TensorType) and vals.get_shape() != mask.get_shape():
            raise VerifyException("values shape must match mask shape")
        axis = self.axis.value.data
        if axis >= len(dst.shape.data):
            raise VerifyException(f"axis {axis} is out of bounds for destination rank {len(dst.shape.data)}")
        if vals.encoding != idx.encoding:
            raise VerifyException("values must have the same layout as indices")
        if isinstance(mask, TensorType) and vals.encoding != mask.encoding:
            raise VerifyException("values must have the same layout as mask")
        if dst.element_type != vals.element_type:
            raise VerifyException("values element type must match destination element type")
        if self.result.type != vals:
            raise VerifyException("result type must match values type")
