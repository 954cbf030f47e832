"""`tt` functions and calls: `tt.func`, `tt.return`, `tt.call`, and the ops that call out of the
kernel (`tt.extern_elementwise`, `tt.elementwise_inline_asm`, `tt.print`, `tt.assert`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, ReturnLike, SymbolOpInterface

from xpu_passes.ir.xdsl_adapt import IsolatedUnlessProven, op_definition
from xpu_passes.dialects.traits import Rules, elementwise, same_operands_and_result_encoding
from xpu_passes.dialects.tt._checks import _check, _numel


# ------------------------------------------------------------------- functions


@op_definition
class FuncOp(IRDLOperation):
    """`tt.func public @k(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, ...)`."""

    name = "tt.func"
    FAST_SYNTAX: ClassVar[str] = "func"
    FAST_PRINT: ClassVar[str] = "func"
    body = region_def()
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr)
    res_attrs = opt_prop_def(ArrayAttr)
    traits = traits_def(IsolatedUnlessProven(), SymbolOpInterface())
    RESERVED: ClassVar[tuple[str, ...]] = ("sym_name", "function_type", "sym_visibility", "arg_attrs")

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name, ins, outs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=cls.RESERVED[:3]
        )
        props: dict[str, Attribute | None] = {
            "sym_name": StringAttr(name),
            "function_type": FunctionType.from_lists(ins, outs),
            "sym_visibility": visibility,
            "arg_attrs": arg_attrs,
            "res_attrs": res_attrs,
        }
        op = cls.build(properties={k: v for k, v in props.items() if v is not None}, regions=[region])
        if extra is not None:
            op.attributes |= extra.data
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility:
            printer.print_string(f" {self.sym_visibility.data}")
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=self.RESERVED,
        )

    def verify_(self) -> None:
        if self.body.blocks:
            _check(
                tuple(self.function_type.inputs.data) == tuple(self.body.blocks.first.arg_types),  # type: ignore[union-attr]
                "entry block arguments must match the function's input types",
            )


@op_definition
class ReturnOp(IRDLOperation):
    name = "tt.return"
    FAST_SYNTAX: ClassVar[str] = "format"
    srcs = var_operand_def()
    traits = traits_def(HasParent(FuncOp), IsTerminator(), ReturnLike())
    assembly_format = "attr-dict ($srcs^ `:` type($srcs))?"

    def verify_(self) -> None:
        fn = self.parent_op()
        assert isinstance(fn, FuncOp)
        _check(
            tuple(fn.function_type.outputs.data) == tuple(self.srcs.types),
            lambda: f"returns {[str(t) for t in self.srcs.types]} but the function returns "
            f"{[str(t) for t in fn.function_type.outputs.data]}",
        )


@op_definition
class CallOp(IRDLOperation):
    """`tt.call @f(%a, %b) : (T, U) -> R`."""

    name = "tt.call"
    args = var_operand_def()
    callee = prop_def(SymbolRefAttr)
    res = var_result_def()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, results)"


# ------------------------------------------------ calls out: extern, inline asm, print, assert


@op_definition
class ExternElementwiseOp(IRDLOperation):
    """`tt.extern_elementwise %a, %b {libname = .., symbol = ..} : (T, T) -> R`."""

    name = "tt.extern_elementwise"
    srcs = var_operand_def()
    result = result_def()
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    symbol = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    INHERENT: ClassVar[tuple[str, ...]] = ("libname", "libpath", "symbol", "pure")
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "operands attr-dict `:` functional-type(operands, $result)"
    traits = traits_def(Rules((elementwise, same_operands_and_result_encoding)))


@op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """`tt.elementwise_inline_asm "asm" {constraints = .., packed_element = .., pure = ..} %a, %b : A, B -> R, S`."""

    name = "tt.elementwise_inline_asm"
    args = var_operand_def()
    result = var_result_def()
    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    packed_element = prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"
    traits = traits_def(Rules((elementwise, same_operands_and_result_encoding)))

    def verify_(self) -> None:
        if not self.args:
            return
        t = self.args[0].type
        n = _numel(t) if isinstance(t, TensorType) else 0
        packed = self.packed_element.value.data
        _check(packed != 0 and n % packed == 0, lambda: f"number of input elements {n} must be a multiple of the "
                                                        f"op's packed_element attribute, {packed}", plain=True)


@op_definition
class PrintOp(IRDLOperation):
    """`tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %a : T`."""

    name = "tt.print"
    args = var_operand_def()
    prefix = prop_def(StringAttr)
    hex = prop_def(BoolAttr)
    isSigned = prop_def(DenseArrayBase)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$prefix attr-dict (`:` $args^ `:` type($args))?"


@op_definition
class AssertOp(IRDLOperation):
    """`tt.assert %cond, "message" : T`."""

    name = "tt.assert"
    condition = operand_def()
    message = prop_def(StringAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"
