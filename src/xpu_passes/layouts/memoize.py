"""Memoizing pure layout-algebra answers on the identity of their attribute arguments.

Layouts and types are immutable attributes; hashing one (a tree of attributes) costs more
than looking its answer up by identity. An argument seen for the first time is replaced by
the one object of its value (`intern`), and attribute answers are interned too, so equal
layouts and types made afresh by different rewrites become one object and later lookups
(here, solution._contribution, the verified-signature cache) hit. The tables pin the
attributes whose ids their keys hold (ir/idkeys.py: keys of ints, one reference per
object, so Python's GC tracks no object per entry), so an id is never reused while an entry
may name it; every table starts over with _BY_ID (whose pins the memos' canonical keys rely on).
Threads: a start-over and a miss's last check and writes take `_LOCK`, so no start-over falls
between them (it would leave entries naming ids nothing pins any more).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from xpu_passes.ir.idkeys import IdTable
from xpu_passes.layouts.encodings import to_linear
from xpu_passes.layouts.linear import LinearLayout

F = TypeVar("F", bound=Callable[..., Any])
A = TypeVar("A")

_MAX = 65536
_ONE: dict[Attribute, Attribute] = {}
# id(a) -> its one object: an object interned before is not hashed again (every memo interns
# its arguments on a miss, and hashing a layout walks its whole tree). Pins `a`.
_BY_ID = IdTable(1 << 62)  # (started over by _start_over)
_TABLES: list[IdTable] = []  # by_identity's
_GENERATION = [0]  # how many times the tables started over
_LOCK = threading.RLock()  # (a start-over; a miss's check of _GENERATION and its writes)


def _start_over() -> None:
    with _LOCK:  # (the memos first: a hit, which takes no lock, must not find a key whose objects are unpinned)
        for t in _TABLES:
            t.clear()
        _BY_ID.clear()
        _ONE.clear()
        _GENERATION[0] += 1


def intern(a: A) -> A:
    """The one object of `a`'s value (attributes; anything else is returned as is)."""
    hit = _BY_ID.get(id(a))
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    if not _is_attr(a):
        return a
    if len(_BY_ID) >= _MAX:  # (it holds at least as many entries as _ONE)
        _start_over()
    one = _ONE.setdefault(a, a)
    _BY_ID.put(id(a), (a,), one)
    return one  # type: ignore[return-value]


def per_class(classes: Any) -> Callable[[object], bool]:
    """`isinstance(x, classes)` remembered per class of `x` (op and attribute classes check
    instances through ABCMeta, slowly); `classes`: a class, a tuple or a union of them."""
    known: dict[type, bool] = {}

    def test(x: object) -> bool:
        hit = known.get(type(x))
        if hit is None:
            hit = known[type(x)] = isinstance(x, classes)
        return hit

    return test


_is_attr = per_class(Attribute)


_MISSING = object()


def _ids(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple([id(a) if _is_attr(a) else a for a in args])


def by_identity(fn: F) -> F:
    """Memoize `fn(*args)`: attributes by identity (interned on a miss), other arguments
    (hashable) by value; an attribute answer is interned."""
    table = IdTable(_MAX)
    _TABLES.append(table)

    @functools.wraps(fn)
    def call(*args: Any) -> Any:
        key = _ids(args)
        hit = table.get(key, _MISSING)
        if hit is not _MISSING:
            return hit
        generation = _GENERATION[0]
        canon = tuple(map(intern, args))  # (pins the attributes of `args` and `canon` in _BY_ID)
        ckey = _ids(canon)
        hit = table.get(ckey, _MISSING)
        if hit is _MISSING:
            hit = intern(fn(*canon))
        with _LOCK:  # (no start-over by another thread between the check and the writes)
            while generation != _GENERATION[0]:  # the tables started over meanwhile: pin the arguments anew
                generation = _GENERATION[0]
                canon = tuple(map(intern, args))  # (a start-over here is ours: the loop sees it)
                ckey = _ids(canon)
            table.put(ckey, (), hit)
            table.put(key, (), hit)
        return hit

    call.cache_clear = table.clear  # type: ignore[attr-defined]
    return call  # type: ignore[return-value]


# (id(a), id(b)) -> a == b: attributes are immutable, and comparing two layouts of one class
# walks both trees (a slice walk compares every value's layout with the one it needs).
_SAME = IdTable(_MAX)


def same(a: object, b: object) -> bool:
    """`a == b` for attributes, remembered by identity (the table pins both)."""
    if a is b:
        return True
    key = (id(a), id(b))
    hit = _SAME.get(key)
    if hit is None:
        hit = bool(a == b)
        _SAME.put(key, (a, b), hit)
    return hit  # type: ignore[no-any-return]


_SHAPES = IdTable(_MAX)  # id(tensor type) -> its shape (get_shape builds it from the attribute each time)


def shape_of(t: TensorType) -> tuple[int, ...]:
    """`tuple(t.get_shape())`, remembered per type object (the table pins it)."""
    hit = _SHAPES.get(id(t))
    if hit is None:
        hit = tuple(t.get_shape())
        _SHAPES.put(id(t), (t,), hit)
    return hit  # type: ignore[no-any-return]


def linear_of(layout: Attribute, shape: Sequence[int]) -> LinearLayout:
    """`encodings.to_linear`, remembered (a layout's map is asked for by every query about it)."""
    return _linear_of(layout, tuple(shape))


@by_identity
def _linear_of(layout: Attribute, shape: tuple[int, ...]) -> LinearLayout:
    return to_linear(layout, shape)
