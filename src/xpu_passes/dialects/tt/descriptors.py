"""Tensor descriptors' ops: `tt.make_tensor_descriptor`, descriptor load/store/reduce/gather/scatter and
`tt.reinterpret_tensor_descriptor`.

Triton 3.3 spells the ops `tt.experimental_descriptor_*`; Intel main (2026) spells
them `tt.descriptor_*` and adds `tt.descriptor_reduce`. Each op's text is Triton's `assemblyFormat`
(TritonOps.td), in xDSL's declarative `assembly_format` (xDSL always prints types qualified, so
`qualified(...)` is dropped) with custom directives for what it lacks: types printed
without their `!tt.ptr`/`!tt.tensordesc` prefix (StrippedPtr/StrippedDesc), enum
keywords, and the load's `oilist` (CacheEvict).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import IntAttr, IntegerAttr, TensorType, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicOperandSize,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import i32_attr
from xpu_passes.dialects.tt.attributes import ReduceKind
from xpu_passes.dialects.tt.ops_memory import parse_cache_evict, print_cache_evict
from xpu_passes.dialects.tt.types import PointerType, StrippedDesc, StrippedPtr, TensorDescType


@irdl_custom_directive
class CacheEvict(CustomDirective):
    """MLIR's `oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)` as
    `custom<CacheEvict>($cache, $evict)`: the clauses tt.load prints, defaults left out."""

    cache: AttributeVariable
    evict: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        for key, value in parse_cache_evict(parser).items():
            (self.cache if key == "cache" else self.evict).set(state, value)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if any(v.get(op) not in (None, _DEFAULT) for v in (self.cache, self.evict)):
            print_cache_evict(printer, op)
            state.last_was_punctuation, state.should_emit_space = False, True


_DEFAULT = i32_attr(1)  # of every I32 enum here (cache, evict, padding)


def _desc(op: IRDLOperation, value: Attribute) -> TensorDescType:
    if not isinstance(value, TensorDescType):
        raise VerifyException(f"expected a tensor descriptor, got {value}")
    return value


@op_definition
class MakeTensorDescOp(IRDLOperation):
    """`tt.make_tensor_descriptor %p, [%s0, %s1], [%t0, %t1] {padding = 2 : i32}? : <f16>, <64x32xf16>`."""

    name = "tt.make_tensor_descriptor"
    base = operand_def(PointerType)
    shape = var_operand_def(i32)
    strides = var_operand_def(i64)
    padding = opt_prop_def(IntegerAttr, default_value=_DEFAULT)
    result = result_def(TensorDescType)
    traits = traits_def(Pure())
    irdl_options = (SameVariadicOperandSize(), ParsePropInAttrDict())
    custom_directives = (StrippedPtr, StrippedDesc)
    assembly_format = (
        "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` custom<StrippedPtr>(type($base)) `,` "
        "custom<StrippedDesc>(type($result))"
    )

    def verify_(self) -> None:
        d = _desc(self, self.result.type)
        rank = len(d.get_shape())
        if len(self.shape) != rank or len(self.strides) != rank:
            raise VerifyException(f"expected {rank} shape and {rank} stride operands for a rank-{rank} descriptor")


class _DescriptorLoad(IRDLOperation):
    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)
    result = result_def(TensorType)
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (CacheEvict,)
    assembly_format = (
        "$desc `[` $indices `]` custom<CacheEvict>($cache, $evict) attr-dict `:` type($desc) `->` type($result)"
    )

    def verify_(self) -> None:
        _indexed_checks(self, self.desc.type, self.indices, self.result.type)


@op_definition
class DescriptorLoadOp(_DescriptorLoad):
    name = "tt.descriptor_load"


@op_definition
class ExperimentalDescriptorLoadOp(_DescriptorLoad):
    name = "tt.experimental_descriptor_load"


class _DescriptorStore(IRDLOperation):
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)
    assembly_format = "$desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"

    def verify_(self) -> None:
        _indexed_checks(self, self.desc.type, self.indices, self.src.type)


@op_definition
class DescriptorStoreOp(_DescriptorStore):
    name = "tt.descriptor_store"


@op_definition
class ExperimentalDescriptorStoreOp(_DescriptorStore):
    name = "tt.experimental_descriptor_store"


@op_definition
class DescriptorReduceOp(IRDLOperation):
    """`tt.descriptor_reduce add, %d[%i, %j], %v : !tt.tensordesc<..>, T`."""

    name = "tt.descriptor_reduce"
    kind = prop_def(IntegerAttr)
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (ReduceKind,)
    assembly_format = (
        "custom<ReduceKind>($kind) `,` $desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"
    )


class _DescriptorGather(IRDLOperation):
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    result = result_def(TensorType)
    assembly_format = "$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        _gather_checks(self, self.desc.type, self.x_offsets.type, self.result.type)


class _DescriptorScatter(IRDLOperation):
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    src = operand_def(TensorType)
    assembly_format = "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)"

    def verify_(self) -> None:
        _gather_checks(self, self.desc.type, self.x_offsets.type, self.src.type)


def _gather_checks(op: IRDLOperation, desc: Attribute, x: Attribute, data: Attribute) -> None:
    """Triton's gather/scatter verifier: a one-row block, 1D offsets, data [len(x), block columns]
    of at least one TMA tile. Triton 3.3 (`experimental_`) words two messages differently."""
    d = _desc(op, desc)
    old = op.name.startswith("tt.experimental_")
    block, shape = f"'{TensorType(d.element_type, d.get_shape())}'", d.get_shape()
    if len(shape) != 2:
        raise VerifyException(f"descriptor block must be a 2D tensor, but got {block}")
    if shape[0] != 1:
        raise VerifyException(f"descriptor block must have exactly 1 row, but got {block}")
    xs = cast(TensorType, x).get_shape()
    if len(xs) != 1:
        raise VerifyException(f"x offsets must be a 1D tensor, but got '{x}'")
    t = cast(TensorType, data)
    ds = t.get_shape()
    if len(ds) != 2:
        raise VerifyException(f"result must be a 2D tensor, but got '{t}'")
    if ds[0] < 8:
        raise VerifyException(f"{'gather ' if old else ''}must have at least 8 rows, but got {ds[0]}")
    bits = getattr(t.element_type, "bitwidth", 0) or getattr(t.element_type, "width", IntAttr(0)).data
    if bits > 32:
        raise VerifyException("TMA dtype cannot be greater than 32 bits")
    if bits and ds[1] < (cols := 32 // bits * 8):
        raise VerifyException(f"gather of {t.element_type} must have at least {cols} columns, but got {ds[1]}" if old
                              else f"must have at least {cols} columns for {t.element_type}, but got {ds[1]}")
    if ds[0] != xs[0]:
        raise VerifyException(f"result tensor must have as many rows as indices ({xs[0]}), but got '{t}'")
    if ds[1] != shape[1]:
        raise VerifyException(f"result tensor number of columns must match block ({shape[1]}), but got '{t}'")
    if t.element_type != d.element_type:
        raise VerifyException(f"result tensor element type must match block ('{d.element_type}'), but got '{t}'")


def _indexed_checks(op: IRDLOperation, desc: Attribute, indices: Sequence[SSAValue], data: Attribute) -> None:
    d = _desc(op, desc)
    if len(indices) != len(d.get_shape()):
        raise VerifyException(f"expected {len(d.get_shape())} indices, but got {len(indices)}")
    _load_store_checks(op, d, data)


def _load_store_checks(op: IRDLOperation, d: TensorDescType, data: Attribute) -> None:
    """verifyDesciptorLoadStoreType (3.3, `experimental_`) / verifyDescriptorLoadStoreOp (main)."""
    t = cast(TensorType, data)
    block, shape = list(d.get_shape()), list(t.get_shape())
    if op.name.startswith("tt.experimental_"):
        if len(block) > len(shape):
            if any(b != 1 for b in block[: len(block) - len(shape)]):
                raise VerifyException("ranked reduce load only allowed for unit dimension leading dim.")
            block = block[len(block) - len(shape):]
        if block != shape or d.element_type != t.element_type:
            raise VerifyException("tensor desciptor block and tensor types must match")
        return
    if d.element_type != t.element_type:
        raise VerifyException(f"descriptor block and tensor element types must match, but got descriptor element "
                              f"type {d.element_type} and tensor element type {t.element_type}")
    nb, nt = _numel(block), _numel(shape)
    if nb != nt:
        raise VerifyException(f"descriptor block and tensor must have the same number of elements, but got "
                              f"descriptor block with {nb} elements tensor with {nt} elements")


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


@op_definition
class DescriptorGatherOp(_DescriptorGather):
    name = "tt.descriptor_gather"


@op_definition
class ExperimentalDescriptorGatherOp(_DescriptorGather):
    name = "tt.experimental_descriptor_gather"


@op_definition
class DescriptorScatterOp(_DescriptorScatter):
    name = "tt.descriptor_scatter"


@op_definition
class ExperimentalDescriptorScatterOp(_DescriptorScatter):
    name = "tt.experimental_descriptor_scatter"


@op_definition
class ReinterpretTensorDescOp(IRDLOperation):
    """3.3: `tt.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<...>`."""

    name = "tt.reinterpret_tensor_descriptor"
    rawDesc = operand_def(PointerType)
    result = result_def(TensorDescType)
    traits = traits_def(Pure())
    assembly_format = "$rawDesc attr-dict `:` type($rawDesc) `to` type($result)"
