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

from pathlib import Path

import pytest
from pausing import counting, paused_at
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.registry import pass_class
from xpu_passes.transforms import load_all

load_all()

EXAMPLES = Path(__file__).parents[3] / "examples"
POINTS = 5  # pause points per pass, evenly spread over its run

# (pass, input) pairs where the pass changes its input (a run that does nothing shares little).
CASES = [
    ("triton-raise-block-pointer", "gemm_add_tensor_ptr.ttir"),
    ("tritonintelgpu-rewrite-tensor-pointer", "gemm_add_tensor_ptr.ttir"),
    ("tritonintelgpu-materialize-block-pointer", "gemm_add_tensor_ptr.ttgir"),
    ("tritonintelgpu-remove-layout-conversions", "gemm_add_tensor_ptr.ttgir"),
    ("xpu-slice-epilogue", "gemm_add_tensor_ptr.ttgir"),
]


def _parse(text: str) -> ModuleOp:
    return parse_module(make_context(), text, "input").module


def _run(p: ModulePass, text: str) -> str:
    module = _parse(text)
    p.apply(make_context(), module)
    return print_module(module)


def calls_of(p: ModulePass, text: str) -> int:
    """How many calls into xpu_passes a run of `p` on `text` makes (the same on every run)."""
    module = _parse(text)
    return counting(lambda: p.apply(make_context(), module))[1]


def interleaved(p: ModulePass, text: str, pause_at: int) -> tuple[str, str]:
    """(a run paused at its call `pause_at`, a whole run made meanwhile): their outputs."""
    module = _parse(text)
    _, whole = paused_at(pause_at, lambda: p.apply(make_context(), module), lambda: _run(p, text))
    return print_module(module), whole


@pytest.mark.parametrize("name,source", CASES)
def test_a_run_paused_by_another_gives_the_serial_output(name: str, source: str) -> None:
    text = (EXAMPLES / source).read_text()
    p = pass_class(name)()
    serial = _run(p, text)
    assert serial != print_module(_parse(text))  # (the pass works here)
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
    from xdsl.dialects.builtin import StringAttr

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
