"""Printing TTGIR the way `triton-opt` does, on top of xDSL's printer.

xDSL prints every attribute inline. Triton tools print layouts through aliases
(`#blocked1 = #ttg.blocked<...>` at the top, `#blocked1` at uses) and, with debug
info, locations as `loc(#loc3)` with `#loc3 = loc(...)` after the module.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

from xdsl.dialects.builtin import LocationAttr, ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from xpu_passes.frontend.spelling import Spelling, denormalize

# Alias stems Triton's dialects give their attributes (by attribute name).
ALIAS_STEMS: dict[str, str] = {
    "ttg.blocked": "blocked",
    "ttg.linear": "linear",
    "ttg.swizzled_shared": "shared",
    "ttg.shared": "shared",
    "ttg.nvmma_shared": "shared",
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
    _attrs: _Aliases = field(default_factory=_Aliases)
    _locs: _Aliases = field(default_factory=_Aliases)
    _defining: Attribute | None = None
    _refs: list[Attribute] | None = None  # aliases a definition uses

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


_BUILTIN_MODULE = re.compile(r"^(\s*)builtin\.module\b", re.MULTILINE)


def print_module(
    op: Operation,
    spelling: Spelling | None = None,
    debuginfo: bool = False,
    local_scope: bool = False,
    generic: bool = False,
) -> str:
    """Print like triton-opt; `spelling` picks the dialect names (default 3.3's)."""
    body = StringIO()
    printer = TTGIRPrinter(
        stream=body,
        print_debuginfo=debuginfo,
        print_generic_format=generic,
        use_aliases=not local_scope,
    )
    printer.print_op(op)
    text = body.getvalue()
    if isinstance(op, ModuleOp) and not generic:
        text = _BUILTIN_MODULE.sub(r"\1module", text, count=1)
    head = printer.alias_definitions("attrs")
    tail = printer.alias_definitions("locs") if debuginfo else ""
    out = head + text + "\n" + tail
    return denormalize(out, spelling or Spelling.choose("triton-3.3"))
