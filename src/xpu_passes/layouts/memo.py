"""Memoizing pure layout-algebra answers on the identity of their attribute arguments.

Layouts and types are immutable attributes; hashing one (a tree of attributes) costs more
than looking its answer up by identity. An argument seen for the first time is replaced by
the one object of its value (`intern`), and attribute answers are interned too, so equal
layouts and types made afresh by different rewrites become one object and later lookups
(here, solution._contribution, the verified-signature cache) hit. Each entry keeps its
arguments alive, so an id is never reused while its entry exists.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from xdsl.ir import Attribute

from xpu_passes.layouts.encodings import to_linear
from xpu_passes.layouts.linear import LinearLayout

F = TypeVar("F", bound=Callable[..., Any])
A = TypeVar("A")

_MAX = 65536
_ONE: dict[Attribute, Attribute] = {}
# id(a) -> (a, its one object): an object interned before is not hashed again (every memo
# interns its arguments on a miss, and hashing a layout walks its whole tree). Keeps `a` alive.
_BY_ID: dict[int, tuple[object, object]] = {}


def intern(a: A) -> A:
    """The one object of `a`'s value (attributes; anything else is returned as is)."""
    hit = _BY_ID.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]  # type: ignore[return-value]
    if not _is_attr(a):
        return a
    if len(_BY_ID) >= _MAX:  # (it holds at least as many entries as _ONE)
        _ONE.clear()
        _BY_ID.clear()
    one = _ONE.setdefault(a, a)
    _BY_ID[id(a)] = (a, one)
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


def _ids(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple([id(a) if _is_attr(a) else a for a in args])


def by_identity(fn: F) -> F:
    """Memoize `fn(*args)`: attributes by identity (interned on a miss), other arguments
    (hashable) by value; an attribute answer is interned."""
    table: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}

    @functools.wraps(fn)
    def call(*args: Any) -> Any:
        key = _ids(args)
        hit = table.get(key)
        if hit is not None:
            return hit[1]
        canon = tuple(map(intern, args))
        ckey = _ids(canon)
        hit = table.get(ckey)
        if hit is None:
            hit = (canon, intern(fn(*canon)))
        if len(table) >= _MAX:
            table.clear()
        table[ckey] = hit
        table[key] = (args, hit[1])
        return hit[1]

    call.cache_clear = table.clear  # type: ignore[attr-defined]
    return call  # type: ignore[return-value]


def linear_of(layout: Attribute, shape: Sequence[int]) -> LinearLayout:
    """`encodings.to_linear`, remembered (a layout's map is asked for by every query about it)."""
    return _linear_of(layout, tuple(shape))


@by_identity
def _linear_of(layout: Attribute, shape: tuple[int, ...]) -> LinearLayout:
    return to_linear(layout, shape)
