"""Long fuzzing run: mutated corpus TTGIR through the front end and every pass.

    python benchmarks/fuzz_frontend.py [--budget 3000] [--seed 1] [--jobs 2] [--timeout 60]

Each input is a seeded mutation of a corpus TTGIR dump (`xpu_passes.fuzz`): a
token edit, a dropped or duplicated line, a wrong element type, an unknown op or
attribute, or a truncation. Every input must end in a located `error:` or in
output that triton-xpu parses and verifies. Inputs run in worker processes; one
that takes longer than --timeout seconds is a hang (its worker is replaced).
Prints the counts of each outcome and the first inputs of each bad kind (with
their (seed, n) to reproduce: `xpu_passes.fuzz.case(files, seed, n)`), and exits
1 on any traceback, unlocated error, hang or rejected output.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from collections import Counter
from multiprocessing.connection import Connection, wait
from typing import Any

from xpu_passes import fuzz


def _worker(conn: Connection, seed: int) -> None:
    files = fuzz.corpus_ttgir_files()
    while True:
        n = conn.recv()
        if n is None:
            return
        path, text = fuzz.case(files, seed, n)
        outcome, detail = fuzz.classify(text)
        conn.send((n, path.name, outcome, detail))


class Pool:
    """Workers each running one input at a time, so a hung input can be killed alone."""

    def __init__(self, jobs: int, seed: int) -> None:
        self.seed = seed
        self.ctx = mp.get_context("spawn")  # a fresh interpreter: no state shared with the parent
        self.workers: list[tuple[Any, Connection]] = [self._start() for _ in range(jobs)]

    def _start(self) -> tuple[Any, Connection]:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, self.seed), daemon=True)
        proc.start()
        return proc, parent

    def restart(self, i: int) -> None:
        proc, conn = self.workers[i]
        proc.kill()  # the process this pool started for the hung input
        proc.join()
        conn.close()
        self.workers[i] = self._start()

    def close(self) -> None:
        for proc, conn in self.workers:
            try:
                conn.send(None)
            except OSError:
                pass
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()


def run(budget: int, seed: int, jobs: int, timeout: float, startup: float = 120.0) -> Counter[str]:
    pool = Pool(jobs, seed)
    outcomes: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    next_n = 0
    busy: dict[int, tuple[int, float]] = {}  # worker index -> (input n, start time)
    first_reply: set[int] = set()  # workers that answered once (startup loads the corpus and triton)
    start = time.monotonic()
    next_report = 500
    try:
        while next_n < budget or busy:
            for i in range(len(pool.workers)):
                if i not in busy and next_n < budget:
                    pool.workers[i][1].send(next_n)
                    busy[i] = (next_n, time.monotonic())
                    next_n += 1
            conns = {pool.workers[i][1]: i for i in busy}
            for conn in wait(list(conns), timeout=1.0):
                i = conns[conn]
                try:
                    n, name, outcome, detail = conn.recv()
                except EOFError:  # the worker died (e.g. a crash in native code)
                    n, name, outcome, detail = busy[i][0], "?", fuzz.TRACEBACK, "worker process died"
                    pool.restart(i)
                first_reply.add(i)
                del busy[i]
                outcomes[outcome] += 1
                if outcome in fuzz.BAD and len(examples.setdefault(outcome, [])) < 5:
                    examples[outcome].append(f"  seed {seed} n {n} ({name}): {detail.strip()[:400]}")
            now = time.monotonic()
            for i, (n, t0) in list(busy.items()):
                limit = timeout if i in first_reply else timeout + startup
                if now - t0 > limit:
                    outcomes[fuzz.HANG] += 1
                    examples.setdefault(fuzz.HANG, []).append(f"  seed {seed} n {n}: over {limit:g} s")
                    del busy[i]
                    pool.restart(i)
            done = sum(outcomes.values())
            if done >= next_report:
                print(f"... {done} inputs, {time.monotonic() - start:.0f} s", file=sys.stderr)
                next_report += 500
    finally:
        pool.close()
    elapsed = time.monotonic() - start
    print(f"fuzzing: {sum(outcomes.values())} inputs tried in {elapsed:.0f} s (seed {seed}, {jobs} jobs)")
    for outcome in (fuzz.LOCATED, fuzz.ACCEPTED, *fuzz.BAD):
        print(f"  {outcome:32} {outcomes[outcome]}")
    for outcome, lines in examples.items():
        print(f"first inputs with outcome '{outcome}':")
        print("\n".join(lines))
    return outcomes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", type=int, default=3000, help="inputs to try (default 3000)")
    ap.add_argument("--seed", type=int, default=1, help="run seed; input n is reproducible from (seed, n)")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, mp.cpu_count())), help="worker processes")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds after which an input is a hang")
    args = ap.parse_args(argv)
    outcomes = run(args.budget, args.seed, args.jobs, args.timeout)
    return 1 if any(outcomes[o] for o in fuzz.BAD) else 0


if __name__ == "__main__":
    sys.exit(main())
