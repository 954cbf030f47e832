"""Attribute and location aliases as MLIR's AsmPrinter prints them (printer.py's base).

Every layout attribute of Triton's dialects and every location gets an alias
(`#blocked1 = #ttg.blocked<...>`, `#loc3 = loc(...)`). MLIR orders them by alias depth
(1 + the deepest alias nested in the definition), then by name, then by first visit, and
numbers each name in that order (`#loc`, `#loc1`, ...). An op's location is visited before
the op's contents. Aliases that can be deferred (used only by op locations) are printed
after the module, the others before it. Block-argument locations (function arguments,
`^bb0(...)`) are printed inline, their nested locations through aliases; such a
location's alias is still defined, before the module (MLIR's "TODO: allow deferring
argument locations").
The body is printed once with a placeholder for each alias use; `finish` sorts the
aliases and substitutes their names: one pass, linear in the output. Texts of attributes
and of alias definitions are reused across printers by value (fastprint), with the
aliases they visit visited again in the same order, so the numbering is the same.
"""

from __future__ import annotations

import re
from operator import attrgetter
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    UnknownLoc,
)
from xdsl.ir import Attribute
from xdsl.printer import Printer

from xpu_passes.frontend.fast import printer as fastprint
from xpu_passes.ir.xdsl_text import TextPrinter

