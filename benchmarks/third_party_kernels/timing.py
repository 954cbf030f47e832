"""Where a third-party kernel's compile time goes: native and ours interleaved, CPU time, split in phases.

`third_party.py --phases` runs this on the selected launches instead of the figures' run: per
kernel/config, in one forked process (the parent imported our passes, as the figures' run does),
a first compile of each side (cold: what the figures' run times, one compile per process), then
`repeat` rounds native / ours in rotating order (warm), best of them. Ours is split into parse
(our front end, with triton's print of its input), our passes, print (ours, and triton re-reading
it), the positions' comparisons with native's pass (`never_worse.TIME_KEY`), the whole-stage
comparison (`STAGE_TIME_KEY`: native's stage on a copy, prints, allocations), and the native part
(triton's passes and its lowering of what we leave: make_ttir, make_ttgir's native passes,
make_llir).
"""

from __future__ import annotations

import csv
import gc
import multiprocessing
import statistics
import time
from typing import Any

from .capture import Launch
from .compile import make_ir

CLOCK = time.process_time
PHASES = ("parse", "passes", "print", "positions", "stage", "native")


def _once(launch: Launch, pipeline: str | None) -> tuple[float, dict[str, float], dict[str, float]]:
    """(seconds TTIR -> LLVM IR, our phases, counts) of one compile."""
    from xpu_passes.integration import roundtrip
    from xpu_passes.integration.never_worse import STAGE_TIME_KEY, TIME_KEY
    from xpu_passes.integration.pipeline import plan
    from xpu_passes.integration.plugin import compile_ttgir, parse_spec

    mod, opts, backend = make_ir(launch)
    md: dict[str, Any] = {}
    times: dict[str, float] = {}
    p = None if pipeline is None else plan(*parse_spec(pipeline)[:1], **parse_spec(pipeline)[1])
    gc.collect()
    t0 = CLOCK()
    mod = backend.make_ttir(mod, md, opts)
    if p is None:
        mod = backend.make_ttgir(mod, md, opts, backend.properties)
    else:
        with roundtrip.timing(times, CLOCK):
            mod = compile_ttgir(p, True, backend.make_ttgir, mod, md, opts, backend.properties)
    backend.make_llir(mod, md, opts)
    total = CLOCK() - t0
    parse = times.get("parse", 0.0) + times.get("triton_print", 0.0) + times.get("plugin", 0.0)
    passes = sum(v for k, v in times.items() if k.startswith("pass:") and k not in (TIME_KEY, STAGE_TIME_KEY))
    passes += times.get("repeat_check", 0.0)
    printing = times.get("print", 0.0) + times.get("triton_parse", 0.0)
    positions, stage = times.get(TIME_KEY, 0.0), times.get(STAGE_TIME_KEY, 0.0)
    ph = {"parse": parse, "passes": passes, "print": printing, "positions": positions, "stage": stage}
    ph["native"] = total - sum(ph.values())
    counts = {k: v for k, v in times.items() if not k.startswith("pass:") and isinstance(v, int)}
    return total, ph, counts


def _work(launch: Launch, pipeline: str, repeat: int, conn: Any) -> None:
    try:
        cold_n, _, _ = _once(launch, None)
        cold_o, _, _ = _once(launch, pipeline)
        native, ours = [], []
        for r in range(repeat):
            for side in ((None, pipeline) if r % 2 else (pipeline, None)):
                got = _once(launch, side)
                (native if side is None else ours).append(got)
        best_o = min(ours, key=lambda x: x[0])
        conn.send((cold_n, cold_o, min(t for t, _, _ in native), best_o))
    except Exception as e:  # noqa: BLE001 - a row of the table
        conn.send(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:200])
    conn.close()


def run(launches: list[Launch], pipeline: str, repeat: int, csv_path: str | None) -> int:
    """Prints one line per launch and the medians; writes `csv_path` if given."""
    ctx = multiprocessing.get_context("fork")
    rows: list[tuple[str, float, float, float, float, dict[str, float], dict[str, float]]] = []
    print(f"{'kernel/config':70} {'cold n':>7} {'cold o':>7} {'x':>5} {'warm n':>7} {'warm o':>7} {'x':>5}  "
          + " ".join(f"{p:>8}" for p in PHASES) + "  (ms, CPU)", flush=True)
    out = open(csv_path, "w", newline="") if csv_path else None  # row by row: a stopped run keeps its rows
    writer = csv.writer(out) if out else None
    if writer:
        writer.writerow(CSV_HEAD)
    # (garbage of the parent, an MLIRContext with its LLVM thread pool, collected in a forked child
    # waits forever on the pool's threads, which the child does not have. Collected once: from here the
    # parent only forks and prints, making no MLIR objects)
    gc.collect()
    for launch in launches:
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_work, args=(launch, pipeline, repeat, send), daemon=True)
        proc.start()
        send.close()
        try:
            got = recv.recv()
        except EOFError:
            got = "the compiling process died"
        proc.join()
        if isinstance(got, str):
            print(f"{launch.name[:70]:70} {got}", flush=True)
            continue
        cold_n, cold_o, warm_n, (warm_o, ph, counts) = got
        rows.append((launch.name, cold_n, cold_o, warm_n, warm_o, ph, counts))
        if writer and out:
            writer.writerow(_csv_row(*rows[-1]))
            out.flush()
        print(f"{launch.name[:70]:70} {cold_n * 1e3:7.0f} {cold_o * 1e3:7.0f} {cold_o / cold_n:5.2f} "
              f"{warm_n * 1e3:7.0f} {warm_o * 1e3:7.0f} {warm_o / warm_n:5.2f}  "
              + " ".join(f"{ph[p] * 1e3:8.0f}" for p in PHASES), flush=True)
    if out:
        out.close()
    if rows:
        cold = [r[2] / r[1] for r in rows]
        warm = [r[4] / r[3] for r in rows]
        print(f"\n{len(rows)} kernel/configs: cold median x{statistics.median(cold):.2f} worst x{max(cold):.2f}; "
              f"warm median x{statistics.median(warm):.2f} worst x{max(warm):.2f}")
        sums = {p: sum(r[5][p] for r in rows) for p in PHASES}
        native = sum(r[3] for r in rows)
        print("ours' phases, summed (warm): " + ", ".join(f"{p} {v * 1e3:.0f} ms ({v / native:.0%} of native)"
                                                          for p, v in sums.items()))
    return 0


def _csv_row(name: str, cn: float, co: float, wn: float, wo: float, ph: dict[str, float],
             counts: dict[str, float]) -> list[str]:
    return [name, f"{cn * 1e3:.1f}", f"{co * 1e3:.1f}", f"{wn * 1e3:.1f}", f"{wo * 1e3:.1f}",
            *(f"{ph[p] * 1e3:.1f}" for p in PHASES), " ".join(f"{k}={v}" for k, v in sorted(counts.items()))]


CSV_HEAD = ["name", "cold_native_ms", "cold_ours_ms", "warm_native_ms", "warm_ours_ms", *(f"{p}_ms" for p in PHASES),
            "counts"]
