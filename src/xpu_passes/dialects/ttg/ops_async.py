"""`ttg`'s async copies (3.3): async_wait, async_commit_group, async_copy_global_to_local."""

from __future__ import annotations

import weakref
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, TensorType, i1, i32
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
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import emit, parse_attr_dict, parse_stripped, print_attr_dict, print_stripped
from xpu_passes.dialects.tt.ops_memory import parse_cache_evict, print_cache_evict
from xpu_passes.dialects.tt.types import mask_type, pointee_type
from xpu_passes.dialects.ttg.types import AsyncTokenType, MemDescType, _ASYNC_TOKEN


@op_definition
class AsyncWaitOp(IRDLOperation):
    """`ttg.async_wait %t {num = 0 : i32}`."""

    name = "ttg.async_wait"
    asyncToken = var_operand_def(AsyncTokenType)
    num = prop_def(IntegerAttr)
    retToken = result_def(AsyncTokenType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "($asyncToken^)? attr-dict"


# Ops read with Intel main's `tokens` keyword print it back; others print 3.3's form,
# the only one triton-xpu 3.3 reads.
_TOKENS_KEYWORD: weakref.WeakSet[IRDLOperation] = weakref.WeakSet()


@op_definition
class AsyncCommitGroupOp(IRDLOperation):
    """`ttg.async_commit_group (tokens %t)?` (Intel main) or 3.3's `ttg.async_commit_group %t`."""

    name = "ttg.async_commit_group"
    inputTokens = var_operand_def(AsyncTokenType)
    asyncToken = result_def(AsyncTokenType)

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCommitGroupOp:
        keyword = parser.parse_optional_keyword("tokens") is not None
        toks = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand) or []
        props, attrs = parse_attr_dict(parser, ())
        ops = [[parser.resolve_operand(t, _ASYNC_TOKEN) for t in toks]]
        op = cls.build(operands=ops, result_types=[_ASYNC_TOKEN], properties=props, attributes=attrs)
        if keyword:
            _TOKENS_KEYWORD.add(op)
        return op

    def print(self, printer: Printer) -> None:
        if self.inputTokens:
            printer.print_string(" tokens " if self in _TOKENS_KEYWORD else " ")
            printer.print_list(self.inputTokens, printer.print_operand)
        print_attr_dict(printer, self)


@op_definition
class AsyncCopyGlobalToLocalOp(IRDLOperation):
    """`ttg.async_copy_global_to_local %p, %m (mask %k)? (other %o)? : tensor<..x!tt.ptr<..>> -> <..memdesc..>`."""

    name = "ttg.async_copy_global_to_local"
    src = operand_def(TensorType)
    result = operand_def(MemDescType)
    mask = opt_operand_def()
    other = opt_operand_def()
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)
    isVolatile = opt_prop_def(Attribute)
    contiguity = opt_prop_def(IntegerAttr)
    token = result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    INHERENT: ClassVar[tuple[str, ...]] = ("cache", "evict", "isVolatile", "contiguity", "operandSegmentSizes")

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCopyGlobalToLocalOp:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        mask = parser.parse_unresolved_operand() if parser.parse_optional_keyword("mask") else None
        other = parser.parse_unresolved_operand() if parser.parse_optional_keyword("other") else None
        props = parse_cache_evict(parser)
        more, attrs = parse_attr_dict(parser, cls.INHERENT)
        more.pop("operandSegmentSizes", None)
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_punctuation("->")
        mt = parse_stripped(parser, MemDescType)
        assert isinstance(st, TensorType)
        ops = [
            parser.resolve_operand(src, st),
            parser.resolve_operand(dst, mt),
            [] if mask is None else [parser.resolve_operand(mask, mask_type(st))],
            [] if other is None else [parser.resolve_operand(other, pointee_type(st))],
        ]
        return cls.build(operands=ops, result_types=[_ASYNC_TOKEN], properties=props | more, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.src, self.result), printer.print_operand)
        for word, v in (("mask", self.mask), ("other", self.other)):
            if v is not None:
                printer.print_string(f" {word} ")
                printer.print_operand(v)
        print_cache_evict(printer, self)
        defaults = {"isVolatile": IntegerAttr(0, i1), "contiguity": IntegerAttr(1, i32)}
        print_attr_dict(printer, self, defaults=defaults, skip=("cache", "evict", "operandSegmentSizes"))
        emit(printer, " : ", self.src.type, " -> ")
        print_stripped(printer, self.result.type)
