"""xDSL's `scf` (and `gpu`: dialects/gpu_forms.py), with the text forms MLIR accepts that xDSL 0.74 does not read.

- `scf.if %c -> T {` and `scf.for ... -> T : i32 {`: one result type without
  parentheses (MLIR prints it so); xDSL requires `-> (T)`.
- `scf.while : () -> () {`: no loop-carried values, no `(...)` list (read and printed).

The subclasses keep the upstream classes, so `isinstance(op, scf.IfOp)` holds and
ops built by passes with the upstream constructors print the same.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.ir import Attribute, Dialect
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator

from xpu_passes.ir.xdsl_adapt import next_token_text


def parse_result_types(parser: Parser) -> list[Attribute]:
    """`-> T` or `-> (T, U)` (MLIR's optional-arrow-type-list), or nothing."""
    if not parser.parse_optional_punctuation("->"):
        return []
    if next_token_text(parser) == "(":
        return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    return [parser.parse_type()]


def _parse_assignment(parser: Parser) -> tuple[Parser.UnresolvedArgument, UnresolvedOperand]:
    arg = parser.parse_argument(expect_type=False)
    parser.parse_punctuation("=")
    return arg, parser.parse_unresolved_operand()


class IfOp(scf.IfOp):
    name = "scf.if"

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_operand(i1)
        types = parse_result_types(parser)
        then_region = cls.parse_region_with_yield(parser)
        else_region = cls.parse_region_with_yield(parser) if parser.parse_optional_keyword("else") else None
        return cls(cond, types, then_region, else_region, parser.parse_optional_attr_dict())


class ForOp(scf.ForOp):
    name = "scf.for"
    FAST_SYNTAX: ClassVar[str] = "for"

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        iv = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        bounds = [parser.parse_unresolved_operand()]
        for word in ("to", "step"):
            parser.parse_keyword(word)
            bounds.append(parser.parse_unresolved_operand())
        pos = parser.pos
        pairs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: _parse_assignment(parser))
            types = parse_result_types(parser)
            if len(types) != len(pairs):
                parser.raise_error(f"expected {len(pairs)} result types, got {len(types)}", pos, parser.pos)
        inits = parser.resolve_operands([p[1] for p in pairs], types, pos)
        iv_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        lb, ub, step = (parser.resolve_operand(b, iv_type) for b in bounds)
        body = parser.parse_region((iv.resolve(iv_type), *(p[0].resolve(t) for p, t in zip(pairs, types))))
        op = cls(lb, ub, step, inits, body)
        op.attributes |= parser.parse_optional_attr_dict()
        if not pairs:
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op


class WhileOp(scf.WhileOp):
    name = "scf.while"

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        pairs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        if next_token_text(parser) == "(":
            pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: _parse_assignment(parser))
        parser.parse_punctuation(":")
        pos = parser.pos
        ft = parser.parse_function_type()
        ins = ft.inputs.data
        if len(pairs) != len(ins):
            parser.raise_error(f"expected {len(pairs)} operand types, got {len(ins)}", pos, parser.pos)
        args = [p[0].resolve(t) for p, t in zip(pairs, ins)]
        operands = [parser.resolve_operand(p[1], t) for p, t in zip(pairs, ins)]
        before = parser.parse_region(args)
        parser.parse_characters("do")
        after = parser.parse_region()
        op = cls(operands, ft.outputs.data, before, after)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.arguments:
            return super().print(printer)
        # MLIR omits the empty assignment list: `scf.while : () -> () {`.
        printer.print_string(" : ")
        printer.print_operation_type(self)
        printer.print_string(" ")
        printer.print_region(self.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.after_region)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)


def replace_ops(dialect: Dialect, ops: list[type]) -> Dialect:
    """`dialect` with the ops of `ops` in place of upstream's of the same name."""
    by_name = {op.name: op for op in ops}
    return Dialect(
        dialect.name,
        [by_name.get(op.name, op) for op in dialect.operations],
        list(dialect.attributes),
    )


Scf = replace_ops(scf.Scf, [IfOp, ForOp, WhileOp])