# Alias names Triton's dialects give their attributes (OpAsmDialectInterface::getAlias).
ALIAS_STEMS: dict[str, str] = {
    "ttg.blocked": "blocked",
    "ttg.linear": "linear",
    "ttg.swizzled_shared": "shared",
    "ttg.shared": "shared",
    "ttg.nvmma_shared": "shared",
    # Other backends' layouts (kept verbatim by dialects/ttg/foreign_layouts.py), as Triton names them.
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

_KNOWN = fastprint._known  # (emptied in place, never replaced)

# An alias use in the printed text: \x00<index>\x01.
_REF = re.compile("\x00(\\d+)\x01")
_DEPTH = attrgetter("depth")
_STEM = attrgetter("stem")


class _Alias:
    __slots__ = ("stem", "deferrable", "text", "depth", "children")

    def __init__(self, stem: str, deferrable: bool, text: str = "", depth: int = 1) -> None:
        self.stem = stem
        self.deferrable = deferrable
        self.text = text  # the definition, with placeholders for nested aliases
        self.depth = depth
        self.children: list[int] = []


@dataclass(eq=False, repr=False)
class AliasPrinter(TextPrinter):
    """xDSL's printer with MLIR's aliases; `finish` completes the printed text."""

    use_aliases: bool = True
    _aliases: list[_Alias] = field(default_factory=list)
    # By the id of the attribute's canonical object (fastprint): equal attributes share an alias.
    _alias_index: dict[int, int] = field(default_factory=dict)
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
    # Process-wide texts of attributes and of alias definitions (fastprint), for this mode.
    _attr_texts: dict[int, Any] = field(default_factory=dict)
    _definitions: dict[int, Any] = field(default_factory=dict)
    # Process-wide, this mode: texts of attributes that visit no alias, by identity (the
    # same text in every printer of the mode; the object kept so that its id stays its own).
    _plain: dict[int, Any] = field(default_factory=dict)
    _reuse: bool = True  # (print_module(fast=False): tests compare with everything printed afresh)
    _alias_attrs: list[Attribute] = field(default_factory=list)  # by alias index
    # Aliases visited at the top of the attribute being printed, as (attribute, stem); a
    # None in it: the text is not their placeholders in order (not reusable elsewhere).
    _recording: list[Any] | None = None


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
            plain = self._plain.get(id(attribute))
            if plain is not None:  # (visits no alias: nothing to record)
                return plain[1]
            hit = self._attribute_text(attribute)
            if "\n" not in hit[1]:  # (never for attributes; print_string indents the lines)
                self._printed[id(attribute)] = hit
                if not hit[2] and self._reuse:
                    self._plain[id(attribute)] = hit
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

    def _print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr):
            self.print_dense(attribute)
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
        if seen is not None:
            index = seen[1]
        else:
            canon = fastprint.canonical_id(attr)
            index = self._alias_index.get(canon)
            first = index is None
            if first:
                index = self._alias_index[canon] = len(self._aliases)
            self._visited[id(attr)] = (attr, index)
            if first:
                alias = _Alias(stem, self._deferrable)
                self._aliases.append(alias)
                self._alias_attrs.append(attr)
                self._define(attr, alias)
        if not self._deferrable and self._aliases[index].deferrable:
            self._keep_before(index)
        if self._frames is not None:
            depth = self._aliases[index].depth
            if depth > self._frames[-1]:
                self._frames[-1] = depth
            self._children.append(index)  # type: ignore[union-attr]
        return index

    def visit_op_location(self, attr: Attribute) -> int:
        """_visit(attr, "loc") for an op's own location (deferrable, outside definitions),
        without the general path when the location was seen before or its definition
        (nothing nested) is known from an earlier printer: the most frequent visits."""
        seen = self._visited.get(id(attr))
        if seen is not None:
            return seen[1]
        canon = id(_KNOWN.get(id(attr)) or fastprint._learn(attr))  # (fastprint.canonical_id, inline)
        index = self._alias_index.get(canon)
        if index is not None:
            self._visited[id(attr)] = (attr, index)
            return index
        known = self._definitions.get(canon) if self._reuse else None
        if known is None:
            self._deferrable = True
            try:
                return self._visit(attr, "loc")
            finally:
                self._deferrable = False
        _, pieces, nested, depth = known[0]
        index = self._alias_index[canon] = len(self._aliases)
        self._visited[id(attr)] = (attr, index)
        alias = _Alias("loc", True, "", depth)
        self._aliases.append(alias)
        self._alias_attrs.append(attr)
        if not nested:
            alias.text = pieces[0]
            return index
        # What _define does with a known definition: visit what it nests, in order.
        children: list[int] = []
        out = [pieces[0]]
        visited, alias_index, definitions = self._visited, self._alias_index, self._definitions
        for (child, stem), piece in zip(nested, pieces[1:]):
            seen = visited.get(id(child))
            if seen is None:
                # (_visit's first visit of a deferrable child whose definition is known
                # and nests nothing, inline: a callsite's file locations)
                child_canon = id(_KNOWN.get(id(child)) or fastprint._learn(child))
                child_index = alias_index.get(child_canon)
                if child_index is None:
                    child_known = definitions.get(child_canon)
                    if child_known is not None and not child_known[0][2]:
                        child_index = alias_index[child_canon] = len(self._aliases)
                        self._aliases.append(_Alias(stem, True, child_known[0][1][0], child_known[0][3]))
                        self._alias_attrs.append(child)
                if child_index is not None:
                    visited[id(child)] = (child, child_index)
                    seen = (child, child_index)
            if seen is None:
                saved = self._frames, self._children
                self._frames, self._children, self._deferrable = [0], children, True
                try:
                    child_index = self._visit(child, stem)  # (adds itself to `children`)
                finally:
                    self._frames, self._children, self._deferrable = *saved, False
            else:
                child_index = seen[1]
                children.append(child_index)
            out += ("\x00", str(child_index), "\x01", piece)
        alias.text = "".join(out)
        alias.children = children
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
        aliases = self._aliases
        # By depth, then stem, then first visit (a stable sort of the visit order).
        order = sorted(range(len(aliases)), key=[*zip(map(_DEPTH, aliases), map(_STEM, aliases))].__getitem__)
        names = [""] * len(order)
        counts: dict[str, int] = {}
        before: list[str] = []
        after: list[str] = []
        for i in order:
            alias = aliases[i]
            stem = alias.stem
            n = counts.get(stem, 0)
            counts[stem] = n + 1
            name = names[i] = f"#{stem}{n}" if n else f"#{stem}"
            (after if alias.deferrable else before).append(f"{name} = {alias.text}\n")
        # One pass over the whole text puts the names in place of the placeholders.
        parts = _REF.split("".join(before) + body + "\n" + ("".join(after) if debuginfo else ""))
        parts[1::2] = map(names.__getitem__, map(int, parts[1::2]))
        return "".join(parts)
