"""Printing TTGIR the way `triton-opt` does, on top of xDSL's printer.

xDSL prints every attribute inline. Triton tools print layouts through aliases
(`#blocked1 = #ttg.blocked<...>` at the top, `#blocked1` at uses) and, with debug
info, locations as `loc(#loc3)` with `#loc3 = loc(...)` after the module.

`block_arg_locs` (for text that triton re-parses, not for people): the custom syntax of
`scf.for` and of `scf.while`'s before region has no place for the locations of the
region's block arguments, so MLIR's parser gives them their position in the text
(which LLVM then reports as a source line). Those two ops are printed in the generic
form instead, whose `^bb0(%arg: type loc(...))` carries them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

from xdsl.dialects import scf
from xdsl.dialects.builtin import LocationAttr, ModuleOp, UnknownLoc, UnregisteredOp
from xdsl.ir import Attribute, BlockArgument, Operation
from xdsl.printer import Printer

from xpu_passes.frontend.spelling import Spelling, denormalize

# Alias stems Triton's dialects give their attributes (by attribute name).
ALIAS_STEMS: dict[str, str] = {
    "ttg.blocked": "blocked",
    "ttg.linear": "linear",
    "ttg.swizzled_shared": "shared",
    "ttg.shared": "shared",
    "ttg.nvmma_shared": "shared",
    # Other backends' layouts (kept verbatim by dialects/ttg_newer.py), as Triton names them.
    "ttg.nvidia_mma": "mma",
    "ttg.amd_mfma": "mma",
    "ttg.amd_wmma": "mma",
    "ttg.padded_shared": "shared",
    "ttg.partitioned_shared": "shared",
    "ttg.shared_linear": "shared",
    "ttg.amd_rotating_shared": "shared",
    "ttg.generic_linear": "generic_linear",
    "ttg.shared_memory": "smem",
    "ttig.dpas": "mma",
    "ttig.warp": "warp",
    "ttig.subgroup_2d_block": "block_io",
}


@dataclass
class _Aliases:
    """Alias names handed out in order of first use: stem, stem1, stem2, ..."""

    names: dict[Attribute, str] = field(default_factory=dict)
    order: list[Attribute] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def name(self, attr: Attribute, stem: str) -> str:
        found = self.names.get(attr)
        if found is None:
            n = self.counts.get(stem, 0)
            self.counts[stem] = n + 1
            found = self.names[attr] = f"#{stem}{n if n else ''}"
            self.order.append(attr)
        return found


@dataclass(eq=False, repr=False)
class TTGIRPrinter(Printer):
    use_aliases: bool = True
    block_arg_locs: bool = False  # generic scf.for/scf.while, see the module docstring
    _attrs: _Aliases = field(default_factory=_Aliases)
    _locs: _Aliases = field(default_factory=_Aliases)
    _defining: Attribute | None = None
    _refs: list[Attribute] | None = None  # aliases a definition uses
    _custom: Operation | None = None  # the op being printed in its custom syntax

    def print_attribute(self, attribute: Attribute) -> None:
        if self.use_aliases and attribute is not self._defining:
            stem = ALIAS_STEMS.get(getattr(attribute, "name", ""))
            if stem is not None:
                self.print_string(self._attrs.name(attribute, stem))
                if self._refs is not None:
                    self._refs.append(attribute)
                return
            if isinstance(attribute, LocationAttr):
                name = self._locs.name(attribute, "loc")
                self.print_string(name if self.printing_location else f"loc({name})")
                if self._refs is not None:
                    self._refs.append(attribute)
                return
        super().print_attribute(attribute)

    def print_op(self, op: Operation) -> None:
        if self.block_arg_locs and self.print_debuginfo and isinstance(op, (scf.ForOp, scf.WhileOp)):
            # Generic form for this op only: the ops in its regions keep their custom syntax.
            self._print_results(op)
            self.print_string(f'"{op.name}"')
            self.print_op_with_default_format(op)
            return
        custom = not (isinstance(op, UnregisteredOp) or self.print_generic_format or Operation.print is type(op).print)
        saved, self._custom = self._custom, op if custom else None
        try:
            super().print_op(op)
        finally:
            self._custom = saved

    def print_operation_type(self, op: Operation) -> None:
        if op is self._custom:
            # xDSL's scf.while prints its type with this mid-op; the location belongs at the
            # end, where print_op puts it (MLIR rejects `-> i32 loc(...) {`).
            self.print_function_type(op.operand_types, op.result_types)
        else:
            super().print_operation_type(op)

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        if not (self.block_arg_locs and self.print_debuginfo and print_type and _is_unlocated_iv(arg)):
            super().print_block_argument(arg, print_type)
            return
        # MLIR's ForOp builder gives the induction variable the loop's location, and
        # triton's native pipeline keeps it; xDSL's custom parser leaves it unknown.
        self.print_ssa_value(arg)
        self.print_string(": ")
        self.print_attribute(arg.type)
        self.print_string(" ")
        self.print_attribute(arg.owner.parent_op().location)  # type: ignore[union-attr]

    def print_float(self, value: float, type: Any) -> None:
        # MLIR prints the bits of inf/nan in upper case: 0xFF800000.
        if math.isnan(value) or math.isinf(value):
            self.print_string("0x" + type.pack((value,))[::-1].hex().upper())
        else:
            super().print_float(value, type)

    def alias_definitions(self, which: str) -> str:
        """Definitions of the aliases used so far (`attrs` or `locs`).

        MLIR wants each alias defined before any definition that uses it.
        """
        table = self._attrs if which == "attrs" else self._locs
        texts: dict[Attribute, str] = {}
        deps: dict[Attribute, list[Attribute]] = {}
        i = 0
        # Rendering a definition may name further aliases (nested locations).
        while i < len(table.order):
            attr = table.order[i]
            texts[attr], deps[attr] = self._render(attr)
            i += 1
        out: list[str] = []
        done: set[Attribute] = set()

        def emit(attr: Attribute) -> None:
            if attr in done:
                return
            done.add(attr)
            for dep in deps.get(attr, ()):
                emit(dep)
            out.append(f"{table.names[attr]} = {texts[attr]}\n")

        for attr in table.order:
            emit(attr)
        return "".join(out)

    def _render(self, attr: Attribute) -> tuple[str, list[Attribute]]:
        saved = self.stream, self._defining, self._refs
        self.stream, self._defining, self._refs = StringIO(), attr, []
        try:
            super().print_attribute(attr)
            return self.stream.getvalue(), self._refs or []  # type: ignore[union-attr]
        finally:
            self.stream, self._defining, self._refs = saved


def _is_unlocated_iv(arg: BlockArgument) -> bool:
    loop = arg.owner.parent_op()
    return isinstance(loop, scf.ForOp) and arg.index == 0 and isinstance(arg.location, UnknownLoc)


_BUILTIN_MODULE = re.compile(r"^(\s*)builtin\.module\b", re.MULTILINE)


def print_module(
    op: Operation,
    spelling: Spelling | None = None,
    debuginfo: bool = False,
    local_scope: bool = False,
    generic: bool = False,
    block_arg_locs: bool = False,
) -> str:
    """Print like triton-opt; `spelling` picks the dialect names (default 3.3's).

    `block_arg_locs` (with `debuginfo`): print scf.for/scf.while generically so that
    triton's parser reads their block arguments' locations (the pipeline's round trip).
    """
    body = StringIO()
    printer = TTGIRPrinter(
        stream=body,
        print_debuginfo=debuginfo,
        print_generic_format=generic,
        use_aliases=not local_scope,
        block_arg_locs=block_arg_locs,
    )
    printer.print_op(op)
    text = body.getvalue()
    if isinstance(op, ModuleOp) and not generic:
        text = _BUILTIN_MODULE.sub(r"\1module", text, count=1)
    head = printer.alias_definitions("attrs")
    tail = printer.alias_definitions("locs") if debuginfo else ""
    out = head + text + "\n" + tail
    return denormalize(out, spelling or Spelling.choose("triton-3.3"))
