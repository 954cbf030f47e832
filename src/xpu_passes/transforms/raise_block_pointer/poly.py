"""Polynomials over scalar SSA values (`Lin`): the positions, strides and shapes raising computes with.

Leaves are ordered by first sight so printed IR is stable; `values_of` gives back the kernel's own
scalar values seen computing a polynomial, for reuse. Both belong to one pass run (`order_scope`):
runs in other threads at once, or before, neither reorder its leaves nor hide its values.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xpu_passes.dialects import tt

Mono = tuple[SSAValue, ...]  # a product of scalar SSA values (sorted by first-seen order); () is 1

class _Order:
    """Deterministic order of SSA leaves (first seen), so printed IR is stable."""

    def __init__(self) -> None:
        self.index: dict[SSAValue, int] = {}
        self.values: dict[tuple, list[SSAValue]] = {}  # Lin terms -> scalar values computing them

    def key(self, v: SSAValue) -> int:
        return self.index.setdefault(v, len(self.index))


# The run's order: per context (a thread has its own), so concurrent runs cannot clear each other's
# (one process-wide order did: a run in another thread reset it, and raising rebuilt a value it
# would have reused, or ordered its terms otherwise).
_ORDER: ContextVar[_Order | None] = ContextVar("xpu_passes_poly_order", default=None)


def _order() -> _Order:
    order = _ORDER.get()
    if order is None:  # (outside a run, e.g. a test: this context's own, until reset_order)
        order = _Order()
        _ORDER.set(order)
    return order


@contextmanager
def order_scope() -> Iterator[None]:
    """A fresh order for a pass run, dropped when it ends (it holds the run's values)."""
    token = _ORDER.set(_Order())
    try:
        yield
    finally:
        _ORDER.reset(token)


def reset_order() -> None:
    """Forget the leaves seen so far in this context (outside `order_scope`: tests)."""
    _ORDER.set(_Order())


def remember(x: Lin, v: SSAValue) -> None:
    """`v` computes `x` (for `values_of`)."""
    _order().values.setdefault(x.terms, []).append(v)


def values_of(x: Lin) -> list[SSAValue]:
    """Scalar values of the kernel seen computing `x` (in this run)."""
    return _order().values.get(x.terms, [])


@dataclass(frozen=True)
class Lin:
    """A polynomial with integer coefficients over scalar SSA values."""

    terms: tuple[tuple[Mono, int], ...] = ()

    @staticmethod
    def of(terms: dict[Mono, int]) -> Lin:
        items = [(m, c) for m, c in terms.items() if c != 0]
        key = _order().key
        items.sort(key=lambda mc: (len(mc[0]), [key(v) for v in mc[0]]))
        return Lin(tuple(items))

    @staticmethod
    def const(c: int) -> Lin:
        return Lin.of({(): c})

    @staticmethod
    def leaf(v: SSAValue) -> Lin:
        return Lin.of({(v,): 1})

    def as_dict(self) -> dict[Mono, int]:
        return dict(self.terms)

    def __add__(self, o: Lin) -> Lin:
        d = self.as_dict()
        for m, c in o.terms:
            d[m] = d.get(m, 0) + c
        return Lin.of(d)

    def scale(self, k: int) -> Lin:
        return Lin.of({m: c * k for m, c in self.terms})

    def __sub__(self, o: Lin) -> Lin:
        return self + o.scale(-1)

    def __mul__(self, o: Lin) -> Lin:
        d: dict[Mono, int] = {}
        key = _order().key
        for m1, c1 in self.terms:
            for m2, c2 in o.terms:
                m = tuple(sorted(m1 + m2, key=key))
                d[m] = d.get(m, 0) + c1 * c2
        return Lin.of(d)

    @property
    def constant(self) -> int | None:
        """The value when the polynomial has no SSA term."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def leaves(self) -> set[SSAValue]:
        return {v for m, _ in self.terms for v in m}

    def divide(self, d: Lin) -> Lin | None:
        """self / d when d is one monomial dividing every term exactly."""
        if len(d.terms) != 1:
            return None
        dm, dc = d.terms[0]
        out: dict[Mono, int] = {}
        for m, c in self.terms:
            rest = list(m)
            for v in dm:
                if v not in rest:
                    return None
                rest.remove(v)
            if c % dc:
                return None
            out[tuple(rest)] = out.get(tuple(rest), 0) + c // dc
        return Lin.of(out)

    def split(self, v: SSAValue) -> tuple[Lin, int] | None:
        """(rest, k) with self = rest + k * v and v not in rest; None if v appears otherwise."""
        k = 0
        rest: dict[Mono, int] = {}
        for m, c in self.terms:
            if m == (v,):
                k += c
            elif v in m:
                return None
            else:
                rest[m] = c
        return Lin.of(rest), k

    def __str__(self) -> str:
        out = ""
        for m, c in sorted(self.terms, key=lambda mc: (mc[0] == (), mc[1] < 0)):
            names = "*".join(_name(v) for v in m)
            mag = abs(c)
            text = str(mag) if not m else names if mag == 1 else f"{mag}*{names}"
            out += (" - " if c < 0 else " + ") + text if out else ("-" if c < 0 else "") + text
        return out or "0"


def _name(v: SSAValue) -> str:
    """How a leaf reads in remarks: kernel arguments by number, loop counters, else the op that makes it."""
    if v.name_hint:
        return f"%{v.name_hint}"
    if isinstance(v, BlockArgument):
        parent = v.owner.parent_op() if isinstance(v.owner, Block) else None
        return f"%arg{v.index}" if isinstance(parent, tt.FuncOp) else "%iv" if v.index == 0 else f"%iter{v.index}"
    op = v.owner
    return f"({op.name.split('.')[-1]} ...)" if isinstance(op, Operation) else "%?"


ZERO = Lin()
ONE = Lin.const(1)
