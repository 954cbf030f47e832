"""Process-wide tables keyed by ids stay exact when threads start them over at once.

The tables are made small so that they start over all the time, and threads switch every
microsecond (sys.setswitchinterval): every id a key holds must still be one the tables pin
(test_idkeys.py's invariant), and every answer the one a single thread computes.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator

import pytest
from xdsl.dialects.builtin import IntAttr

from xpu_passes.layouts import memoize as lmemo

THREADS = 4


@pytest.fixture()
def switching() -> Iterator[None]:
    """Threads switch as often as CPython allows while the test runs."""
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(saved)


def _in_threads(work: Callable[[int], None]) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(n: int) -> None:
        start.wait()
        try:
            work(n)
        except BaseException as e:  # noqa: BLE001 (raised again below)
            errors.append(e)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def test_identity_memos_keep_their_keys_pinned_while_threads_start_them_over(
        switching: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A start-over by one thread between another's last check and its writes left entries naming
    ids that nothing pinned (a dead attribute's id, taken by another, would then get its answer)."""

    @lmemo.by_identity
    def successor(a: IntAttr) -> IntAttr:
        return IntAttr(a.data + 1)

    table = successor.cache_clear.__self__  # type: ignore[attr-defined]
    monkeypatch.setattr(lmemo, "_MAX", 16)
    wrong: list[tuple[int, int]] = []

    def work(n: int) -> None:
        for i in range(4000):
            a = IntAttr((n * 7919 + i * 31) % 1000)  # (fresh objects: ids of dead ones are taken again)
            b = successor(a)
            if b.data != a.data + 1:
                wrong.append((a.data, b.data))

    try:
        _in_threads(work)
        assert not wrong, f"answers of other arguments (argument, answer): {wrong[:5]}"
        assert all(k[0] in lmemo._BY_ID.pins for k in table)
    finally:
        lmemo._TABLES.remove(table)


def test_a_print_gives_its_text_while_another_thread_starts_the_tables_afresh() -> None:
    """The fast printer's tables start afresh before a print (`begin`), also while another thread's
    print is under way: that print, paused at 8 places while its tables are emptied and refilled by
    another module's print, still prints its text. (A template's entry pins the canonical objects
    its key names itself: it read them back from `_known` before, which a start-over may have
    emptied or refilled with other objects meanwhile; not seen to fail here, a guard.)"""
    from pathlib import Path

    from pausing import counting, paused_at

    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module
    from xpu_passes.frontend.fast import printer as fastprint

    examples = Path(__file__).parents[3] / "examples"
    module = parse_module(make_context(), (examples / "gemm_add_tensor_ptr.ttgir").read_text()).module
    other = parse_module(make_context(), (examples / "gemm_add_tensor_ptr.final.ttgir").read_text()).module
    serial = print_module(module, fast=False)
    fastprint.clear()
    total = counting(lambda: print_module(module))[1]
    for k in range(1, 9):
        fastprint.clear()  # (the paused print fills the tables: templates are captured, not found)

        def meanwhile() -> str:
            fastprint.clear()  # (as begin() does when the tables are large)
            return print_module(other)

        printed, _ = paused_at(total * k // 9, lambda: print_module(module), meanwhile)
        assert printed == serial
