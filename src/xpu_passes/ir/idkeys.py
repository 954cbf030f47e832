"""Process-wide tables keyed by object identities, with few objects for Python's GC to track.

A key holds ids (ints, strings), so it is a tuple CPython stops tracking at its first
collection; the objects whose ids the keys hold are kept alive once each, in the table's
`pins` (id -> object), instead of once per entry in a list or tuple: no other object can
take an id while an entry may name it. Entries and pins are cleared together.

Shared by threads: a lookup is one dict read (atomic under the GIL) and the entry it finds
has its objects pinned; writes take the table's lock, so that a start-over by one thread cannot
fall between another's pinning and its entry (which would leave an entry naming unpinned ids).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any


class IdTable(dict):  # type: ignore[type-arg]
    """A dict whose keys hold the ids of `pins`' objects, written only by `put` (an entry whose
    objects were not pinned could be named by a recycled id). Past `limit` entries it starts
    over (before pinning, so a new entry's objects are always pinned)."""

    __slots__ = ("pins", "limit", "_lock")

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.pins: dict[int, object] = {}
        self.limit = limit
        self._lock = threading.Lock()

    def put(self, key: Any, objects: Iterable[object], value: Any) -> None:
        with self._lock:
            if len(self) >= self.limit:
                self._clear()
            pins = self.pins
            for o in objects:
                pins[id(o)] = o
            dict.__setitem__(self, key, value)

    def __setitem__(self, key: Any, value: Any) -> None:
        raise TypeError("IdTable entries are written by put(key, objects, value), which pins the objects")

    def clear(self) -> None:
        with self._lock:
            self._clear()

    def _clear(self) -> None:
        dict.clear(self)
        self.pins.clear()
