"""Trial rewrites in place, with an undo log (RemoveLayoutConversions' trials).

While a `Journal` is open (`begin()` .. `commit()`/`rollback()`), the mutation helpers
below record what they do, so `rollback()` leaves the IR exactly as it was: erased ops
are detached and kept, then re-inserted where they were; operands, use lists (in their
order), replaced result/argument values (an op retyped in place: `retype_op`), properties
and name hints are put back (check mode, `Journal(check=True)`, verifies it). With no journal
open they are the plain xDSL calls. The journal also keeps what the pass would
otherwise walk the module for: walk-order keys of the ops (`walk_order.Order`), the live
conversions, and the ops a change may have touched (`touched`, `reshaped`).

The open session is the current context's (a `ContextVar`: each thread, and each pass run in
`scope()`, has its own), never the process's: passes rewriting different modules in different
threads do not see each other's sessions, and a run interrupted mid-session leaves none behind.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.core import SSAValues, Use
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import ttg
from xpu_passes.ir.clone import valid_hint
from xpu_passes.ir.journal_check import fingerprint as _fingerprint, linked as _linked
from xpu_passes.ir.walk_order import Order, subtree, walk_list  # walk_list: re-exported

# The session open in this context (set by begin(), cleared by commit()/rollback()).
_ACTIVE: ContextVar[Journal | None] = ContextVar("xpu_passes_journal", default=None)
_current = _ACTIVE.get  # (bound once: the mutation helpers ask on every call)


def _insert_use(value: Any, use: Use, prev: Use | None) -> None:
    """Put `use` back into `value`'s use list right after `prev` (first when None)."""
    if prev is None:
        value.add_use(use)
        return
    nxt = prev._next_use  # pyright: ignore[reportPrivateUsage]
    use._prev_use, use._next_use = prev, nxt  # pyright: ignore[reportPrivateUsage]
    prev._next_use = use  # pyright: ignore[reportPrivateUsage]
    if nxt is not None:
        nxt._prev_use = use  # pyright: ignore[reportPrivateUsage]


