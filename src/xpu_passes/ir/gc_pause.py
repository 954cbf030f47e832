"""A counted pause of Python's cyclic garbage collector, for parsing, printing and passes that
build much IR (threads pausing at once resume collections when the last one is done)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while parsing or printing.

    Building IR allocates many objects and frees few, which is what triggers Python's
    collections, the full ones traversing every live object of the process (in a
    compiler with torch and triton loaded, millions): up to a quarter of a parse's time
    went there. Parsing makes (almost) no cyclic garbage, so nothing is lost by pausing.
    """
    with _LOCK:  # counted: threads pausing at once resume collections when the last one is done
        if _GC_PAUSED[0] == 0:
            _GC_PAUSED[1] = gc.isenabled()
            gc.disable()
        _GC_PAUSED[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _GC_PAUSED[0] -= 1
            if _GC_PAUSED[0] == 0 and _GC_PAUSED[1]:
                gc.enable()


# [pauses under way (all threads), whether collections were enabled before the first]
_GC_PAUSED: list[Any] = [0, False]
_LOCK = threading.Lock()
