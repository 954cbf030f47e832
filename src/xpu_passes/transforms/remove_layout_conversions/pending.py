"""The conversions RemoveLayoutConversions has still to try in a round, in walk order.

After each kept rewrite the pass looks at the live conversions not tried yet, in walk
order (as a restart of the walk). Sorting them all again after every kept rewrite made a
round quadratic in the number of conversions (one keyed lookup each, per rewrite; ops
hash in Python). No rewrite moves an op, so the untried ones keep their relative order:
`Pending` keeps its list and only places the conversions made since.
"""

from __future__ import annotations

import bisect

from xdsl.ir import Operation

from xpu_passes.ir.journal import Journal


class Pending:
    """`sorted(j.converts - tried)` in walk order, kept up to date across kept rewrites.

    `next()` gives the next candidate (possibly erased since: the caller skips it, as
    a walk does); `refresh()` after a kept rewrite places the conversions it made."""

    def __init__(self, j: Journal, tried: set[Operation]) -> None:
        self.j, self.tried = j, tried
        self.ops = sorted(j.converts - tried, key=j.order.keys.__getitem__)
        self.known = tried | set(self.ops)  # every conversion listed (or tried) this round
        self.at = 0

    def next(self) -> Operation | None:
        if self.at == len(self.ops):
            return None
        self.at += 1
        return self.ops[self.at - 1]

    def live(self, op: Operation) -> bool:
        return op.parent is not None and op in self.j.converts

    def refresh(self) -> None:
        """Place the conversions made since (after a kept rewrite, or at the end of the list)."""
        new = self.j.converts - self.known
        if new:
            self.known |= new
            keys = self.j.order.keys
            rest = [c for c in self.ops[self.at:] if c.parent is not None]
            try:
                for c in sorted(new, key=keys.__getitem__):
                    rest.insert(bisect.bisect(rest, keys[c], key=keys.__getitem__), c)
            except KeyError:  # a conversion left inside an erased op: no key; start again
                rest = sorted(self.j.converts - self.tried, key=keys.__getitem__)
            self.ops, self.at = rest, 0
        if self.j.check_mode and [c for c in self.ops[self.at:] if self.live(c)] != sorted(
                self.j.converts - self.tried, key=self.j.order.keys.__getitem__):
            raise AssertionError("RLC: the kept list of pending conversions is not the walk's")
