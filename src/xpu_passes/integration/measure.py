"""Times and counts of the compiles under way in a context, when measured (`timing`): the round trips,
the pipeline and the never-worse comparisons add their seconds per phase and their counts here.
Nothing is process-wide: a context's own dict (benchmarks/compile_time.py, third_party.py --phases).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from time import perf_counter


# Seconds per phase (and op counts) of the compiles under way in this context, when measured
# (`timing`), and the clock they are measured on.
_TIMES: ContextVar[tuple[dict[str, float], Callable[[], float]] | None] = ContextVar("xpu_passes_times",
                                                                                      default=None)


@contextlib.contextmanager
def timing(times: dict[str, float] | None = None, clock: Callable[[], float] = perf_counter
           ) -> Iterator[dict[str, float]]:
    """The compiles run inside (in this context) add their seconds per phase on `clock` (e.g.
    time.process_time, steadier on a shared machine) and their counts to the dict yielded
    (`times`, or a new one)."""
    times = {} if times is None else times
    token = _TIMES.set((times, clock))
    try:
        yield times
    finally:
        _TIMES.reset(token)


def now() -> float:
    """The time on the measuring context's clock."""
    measured = _TIMES.get()
    return perf_counter() if measured is None else measured[1]()


def record(key: str, since: float) -> float:
    measured = _TIMES.get()
    if measured is None:
        return perf_counter()
    times, clock = measured
    t = clock()
    times[key] = times.get(key, 0.0) + t - since
    return t


def measured(key: str, less: float = 0.0) -> float:
    """What the compiles measured here (`timing`) have added under `key` so far (0 when not
    measured); `less` is taken off it first (time counted under another key too)."""
    got = _TIMES.get()
    if got is None:
        return 0.0
    if less:
        got[0][key] = got[0].get(key, 0.0) - less
    return got[0].get(key, 0.0)


def count(key: str, n: int = 1) -> None:
    measured = _TIMES.get()
    if measured is not None:
        measured[0][key] = measured[0].get(key, 0) + n
