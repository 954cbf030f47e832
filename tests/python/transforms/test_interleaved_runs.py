"""Two runs of a pass at once give what each gives alone: nothing a run keeps is shared with another.

One run, in a thread, is paused in the middle (at its n-th call into xpu_passes, the same place on
every run: no timing) while another whole run of the same pass on another copy of the input goes
on in this thread; then it resumes. Both outputs must be the serial one. This is the interleaving
threads make at random (tests/python/integration/test_concurrency.py), forced at several points.
Written for a race that made `triton.compile` in threads give another TTGIR than a serial compile:
raising kept its polynomial leaves' order and the kernel's reusable values process-wide, and a
run starting in another thread cleared them under a running one (it then rebuilt a value it would
have reused, or ordered terms otherwise).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from xdsl.passes import ModulePass

import xpu_passes
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.registry import pass_class
from xpu_passes.transforms import load_all

load_all()

EXAMPLES = Path(__file__).parents[3] / "examples"
ROOT = os.path.dirname(xpu_passes.__file__)
POINTS = 5  # pause points per pass, evenly spread over its run

# (pass, input) pairs where the pass changes its input (a run that does nothing shares little).
CASES = [
    ("triton-raise-block-pointer", "gemm_add_tensor_ptr.ttir"),
    ("tritonintelgpu-rewrite-tensor-pointer", "gemm_add_tensor_ptr.ttir"),
    ("tritonintelgpu-materialize-block-pointer", "gemm_add_tensor_ptr.ttgir"),
    ("tritonintelgpu-remove-layout-conversions", "gemm_add_tensor_ptr.ttgir"),
    ("xpu-slice-epilogue", "gemm_add_tensor_ptr.ttgir"),
]


def _run(p: ModulePass, text: str, around: Callable[[Callable[[], None]], Any] = lambda run: run()) -> str:
    """`p` on a fresh parse of `text` (the run itself through `around`): the output."""
    module = parse_module(make_context(), text, "input").module
    around(lambda: p.apply(make_context(), module))
    return print_module(module)


def _calls(run: Callable[[], None], pause_at: int = 0, paused: Callable[[], None] = lambda: None) -> int:
    """`run()`, counting its calls into xpu_passes; at call `pause_at` (if > 0), `paused()` first."""
    count = [0]

    def trace(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(ROOT):
            count[0] += 1
            if count[0] == pause_at:
                paused()
        return None  # (no line events)

    sys.settrace(trace)  # (this thread only)
    try:
        run()
    finally:
        sys.settrace(None)
    return count[0]


def calls_of(p: ModulePass, text: str) -> int:
    """How many calls into xpu_passes a run of `p` on `text` makes (the same on every run)."""
    counted: list[int] = []
    _run(p, text, lambda run: counted.append(_calls(run)))
    return counted[0]


def interleaved(p: ModulePass, text: str, pause_at: int) -> tuple[str, str]:
    """(a run paused at its call `pause_at`, a whole run made meanwhile): their outputs."""
    at_pause, resume = threading.Event(), threading.Event()
    out: dict[str, Any] = {}

    def pause() -> None:
        at_pause.set()
        resume.wait()

    def first() -> None:
        try:
            out["paused"] = _run(p, text, lambda run: _calls(run, pause_at, pause))
        except BaseException as e:  # noqa: BLE001 (raised again below)
            out["error"] = e
        finally:
            at_pause.set()  # (a run shorter than pause_at: the other runs after it)

    thread = threading.Thread(target=first)
    thread.start()
    at_pause.wait()
    try:
        whole = _run(p, text)
    finally:
        resume.set()
        thread.join()
    if "error" in out:
        raise out["error"]
    return out["paused"], whole


@pytest.mark.parametrize("name,source", CASES)
def test_a_run_paused_by_another_gives_the_serial_output(name: str, source: str) -> None:
    text = (EXAMPLES / source).read_text()
    p = pass_class(name)()
    serial = _run(p, text)
    assert serial != print_module(parse_module(make_context(), text, "input").module)  # (the pass works here)
    total = calls_of(p, text)
    assert _run(p, text) == serial  # (serial runs agree)
    for k in range(1, POINTS + 1):
        at = total * k // (POINTS + 1)
        paused, whole = interleaved(p, text, at)
        assert whole == serial, f"{name}: the run made during another's pause (at call {at} of {total}) differs"
        assert paused == serial, f"{name}: the run paused at call {at} of {total} by another differs"


def test_the_pause_finds_shared_state() -> None:
    """Negative case: a pass whose runs share a table, cleared as a run starts (as raising's order was),
    fails the check: the paused run's output differs."""
    from dataclasses import dataclass

    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp, StringAttr

    from xpu_passes.layouts.memoize import intern

    shared: list[str] = []

    @dataclass(frozen=True)
    class Shared(ModulePass):
        name = "test-shared-state"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            shared.clear()  # (a run "resets" the shared table)
            for o in op.walk():
                shared.append(o.name)
                intern(o.name)  # (a call into xpu_passes: where the pause may fall)
            op.attributes["test.seen"] = StringAttr(" ".join(shared))

    text = (EXAMPLES / "gemm_add_tensor_ptr.ttir").read_text()
    p = Shared()
    serial = _run(p, text)
    total = calls_of(p, text)
    assert total > 0
    paused, whole = interleaved(p, text, total // 2)
    assert whole == serial and paused != serial
