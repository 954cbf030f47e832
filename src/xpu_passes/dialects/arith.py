"""xDSL's `arith`, with the ops whose syntax or types differ from MLIR's replaced.

xDSL 0.74 types `arith.cmpi`/`arith.cmpf` results as scalar `i1` even for tensor
operands, reads `arith.select` only with a scalar condition, and accepts only
scalars in integer casts (`arith.extsi` ...). Triton's IR uses all of them on
tensors, so those ops are redefined here; the rest is xDSL's.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i1, i64
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import emit, parse_attr_dict, parse_keyword_enum, print_attr_dict, enum_keyword
from xpu_passes.dialects.tt import element_type, with_element

CMPI = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
CMPF = {
    "false": 0, "oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "one": 6, "ord": 7,
    "ueq": 8, "ugt": 9, "uge": 10, "ult": 11, "ule": 12, "une": 13, "uno": 14, "true": 15,
}  # fmt: skip


def parse_fastmath(parser: Parser) -> dict[str, Attribute]:
    """`fastmath<fast>` (MLIR's `(`fastmath` `` $fastmath^)?`), or nothing."""
    if parser.parse_optional_characters("fastmath") is None:
        return {}
    return {"fastmath": arith.FastMathFlagsAttr(arith.FastMathFlagsAttr.parse_parameter(parser))}


def print_fastmath(printer: Printer, op: IRDLOperation) -> None:
    fm = op.properties.get("fastmath")
    if fm is not None and fm != arith.FastMathFlagsAttr("none"):
        printer.print_string(" fastmath")
        fm.print_parameter(printer)  # type: ignore[attr-defined]


class _Compare(IRDLOperation):
    """`arith.cmpX pred, %a, %b (fastmath<..>)? : T` -> i1 of T's shape."""

    FAST_SYNTAX: ClassVar[str] = "compare"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    predicate = prop_def(IntegerAttr)
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    PREDICATES: ClassVar[dict[str, int]] = {}
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):  # type: ignore[override]
        pred = parse_keyword_enum(parser, cls.PREDICATES, "comparison predicate")
        pred = IntegerAttr(pred.value.data, i64)
        parser.parse_punctuation(",")
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {"predicate": pred, **parse_fastmath(parser)}
        more, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(a, t), parser.resolve_operand(b, t)],
            result_types=[with_element(t, i1)],
            properties=props | more,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {enum_keyword(self.predicate, self.PREDICATES)}, ")
        printer.print_list((self.lhs, self.rhs), printer.print_operand)
        print_fastmath(printer, self)
        print_attr_dict(printer, self, skip=("predicate", "fastmath"))
        emit(printer, " : ", self.lhs.type)

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException("comparison operands must have the same type")
        if self.result.type != with_element(self.lhs.type, i1):
            raise VerifyException(f"result must be {with_element(self.lhs.type, i1)}")


@op_definition
class CmpiOp(_Compare):
    name = "arith.cmpi"
    PREDICATES: ClassVar[dict[str, int]] = CMPI


@op_definition
class CmpfOp(_Compare):
    name = "arith.cmpf"
    PREDICATES: ClassVar[dict[str, int]] = CMPF
    fastmath = opt_prop_def(arith.FastMathFlagsAttr)


@op_definition
class SelectOp(IRDLOperation):
    """`arith.select %c, %a, %b : T` or, with a tensor condition, `: C, T`."""

    name = "arith.select"
    FAST_SYNTAX: ClassVar[str] = "select"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    cond = operand_def()
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        xs = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            xs.append(parser.parse_unresolved_operand())
        props, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        t = parser.parse_type()
        ct: Attribute = i1
        if parser.parse_optional_punctuation(","):
            ct, t = t, parser.parse_type()
        ops = [parser.resolve_operand(x, ty) for x, ty in zip(xs, (ct, t, t))]
        return cls.build(operands=ops, result_types=[t], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        if self.cond.type != i1:
            emit(printer, self.cond.type, ", ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not (self.lhs.type == self.rhs.type == self.result.type):
            raise VerifyException("select operands and result must have the same type")
        c = self.cond.type
        if element_type(c) != IntegerType(1) or (c != i1 and c != with_element(self.result.type, i1)):
            raise VerifyException("select condition must be i1 or i1 of the result's shape")


class _Cast(IRDLOperation):
    """`arith.<cast> %x attr-dict : T to U`, on scalars or tensors alike."""

    FAST_SYNTAX: ClassVar[str] = "cast"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    input = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser):  # type: ignore[override]
        x = parser.parse_unresolved_operand()
        fastmath = parse_fastmath(parser)
        props, attrs = parse_attr_dict(parser, ("roundingmode", "fastmath"))
        props |= fastmath
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_keyword("to")
        r = parser.parse_type()
        return cls.build(operands=[parser.resolve_operand(x, t)], result_types=[r], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        print_fastmath(printer, self)
        print_attr_dict(printer, self, skip=("fastmath",))
        emit(printer, " : ", self.input.type, " to ", self.result.type)

    def __init__(self, x: SSAValue, to: Attribute) -> None:
        super().__init__(operands=[x], result_types=[to])

    def verify_(self) -> None:
        a, b = self.input.type, self.result.type
        if isinstance(a, TensorType) != isinstance(b, TensorType) or (
            isinstance(a, TensorType) and isinstance(b, TensorType) and a.get_shape() != b.get_shape()
        ):
            raise VerifyException(f"cast must keep the shape: {a} to {b}")


def _cast(op_name: str) -> type[IRDLOperation]:
    cls = type(op_name.split(".")[1].title().replace("_", "") + "Op", (_Cast,), {"name": op_name})
    cls.roundingmode = opt_prop_def(Attribute)  # type: ignore[attr-defined]
    cls.fastmath = opt_prop_def(Attribute)  # type: ignore[attr-defined]
    return op_definition(cls)


CASTS = tuple(
    _cast(f"arith.{n}")
    for n in ("extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui", "extf", "truncf", "bitcast", "index_cast")
)

_REPLACED = {op.name: op for op in (CmpiOp, CmpfOp, SelectOp, *CASTS)}

Arith = Dialect(
    "arith",
    [_REPLACED.get(op.name, op) for op in arith.Arith.operations],
    list(arith.Arith.attributes),
)


def cast(op_name: str, x: SSAValue, to: Attribute) -> IRDLOperation:
    """Build `arith.<cast>` (e.g. "arith.extsi") on a scalar or tensor."""
    return _REPLACED[op_name].build(operands=[x], result_types=[to])
