"""Pausing Python's cyclic garbage collector while building IR (a parse, a print, a pass's rewrites)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while parsing or printing.

    Building IR allocates many objects and frees few, which is what triggers Python's
    collections, the full ones traversing every live object of the process (in a
    compiler with torch and triton loaded, millions): up to a quarter of a parse's time
    went there. Parsing makes (almost) no cyclic garbage, so nothing is lost by pausing.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