class Journal:
    """The undo log of one module's in-place rewrites, and what the pass keeps about it."""

    def __init__(self, module: Operation, ops: list[Operation] | None = None, check: bool = False) -> None:
        """`ops`: the module's ops in walk order, if at hand; `check`: verify every rollback
        restores the module exactly (slow; the pass's check mode)."""
        self.module = module
        self.check_mode = check
        ops = ops or walk_list(module)
        self.order = Order(module, ops)
        self.converts: set[Operation] = {o for o in ops if isinstance(o, ttg.ConvertLayoutOp)}
        self.touched: set[Operation] = set()  # ops whose figures or validity the changes may affect
        self.reshaped: set[Operation] = set()  # ops whose regions gained or lost ops
        self._undo: list[Callable[[], None]] = []
        self._created: list[Operation] = []
        self._erased: list[Operation] = []
        # Conversions that may have no use since the last kept sweep for dead ones (None: any).
        self.maybe_dead: set[Operation] | None = None
        self._lost: set[Operation] = set()  # this session's: lost a use, or inserted
        self._swept = False  # this session swept (maybe_dead is then what it lost since)
        self._before: list[tuple[Any, ...]] | None = None  # check mode: the module at begin()
        self._kept: list[Callable[[], None]] | None = None  # `keep_all`: committed sessions' undo records
        self._start: list[tuple[Any, ...]] | None = None  # check mode: the module at keep_all()

    # ---------------------------------------------------------------- sessions

    def begin(self) -> Journal:
        assert _ACTIVE.get() is None, "journal: sessions do not nest"
        _ACTIVE.set(self)
        self.touched, self.reshaped = set(), set()
        self._before = _fingerprint(self.module) if self.check_mode else None
        return self

    def _close(self) -> None:
        _ACTIVE.set(None)
        self._undo.clear()
        self._created.clear()
        self._erased.clear()
        self._lost, self._swept = set(), False

    def keep_all(self) -> Journal:
        """Keep committed sessions' undo records too, for `undo_all` (a pass rewriting its input
        itself, not a copy, that may still have to keep the input)."""
        self._kept = []
        self._start = _fingerprint(self.module) if self.check_mode else None
        return self

    def undo_all(self) -> None:
        """Undo the open session and every committed one, last first: the module as it was at `keep_all`."""
        if _ACTIVE.get() is self:
            self.rollback()
        kept, self._kept = self._kept or [], []
        while kept:
            kept.pop()()
        if self._start is not None and _fingerprint(self.module) != self._start:
            raise AssertionError("journal: undoing every session did not restore the module exactly")

    def release(self) -> None:
        """Drop the committed sessions' undo records (the pass's decision is made): they refer to
        this journal, so kept they would leave it and all of them to the cyclic collector."""
        self._kept = None

    def commit(self) -> None:
        self._before = None
        if self._kept is not None:
            self._kept += self._undo
        if self._swept:
            self.maybe_dead = self._lost
        elif self.maybe_dead is not None:
            self.maybe_dead |= self._lost
        for op in self._erased:
            if op.parent is None:  # for good: forget its keys
                for o in subtree(op):
                    self.order.keys.pop(o, None)
        self._close()

    def rollback(self) -> None:
        while self._undo:
            self._undo.pop()()
        for op in self._created:
            if op.parent is None:
                for o in subtree(op):
                    self.order.keys.pop(o, None)
        before, self._before = self._before, None
        self._close()
        if before is not None and _fingerprint(self.module) != before:
            raise AssertionError("journal: a rollback did not restore the module exactly")

    def created_ops(self) -> list[Operation]:
        """The ops built in this session, in the order they were built."""
        return list(self._created)

    def check(self) -> None:
        """Raise if the keys or the conversions kept do not match the module (debug)."""
        self.order.check()
        if self.converts != {o for o in walk_list(self.module) if isinstance(o, ttg.ConvertLayoutOp)}:
            raise AssertionError("journal: the conversions kept are not the module's")
        if not _linked(self.module):
            raise AssertionError("journal: an op's operands, results or use lists do not match")

    # ---------------------------------------------------------------- bookkeeping

    def dead_candidates(self) -> set[Operation]:
        """The live conversions that may have no use (all of them before the first kept sweep);
        the caller sweeps them (erases the dead ones) in this session."""
        found = self.converts if self.maybe_dead is None else (self.maybe_dead | self._lost) & self.converts
        self._lost, self._swept = set(), True
        return found

    def _subtree_in(self, op: Operation) -> None:
        for o in subtree(op) if op.regions else (op,):
            self.touched.add(o)
            if type(o) is ttg.ConvertLayoutOp:  # (the class is final: no subclasses)
                self.converts.add(o)
                self._lost.add(o)
        self.order.place(op)

    def _subtree_out(self, op: Operation) -> None:
        for o in subtree(op):
            self.touched.add(o)
            self.converts.discard(o)

    def _neighbours(self, op: Operation) -> None:
        """What inserting or erasing `op` changes besides itself: when it is its block's last op,
        the op before it (which stops or starts being last) and its parent (whose block's last
        op, what verifiers read of a region, changes)."""
        if op._next_op is not None:  # pyright: ignore[reportPrivateUsage]
            return
        if op._prev_op is not None:  # pyright: ignore[reportPrivateUsage]
            self.touched.add(op._prev_op)  # pyright: ignore[reportPrivateUsage]
        parent = op.parent_op()
        if parent is not None:
            self.reshaped.add(parent)


def active() -> Journal | None:
    return _ACTIVE.get()


@contextlib.contextmanager
def scope() -> Iterator[None]:
    """A pass run's own session slot: a session it leaves open (it raised, or was interrupted)
    is gone after it, and a session of its caller is not seen inside it."""
    token = _ACTIVE.set(None)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def created(op: Operation) -> Operation:
    """Register an op just built (its operands' use lists already name it): dropped on rollback."""
    j = _current()
    if j is not None:
        j._created.append(op)
        j._undo.append(lambda: _drop_uses(op))
    return op


def _drop_uses(op: Operation) -> None:
    for o in subtree(op):
        for v, use in zip(o._operands, o._operand_uses):  # pyright: ignore[reportPrivateUsage]
            v.remove_use(use)
        o._operand_uses = ()  # pyright: ignore[reportPrivateUsage]


def insert_op(op: Operation, point: InsertPoint) -> None:
    Rewriter.insert_op(op, point)
    _inserted(op)


