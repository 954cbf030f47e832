"""Pause a thread at a fixed place of its run (its n-th call into xpu_passes), not at a time.

`paused_at(n, work, meanwhile)` runs `work` in a thread, stops it as it makes its n-th call into
xpu_passes' code (the same place on every run of the same work), runs `meanwhile` in this thread,
then lets it go on: an interleaving of two threads forced where the scheduler would make it at random.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

import xpu_passes

ROOT = os.path.dirname(xpu_passes.__file__)
T = TypeVar("T")
M = TypeVar("M")


def counting(run: Callable[[], T], pause_at: int = 0, paused: Callable[[], None] = lambda: None) -> tuple[T, int]:
    """(`run()`, how many calls into xpu_passes it made); at call `pause_at` (> 0), `paused()` first."""
    count = [0]

    def trace(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(ROOT):
            count[0] += 1
            if count[0] == pause_at:
                paused()
        return None  # (no line events)

    sys.settrace(trace)  # (this thread only)
    try:
        out = run()
    finally:
        sys.settrace(None)
    return out, count[0]


def paused_at(pause_at: int, work: Callable[[], T], meanwhile: Callable[[], M]) -> tuple[T, M]:
    """(`work()` run in a thread paused at its call `pause_at`, `meanwhile()` run here during the pause)."""
    at_pause, resume = threading.Event(), threading.Event()
    out: dict[str, Any] = {}

    def pause() -> None:
        at_pause.set()
        resume.wait()

    def first() -> None:
        try:
            out["work"] = counting(work, pause_at, pause)[0]
        except BaseException as e:  # noqa: BLE001 (raised again below)
            out["error"] = e
        finally:
            at_pause.set()  # (a run shorter than pause_at: `meanwhile` runs after it)

    thread = threading.Thread(target=first)
    thread.start()
    at_pause.wait()
    try:
        other = meanwhile()
    finally:
        resume.set()
        thread.join()
    if "error" in out:
        raise out["error"]
    return out["work"], other
