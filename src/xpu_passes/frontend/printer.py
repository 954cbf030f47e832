"""Printing TTGIR byte for byte as triton-xpu (MLIR's AsmPrinter) does, on xDSL's printer.

What MLIR does that xDSL does not, and how we match it:
- SSA names: MLIR's numbering (see asm_names); `%15:3 = ` defines a result group, `%15#1` uses it.
- Aliases of layouts and locations, and their order: see aliases.py (this printer's base).
- Attribute dictionaries sorted by name as printed; `builtin.module` printed `module`.
Speed: an op without regions is its form's template filled in (fastprint), written
with its results and location in one string.

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

from xdsl.dialects.builtin import ModuleOp, UnitAttr, UnknownLoc, UnregisteredOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.traits import IsTerminator
from xdsl.utils.mlir_lexer import MLIRLexer

from xpu_passes.frontend.fast import printer as fastprint
from xpu_passes.ir.gc_pause import gc_paused
from xpu_passes.frontend.aliases import AliasPrinter
from xpu_passes.frontend.asm_names import ssa_name_ids
from xpu_passes.frontend.mlir_floats import float_text
from xpu_passes.frontend.fast.forms import print_form
from xpu_passes.frontend.upstream_forms import FORMS
from xpu_passes.frontend.spelling import Spelling, denormalize

_BARE_NAME = MLIRLexer.bare_identifier_regex  # a key printed without quotes
GENERIC_WITH_ARG_LOCS = frozenset(("scf.for", "scf.while"))  # block_arg_locs, see the module docstring
_KEY_TEXTS: dict[str, str] = {}  # attribute name -> its printed text (attr_dict_text)


@dataclass(eq=False, repr=False)
class TTGIRPrinter(AliasPrinter):
    """Triton's text: SSA names, op forms (fastprint's templates), blocks, locations."""

    block_arg_locs: bool = False  # generic scf.for/scf.while, see the module docstring
    renames: dict[str, str] = field(default_factory=dict)  # dialect prefixes printed otherwise (spelling)
    _names: dict[int, str] = field(default_factory=dict)  # SSA names by the value's id (asm_names)
    _templates: dict[Any, Any] = field(default_factory=dict)  # fastprint's, of this printer's mode
    _generic_by_class: dict[type[Operation], Any] = field(default_factory=dict)  # _op_line's: _generic, or 2

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

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        # MLIR's attribute dictionaries are sorted by name, as printed (`triton_intel_gpu.`
        # sorts before `ttg.`, `ttig.` after).
        if self._reuse and self._slots is None and self._frames is None and not self.printing_location:
            self.print_string(self.attr_dict_text(attr_dict))
            return
        super().print_attr_dict(dict(sorted(attr_dict.items(), key=self._printed_name)))

    def attr_dict_text(self, attr_dict: Mapping[str, Attribute]) -> str:
        """xDSL's print_attr_dict in one string, the values' texts reused (outside alias
        definitions and capture)."""
        parts = []
        items = attr_dict.items()
        for name, value in sorted(items, key=self._printed_name) if len(items) > 1 else items:
            key = _KEY_TEXTS.get(name) or self._key_text(name)
            parts.append(key if isinstance(value, UnitAttr) else f"{key} = {self.attribute_text(value)}")
        return "{" + ", ".join(parts) + "}"

    def _key_text(self, name: str) -> str:
        """An attribute name as xDSL prints it (quoted unless a bare identifier), kept."""
        if _BARE_NAME.fullmatch(name) is not None:
            text = name
        else:
            saved = self.stream, self._current_column
            self.stream = StringIO()
            try:
                self.print_string_literal(name)
                text = self.stream.getvalue()  # type: ignore[union-attr]
            finally:
                self.stream, self._current_column = saved
        if len(_KEY_TEXTS) > 10_000:
            _KEY_TEXTS.clear()
        _KEY_TEXTS[name] = text
        return text

    def _printed_name(self, item: tuple[str, Attribute]) -> str:
        name = item[0]
        if self.renames:
            head, dot, rest = name.partition(".")
            if dot and head in self.renames:
                return f"{self.renames[head]}.{rest}"
        return name

    # ---------------------------------------------------------------- operations

    def print_op(self, op: Operation) -> None:
        line = self._op_line(op)
        if line is None:
            self._print_op_parts(op)
        else:
            self.print_string(line)

    def _print_op_parts(self, op: Operation) -> None:
        """print_op for an op _op_line has no line for."""
        # (visited by _op_line: the same index)
        loc = self.visit_op_location(op.location) if self.print_debuginfo and self.use_aliases else None
        self._print_results(op)
        if isinstance(op, UnregisteredOp):
            self.print_string(f'"{op.op_name.data}"')
            op_name = op.op_name
            del op.attributes["op_name__"]
            self.print_op_with_default_format(op)
            op.attributes["op_name__"] = op_name
        elif self._generic(op):
            # block_arg_locs: generic form for this op only; the ops in its regions keep their custom syntax.
            self.print_string(f'"{op.name}"')
            self.print_op_with_default_format(op)
        else:
            self.print_string(op.name)
            form = FORMS.get(op.name) or (print_form(op.__class__) if self._reuse else None)
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

    def _generic(self, op: Operation) -> bool:
        return (
            self.print_generic_format
            or Operation.print is type(op).print
            or (self.block_arg_locs and op.name in GENERIC_WITH_ARG_LOCS and self.print_debuginfo)
        )

    def _op_line(self, op: Operation) -> str | None:
        """The op's whole text when its form has a template (fastprint), else None. Its
        location is visited first (MLIR visits an op's location before its contents)."""
        if self.print_debuginfo and self.use_aliases:
            seen = self._visited.get(id(op.location))  # (visit_op_location's first step, inline)
            loc = self.visit_op_location(op.location) if seen is None else seen[1]
        else:
            loc = None
        cls = op.__class__
        generic = self._generic_by_class.get(cls)
        if generic is None:
            generic = self._generic(op)
            if not generic and (op.name in FORMS or print_form(cls) is not None):
                generic = 2  # printed through its form
            if not issubclass(cls, UnregisteredOp):  # (its name is the instance's)
                self._generic_by_class[cls] = generic
        if generic == 2:
            return None
        text = fastprint.op_text(self, op, generic, self._templates)
        if text is None:
            return None
        results = op.results
        if len(results) == 1:  # (_results_text's usual case, inline)
            (result,) = results
            name = self._names.get(id(result))
            if name is None:
                return None
            head = f"%{name} = "
        else:
            head = self._results_text(op)
            if head is None:
                return None
        if not self.print_debuginfo:
            return head + text
        if loc is not None:
            return f"{head}{text} loc(\x00{loc}\x01)"
        return f"{head}{text} {self.attribute_text(op.location)}"

    def _results_text(self, op: Operation) -> str | None:
        """`%name = ` (and the like) before the op; None: names not given by ssa_names."""
        results = op.results
        if not results:
            return ""
        if len(results) == 1:
            (result,) = results  # (SSAValues.__getitem__ is Python code)
            name = self._names.get(id(result))
            return None if name is None else f"%{name} = "
        name = self._names.get(id(next(iter(results))))
        if name is None:
            return None
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
            # An op with a template is one line, written at once (print_op otherwise).
            fast = not self._next_line_callback
            newline = "\n" + " " * (self._indent * self.indent_num_spaces)
            write = self.stream.write  # type: ignore[union-attr]
            op = block.first_op
            while op is not None:  # (xDSL's `block.ops` iterates through Python calls)
                if print_block_terminator or not op.has_trait(IsTerminator, value_if_unregistered=False):
                    line = self._op_line(op) if fast else None
                    if line is None:
                        self._print_new_line()
                        if fast:  # (_op_line has visited its location)
                            self._print_op_parts(op)
                        else:
                            self.print_op(op)
                    else:
                        write(newline)
                        write(line)
                        self._current_line += 1
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
    fast: bool = True,
) -> str:
    """Print as triton-xpu does; `spelling` picks the dialect names (default 3.3's).

    `local_scope` (MLIR's -mlir-print-local-scope): attributes and locations inline, no aliases.
    `block_arg_locs` (with `debuginfo`): print scf.for/scf.while generically so that
    triton's parser reads their block arguments' locations (the pipeline's round trip).
    `fast`: printed templates and remembered texts (frontend/fast/printer.py); off, every op is
    printed afresh by its own printer (tests compare the two).
    """
    # No collection during the print (it makes no cyclic garbage; ir/gc_pause.gc_paused), not even
    # the one a parse's allocations have made due, which the first allocation here would
    # trigger: so the collector is paused before anything is allocated.
    with gc_paused():  # (counted: threads printing or parsing at once resume it when all are done)
        return _print(op, spelling or Spelling.choose("triton-3.3"), debuginfo, local_scope, generic, block_arg_locs,
                      fast)


def _print(op: Operation, spelling: Spelling, debuginfo: bool, local_scope: bool, generic: bool, block_arg_locs: bool,
           fast: bool) -> str:
    body = StringIO()
    printer = TTGIRPrinter(
        renames={c: n for c, n in spelling.names.items() if c != n},
        stream=body,
        print_debuginfo=debuginfo,
        print_generic_format=generic,
        use_aliases=not local_scope,
        block_arg_locs=block_arg_locs,
    )
    printer._reuse = fast
    if fast:
        fastprint.begin()
        mode = tuple(sorted(printer.renames.items()))
        printer._templates = fastprint.table(("ops", generic, not local_scope, mode))  # (texts in templates)
        printer._attr_texts = fastprint.table(("attributes", not local_scope, mode))
        printer._definitions = fastprint.table(("definitions", mode))
        printer._plain = fastprint.table(("plain", not local_scope, mode))
    printer._names = ssa_name_ids(op, generic)
    printer.print_op(op)
    text = body.getvalue()
    if isinstance(op, ModuleOp) and not generic and (m := _BUILTIN_MODULE.match(text)):
        text = m.group(1) + "module" + text[m.end() :]  # (the module is the first line)
    return denormalize(printer.finish(text, debuginfo), spelling)
