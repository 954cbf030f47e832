"""`ttg` ops our passes do not rewrite, and other backends' layouts, read and printed back.

Ops: 3.3's async copies, fp4_to_fp, global scratch and warp-specialization
terminators; Intel main's memdesc views, local gather/scatter, `ttg.barrier`,
`ttg.warp_id`. Formats are Triton's `assemblyFormat` (TritonGPUOps.td): declarative
where xDSL can express them, by hand where MLIR prints a memdesc type without its
`!ttg.memdesc` prefix or uses `oilist`/custom directives.

Layouts of other backends (`#ttg.nvidia_mma`, `#ttg.amd_mfma`, `#ttg.nvmma_shared`,
...) are kept as their text and printed back verbatim: our passes do not reason about
them and leave IR holding them alone (see `transforms.base.foreign_layout`).
"""

from __future__ import annotations

import re

import weakref
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, TensorType, UnitAttr, i1, i32
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure

from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects._syntax import (Offsets, UnaryOp, emit, parse_attr_dict, parse_stripped, print_attr_dict,
                                         print_stripped)
from xpu_passes.dialects.tt import PointerType, mask_type, parse_cache_evict, pointee_type, print_cache_evict
from xpu_passes.dialects.ttg import MemDescType, _ASYNC_TOKEN, AsyncTokenType

# ------------------------------------------------------------ foreign layouts

# Layout mnemonics of Triton's other backends (TritonGPUAttrDefs.td, Intel main).
FOREIGN_LAYOUTS = (
    "nvidia_mma", "amd_mfma", "amd_wmma", "nvmma_shared", "padded_shared", "partitioned_shared",
    "shared_linear", "amd_rotating_shared", "generic_linear",
)  # fmt: skip


class ForeignLayoutAttr(ParametrizedAttribute):
    """A layout kept as the text between its `<` and `>`."""

    body: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        params = (StringAttr(parser._parse_dialect_symbol_body()),)  # type: ignore[attr-defined]
        try:
            cls(*params)  # verify here, where the text position is known (as StructAttr does)
        except VerifyException as e:
            parser.raise_error(str(e), start, parser.pos)
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.body.data}>")

    def verify(self) -> None:
        if self.name == "ttg.amd_mfma":  # AMDMfmaEncodingAttr::verify
            from xpu_passes.dialects.ttg import foreign_int

            major, minor = foreign_int(self, "versionMajor"), foreign_int(self, "versionMinor") or 0
            m = re.search(r"\binstrShape\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]", self.body.data)
            if major is not None and not 0 <= major <= 4:
                raise VerifyException("major version must be in the [0, 4] range")
            if minor != 0:
                raise VerifyException("minor version must be 0")
            if m and (m.group(1), m.group(2)) not in (("32", "32"), ("16", "16")):
                raise VerifyException("(M, N) cases other than (32, 32) or (16, 16) unimplemented")


def _foreign(mnemonic: str) -> type[ForeignLayoutAttr]:
    cls = type("".join(w.title() for w in mnemonic.split("_")) + "Attr", (ForeignLayoutAttr,), {"name": f"ttg.{mnemonic}"})
    return irdl_attr_definition(cls)


FOREIGN = [_foreign(m) for m in FOREIGN_LAYOUTS]

# ------------------------------------------------------------------ async copies


@irdl_op_definition
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


@irdl_op_definition
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


@irdl_op_definition
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


# ------------------------------------------------------------------ other ops


@irdl_op_definition
class Fp4ToFpOp(UnaryOp):
    name = "ttg.fp4_to_fp"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())


@irdl_op_definition
class GlobalScratchAllocOp(IRDLOperation):
    """`ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>`."""

    name = "ttg.global_scratch_alloc"
    nbytes = prop_def(IntegerAttr)
    alignment = opt_prop_def(IntegerAttr)
    third_party_allocation = opt_prop_def(UnitAttr)
    result = result_def(PointerType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"


@irdl_op_definition
class WarpYieldOp(IRDLOperation):
    name = "ttg.warp_yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "($values^)? attr-dict (`:` type($values)^)?"


@irdl_op_definition
class WarpReturnOp(IRDLOperation):
    name = "ttg.warp_return"
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict"


@irdl_op_definition
class WarpIdOp(IRDLOperation):
    name = "ttg.warp_id"
    omitUniformHint = opt_prop_def(UnitAttr)
    result = result_def(i32)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"


ADDR_SPACE = {"none": 0, "local": 1, "global_read": 2, "global_write": 4, "tensor_read": 8, "tensor_write": 16}
_ALL = 0b11111


@irdl_op_definition
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


@irdl_op_definition
class MemDescReshapeOp(_MemDescView):
    name = "ttg.memdesc_reshape"


@irdl_op_definition
class MemDescReinterpretOp(_MemDescView):
    name = "ttg.memdesc_reinterpret"


@irdl_op_definition
class MemDescIndexOp(IRDLOperation):
    name = "ttg.memdesc_index"
    src = operand_def(MemDescType)
    index = operand_def(i32)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    assembly_format = "$src `[` $index `]` attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
class MemDescSubsliceOp(IRDLOperation):
    """`ttg.memdesc_subslice %m[0, 16] : !ttg.memdesc<..> -> !ttg.memdesc<..>` (custom<Offsets>)."""

    name = "ttg.memdesc_subslice"
    src = operand_def(MemDescType)
    offsets = prop_def(DenseArrayBase)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    custom_directives = (Offsets,)
    assembly_format = "$src `[` custom<Offsets>($offsets) `]` attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
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


@irdl_op_definition
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


OPS: list[type[IRDLOperation]] = [
    AsyncWaitOp, AsyncCommitGroupOp, AsyncCopyGlobalToLocalOp, Fp4ToFpOp, GlobalScratchAllocOp,
    WarpYieldOp, WarpReturnOp, WarpIdOp, BarrierOp,
    MemDescReshapeOp, MemDescReinterpretOp, MemDescIndexOp, MemDescSubsliceOp, LocalGatherOp, LocalScatterOp,
]  # fmt: skip
ATTRS: list[type[Attribute]] = [*FOREIGN]


def _more_ops() -> list[type[IRDLOperation]]:
    from xpu_passes.dialects import ttg_regions

    return ttg_regions.OPS


OPS += _more_ops()
