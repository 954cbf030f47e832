"""Printing TTGIR byte for byte as triton-xpu (MLIR's AsmPrinter) does, on xDSL's printer.

What MLIR does that xDSL does not, and how we match it:
- SSA names: MLIR's numbering (see asm_names); `%15:3 = ` defines a result group, `%15#1` uses it.
- Aliases (`#blocked1 = #ttg.blocked<...>`, `#loc3 = loc(...)`): every layout attribute of
  Triton's dialects and every location gets one. MLIR orders them by alias depth (1 + the
  deepest alias nested in the definition), then by name, then by first visit, and numbers
  each name in that order (`#loc`, `#loc1`, ...). An op's location is visited before the
  op's contents. Aliases that can be deferred (used only by op locations) are printed after
  the module, the others before it.
- Block-argument locations (function arguments, `^bb0(...)`) are printed inline, their
  nested locations through aliases; such a location's alias is still defined, before the
  module (MLIR's "TODO: allow deferring argument locations").
We print the body once with a placeholder for each alias use, then sort the aliases and
substitute their names: one pass, linear in the output.

`block_arg_locs` (for text that triton re-parses, not for people): the custom syntax of
`scf.for` and of `scf.while`'s before region has no place for the locations of the
region's block arguments, so MLIR's parser gives them their position in the text
(which LLVM then reports as a source line). Those two ops are printed in the generic
form instead, whose `^bb0(%arg: type loc(...))` carries them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from io import StringIO
from collections.abc import Mapping
from typing import Any

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    ModuleOp,
    NameLoc,
    UnitAttr,
    UnknownLoc,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.traits import IsTerminator
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRLexer

from xpu_passes.frontend import fastprint
from xpu_passes.frontend.asm_names import ssa_name_ids
from xpu_passes.frontend.memo import gc_paused
from xpu_passes.frontend.mlir_floats import float_text
from xpu_passes.frontend.upstream_forms import FORMS
from xpu_passes.frontend.spelling import Spelling, denormalize

# Alias names Triton's dialects give their attributes (OpAsmDialectInterface::getAlias).
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
_LOCATIONS = (UnknownLoc, FileLineColLoc, CallSiteLoc, NameLoc, FusedLoc)

# An alias use in the printed text: \x00<index>\x01.
_REF = re.compile("\x00(\\d+)\x01")
_BARE_NAME = MLIRLexer.bare_identifier_regex  # a key printed without quotes


class _Alias:
    __slots__ = ("stem", "deferrable", "text", "depth", "children")

    def __init__(self, stem: str, deferrable: bool) -> None:
        self.stem = stem
        self.deferrable = deferrable
        self.text = ""  # the definition, with placeholders for nested aliases
        self.depth = 1
        self.children: list[int] = []


@dataclass(eq=False, repr=False)
class TTGIRPrinter(Printer):
    use_aliases: bool = True
    block_arg_locs: bool = False  # generic scf.for/scf.while, see the module docstring
    renames: dict[str, str] = field(default_factory=dict)  # dialect prefixes printed otherwise (spelling)
    _aliases: list[_Alias] = field(default_factory=list)
    # By hash (fastprint.hash_of), then equality: attributes that are equal share an alias.
    _alias_index: dict[int, list[tuple[Attribute, int]]] = field(default_factory=dict)
    _deferrable: bool = False  # visiting an op's own location
    _frames: list[int] | None = None  # alias depth of what is nested, per attribute being defined
    _children: list[int] | None = None  # aliases nested in the definition being rendered
    # Printed text of attributes outside alias definitions, by identity (attributes are
    # immutable; the object is kept so that its id stays its own). Printing one again
    # has no other effect than its text (see _visit), so the text is reused.
    # With the aliases visited in the text, in order (see _recording).
    _printed: dict[int, tuple[Attribute, str, list[Any]]] = field(default_factory=dict)
    _visited: dict[int, tuple[Attribute, int]] = field(default_factory=dict)  # _alias_index by identity
    _slots: list[Any] | None = None  # capturing an op template (fastprint): its slots
    _names: dict[int, str] = field(default_factory=dict)  # SSA names by the value's id (asm_names)
    _templates: dict[Any, Any] = field(default_factory=dict)  # fastprint's, of this printer's mode
    # Process-wide texts of attributes and of alias definitions (fastprint), for this mode.
    _attr_texts: dict[int, Any] = field(default_factory=dict)
    _definitions: dict[int, Any] = field(default_factory=dict)
    _reuse: bool = True  # (fastprint.enabled: tests compare with everything printed afresh)
    _alias_attrs: list[Attribute] = field(default_factory=list)  # by alias index
    # Aliases visited at the top of the attribute being printed, as (attribute, stem); a
    # None in it: the text is not their placeholders in order (not reusable elsewhere).
    _recording: list[Any] | None = None

    # ---------------------------------------------------------------- aliases

    def print_attribute(self, attribute: Attribute) -> None:
        if self._slots is not None:
            self._slots.append(attribute)
            self.stream.write(fastprint.MARK)  # type: ignore[union-attr]
            return
        if self._frames is not None or self.printing_location:
            self._print_attribute(attribute)
            return
        self.print_string(self.attribute_text(attribute))

    def attribute_text(self, attribute: Attribute) -> str:
        """What print_attribute prints for an attribute outside alias definitions."""
        hit = self._printed.get(id(attribute))
        if hit is None:
            hit = self._attribute_text(attribute)
            if "\n" not in hit[1]:  # (never for attributes; print_string indents the lines)
                self._printed[id(attribute)] = hit
        if self._recording is not None:  # nested in another attribute's text
            self._recording.extend(hit[2])
        return hit[1]

    def _attribute_text(self, attribute: Attribute) -> tuple[Attribute, str, list[Any]]:
        known = fastprint.recall(self._attr_texts, attribute) if self._reuse else None
        if known is not None:  # printed by an earlier printer: visit its aliases, in order
            _, pieces, visits = known
            return attribute, self._fill(pieces, visits), visits
        saved = self.stream, self._current_column, self._recording
        self.stream, self._recording = StringIO(), []
        try:
            self._print_attribute(attribute)
            text = self.stream.getvalue()  # type: ignore[union-attr]
            visits = self._recording
        finally:
            self.stream, self._current_column, self._recording = saved
        if None not in visits and "\n" not in text:
            pieces = fastprint.split_refs(text, len(visits))
            if pieces is not None:
                fastprint.remember(self._attr_texts, attribute, (attribute, pieces, visits))
        return attribute, text, visits

    def _fill(self, pieces: tuple[str, ...], visits: list[tuple[Attribute, str]]) -> str:
        out = [pieces[0]]
        for (attr, stem), piece in zip(visits, pieces[1:]):
            out.append(f"\x00{self._visit(attr, stem)}\x01")
            out.append(piece)
        return "".join(out)

    def print_ssa_value(self, value: SSAValue) -> str:
        name = self._names.get(id(value))
        if self._slots is not None:
            self._slots.append(value)
            self.stream.write(fastprint.MARK)  # type: ignore[union-attr]
            return name or ""
        if name is None:  # (a value outside the printed op: xDSL names it)
            return super().print_ssa_value(value)
        self.print_string("%" + name)
        return name

    def capture(self, op: Operation, generic: bool, slots: list[Any]) -> str | None:
        """The op's text after its results, its operands and top-level attributes
        printed as fastprint.MARK and listed in `slots`."""
        saved, column, self.stream, self._slots = self.stream, self._current_column, StringIO(), slots
        try:
            if generic:
                self.print_string(f'"{op.name}"')
                self.print_op_with_default_format(op)
            else:
                self.print_string(op.name)
                op.print(self)
            return self.stream.getvalue()  # type: ignore[union-attr]
        finally:
            self.stream, self._current_column, self._slots = saved, column, None

    def _print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr) and self._print_splat(attribute):
            return
        if not self.use_aliases:
            super().print_attribute(attribute)
            return
        stem = ALIAS_STEMS.get(getattr(attribute, "name", ""))
        if stem is None and isinstance(attribute, _LOCATIONS):
            stem = "loc"
        if stem is not None:
            index = self._visit(attribute, stem)
            inline = stem == "loc" and not self.printing_location
            if self._frames is None and self._recording is not None:
                self._recording.append(None if inline else (attribute, stem))
            if inline:
                # A location on its own is a block argument's (print_op prints the op's):
                # MLIR prints it inline.
                self.print_string(self._aliases[index].text)
            else:
                self.print_string(f"\x00{index}\x01")
            return
        frames = self._frames
        if frames is None or (self.printing_location and isinstance(attribute, ArrayAttr)):
            # A fused location's list is syntax: MLIR visits its locations directly.
            super().print_attribute(attribute)
            return
        frames.append(0)
        super().print_attribute(attribute)
        nested = frames.pop()
        if nested and nested + 1 > frames[-1]:
            frames[-1] = nested + 1

    def _visit(self, attr: Attribute, stem: str) -> int:
        """Index of `attr`'s alias, defined on first visit (MLIR's AliasInitializer::visit)."""
        seen = self._visited.get(id(attr))
        index = seen[1] if seen is not None else None
        if seen is None:
            equal = self._alias_index.setdefault(fastprint.hash_of(attr), [])
            index = next((i for other, i in equal if other is attr or other == attr), None)
            if index is not None:
                self._visited[id(attr)] = (attr, index)
        if index is None:
            index = len(self._aliases)
            equal.append((attr, index))
            self._visited[id(attr)] = (attr, index)
            alias = _Alias(stem, self._deferrable)
            self._aliases.append(alias)
            self._alias_attrs.append(attr)
            self._define(attr, alias)
        elif not self._deferrable:
            self._keep_before(index)
        if self._frames is not None:
            depth = self._aliases[index].depth
            if depth > self._frames[-1]:
                self._frames[-1] = depth
            self._children.append(index)  # type: ignore[union-attr]
        return index

    def _define(self, attr: Attribute, alias: _Alias) -> None:
        """The alias's definition text, its depth and the aliases it nests."""
        known = fastprint.recall(self._definitions, attr) if self._reuse else None
        if known is not None and not known[2]:  # defined by an earlier printer, nothing nested
            alias.text, alias.depth = known[1][0], known[3]
            return
        saved = self.stream, self._frames, self._children, self.printing_location
        self.stream, self._frames, self._children, self.printing_location = StringIO(), [0], [], False
        try:
            if known is not None:  # defined by an earlier printer: visit what it nests, in order
                _, pieces, nested, alias.depth = known
                alias.text = self._fill(pieces, nested)
            else:
                Printer.print_attribute(self, attr)
                alias.text = self.stream.getvalue()  # type: ignore[union-attr]
                alias.depth = self._frames[0] + 1
            alias.children = self._children
        finally:
            self.stream, self._frames, self._children, self.printing_location = saved
        if known is None:
            pieces = fastprint.split_refs(alias.text, len(alias.children), alias.children)
            if pieces is not None:
                nested = [(self._alias_attrs[i], self._aliases[i].stem) for i in alias.children]
                fastprint.remember(self._definitions, attr, (attr, pieces, nested, alias.depth))

    def _keep_before(self, index: int) -> None:
        """Mark an alias, and those it uses, as printed before the module."""
        stack = [index]
        while stack:
            alias = self._aliases[stack.pop()]
            if alias.deferrable:
                alias.deferrable = False
                stack.extend(alias.children)

    def finish(self, body: str, debuginfo: bool) -> str:
        """Alias definitions before (and, with debug info, after) the printed `body`."""
        order = sorted(range(len(self._aliases)), key=lambda i: (self._aliases[i].depth, self._aliases[i].stem, i))
        names = [""] * len(order)
        counts: dict[str, int] = {}
        for i in order:
            stem = self._aliases[i].stem
            n = counts.get(stem, 0)
            counts[stem] = n + 1
            names[i] = f"#{stem}{n if n else ''}"

        def sub(text: str) -> str:
            parts = _REF.split(text)
            parts[1::2] = [names[int(i)] for i in parts[1::2]]
            return "".join(parts)

        before = "".join(f"{names[i]} = {self._aliases[i].text}\n" for i in order if not self._aliases[i].deferrable)
        after = "".join(f"{names[i]} = {self._aliases[i].text}\n" for i in order if self._aliases[i].deferrable)
        return sub(before) + sub(body) + "\n" + (sub(after) if debuginfo else "")

    def _print_splat(self, attr: DenseIntOrFPElementsAttr) -> bool:
        """`dense<x> : type` when all elements have the same bits (xDSL compares values: NaN != NaN)."""
        data = attr.data.data
        n = len(attr)
        if not n or len(data) % n:
            return False
        size = len(data) // n
        first = data[:size]
        if data != first * n:
            return False
        elt = attr.get_element_type()
        if not isinstance(elt, (IntegerType, IndexType, AnyFloat)):
            return False
        self.print_string("dense<")
        attr._print_one_elem(elt.unpack(first, 1)[0], self)  # type: ignore[arg-type]
        self.print_string("> : ")
        self.print_attribute(attr.get_type())
        return True

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        # MLIR's attribute dictionaries are sorted by name, as printed (`triton_intel_gpu.`
        # sorts before `ttg.`, `ttig.` after).
        items = sorted(attr_dict.items(), key=self._printed_name)
        if self._slots is None and self._frames is None and not self.printing_location:
            # xDSL's print_attr_dict in one string, the values' texts reused.
            parts = []
            for name, value in items:
                if _BARE_NAME.fullmatch(name) is None:
                    break
                parts.append(name if isinstance(value, UnitAttr) else f"{name} = {self.attribute_text(value)}")
            else:
                self.print_string("{" + ", ".join(parts) + "}")
                return
        super().print_attr_dict(dict(items))

    def _printed_name(self, item: tuple[str, Attribute]) -> str:
        name = item[0]
        if self.renames:
            head, dot, rest = name.partition(".")
            if dot and head in self.renames:
                return f"{self.renames[head]}.{rest}"
        return name

    # ---------------------------------------------------------------- operations

    def print_op(self, op: Operation) -> None:
        loc = None
        if self.print_debuginfo and self.use_aliases:
            self._deferrable = True
            loc = self._visit(op.location, "loc")
            self._deferrable = False
        generic = (
            self.print_generic_format
            or Operation.print is type(op).print
            or (self.block_arg_locs and self.print_debuginfo and op.name in ("scf.for", "scf.while"))
        )
        if generic or op.name not in FORMS:
            # The whole line at once when the op's form has a template (fastprint).
            text = fastprint.op_text(self, op, generic, self._templates)
            head = None if text is None else self._results_text(op)
            if head is not None:
                if self.print_debuginfo:
                    tail = f" loc(\x00{loc}\x01)" if loc is not None else " " + self.attribute_text(op.location)
                    self.print_string(head + text + tail)  # type: ignore[operator]
                else:
                    self.print_string(head + text)  # type: ignore[operator]
                return
        self._print_results(op)
        if isinstance(op, UnregisteredOp):
            self.print_string(f'"{op.op_name.data}"')
            op_name = op.op_name
            del op.attributes["op_name__"]
            self.print_op_with_default_format(op)
            op.attributes["op_name__"] = op_name
        elif (
            self.print_generic_format
            or Operation.print is type(op).print
            or (self.block_arg_locs and self.print_debuginfo and op.name in ("scf.for", "scf.while"))
        ):
            # block_arg_locs: generic form for this op only; the ops in its regions keep their custom syntax.
            self.print_string(f'"{op.name}"')
            self.print_op_with_default_format(op)
        else:
            self.print_string(op.name)
            form = FORMS.get(op.name)
            if form is None:
                op.print(self)
            else:
                form(self, op)
        if self.print_debuginfo:
            if loc is None:
                self.print_string(" ")
                self.print_attribute(op.location)
            else:
                self.print_string(f" loc(\x00{loc}\x01)")

    def _results_text(self, op: Operation) -> str | None:
        """`%name = ` (and the like) before the op; None: names not given by ssa_names."""
        results = op.results
        if not results:
            return ""
        name = self._names.get(id(results[0]))
        if name is None:
            return None
        if len(results) == 1:
            return f"%{name} = "
        if "#" in name:
            return f"%{name.partition('#')[0]}:{len(results)} = "
        return ", ".join(f"%{self._names[id(r)]}" for r in results) + " = "

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        if self._next_line_callback and print_message:
            super()._print_new_line(indent, print_message)
            return
        spaces = (self._indent if indent is None else indent) * self.indent_num_spaces
        self.stream.write("\n" + " " * spaces)  # type: ignore[union-attr]
        self._current_line += 1
        self._current_column = spaces

    def _print_results(self, op: Operation) -> None:
        results = op.results
        if not results:
            return
        name = self._names.get(id(results[0]))
        if name is None:
            super()._print_results(op)
            return
        if len(results) == 1:
            self.print_string(f"%{name} = ")
        elif "#" in name:
            self.print_string(f"%{name.partition('#')[0]}:{len(results)} = ")
        else:  # each result is its own group
            self.print_string(", ".join(f"%{self._names[id(r)]}" for r in results) + " = ")

    def print_operation_type(self, op: Operation) -> None:
        # The location goes at the end of the op, where print_op puts it.
        self.print_function_type(op.operand_types, op.result_types)

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        self.print_ssa_value(arg)
        if not print_type:
            return
        self.print_string(": ")
        self.print_attribute(arg.type)
        if self.print_debuginfo:
            loc = arg.location
            if self.block_arg_locs and _is_unlocated_iv(arg):
                # MLIR's ForOp builder gives the induction variable the loop's location, and
                # triton's native pipeline keeps it; xDSL's custom parser leaves it unknown.
                loc = arg.owner.parent_op().location  # type: ignore[union-attr]
            self.print_string(" ")
            self.print_attribute(loc)

    def print_block(self, block: Block, print_block_args: bool = True, print_block_terminator: bool = True) -> None:
        # xDSL's print_block with MLIR's comment on the block's predecessors.
        if print_block_args:
            self._print_new_line()
            if block not in self._blocks:
                self._populate_block_name(block)
            self.print_block_name(block)
            if block.args:
                with self.in_parens():
                    self.print_list(block.args, self.print_block_argument)
            self.print_string(":")
            self.print_string(_predecessors_comment(block, self._blocks))
        self._indent += 1
        try:
            op = block.first_op
            while op is not None:  # (xDSL's `block.ops` iterates through Python calls)
                if print_block_terminator or not op.has_trait(IsTerminator, value_if_unregistered=False):
                    self._print_new_line()
                    self.print_op(op)
                op = op._next_op
        finally:
            self._indent -= 1

    def print_float(self, value: float, type: Any) -> None:
        self.print_string(float_text(value, type))


