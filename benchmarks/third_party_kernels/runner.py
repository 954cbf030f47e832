"""Compile captured launches in forked processes, at most `jobs` at a time, each row under a deadline.

One process per kernel/config (forked: it inherits the captured launches); it compiles natively,
then with each of our pipelines, and sends each result as soon as it has it. A row still running at
`timeout` seconds is stopped: what finished is kept, what did not is a `Timeout` error (native's:
the kernel is excluded; ours: the row fails, ours did not compile in the time native did).
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import time
from collections.abc import Iterator
from typing import Any

from corpus_compare import Result

from .capture import Launch
from .compile import NATIVE, compile_launch

TIMEOUT = "Timeout"


def _work(launch: Launch, pipelines: tuple[str, ...], conn: Any) -> None:
    for side, pipeline in ((NATIVE, None), *((p, p) for p in pipelines)):
        result = compile_launch(launch, pipeline)
        result.ttgir = ""  # not sent back
        conn.send((side, result))
    conn.close()


def run(launches: list[Launch], order: list[int], pipelines: tuple[str, ...], jobs: int,
        timeout: float) -> Iterator[tuple[int, dict[str, Result]]]:
    """(index, results per side) for each launch of `order`, as they complete."""
    ctx = multiprocessing.get_context("fork")
    pending = list(order)
    running: dict[Any, tuple[int, Any, float, dict[str, Result]]] = {}
    sides = (NATIVE, *pipelines)
    # (garbage of the parent, e.g. the warm-up's MLIR objects, collected in a forked child aborts it in
    # their destructors: "the compiling process died" on a row whose compile allocates enough to collect.
    # Collected once: from here the parent only forks and reads results, making no MLIR objects; ~0.5 s each)
    gc.collect()
    while pending or running:
        while pending and len(running) < max(1, jobs):
            i = pending.pop(0)
            recv, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_work, args=(launches[i], pipelines, send), daemon=True)
            proc.start()
            send.close()
            running[proc] = (i, recv, time.monotonic(), {})
        multiprocessing.connection.wait([r for _, r, _, _ in running.values()], timeout=2.0)
        for proc, (i, recv, start, results) in list(running.items()):
            alive = True
            try:
                while recv.poll():
                    side, result = recv.recv()
                    results[side] = result
            except EOFError:
                alive = False
            finished = len(results) == len(sides)
            late = time.monotonic() - start > timeout
            if not (finished or late or not alive or not proc.is_alive()):
                continue
            if not finished:
                proc.kill()
                why = f"{TIMEOUT}: not finished in {timeout:.0f} s" if late else "the compiling process died"
                for side in sides:
                    results.setdefault(side, Result(error=why))
            proc.join()
            recv.close()
            del running[proc]
            yield i, results
