"""Whole-module figures by which RemoveLayoutConversions compares candidate rewrites.

A rewrite is judged on the module it produces, not on the conversion it removes:
every `ttg.convert_layout`, `tt.scan` and `tt.reduce` is costed with the layout
algebra (elements moved through SLM, weighted by loop depth) and the largest SLM
scratch of any op is kept apart, so a choice that adds scratch anywhere is seen. The cost also
holds what the worst spill a tensor-of-pointer access causes costs (costs.pressure_cost: it
depends on what is live there, so it is taken over the module's accesses, not summed per op).
Whether the rewritten module is IR triton-xpu takes is validity.py's (`layout_errors`, `has_errors`:
re-exported here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.ir.xdsl_adapt import value_type
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.ir.journal import walk_list
from xpu_passes.layouts.memoize import per_class
from xpu_passes.layouts.propagation import encoding
from xpu_passes.transforms.remove_layout_conversions.locality import attached_of
from xpu_passes.transforms.remove_layout_conversions.validity import has_errors, layout_errors
from xpu_passes.transforms.remove_layout_conversions.costs import (LOOP_WEIGHT, conversion_cost, facts_of, loop_depth,
                                                                  memory_cost, one_state, pressure_cost)
from xpu_passes.layouts.scratch import op_scratch_bytes
from xpu_passes.transforms.remove_layout_conversions.reductions import traffic
from xpu_passes.transforms.remove_layout_conversions.registers import EXTF, is_extf, reduce_price, widening_price


@dataclass(frozen=True)
class Figures:
    cost: int  # loop-weighted bytes through conversions (no-SLM ones /8) and scan/reduce scratch
    slm: int  # the largest scratch of one op: what triton-xpu allocates when nothing else uses SLM
    converts: int

    def better_than(self, other: Figures) -> bool:
        """Strictly cheaper (or as cheap with fewer conversions), never more SLM."""
        if self.slm > other.slm:
            return False
        return (self.cost, self.converts) < (other.cost, other.converts)

    def worse_than(self, other: Figures) -> bool:
        """More SLM or more conversions: what the final safety net refuses."""
        return self.slm > other.slm or self.converts > other.converts

    def __str__(self) -> str:
        return f"{self.converts} conversion(s), {self.slm} bytes of SLM, weighted cost {self.cost}"


def _scratch(op: Operation) -> int:
    try:
        return op_scratch_bytes(op)
    except LayoutError:
        return 0  # a layout the algebra does not know: its scratch is not comparable


# (op class, its types and axis) -> (unweighted cost, scratch bytes). Keyed by identity: types are
# shared, immutable attributes, and hashing a layout (a tree of attributes) costs more than the
# layout algebra's cached answer. The entry keeps its key's objects alive, so ids are not reused.
_CONTRIBUTION: dict[tuple[int, ...], tuple[tuple[Attribute, ...], tuple[int, int]]] = {}


def _contribution(op: Operation) -> tuple[int, int]:
    """What one conversion, scan or reduction adds to the cost (before loop weighting) and its scratch."""
    keep = (*map(value_type, op._operands), *map(value_type, op.results), op.properties.get("axis"))  # pyright: ignore
    key = (id(type(op)), *map(id, keep))
    hit = _CONTRIBUTION.get(key)
    if hit is not None and hit[0] == keep:  # (the same objects: tuple == tries identity first, in C)
        return hit[1]
    if type(op) is ttg.ConvertLayoutOp:
        dst = encoding(op.result.type)
        out = (conversion_cost(op.src.type, dst) if dst is not None else 0, _scratch(op))
    else:
        bytes_ = _scratch(op)
        priced = op.operands and isinstance(op.operands[0].type, TensorType)
        out = (bytes_ + reduce_price(op) + traffic(op) if priced else 0, bytes_)
    if len(_CONTRIBUTION) > 65536:
        _CONTRIBUTION.clear()
    _CONTRIBUTION[key] = (keep, out)
    return out


_costed = per_class((ttg.ConvertLayoutOp, tt.ScanOp, tt.ReduceOp, tt.LoadOp, tt.StoreOp,  # (+ memory messages)
                     *EXTF))  # (+ a dot operand's widening: registers.widening_price)
_access = per_class(tt.LoadOp | tt.StoreOp)


def _memory_part(op: Operation, module: Operation) -> tuple[int, int] | None:
    """A load/store's loop-weighted cost of the messages its layout adds (costs.memory_cost), if any."""
    c = memory_cost(op, facts_of(module))
    return (LOOP_WEIGHT ** loop_depth(op) * c, 0) if c else None


