"""SSA value names as MLIR's AsmPrinter gives them (its SSANameState).

- Regions are numbered one at a time: a region's block arguments and op results
  first, then the regions nested in its ops, each starting from the counters the
  enclosing region ended with (so sibling regions reuse the same numbers).
- Entry-block arguments are `%argN` (N counted per function, nested regions
  included); other values `%N`; `arith.constant` names itself (OpAsmOpInterface):
  `%c0_i32`, `%c1` (index), `%true`/`%false`, `%cst`; a name already visible in an
  enclosing region or used in this one gets `_K`, K from a per-region conflict counter.
- A value of an op with several results is `%N#i`; the results are defined as `%N:k`,
  unless each result names itself (`%outLHS, %outRHS = tt.split`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Operation, Region, SSAValue


# Ops whose results name themselves. MLIR's ODS gives every op with a declarative format
# and several named results a getAsmResultNames that uses those names.
RESULT_NAMES: dict[str, tuple[str, ...]] = {"tt.split": ("outLHS", "outRHS")}


class _Scope:
    """Names in use: this region's, then its enclosing regions' (MLIR's ScopedHashTable)."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: _Scope | None) -> None:
        self.names: set[str] = set()
        self.parent = parent

    def __contains__(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


def _constant_name(op: Operation) -> str:
    value = op.properties.get("value")
    if value is None:
        value = op.attributes["value"]
    if isinstance(value, IntegerAttr):
        type = value.type
        if isinstance(type, IntegerType):
            if type.width.data == 1:
                return "true" if value.value.data else "false"
            sign = ("", "s", "u")[type.signedness.data.value]
            return f"c{value.value.data}_{sign}i{type.width.data}"
        if isinstance(type, IndexType):
            return f"c{value.value.data}"
    return "cst"


class _Namer:
    def __init__(self, generic: bool) -> None:
        self.generic = generic
        self.names: dict[SSAValue, str] = {}
        self.next_value = 0
        self.next_arg = 0
        self.next_conflict = 0
        self.scope = _Scope(None)

    def unique(self, name: str) -> str:
        if name in self.scope:
            while True:
                probe = f"{name}_{self.next_conflict}"
                self.next_conflict += 1
                if probe not in self.scope:
                    name = probe
                    break
        self.scope.names.add(name)
        return name

    def number_op(self, op: Operation) -> None:
        results = op.results
        if not results:
            return
        if not self.generic and op.name == "arith.constant":  # by name: xDSL's arith loads lazily
            self.names[results[0]] = self.unique(_constant_name(op))
            return
        named = RESULT_NAMES.get(op.name) if not self.generic else None
        if named is not None and len(named) == len(results):
            for r, name in zip(results, named):
                self.names[r] = self.unique(name)
            return
        n = self.next_value
        self.next_value += 1
        if len(results) == 1:
            self.names[results[0]] = str(n)
        else:
            for i, r in enumerate(results):
                self.names[r] = f"{n}#{i}"

    def number_region(self, region: Region) -> None:
        for block in region.blocks:
            entry = block is region.blocks.first
            for arg in block.args:
                if entry:
                    self.names[arg] = f"arg{self.next_arg}"
                    self.next_arg += 1
                else:
                    self.names[arg] = str(self.next_value)
                    self.next_value += 1
            for op in block.ops:
                self.number_op(op)


def ssa_names(top: Operation, generic: bool = False) -> dict[SSAValue, str]:
    """Name (without `%`) of every value in `top`; `N#i` for results of multi-result ops."""
    namer = _Namer(generic)
    namer.number_op(top)
    root = namer.scope
    stack: list[tuple[Region, int, int, int, _Scope]] = [(r, 0, 0, 0, root) for r in top.regions]
    while stack:
        region, namer.next_value, namer.next_arg, namer.next_conflict, parent = stack.pop()
        namer.scope = scope = _Scope(parent)
        namer.number_region(region)
        state = (namer.next_value, namer.next_arg, namer.next_conflict, scope)
        for block in region.blocks:
            for op in block.ops:
                for r in op.regions:
                    stack.append((r, *state))
    return namer.names
