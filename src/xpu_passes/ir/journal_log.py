"""The journal of one module's in-place rewrites: its undo log, its sessions and what the pass
keeps about the module instead of walking it (ir/journal.py: the mutation helpers that record
into it; the session open is the current context's).

A session is `begin()` .. `commit()`/`rollback()`; `keep_all()` .. `undo_all()` spans sessions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from xdsl.ir import Operation

from xpu_passes.ir.journal_check import fingerprint as _fingerprint, linked as _linked
from xpu_passes.ir.walk_order import Order, subtree, walk_list

# The session open in this context (set by begin(), cleared by commit()/rollback()).
_ACTIVE: ContextVar[Journal | None] = ContextVar("xpu_passes_journal", default=None)
current = _ACTIVE.get  # (bound once: the mutation helpers ask on every call)
# What RemoveLayoutConversions counts (by name: the IR utilities sit below the dialects).
CONVERT_LAYOUT = "ttg.convert_layout"


class Journal:
    """The undo log of one module's in-place rewrites, and what the pass keeps about it."""

    def __init__(self, module: Operation, ops: list[Operation] | None = None, check: bool = False,
                 tracked: str = CONVERT_LAYOUT) -> None:
        """`ops`: the module's ops in walk order, if at hand; `check`: verify every rollback
        restores the module exactly (slow; the pass's check mode); `tracked`: the name of the op
        whose live instances the journal keeps (`converts`) and whose lost uses it notes."""
        self.module = module
        self.check_mode = check
        self.tracked = tracked
        ops = ops or walk_list(module)
        self.order = Order(module, ops)
        self.converts: set[Operation] = {o for o in ops if type(o).name == tracked}
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
        if self.converts != {o for o in walk_list(self.module) if type(o).name == self.tracked}:
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
            if type(o).name == self.tracked:
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
