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
        self.names: dict[int, str] = {}  # by the value's id (SSAValue hashes in Python)
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
        if not self.generic:
            name = op.name
            if name == "arith.constant":  # by name: xDSL's arith loads lazily
                self.names[id(results[0])] = self.unique(_constant_name(op))
                return
            named = RESULT_NAMES.get(name)
            if named is not None and len(named) == len(results):
                for r, name in zip(results, named):
                    self.names[id(r)] = self.unique(name)
                return
        n = self.next_value
        self.next_value += 1
        if len(results) == 1:
            self.names[id(results[0])] = str(n)
        else:
            for i, r in enumerate(results):
                self.names[id(r)] = f"{n}#{i}"

    def number_region(self, region: Region, nested: list[Operation]) -> None:
        """Names of the region's values; its ops that have regions go to `nested`."""
        block = entry = region.first_block
        while block is not None:
            for arg in block.args:
                if block is entry:
                    self.names[id(arg)] = f"arg{self.next_arg}"
                    self.next_arg += 1
                else:
                    self.names[id(arg)] = str(self.next_value)
                    self.next_value += 1
            op = block.first_op
            names = self.names
            plain = self.generic
            while op is not None:  # (xDSL's `block.ops` iterates through Python calls)
                results = op.results
                if results:
                    if len(results) == 1 and (plain or (op.name != "arith.constant" and op.name not in RESULT_NAMES)):
                        (result,) = results  # (the usual op, inline; SSAValues.__getitem__ is Python code)
                        names[id(result)] = str(self.next_value)
                        self.next_value += 1
                    else:
                        self.number_op(op)
                if op.regions:
                    nested.append(op)
                op = op._next_op
            block = block._next_block


def ssa_names(top: Operation, generic: bool = False) -> dict[SSAValue, str]:
    """Name (without `%`) of every value in `top`; `N#i` for results of multi-result ops."""
    values = {id(v): v for op in top.walk() for v in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args))}
    return {values[i]: name for i, name in ssa_name_ids(top, generic).items()}


def ssa_name_ids(top: Operation, generic: bool = False) -> dict[int, str]:
    """ssa_names by the values' ids (what the printer reads)."""
    namer = _Namer(generic)
    namer.number_op(top)
    root = namer.scope
    stack: list[tuple[Region, int, int, int, _Scope]] = [(r, 0, 0, 0, root) for r in top.regions]
    nested: list[Operation] = []
    while stack:
        region, namer.next_value, namer.next_arg, namer.next_conflict, parent = stack.pop()
        namer.scope = scope = _Scope(parent)
        namer.number_region(region, nested)
        state = (namer.next_value, namer.next_arg, namer.next_conflict, scope)
        for op in nested:
            for r in op.regions:
                stack.append((r, *state))
        nested.clear()
    return namer.names