def insert_before(op: Operation, existing: Operation) -> None:
    """`insert_op(op, InsertPoint.before(existing))`, without the insert point."""
    block = existing.parent
    assert block is not None
    if op.regions or op.parent is not None:
        block.insert_op_before(op, existing)  # (with xDSL's checks: attached, or an ancestor of the block)
    else:  # what insert_op_before does (an op without regions is no block's ancestor)
        prev = existing._prev_op  # pyright: ignore[reportPrivateUsage]
        op.parent = block
        if prev is not None:
            prev._next_op = op  # pyright: ignore[reportPrivateUsage]
        else:
            block._first_op = op  # pyright: ignore[reportPrivateUsage]
        op._prev_op, op._next_op = prev, existing  # pyright: ignore[reportPrivateUsage]
        existing._prev_op = op  # pyright: ignore[reportPrivateUsage]
    _inserted(op)


def insert_after(op: Operation, existing: Operation) -> None:
    """`insert_op(op, InsertPoint.after(existing))`, without the insert point."""
    block = existing.parent
    assert block is not None
    block.insert_op_after(op, existing)
    _inserted(op)


def _inserted(op: Operation) -> None:
    j = _current()
    if j is None:
        return
    j._subtree_in(op)
    j._neighbours(op)

    def undo() -> None:
        j._neighbours(op)
        op.detach()
        j._subtree_out(op)

    j._undo.append(undo)


def erase_op(op: Operation) -> None:
    """Erase `op` (no result may be used); kept aside while a journal is open."""
    j = _current()
    if j is None:
        Rewriter.erase_op(op)
        return
    for r in op.results:
        if r.first_use is not None:  # xDSL's safe erasure, before anything is changed
            raise ValueError(f"Attempting to delete SSA value that still has uses of result of operation:\n{op}")
    block, nxt = op.parent, op._next_op  # pyright: ignore[reportPrivateUsage]
    assert block is not None
    j._neighbours(op)
    dropped: list[tuple[Any, Use, Use | None]] = []
    lost = j._lost
    sub = subtree(op) if op.regions else (op,)
    for o in sub:
        # (SSAValue.remove_use, inline: the hottest loop of an erasure)
        for v, use in zip(o._operands, o._operand_uses):  # pyright: ignore[reportPrivateUsage]
            prev, nu = use._prev_use, use._next_use  # pyright: ignore[reportPrivateUsage]
            dropped.append((v, use, prev))
            if prev is not None:
                prev._next_use = nu  # pyright: ignore[reportPrivateUsage]
            else:
                v.first_use = nu
            if nu is not None:
                nu._prev_use = prev  # pyright: ignore[reportPrivateUsage]
            owner = v.op if type(v) is OpResult else v.owner
            if type(owner) is ttg.ConvertLayoutOp:
                lost.add(owner)  # type: ignore[arg-type]
        for v, use in zip(o._successors, o._successor_uses):  # pyright: ignore[reportPrivateUsage]
            dropped.append((v, use, use._prev_use))  # pyright: ignore[reportPrivateUsage]
            v.remove_use(use)
    block.detach_op(op)
    touched, converts = j.touched, j.converts
    for o in sub:  # j._subtree_out(op), on the walk made above
        touched.add(o)
        converts.discard(o)
    j._erased.append(op)

    def undo() -> None:
        if nxt is not None:
            block.insert_op_before(op, nxt)
        else:
            block.add_op(op)
        for v, use, prev in reversed(dropped):
            _insert_use(v, use, prev)
        j._subtree_in(op)
        j._neighbours(op)

    j._undo.append(undo)


def set_operand(op: Operation, index: int, value: SSAValue) -> None:
    j = _current()
    if j is None:
        op.operands[index] = value
        return
    old = op._operands[index]  # pyright: ignore[reportPrivateUsage]
    use = op._operand_uses[index]  # pyright: ignore[reportPrivateUsage]
    prev = use._prev_use  # pyright: ignore[reportPrivateUsage]
    op.operands[index] = value
    j.touched.add(op)
    if type(old.owner) is ttg.ConvertLayoutOp:
        j._lost.add(old.owner)  # type: ignore[arg-type]

    def undo() -> None:
        value.remove_use(use)
        _insert_use(old, use, prev)
        ops = op._operands  # pyright: ignore[reportPrivateUsage]
        op._operands = SSAValues((*ops[:index], old, *ops[index + 1:]))  # pyright: ignore[reportPrivateUsage]
        j.touched.add(op)

    j._undo.append(undo)