_is_dot = per_class(tt.DotOp)


def _widening_part(op: Operation) -> tuple[int, int] | None:
    """An extf's loop-weighted price for the dot operand it holds twice (registers.widening_price), if any."""
    c = widening_price(op)
    return (LOOP_WEIGHT ** loop_depth(op) * c, 0) if c else None


def placeholder_dot(op: Operation) -> bool:
    """A tt.dot not in a DPAS layout: before AccelerateMatmul, whose blocked layouts say nothing of
    what a lane will hold (the pass never retypes a dot, so this holds for a whole run)."""
    return _is_dot(op) and not isinstance(encoding(op.results[0].type), ttig.DpasEncodingAttr)


def spill_cost(accesses: Collection[Operation], module: Operation) -> int:
    """The loop-weighted cost of the worst spill at one of `accesses` (the module's loads/stores;
    none while a dot's layout is a placeholder)."""
    facts = None
    worst = 0
    with one_state(len(accesses)):  # (nothing changes the IR while its accesses are costed)
        for op in accesses:
            facts = facts or facts_of(module)
            if c := pressure_cost(op, facts):
                worst = max(worst, LOOP_WEIGHT ** loop_depth(op) * c)
    return worst


def figures(module: Operation, ops: list[Operation] | None = None) -> Figures:
    """`ops`: the module's walk, if at hand."""
    cost = slm = converts = 0
    accesses: list[Operation] = []
    placeholder = False
    for op in walk_list(module) if ops is None else ops:
        placeholder = placeholder or placeholder_dot(op)
        if _access(op):
            accesses.append(op)
        part = _op_part(op, module)
        if part is not None:  # (a conversion always has one)
            cost += part[0]
            slm = max(slm, part[1])
            converts += type(op) is ttg.ConvertLayoutOp
    return Figures(cost + (0 if placeholder else spill_cost(accesses, module)), slm, converts)


def _op_part(op: Operation, module: Operation) -> tuple[int, int] | None:
    """`op`'s (loop-weighted cost, scratch bytes) in `module`'s figures (None: none, or no cost of a load/store
    or an extf): the figures' and the Ledger's one dispatch."""
    if not _costed(op):
        return None
    if _access(op):
        return _memory_part(op, module)
    if is_extf(op):
        return _widening_part(op)
    c, bytes_ = _contribution(op)
    return (LOOP_WEIGHT ** loop_depth(op) * c if c else 0, bytes_)


__all__ = ["Figures", "Ledger", "figures", "has_errors", "layout_errors", "placeholder_dot", "spill_cost"]


