"""Memoizing pure layout-algebra answers on the identity of their attribute arguments.

Layouts and types are immutable, shared attributes; hashing one (a tree of attributes)
costs more than looking its answer up by identity. Each entry keeps its arguments
alive, so an id is never reused while its entry exists.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from xdsl.ir import Attribute

F = TypeVar("F", bound=Callable[..., Any])


def by_identity(maxsize: int = 65536) -> Callable[[F], F]:
    """Memoize `fn(*args)`: attributes by identity, other arguments (hashable) by value."""

    def wrap(fn: F) -> F:
        table: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}

        @functools.wraps(fn)
        def call(*args: Any) -> Any:
            key = tuple(id(a) if isinstance(a, Attribute) else a for a in args)
            hit = table.get(key)
            if hit is not None:
                return hit[1]
            out = fn(*args)
            if len(table) >= maxsize:
                table.clear()
            table[key] = (args, out)
            return out

        call.cache_clear = table.clear  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return wrap