def _predecessors_comment(block: Block, names: dict[Block, str]) -> str:
    """MLIR's `  // pred: ^bb0`, `  // 2 preds: ^bb0, ^bb2`, `  // no predecessors`."""
    preds = block.predecessors()
    if not preds:
        return "" if block.parent is not None and block is block.parent.blocks.first else "  // no predecessors"
    if len(preds) == 1:  # one use: `cf.cond_br %c, ^bb1, ^bb1` makes two
        return f"  // pred: ^{names[preds[0]]}"
    region = block.parent
    order = {b: i for i, b in enumerate(region.blocks)} if region is not None else {}
    ranked = sorted(preds, key=lambda p: order.get(p, -1))
    return f"  // {len(preds)} preds: " + ", ".join(f"^{names[p]}" for p in ranked)


def _is_unlocated_iv(arg: BlockArgument) -> bool:
    loop = arg.owner.parent_op()
    return loop is not None and loop.name == "scf.for" and arg.index == 0 and isinstance(arg.location, UnknownLoc)


_BUILTIN_MODULE = re.compile(r"(\s*)builtin\.module\b")


def print_module(
    op: Operation,
    spelling: Spelling | None = None,
    debuginfo: bool = False,
    local_scope: bool = False,
    generic: bool = False,
    block_arg_locs: bool = False,
) -> str:
    """Print as triton-xpu does; `spelling` picks the dialect names (default 3.3's).

    `local_scope` (MLIR's -mlir-print-local-scope): attributes and locations inline, no aliases.
    `block_arg_locs` (with `debuginfo`): print scf.for/scf.while generically so that
    triton's parser reads their block arguments' locations (the pipeline's round trip).
    """
    spelling = spelling or Spelling.choose("triton-3.3")
    body = StringIO()
    printer = TTGIRPrinter(
        renames={c: n for c, n in spelling.names.items() if c != n},
        stream=body,
        print_debuginfo=debuginfo,
        print_generic_format=generic,
        use_aliases=not local_scope,
        block_arg_locs=block_arg_locs,
    )
    printer._reuse = fastprint.enabled
    if fastprint.enabled:
        fastprint.begin()
        mode = tuple(sorted(printer.renames.items()))
        printer._templates = fastprint.table(("ops", generic, mode))
        printer._attr_texts = fastprint.table(("attributes", not local_scope, mode))
        printer._definitions = fastprint.table(("definitions", mode))
    with gc_paused():
        printer._names = ssa_name_ids(op, generic)
        printer.print_op(op)
    text = body.getvalue()
    if isinstance(op, ModuleOp) and not generic and (m := _BUILTIN_MODULE.match(text)):
        text = m.group(1) + "module" + text[m.end() :]  # (the module is the first line)
    return denormalize(printer.finish(text, debuginfo), spelling)
