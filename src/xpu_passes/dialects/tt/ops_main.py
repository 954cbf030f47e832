"""`tt` ops of Triton's main branch that triton-xpu 3.3 lacks: `tt.unsplat` (written by hand: its result
type is its operand's element type), `tt.atomic_poll`, `tt.map_elementwise` (no assemblyFormat: generic
form) with its terminator, and the grid-dependency ops.
Formats and verifier messages are TritonOps.td's and Triton/IR/Ops.cpp's.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import I32, IntegerAttr, TensorType, i1, i64
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
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
from xpu_passes.dialects._syntax import emit, parse_attr_dict, print_attr_dict
from xpu_passes.dialects.tt.attributes import Scope, Sem
from xpu_passes.dialects.tt.descriptors import _numel
from xpu_passes.dialects.tt.types import PointerType, element_type


@op_definition
class UnsplatOp(IRDLOperation):
    """`tt.unsplat %t : tensor<1x1xf32>`: the one element of a one-element tensor."""

    name = "tt.unsplat"
    src = operand_def(TensorType)
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> UnsplatOp:
        x = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(x, t)], result_types=[element_type(t)], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_attr_dict(printer, self)
        emit(printer, " : ", self.src.type)

    def verify_(self) -> None:
        if _numel(cast(TensorType, self.src.type).get_shape()) != 1:
            raise VerifyException("source tensor must have exactly one element")


@op_definition
class AtomicPollOp(IRDLOperation):
    """`tt.atomic_poll relaxed, gpu, %p, %v (timeout %t)? : !tt.ptr<i32, 1>, i32 -> i1`."""

    name = "tt.atomic_poll"
    ptr = operand_def(PointerType)
    expected = operand_def()
    timeout = opt_operand_def(i64)
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    result = result_def(i1)
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (Sem, Scope)
    assembly_format = (
        "custom<Sem>($sem) `,` custom<Scope>($scope) `,` $ptr `,` $expected (`timeout` $timeout^)? attr-dict `:` "
        "type($ptr) `,` type($expected) `->` type($result)"
    )


# Ops with a write effect, which map_elementwise's scalar region may not hold.
_WRITES = ("tt.store", "tt.atomic_rmw", "tt.atomic_cas", "tt.descriptor_store", "tt.descriptor_scatter",
           "tt.descriptor_reduce", "tt.print", "tt.assert", "ttg.local_store", "ttg.local_alloc")  # fmt: skip


def _element_types(types: object) -> list[Attribute]:
    return [t.element_type if isinstance(t, TensorType) else t for t in types]  # type: ignore[attr-defined]


def _repeat(types: list[Attribute], n: int) -> list[Attribute]:
    return [t for t in types for _ in range(n)]


@op_definition
class MapElementwiseOp(IRDLOperation):
    """`%r = "tt.map_elementwise"(%a, %b) <{pack = 1 : i32}> ({ ^bb0(...): ... }) : (...) -> ...`."""

    name = "tt.map_elementwise"
    srcs = var_operand_def(TensorType)
    pack = prop_def(IntegerAttr[I32])
    result = var_result_def(TensorType)
    scalarOp = region_def()

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("MapElementwiseOp must have at least 1 operand")
        pack = self.pack.value.data
        if pack <= 0 or pack & (pack - 1):
            raise VerifyException("Pack must be a power of 2")
        block = self.scalarOp.blocks.first
        if block is None:
            return
        if len(block.args) != len(self.srcs) * pack:
            raise VerifyException("region has wrong number of arguments")
        if [a.type for a in block.args] != _repeat(_element_types(self.srcs.types), pack):
            raise VerifyException("argument types did not match")
        for op in self.scalarOp.walk():
            if op.name in _WRITES:
                raise VerifyException("Stores are not supported inside map_elementwise")


@op_definition
class MapElementwiseReturnOp(IRDLOperation):
    name = "tt.map_elementwise.return"
    result = var_operand_def()
    traits = traits_def(HasParent(MapElementwiseOp), IsTerminator(), Pure(), ReturnLike())
    assembly_format = "attr-dict ($result^ `:` type($result))?"

    def verify_(self) -> None:
        parent = self.parent_op()
        if not isinstance(parent, MapElementwiseOp):
            return
        want = _repeat(_element_types(parent.result.types), parent.pack.value.data)
        if list(self.result.types) != want:
            raise VerifyException("region return does not match map_elementwise result")


@op_definition
class GridDependencyWaitOp(IRDLOperation):
    name = "tt.grid_dependency_wait"
    assembly_format = "attr-dict"


@op_definition
class GridDependencyLaunchDependentsOp(IRDLOperation):
    name = "tt.grid_dependency_launch_dependents"
    assembly_format = "attr-dict"