class Ledger:
    """A module's figures as per-op contributions, updated from the ops a change touched
    (`update`), with an undo for a rejected trial (`rollback`)."""

    def __init__(self, module: Operation, ops: list[Operation] | None = None, check: bool = False) -> None:
        """`ops`: the module's ops in walk order, if at hand; `check`: the pass's check mode (its
        option `check-incremental`): every incremental answer (figures, validity) is also computed
        in full, and a disagreement raises."""
        self.module = module
        self.check = check
        self.parts: dict[Operation, tuple[int, int]] = {}  # op -> (loop-weighted cost, scratch bytes)
        self.cost = self.converts = 0
        self.scratch: Counter[int] = Counter()
        self._log: list[tuple[Operation, tuple[int, int] | None]] = []
        self.attached: set[Operation] = set()
        self.accesses: dict[Operation, None] = {}  # the module's loads/stores (spill_cost)
        self._alog: list[tuple[Operation, bool]] = []  # (access, whether it was in `accesses`)
        self.placeholder = False  # a dot before AccelerateMatmul: no spill cost (placeholder_dot)
        for op in ops or walk_list(module):
            self._set(op, self._part(op), log=False)
            self.placeholder = self.placeholder or placeholder_dot(op)
            if _access(op):
                self.accesses[op] = None

    def _part(self, op: Operation) -> tuple[int, int] | None:
        return _op_part(op, self.module)

    def _set(self, op: Operation, new: tuple[int, int] | None, log: bool = True) -> None:
        old = self.parts.get(op)
        if old == new:
            return
        if log:
            self._log.append((op, old))
        is_cvt = type(op) is ttg.ConvertLayoutOp
        if old is not None:
            self.cost -= old[0]
            self.converts -= is_cvt
            self.scratch[old[1]] -= 1
            if not self.scratch[old[1]]:
                del self.scratch[old[1]]
            del self.parts[op]
        if new is not None:
            self.cost += new[0]
            self.converts += is_cvt
            self.scratch[new[1]] += 1
            self.parts[op] = new

    def update(self, ops: set[Operation]) -> Figures:
        """`attached`: those of `ops` still in the module, kept for the validity check that
        follows (has_errors' `attached`: the same change)."""
        self.apply(ops)
        return self.current()

    def apply(self, ops: set[Operation]) -> None:
        """`update` without costing the result (`current` does, when it is needed)."""
        self._apply(ops)

    def current(self) -> Figures:
        """The figures of the module as it is, after `apply` (check mode: compared with a full costing)."""
        return self._checked(self.figures())

    def update_unless_losing(self, ops: set[Operation], than: Figures) -> Figures | None:
        """`update`, or None when the result cannot win against `than` (Figures.better_than, nor as
        costly with less SLM) whatever its spill (cost >= 0): more SLM, or (cost before the spill,
        conversions) above `than`'s. The spill (a walk per access) is then not costed; check mode
        costs it anyway."""
        self._apply(ops)
        if not self.check and (max(self.scratch, default=0) > than.slm
                               or (self.cost, self.converts) > (than.cost, than.converts)):
            return None
        return self._checked(self.figures())

    def _apply(self, ops: set[Operation]) -> None:
        inside = self.attached = attached_of(self.module, ops)
        get, part, put = self.parts.get, self._part, self._set
        for op in filter(_costed, ops):  # (only these have parts: an op's class does not change)
            if _access(op) and (op in inside) != (op in self.accesses):
                self._alog.append((op, op in self.accesses))
                if op in inside:
                    self.accesses[op] = None
                else:
                    del self.accesses[op]
            new = part(op) if op in inside else None
            if get(op) != new:  # (else _set would find no change)
                put(op, new)

    def _checked(self, fig: Figures) -> Figures:
        if self.check:
            _CONTRIBUTION.clear()
            if (full := figures(self.module)) != fig:
                raise AssertionError(f"incremental figures {fig}, full {full}")
        return fig

    def figures(self) -> Figures:
        spill = 0 if self.placeholder else spill_cost(self.accesses, self.module)
        return Figures(self.cost + spill, max(self.scratch, default=0), self.converts)

    def commit(self) -> None:
        self._log.clear()
        self._alog.clear()

    def rollback(self) -> None:
        while self._alog:
            op, was = self._alog.pop()
            if was:
                self.accesses[op] = None
            else:
                self.accesses.pop(op, None)
        while self._log:
            op, old = self._log.pop()
            self._set(op, old, log=False)