def set_operands(op: Operation, values: list[SSAValue]) -> None:
    """`set_operand(op, i, v)` for each `v` of `values` in order (each use put first in its new
    value's list), recorded once."""
    j = _current()
    uses = op._operand_uses  # pyright: ignore[reportPrivateUsage]
    olds = op._operands  # pyright: ignore[reportPrivateUsage]
    prevs: list[Use | None] = []
    for old, use, value in zip(olds, uses, values):
        prev, nu = use._prev_use, use._next_use  # pyright: ignore[reportPrivateUsage]
        prevs.append(prev)
        if prev is not None:  # (SSAValue.remove_use, inline)
            prev._next_use = nu  # pyright: ignore[reportPrivateUsage]
        else:
            old.first_use = nu
        if nu is not None:
            nu._prev_use = prev  # pyright: ignore[reportPrivateUsage]
        first = value.first_use  # (SSAValue.add_use, inline)
        use._next_use, use._prev_use = first, None  # pyright: ignore[reportPrivateUsage]
        if first is not None:
            first._prev_use = use  # pyright: ignore[reportPrivateUsage]
        value.first_use = use
        if j is not None and type(old.owner) is ttg.ConvertLayoutOp:
            j._lost.add(old.owner)  # type: ignore[arg-type]
    op._operands = SSAValues(values)  # pyright: ignore[reportPrivateUsage]
    if j is None:
        return
    j.touched.add(op)

    def undo() -> None:
        for old, use, value, prev in reversed(list(zip(olds, uses, values, prevs))):
            value.remove_use(use)
            _insert_use(old, use, prev)
        op._operands = olds  # pyright: ignore[reportPrivateUsage]
        j.touched.add(op)

    j._undo.append(undo)


def replace_all_uses_with(old: SSAValue, new: SSAValue) -> None:
    """`old.replace_all_uses_with(new)`, recorded (the name hint it may pass on too)."""
    if old is new:
        return
    for use in tuple(old.uses):
        set_operand(use.operation, use.index, new)
    if new.name_hint is None and old.name_hint is not None:
        new.name_hint = old.name_hint
        j = _current()
        if j is not None:
            j._undo.append(lambda: setattr(new, "name_hint", None))


def retype_op(op: Operation, types: list[Attribute], properties: dict[str, Attribute] | None = None) -> None:
    """Give `op` new result values of `types` (and `properties`, if given), recorded: what a clone of
    `op` in its place would be (its old results keep their uses: the caller moves them)."""
    results, props = op.results, op.properties
    fresh = SSAValues([OpResult(t, op, i) for i, t in enumerate(types)])
    for old, r in zip(results, fresh):
        r._name = valid_hint(old._name)  # pyright: ignore[reportPrivateUsage]  # (as a clone's, remembered)
    op.results = fresh
    if properties is not None:
        op.properties = properties
    j = _current()
    if j is None:
        return
    j.touched.add(op)

    def undo() -> None:
        op.results, op.properties = results, props
        j.touched.add(op)

    j._undo.append(undo)


def _holder(v: SSAValue) -> Operation | None:
    if isinstance(v, OpResult):
        return v.op
    block = v.block if isinstance(v, BlockArgument) else None
    return block.parent_op() if block is not None else None


def replace_value_with_new_type(val: SSAValue, new_type: Attribute) -> SSAValue:
    """`Rewriter.replace_value_with_new_type`, recorded."""
    j = _current()
    if j is None:
        return Rewriter.replace_value_with_new_type(val, new_type)
    index = val.index  # type: ignore[attr-defined]
    if isinstance(val, OpResult):
        owner: Operation | Block = val.op
        new_value: SSAValue = OpResult(new_type, val.op, index)
        val.op.results = SSAValues((*val.op.results[:index], new_value, *val.op.results[index + 1:]))
    elif isinstance(val, BlockArgument):
        owner = val.block
        new_value = BlockArgument(new_type, val.block, index)
        args = val.block.args
        val.block._args = (*args[:index], new_value, *args[index + 1:])  # pyright: ignore[reportPrivateUsage]
    else:
        raise ValueError(f"Expected OpResult or BlockArgument, got {type(val).__name__}")
    new_value._name = valid_hint(val._name)  # pyright: ignore[reportPrivateUsage]  # (the setter, remembered)
    holder = _holder(val)
    if holder is not None:
        j.touched.add(holder)

    def undo() -> None:
        if isinstance(owner, Operation):
            rs = owner.results
            owner.results = SSAValues((*rs[:index], val, *rs[index + 1:]))
        else:
            a = owner.args
            owner._args = (*a[:index], val, *a[index + 1:])  # pyright: ignore[reportPrivateUsage]
        if holder is not None:
            j.touched.add(holder)

    j._undo.append(undo)
    replace_all_uses_with(val, new_value)
    return new_value
