"""`ttg` warp specialization: `ttg.warp_specialize` (also in triton-xpu 3.3) with its hidden
`ttg.warp_specialize.partitions`, its terminators `ttg.warp_yield`/`ttg.warp_return` (3.3), and
Intel main's `ttg.warp_id`. warp_specialize's format is MLIR's hand-written one (TritonGPU/IR/Ops.cpp).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, UnitAttr, i32
from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from xpu_passes.ir.xdsl_adapt import IsolatedUnlessProven, op_definition, print_new_line
from xpu_passes.dialects._syntax import parse_attr_dict


@op_definition
class WarpSpecializeOp(IRDLOperation):
    """`%r = ttg.warp_specialize(%a) attributes {...}? default {...} partitionN(%x: T) num_warps(N) {...} : (T) -> R`."""

    name = "ttg.warp_specialize"
    defaultPassthrough = var_result_def()
    partitionNumWarps = prop_def(DenseArrayBase)
    warpGroupStartIds = opt_prop_def(DenseArrayBase)
    requestedRegisters = opt_prop_def(DenseArrayBase)
    actualRegisters = opt_prop_def(DenseArrayBase)
    defaultRegion = region_def()
    partitionOpHolder = region_def("single_block")
    INHERENT: ClassVar[tuple[str, ...]] = ("warpGroupStartIds", "requestedRegisters", "actualRegisters")

    @property
    def partitions(self) -> WarpSpecializePartitionsOp | None:
        block = self.partitionOpHolder.blocks.first
        op = block.first_op if block is not None else None
        return op if isinstance(op, WarpSpecializePartitionsOp) else None

    @classmethod
    def parse(cls, parser: Parser) -> WarpSpecializeOp:
        captures = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("attributes"):
            props, attrs = parse_attr_dict(parser, cls.INHERENT)
        parser.parse_keyword("default")
        default = parser.parse_region()
        # MLIR locates the partitions op here, at the first `partitionN` (or the `:`).
        partitions_at = parser.pos
        regions: list[Region] = []
        warps: list[int] = []
        while parser.parse_optional_keyword(f"partition{len(regions)}"):
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: _parse_region_argument(parser))
            parser.parse_keyword("num_warps")
            parser.parse_punctuation("(")
            warps.append(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(")")
            regions.append(parser.parse_region(args))
        parser.parse_punctuation(":")
        pos = parser.pos
        ftype = parser.parse_type()
        if not isinstance(ftype, FunctionType):
            parser.raise_error("expected a function type", pos, parser.pos)
        if len(ftype.inputs) != len(captures):
            parser.raise_error(f"{len(captures)} operands present, but expected {len(ftype.inputs)}", pos, parser.pos)
        operands = [parser.resolve_operand(c, t) for c, t in zip(captures, ftype.inputs)]
        partitions = WarpSpecializePartitionsOp.build(operands=[operands], regions=[regions])
        offsets = getattr(parser, "op_offsets", None)  # the front end's record of where ops are (diagnostics)
        if isinstance(offsets, dict):
            offsets[partitions] = partitions_at
        props["partitionNumWarps"] = DenseArrayBase.from_list(i32, warps)
        return cls.build(
            result_types=[list(ftype.outputs)],
            properties=props,
            attributes=attrs,
            regions=[default, Region(Block([partitions]))],
        )

    def print(self, printer: Printer) -> None:
        parts = self.partitions
        captures = list(parts.operands) if parts is not None else []
        printer.print_string("(")
        printer.print_list(captures, printer.print_operand)
        printer.print_string(")")
        merged = {k: v for k, v in (*self.properties.items(), *self.attributes.items()) if k != "partitionNumWarps"}
        if merged:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(sorted(merged.items())))
        print_new_line(printer)
        printer.print_string("default ")
        printer.print_region(self.defaultRegion, print_entry_block_args=False)
        warps = self.partitionNumWarps.get_values()
        for i, (region, n) in enumerate(zip(parts.partitionRegions if parts is not None else (), warps)):
            print_new_line(printer)
            printer.print_string(f"partition{i}(")
            block = region.blocks.first
            printer.print_list(block.args if block is not None else (), printer.print_block_argument)
            printer.print_string(f") num_warps({n}) ")
            printer.print_region(region, print_entry_block_args=False)
        printer.print_string(" : ")
        printer.print_function_type([c.type for c in captures], self.result_types)

    def verify_(self) -> None:
        parts = self.partitions
        if parts is None:
            raise VerifyException(
                "expected to find only a `ttg.warp_specialize.partitions` op inside its second region"
            )
        warps = self.partitionNumWarps.get_values()
        if len(parts.partitionRegions) != len(warps):
            raise VerifyException(
                f"has {len(parts.partitionRegions)} partitions but `partitionNumWarps` has {len(warps)} elements"
            )
        for i, n in enumerate(warps):
            if n <= 0 or n & (n - 1):
                raise VerifyException(f"partition #{i} number of warps ({n}) must be a power of 2")
        if self.warpGroupStartIds is not None and len(self.warpGroupStartIds.get_values()) != len(warps):
            raise VerifyException(
                f"has {len(self.warpGroupStartIds.get_values())} warp group start IDs but expected {len(warps)}"
            )
        parent = self.parent_op()
        while parent is not None:
            if isinstance(parent, WarpSpecializeOp):
                raise VerifyException("cannot be nested inside another `ttg.warp_specialize` op")
            parent = parent.parent_op()


def _parse_region_argument(parser: Parser) -> Parser.Argument:
    """`%arg: type loc(...)?`, as MLIR's parseArgumentList with types."""
    arg = parser.parse_argument()
    loc = parser.parse_optional_location()
    return Parser.Argument(arg.name, arg.type, loc) if loc is not None else arg


@op_definition
class WarpSpecializePartitionsOp(IRDLOperation):
    """The isolated partition regions of `ttg.warp_specialize` (printed by it, never on its own)."""

    name = "ttg.warp_specialize.partitions"
    explicitCaptures = var_operand_def()
    partitionRegions = var_region_def()
    traits = traits_def(IsolatedUnlessProven(), IsTerminator(), HasParent(WarpSpecializeOp))

    def verify_(self) -> None:
        captures = list(self.explicitCaptures)
        for i, region in enumerate(self.partitionRegions):
            block = region.blocks.first
            args = list(block.args) if block is not None else []
            if len(args) != len(captures):
                raise VerifyException(
                    f"partition region #{i} has {len(args)} arguments but expected {len(captures)}"
                )
            for j, (arg, cap) in enumerate(zip(args, captures)):
                if arg.type != cap.type:
                    raise VerifyException(
                        f"partition region #{i} argument #{j} has type '{arg.type}' but corresponding capture "
                        f"has type '{cap.type}'"
                    )


@op_definition
class WarpYieldOp(IRDLOperation):
    name = "ttg.warp_yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "($values^)? attr-dict (`:` type($values)^)?"


@op_definition
class WarpReturnOp(IRDLOperation):
    name = "ttg.warp_return"
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict"


@op_definition
class WarpIdOp(IRDLOperation):
    name = "ttg.warp_id"
    omitUniformHint = opt_prop_def(UnitAttr)
    result = result_def(i32)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"
