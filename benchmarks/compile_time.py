"""Compile time of our pipeline against triton-xpu's, per corpus kernel, TTIR -> LLVM IR.

Each kernel/config of the corpus goes through the Intel backend's stages as
`triton.compile` runs them (make_ttir, make_ttgir, make_llir), natively and with our
pipeline in the TTGIR stage (the plugin's code path). Method, the same for both sides:
`gc.collect()` before each timed compile; per kernel and round the sides run in rotating
order (native, native again, ours; then native again, ours, native; ...); best of
`--repeat`; `--warmup N` untimed rounds first. Native is compiled twice: "native again"
against "native" is the noise floor, printed for best of 1, 2, 3, 5 ... runs (no figure
below it means anything). Our time is split into: `parse` (our front end reading
triton's print, including that print), `RLC` and `other passes` (our passes:
RemoveLayoutConversions, the rest), `print` (our printer, including triton re-reading
our text), `plugin` (the plugin's own print of the stage's input: the fallback's backup),
and `native part` (everything else: triton's own passes and lowering). The native part
is compared with native's stage by stage (make_ttir, make_ttgir's native passes,
make_llir, and Python's GC time in each, least time over the runs on each side; GC inside
our round trips is counted apart, as `ours`), and the kernels whose native part exceeds
native's by more than the noise floor are listed.
Prints the table, the median and worst ratio ours/native, the per-column and per-pass
sums, the front end's microseconds per op, and cProfile's top entries of one pass.
`--lower-only` times make_llir alone on native's final TTGIR and on ours (is ours slower
to lower?); `--native-only` compiles only natively in a process that never runs ours
(do our process-wide tables slow triton?).

    python benchmarks/compile_time.py [--repeat 3] [--pipeline xpu|xpu:raise_block_pointer|TEXT]
                                      [--set core|workloads|all] [--only KERNEL] [--top 20] [--csv out.csv]
                                      [--no-skip | --compare-skip | --compare-repeats] [--profile-only]
                                      [--dump-ttgir DIR]
                                      [--warmup N] [--no-noise] [--lower-only] [--native-only] [--cpu]
                                      [--no-reuse] [--long-process KERNEL[:CONFIG] [--rounds N]]
                                      [--native-changes]

`--long-process KERNEL[:CONFIG] [--rounds N]` times KERNEL (its first config by default) alone and after N passes over the set compiled
as a user's process would (no collections of ours), native alongside as the control, with Python's
GC per generation, the tracked objects and what one full collection costs.
`--native-changes` compares triton's print of our output of each round trip with the next round
trip's input (renumbering only? op order? conversions added or removed? which op kinds?).
`--no-reuse` parses every round trip's input (RoundTripOptions.reuse_modules off: see roundtrip.Session;
the round-trip line counts reuses, misses, and round trips that handed triton its own module back).
`--no-skip` runs every round trip (RoundTripOptions.skip_idle off) and every repeated run of a
pass in a round trip (RoundTripOptions.skip_repeats off); `--compare-skip` measures both, interleaved with
native, and prints both tables (before/after figures); `--compare-repeats` the same for the repeated
runs alone (idle round trips skipped on both sides);
`--cpu` measures this process's CPU time instead of wall time (steadier when other jobs share
the machine; triton's passes run in this thread). `--check-skip` only checks that skipping (idle round trips, repeated runs) changes no kernel's
TTGIR (exit 1 if one differs): run it after changing a pass that pipeline.NEEDS_TEXT or
roundtrip.REPEATS makes claims about. `--dump-ttgir DIR` writes
each kernel's final TTGIR with ours (strict) to DIR/<kernel>__<config>.ttgir and exits: run it on two
versions and `diff -r` the directories to show a change leaves every kernel's TTGIR as it was.
"""

from __future__ import annotations

import argparse
import dataclasses
import cProfile
import csv
import gc
import io
import pstats
import re
import statistics
import sys
from dataclasses import dataclass, field
import time
from typing import Any

from xpu_passes import corpus
from xpu_passes.integration import pipeline
from xpu_passes.integration import roundtrip
from xpu_passes.integration.pipeline import Plan, plan
from xpu_passes.integration.plugin import compile_ttgir, parse_spec


STAGES = ("ttir", "ttgir", "llir")


@dataclass
class Row:
    kernel: str
    native: float = float("inf")
    ours: float = float("inf")
    phases: dict[str, float] = field(default_factory=dict)  # of our best run
    # every run's total, per side ("native", "native again", "ours"), in the order they ran
    samples: dict[str, list[float]] = field(default_factory=dict)
    # per side, each stage's and its GC's least time over the runs (the same treatment for both sides)
    stages: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        return self.ours / self.native

    def add(self, side: str, total: float, stages: dict[str, float]) -> None:
        self.samples.setdefault(side, []).append(total)
        best = self.stages.setdefault(side, {})
        for k, v in stages.items():
            best[k] = min(best.get(k, float("inf")), v)


class GcClock:
    """Time in Python's cyclic GC (gc.callbacks), per compile stage."""

    def __init__(self) -> None:
        self.stage = "other"
        self.times: dict[str, float] = {}
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._t0 = CLOCK()
            return
        key = f"gc:{self.stage}"
        self.times[key] = self.times.get(key, 0.0) + CLOCK() - self._t0
        if info["generation"] == 2:
            self.times[f"gc2:{self.stage}"] = self.times.get(f"gc2:{self.stage}", 0) + 1


GC = GcClock()
GC_STAGES = (*STAGES, "ours")  # "ours": inside our round trips (in make_ttgir, not in its native part)


def _gc_as_ours(run_python: Any) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        saved, GC.stage = GC.stage, "ours"
        try:
            return run_python(*args, **kwargs)
        finally:
            GC.stage = saved

    return run


pipeline.run_python = _gc_as_ours(pipeline.run_python)  # type: ignore[assignment]


def compile_once(spec: corpus.KernelSpec, cfg: corpus.Config, p: Plan | None, skip: bool = True,
                 collect: bool = True) -> tuple[float, dict[str, float], dict[str, float]]:
    """Seconds for TTIR -> LLVM IR (the module built by the front end outside the clock), our phases,
    and each stage's time (ttir, ttgir, llir) with the GC's time in it (gc:<stage>)."""
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    md: dict[str, Any] = {}
    times: dict[str, float] = {}
    if p is not None:
        p = dataclasses.replace(p, round_trips=roundtrip.RoundTripOptions(
            skip_repeats=skip, skip_idle=skip or ONLY_REPEATS, reuse_modules=REUSE))
    if collect:
        gc.collect()
    GC.times = {}
    gc.callbacks.append(GC)
    try:
        t0 = t = CLOCK()
        GC.stage = "ttir"
        mod = backend.make_ttir(mod, md, opts)
        stages = {"ttir": CLOCK() - t}
        t, GC.stage = CLOCK(), "ttgir"
        if p is None:
            mod = backend.make_ttgir(mod, md, opts, backend.properties)
        else:  # what the plugin runs in triton.compile (by default: with the native fallback)
            with roundtrip.timing(times, CLOCK):
                mod = compile_ttgir(p, False, backend.make_ttgir, mod, md, opts, backend.properties)
        stages["ttgir"] = CLOCK() - t
        t, GC.stage = CLOCK(), "llir"
        backend.make_llir(mod, md, opts)
        end = CLOCK()
        stages["llir"] = end - t
        return end - t0, times, {**stages, **GC.times}
    finally:
        gc.callbacks.remove(GC)
        GC.stage = "other"


RLC = pipeline.RLC
REUSE = True  # --no-reuse: False
CLOCK = time.perf_counter  # --cpu: time.process_time (steadier than wall time on a shared machine)
ONLY_REPEATS = False  # --compare-repeats: "no skipping" still skips idle round trips, runs every repeated pass


def phases(total: float, times: dict[str, float]) -> dict[str, float]:
    rlc = times.get(f"pass:{RLC}", 0.0)
    # with the check that skips a repeated run (roundtrip.REPEATS)
    other = sum(v for k, v in times.items() if k.startswith("pass:") and k != f"pass:{RLC}") + times.get("repeat_check", 0.0)
    parse = times.get("parse", 0.0) + times.get("triton_print", 0.0)
    printing = times.get("print", 0.0) + times.get("triton_parse", 0.0)
    plugin = times.get("plugin", 0.0)
    return {"parse": parse, "rlc": rlc, "other": other, "passes": rlc + other, "print": printing,
            "plugin": plugin, "native": total - parse - rlc - other - printing - plugin,
            "ops": times.get("ops", 0), "parse_only": times.get("parse", 0.0), "print_only": times.get("print", 0.0),
            "triton_print": times.get("triton_print", 0.0), "triton_parse": times.get("triton_parse", 0.0),
            "round_trips": times.get("round_trips", 0),
            **{k: times.get(k, 0) for k in ("reused", "reuse_misses", "handed_back", "pass_managers", "repeat_check",
                                            "repeats_skipped", "never_worse_runs", "repeats_compared",
                                            "native_kept", "raising_dropped", "native_stage_kept")},
            **{k: v for k, v in times.items() if k.startswith("pass:")}}


NATIVE, AGAIN = "native", "native again"


def run(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan, repeat: int,
        skips: tuple[bool, ...], noise: bool = True, warmup: int = 0) -> dict[bool, list[Row]]:
    """Rows per skip setting; native (twice with `noise`: the noise floor), then each of ours, in
    rotating order per kernel and round, best of `repeat`; GC collected before each compile."""
    rows = {skip: [Row(f"{s.name} {c.name}") for s, c in kernels] for skip in skips}
    variants: list[bool | str] = [NATIVE, *([AGAIN] if noise else []), *skips]
    for r in range(warmup):  # untimed: first-call effects of each kernel, on both sides alike
        for spec, cfg in kernels:
            for which in variants:
                compile_once(spec, cfg, None if isinstance(which, str) else p, True if isinstance(which, str) else which)
        print(f"  warm-up round {r + 1}/{warmup} done", file=sys.stderr)
    for r in range(repeat):
        for k, (spec, cfg) in enumerate(kernels):
            shift = (r + k) % len(variants)
            for which in variants[shift:] + variants[:shift]:
                native = isinstance(which, str)
                t, times, stages = compile_once(spec, cfg, None if native else p, True if native else bool(which))
                if not native:
                    stages["ttgir_native"] = stages["ttgir"] - sum(v for k2, v in phases(t, times).items()
                                                                   if k2 in OURS_COLS)
                for skip in skips:
                    row = rows[skip][k]
                    if which == NATIVE:
                        row.native = min(row.native, t)
                    if native:
                        row.add(str(which), t, {**stages, "ttgir_native": stages["ttgir"]})
                    elif which == skip:
                        row.add("ours", t, stages)
                        if t < row.ours:
                            row.ours, row.phases = t, phases(t, times)
        print(f"  round {r + 1}/{repeat} done", file=sys.stderr)
    return rows


OURS_COLS = ("parse", "rlc", "other", "print", "plugin")


def noise_floor(rows: list[Row]) -> list[str]:
    """Native against itself: best of the first k runs of each, for k = 2, 3, 5, ... up to the runs made."""
    if not rows or AGAIN not in rows[0].samples:
        return []
    n = min(len(r.samples[AGAIN]) for r in rows)
    out = []
    for k in sorted({*(k for k in (1, 2, 3, 5, 10) if k <= n), n}):
        ratios = [(min(r.samples[AGAIN][:k]) / min(r.samples[NATIVE][:k]), r.kernel) for r in rows]
        sym = sorted(max(x, 1 / x) for x, _ in ratios)
        worst, kernel = max(ratios)
        over = sum(x > 1.1 for x, _ in ratios)
        out.append(f"best of {k}: native again / native median x{statistics.median(x for x, _ in ratios):.2f}, "
                   f"worst x{worst:.2f} ({kernel}), {over} of {len(rows)} over x1.10, "
                   f"95th percentile of the spread either way x{sym[int(0.95 * (len(sym) - 1))]:.2f}")
    return out


def report(rows: list[Row], label: str) -> None:
    ms = 1e3
    clock = "CPU" if CLOCK is time.process_time else "wall"
    print(f"\n## {label}: TTIR -> LLVM IR, best of the runs ({clock} ms)\n")
    print("| kernel | native | ours | ratio | parse | RLC | other passes | print | plugin | native part "
          "| round trips |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ph = r.phases
        print(f"| {r.kernel} | {r.native * ms:.1f} | {r.ours * ms:.1f} | {r.ratio:.2f} | {ph['parse'] * ms:.1f} "
              f"| {ph['rlc'] * ms:.1f} | {ph['other'] * ms:.1f} | {ph['print'] * ms:.1f} | {ph['plugin'] * ms:.1f} "
              f"| {ph['native'] * ms:.1f} | {ph['round_trips']:.0f} |")
    ratios = [r.ratio for r in rows]
    ops = sum(r.phases["ops"] for r in rows)
    parse_us = 1e6 * sum(r.phases["parse_only"] for r in rows) / max(ops, 1)
    print_us = 1e6 * sum(r.phases["print_only"] for r in rows) / max(ops, 1)
    worst = max(rows, key=lambda r: r.ratio)
    print(f"\nratio ours/native: median {statistics.median(ratios):.2f}x, worst {worst.ratio:.2f}x ({worst.kernel}); "
          f"front end: parse {parse_us:.0f} us/op, print {print_us:.0f} us/op ({ops:.0f} ops read)")
    total = {k: sum(r.phases.get(k, 0.0) for r in rows) for k in ("parse", "rlc", "other", "print", "plugin", "native")}
    native = sum(r.native for r in rows)
    print(f"sums over the kernels: native {native * ms:.0f} ms; ours: "
          + ", ".join(f"{k} {v * ms:.0f} ms" for k, v in total.items()))
    passes = sorted({k for r in rows for k in r.phases if k.startswith("pass:")})
    print("our passes: " + ", ".join(f"{k[5:]} {sum(r.phases.get(k, 0.0) for r in rows) * ms:.0f} ms" for k in passes)
          + f"; repeated runs skipped: {sum(r.phases.get('repeats_skipped', 0) for r in rows):.0f}, their check "
          f"{sum(r.phases.get('repeat_check', 0.0) for r in rows) * ms:.0f} ms (in other passes)")
    nw = {k: sum(r.phases.get(k, 0) for r in rows)
          for k in ("never_worse_runs", "repeats_compared", "native_kept", "raising_dropped", "native_stage_kept")}
    print(f"never worse than native: {nw['never_worse_runs']:.0f} runs compared with native's (and "
          f"{nw['repeats_compared']:.0f} repeats, native's side only), native's result kept {nw['native_kept']:.0f} "
          f"times, raising dropped {nw['raising_dropped']:.0f} times, triton-xpu's whole stage kept "
          f"{nw['native_stage_kept']:.0f} times (never-worse: the comparisons' time)")
    count = {k: sum(r.phases.get(k, 0) for r in rows) for k in ("reused", "reuse_misses", "handed_back",
                                                                "pass_managers")}
    print(f"round trips: {sum(r.phases['round_trips'] for r in rows):.0f} ({count['reused']:.0f} took our previous "
          f"module, {count['reuse_misses']:.0f} could not: the text differed; {count['handed_back']:.0f} changed "
          f"nothing and handed triton its own module back), triton's print "
          f"{sum(r.phases['triton_print'] for r in rows) * ms:.0f} ms (in parse), triton's parse of our text "
          f"{sum(r.phases['triton_parse'] for r in rows) * ms:.0f} ms (in print)")
    floor_lines = noise_floor(rows)
    for line in floor_lines:
        print(f"noise floor, {line}")
    if rows and AGAIN in rows[0].samples:
        sym = sorted(max(x, 1 / x) for x in (min(r.samples[AGAIN]) / min(r.samples[NATIVE]) for r in rows))
        floor = sym[int(0.95 * (len(sym) - 1))]
    else:
        floor = 1.1
    line = first_runs(rows)
    if line:
        print(line)
    native_part(rows, floor)


def native_part(rows: list[Row], floor: float) -> None:
    """Ours' native part (triton's own passes and lowering) against native's, stage by stage."""
    if not rows or "ours" not in rows[0].stages:
        return
    ms = 1e3
    cols = ("ttir", "ttgir_native", "llir")

    def part(r: Row, side: str) -> float:
        return sum(r.stages[side].get(c, 0.0) for c in cols)

    def gc_ms(r: Row, side: str) -> float:
        return sum(r.stages[side].get(f"gc:{s}", 0.0) for s in STAGES) * ms  # triton's stages, not ours

    print("\n## Native part: triton's own stages in ours vs native (least time of each over the runs, ms)\n")
    sums = {side: {c: sum(r.stages[side].get(c, 0.0) for r in rows) * ms for c in (*cols, *(f"gc:{s}" for s in GC_STAGES))}
            for side in (NATIVE, "ours")}
    for side in (NATIVE, "ours"):
        print(f"{side}: make_ttir {sums[side]['ttir']:.0f}, make_ttgir's native passes {sums[side]['ttgir_native']:.0f}, "
              f"make_llir {sums[side]['llir']:.0f}; in Python's GC: "
              + ", ".join(f"{s} {sums[side][f'gc:{s}']:.0f}" for s in GC_STAGES if side == "ours" or s != "ours"))
    slow = [r for r in rows if part(r, "ours") > floor * part(r, NATIVE)]
    print(f"\n{len(slow)} of {len(rows)} kernels have a native part over x{floor:.2f} (the noise floor) of native's:\n")
    if slow:
        print("| kernel | ratio | make_ttir n / o | native ttgir passes n / o | make_llir n / o | GC n / o |")
        print("|---|---:|---:|---:|---:|---:|")
    for r in slow:
        n, o = r.stages[NATIVE], r.stages["ours"]
        print(f"| {r.kernel} | {part(r, 'ours') / part(r, NATIVE):.2f} | "
              + " | ".join(f"{n[c] * ms:.1f} / {o[c] * ms:.1f}" for c in cols)
              + f" | {gc_ms(r, NATIVE):.1f} / {gc_ms(r, 'ours'):.1f} |")
    ratio = {c: sums["ours"][c] / max(sums[NATIVE][c], 1e-9) for c in cols}
    pms = sum(r.phases.get("pass_managers", 0) for r in rows) / len(rows)
    gc_triton = {side: sum(sums[side][f"gc:{s}"] for s in STAGES) for side in (NATIVE, "ours")}
    print(("\n" if slow else "") + f"native part, sums ours / native: make_ttir x{ratio['ttir']:.2f}, make_ttgir's native passes "
          f"x{ratio['ttgir_native']:.2f}, make_llir x{ratio['llir']:.2f}. Ours runs make_ttgir's native passes in "
          f"{pms:.1f} pass managers per kernel (native: 2; ours stop at each round trip), each 0.4-0.9 ms "
          f"(set-up, stderr capture, verifying the module: measured on the corpus); Python's GC in triton's stages: native {gc_triton[NATIVE]:.0f} ms, "
          f"ours {gc_triton['ours']:.0f} ms (ours' collections run in our round trips: {sums['ours']['gc:ours']:.0f} "
          f"ms, in our columns). Per kernel, a native part within the noise floor is noise.")


def first_runs(rows: list[Row]) -> str:
    """First-call effects: each side's first run against its best later one (median over the kernels)."""
    out = []
    for side in rows[0].samples if rows else ():
        ratios = [r.samples[side][0] / min(r.samples[side][1:]) for r in rows if len(r.samples[side]) > 1]
        if ratios:
            out.append(f"{side} x{statistics.median(ratios):.2f}")
    return "first run / best later run, median over the kernels: " + ", ".join(out) if out else ""


def native_only(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], repeat: int) -> None:
    """Native against itself in a process that never runs ours: its stage and GC times, to compare
    with the native side of a run with ours (same CPU clock), and the noise floor without our state."""
    compile_once(*kernels[0], None)
    rows = [Row(f"{s.name} {c.name}") for s, c in kernels]
    for r in range(repeat):
        for k, (spec, cfg) in enumerate(kernels):
            order = (NATIVE, AGAIN) if (r + k) % 2 == 0 else (AGAIN, NATIVE)
            for side in order:
                t, _, stages = compile_once(spec, cfg, None)
                rows[k].add(side, t, {**stages, "ttgir_native": stages["ttgir"]})
                if side == NATIVE:
                    rows[k].native = min(rows[k].native, t)
        print(f"  round {r + 1}/{repeat} done", file=sys.stderr)
    ms = 1e3
    print(f"\n## Native only (never ours in this process), {gc.get_count()} GC counts, "
          f"{len(gc.get_objects())} tracked objects\n")
    for line in noise_floor(rows):
        print(f"noise floor, {line}")
    for side in (NATIVE, AGAIN):
        print(f"{side}: total {sum(min(r.samples[side]) for r in rows) * ms:.0f}; "
              + ", ".join(f"{c} {sum(r.stages[side].get(c, 0.0) for r in rows) * ms:.0f}"
                          for c in (*STAGES, *(f"gc:{s}" for s in STAGES))))


def lower_only(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan, repeat: int) -> None:
    """make_llir alone on native's final TTGIR and on ours, each read back from its text (outside the clock)
    into a fresh context, interleaved, best of `repeat`: does our TTGIR take longer to lower?"""
    from xpu_passes.integration import oracle

    ms = 1e3
    print("\n## make_llir alone: native's TTGIR vs ours (best of the runs, ms)\n")
    print("| kernel | native | ours | ratio | ops native / ours | GC native / ours |")
    print("|---|---:|---:|---:|---:|---:|")
    sums = [0.0, 0.0]
    for spec, cfg in kernels:
        texts = []
        for q in (None, p):
            mod, opts, backend = corpus.make_ttir_module(spec, cfg)
            mod = backend.make_ttir(mod, {}, opts)
            mod = (backend.make_ttgir(mod, {}, opts, backend.properties) if q is None else
                   compile_ttgir(q, True, backend.make_ttgir, mod, {}, opts, backend.properties))
            texts.append(str(mod))
        best = [float("inf")] * 2
        gcs = [float("inf")] * 2
        for r in range(repeat):
            for side in ((0, 1) if r % 2 == 0 else (1, 0)):
                mod = oracle.parse(texts[side], oracle.context())
                gc.collect()
                GC.times, GC.stage = {}, "llir"
                gc.callbacks.append(GC)
                try:
                    t = CLOCK()
                    backend.make_llir(mod, {}, opts)
                    t = CLOCK() - t
                finally:
                    gc.callbacks.remove(GC)
                best[side] = min(best[side], t)
                gcs[side] = min(gcs[side], GC.times.get("gc:llir", 0.0))
        ops = [sum(1 for line in text.splitlines() if " = " in line or line.strip().startswith(("tt.", "scf.")))
               for text in texts]
        sums = [a + b for a, b in zip(sums, best)]
        print(f"| {spec.name} {cfg.name} | {best[0] * ms:.1f} | {best[1] * ms:.1f} | {best[1] / best[0]:.2f} "
              f"| {ops[0]} / {ops[1]} | {gcs[0] * ms:.1f} / {gcs[1] * ms:.1f} |")
    print(f"\nsums: native {sums[0] * ms:.0f} ms, ours {sums[1] * ms:.0f} ms")


def long_process(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan, probe_name: str, rounds: int,
                 repeat: int) -> None:
    """Does a kernel compile slower late in a long process? `probe_name`'s first config, ours and native
    interleaved (`repeat` each, 2nd best), alone, then after each of `rounds` passes over `kernels`
    compiled as a user's process does (no collections of ours: Python's GC as it comes). Native is the
    control: a slowdown both sides share is the process's or the machine's, not our tables'."""
    name, _, config = probe_name.partition(":")
    spec, cfg = next((s, c) for s, c in kernels if s.name == name and config in ("", c.name))
    ms = 1e3
    stats = {"n": [0, 0, 0], "t": [0.0, 0.0, 0.0], "t0": 0.0}

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            stats["t0"] = CLOCK()
            return
        stats["n"][info["generation"]] += 1
        stats["t"][info["generation"]] += CLOCK() - stats["t0"]

    def probe(label: str) -> None:
        nat, ours = [], []
        for _ in range(repeat):
            nat.append(compile_once(spec, cfg, None)[0])
            total, times, _ = compile_once(spec, cfg, p)
            ours.append((total, phases(total, times)))
        second = sorted(ours, key=lambda x: x[0])[min(1, repeat - 1)]
        ph = second[1]
        t = CLOCK()
        gc.collect()
        full = CLOCK() - t
        print(f"| {label} | {sorted(nat)[min(1, repeat - 1)] * ms:.1f} | {second[0] * ms:.1f} | {ph['parse'] * ms:.1f} "
              f"| {ph['rlc'] * ms:.1f} | {ph['print'] * ms:.1f} | {ph['native'] * ms:.1f} | {len(gc.get_objects())} "
              f"| {full * ms:.0f} |", flush=True)

    print(f"\n## Long process: {spec.name} {cfg.name}, 2nd best of {repeat} (ms)\n")
    print("| when | native | ours | parse | RLC | print | native part | tracked objects | a full collection |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    probe("alone")
    gc.callbacks.append(on_gc)
    try:
        for r in range(rounds):
            stats["n"], stats["t"] = [0, 0, 0], [0.0, 0.0, 0.0]
            t = CLOCK()
            for s, c in kernels:
                compile_once(s, c, p, collect=False)
            took = CLOCK() - t
            gc_line = (f"{len(kernels)} compiles in {took:.1f} s, Python's GC {sum(stats['t']):.2f} s: collections per "
                       f"generation {stats['n']}, seconds {[round(x, 2) for x in stats['t']]}")
            probe(f"after {r + 1} x {len(kernels)} ({gc_line})")
    finally:
        gc.callbacks.remove(on_gc)


_SSA = re.compile(r"%[A-Za-z0-9_#]+|\^bb\d+|loc\([^()]*(\([^()]*\))?[^()]*\)|#loc\d*")
_OP = re.compile(r'(?:= )?"?([a-z_]+\.[a-z_.]+)')


def _normalized_ops(text: str) -> list[str]:
    """The op lines of a TTGIR text without SSA names, block labels and locations."""
    return [_SSA.sub("%", line).strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def native_changes(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan) -> None:
    """What triton's passes between two of our round trips change: triton's print of our output of
    round trip k against the input of round trip k+1, per kernel, classified (renumbering only, op
    order only, ops changed) with the conversions and the op kinds removed and added."""
    import collections

    trips: list[tuple[str, str, str]] = []  # (our first pass, input text, triton's print of our output)
    inner = pipeline.run_python

    def run(mod: Any, passes: Any, text: str | None = None, session: Any = None) -> Any:
        text = str(mod) if text is None else text
        out = inner(mod, passes, text, session)
        trips.append((passes[0][0], text, str(out)))
        return out

    pipeline.run_python = run  # type: ignore[assignment]
    kinds: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    removed: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    added: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    try:
        for spec, cfg in kernels:
            trips.clear()
            mod, opts, backend = corpus.make_ttir_module(spec, cfg)
            mod = backend.make_ttir(mod, {}, opts)
            compile_ttgir(p, True, backend.make_ttgir, mod, {}, opts, backend.properties)
            for k, ((_, _, ours), (_, text, _)) in enumerate(zip(trips, trips[1:])):
                a, b = _normalized_ops(ours), _normalized_ops(text)
                gone, new = collections.Counter(a) - collections.Counter(b), collections.Counter(b) - collections.Counter(a)
                kind = ("identical" if ours == text else "renumbering only" if a == b
                        else "op order only" if not gone and not new else "ops changed")
                cvt = [f"{sign}{sum('convert_layout' in x for x in c.elements())} conversions"
                       for sign, c in (("-", gone), ("+", new)) if any("convert_layout" in x for x in c)]
                where = f"round trip {k + 1} -> {k + 2} of {len(trips)}"
                kinds[(where, f"{kind}{', ' if cvt else ''}{' '.join(cvt)}")].append(f"{spec.name} {cfg.name}")
                for line in gone.elements():
                    removed[where][m.group(1) if (m := _OP.search(line)) else line[:20]] += 1
                for line in new.elements():
                    added[where][m.group(1) if (m := _OP.search(line)) else line[:20]] += 1
    finally:
        pipeline.run_python = inner  # type: ignore[assignment]
    print("\n## What triton's passes change between two of our round trips\n")
    for (where, kind), names in sorted(kinds.items()):
        print(f"- {where}: {kind}: {len(names)} kernels ({', '.join(names[:4])}{' ...' if len(names) > 4 else ''})")
    for where in sorted(removed.keys() | added.keys()):
        print(f"- {where}, op kinds removed: {dict(removed[where].most_common(10))}; added: "
              f"{dict(added[where].most_common(10))}")


def dump_ttgir(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan, out: str) -> None:
    """Each kernel's final TTGIR with ours (strict), one file per kernel/config."""
    from pathlib import Path

    Path(out).mkdir(parents=True, exist_ok=True)
    for spec, cfg in kernels:
        mod, opts, backend = corpus.make_ttir_module(spec, cfg)
        mod = backend.make_ttir(mod, {}, opts)
        mod = compile_ttgir(p, True, backend.make_ttgir, mod, {}, opts, backend.properties)
        (Path(out) / f"{spec.name}__{cfg.name}.ttgir").write_text(str(mod))
    print(f"{len(kernels)} TTGIR files in {out}")


def check_skip(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan) -> int:
    """TTGIR with and without skipping idle round trips, per kernel; the number that differ."""
    differ = 0
    for spec, cfg in kernels:
        out = {}
        for skip in (False, True):
            mod, opts, backend = corpus.make_ttir_module(spec, cfg)
            mod = backend.make_ttir(mod, {}, opts)
            q = dataclasses.replace(p, round_trips=roundtrip.RoundTripOptions(skip_repeats=skip, skip_idle=skip))
            with roundtrip.timing() as times:
                mod = compile_ttgir(q, True, backend.make_ttgir, mod, {}, opts, backend.properties)
            out[skip] = (str(mod), times.get("round_trips", 0), times.get("repeats_skipped", 0))
        same = out[False][0] == out[True][0]
        differ += not same
        print(f"{spec.name} {cfg.name}: round trips {out[False][1]:.0f} -> {out[True][1]:.0f}, "
              f"repeated runs skipped {out[True][2]:.0f}, TTGIR {'identical' if same else 'DIFFERENT'}")
    print(f"{differ} of {len(kernels)} differ")
    return differ


def profile(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan, top: int) -> None:
    prof = cProfile.Profile()
    prof.enable()
    for spec, cfg in kernels:
        compile_once(spec, cfg, p, collect=False)
    prof.disable()
    for key, what in (("tottime", "own time"), ("cumulative", "cumulative time")):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(key).print_stats(top)
        print(f"\n## cProfile, one pass over the kernels with ours, top {top} by {what}\n")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:20000])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pipeline", default="xpu", help="a name with options (xpu:raise_block_pointer) or a text")
    ap.add_argument("--set", default="core", choices=sorted(corpus.SETS),
                    help="corpus kernels: core (default), workloads, or all (corpus_compare.py's 112)")
    ap.add_argument("--only", nargs="+", help="kernel names")
    ap.add_argument("--profile-only", action="store_true", help="skip the timing table: only the profile")
    ap.add_argument("--top", type=int, default=20, help="cProfile entries to print (0: no profile)")
    ap.add_argument("--csv")
    ap.add_argument("--no-skip", action="store_true", help="run every round trip (no skipping of idle ones)")
    ap.add_argument("--no-reuse", action="store_true", help="parse every round trip's input (RoundTripOptions.reuse_modules off)")
    ap.add_argument("--compare-skip", action="store_true", help="measure with and without skipping")
    ap.add_argument("--compare-repeats", action="store_true",
                    help="measure with and without skipping repeated runs of a pass (roundtrip.REPEATS) alone")
    ap.add_argument("--check-skip", action="store_true", help="check that skipping changes no TTGIR, and exit")
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process instead of wall time")
    ap.add_argument("--warmup", type=int, default=0, help="untimed rounds over every kernel, both sides, first")
    ap.add_argument("--no-noise", action="store_true",
                    help="do not compile natively a second time (the noise floor: native against itself)")
    ap.add_argument("--native-only", action="store_true",
                    help="only native against itself, never ours in this process (are our tables a cost to triton?)")
    ap.add_argument("--lower-only", action="store_true",
                    help="only time make_llir on native's final TTGIR and on ours (interleaved, best of --repeat)")
    ap.add_argument("--dump-ttgir", metavar="DIR", help="write each kernel's final TTGIR (ours) to DIR, and exit")
    ap.add_argument("--long-process", metavar="KERNEL[:CONFIG]",
                    help="time KERNEL (ours and native) alone, then after --rounds passes over the kernels, and exit")
    ap.add_argument("--native-changes", action="store_true",
                    help="what triton's passes change between two of our round trips, per kernel, and exit")
    ap.add_argument("--rounds", type=int, default=1, help="passes over the kernels for --long-process")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.cpu else time.perf_counter
    global REUSE, ONLY_REPEATS
    REUSE = not args.no_reuse
    ONLY_REPEATS = args.compare_repeats

    from xpu_passes.integration import plugin as triton_plugin

    triton_plugin.disable()  # the native side is triton-xpu's own make_ttgir
    name, options = parse_spec(args.pipeline)
    options.pop("strict", None)
    p = plan(name, **options)
    kernels = [(s, c) for s in corpus.SETS[args.set] for c in s.configs if not args.only or s.name in args.only]
    if args.check_skip:
        return 1 if check_skip(kernels, p) else 0
    if args.dump_ttgir:
        dump_ttgir(kernels, p, args.dump_ttgir)
        return 0
    if args.native_changes:
        native_changes(kernels, p)
        return 0
    if args.long_process:
        every = [(s, c) for s in corpus.SETS[args.set] for c in s.configs]  # --only names the probe, not the load
        long_process(every, p, args.long_process, args.rounds, max(args.repeat, 2))
        return 0
    if args.lower_only:
        lower_only(kernels, p, args.repeat)
        return 0
    if args.native_only:
        native_only(kernels, args.repeat)
        return 0
    compile_once(*kernels[0], p)  # warm up imports and caches on both sides
    compile_once(*kernels[0], None)
    if args.profile_only:
        profile(kernels, p, args.top or 20)
        return 0
    skips = (False, True) if args.compare_skip or args.compare_repeats else (not args.no_skip,)
    by_skip = run(kernels, p, args.repeat, skips, noise=not args.no_noise, warmup=args.warmup)
    for skip in skips:
        off = "every repeated run" if args.compare_repeats else "every round trip"
        report(by_skip[skip], f"{args.pipeline}, {'skipping idle round trips and repeated runs' if skip else off}")
    rows = by_skip[skips[-1]]
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            cols = ("parse", "rlc", "other", "print", "plugin", "native")
            sides = [s for s in (NATIVE, AGAIN, "ours") if rows and s in rows[0].stages]
            stage_cols = ("ttir", "ttgir_native", "llir", *(f"gc:{s}" for s in GC_STAGES))
            w.writerow(["kernel", "native_s", "ours_s", "ratio", "parse_s", "rlc_s", "other_passes_s", "print_s",
                        "plugin_s", "native_part_s", *(f"{side}:{c}_s" for side in sides for c in stage_cols),
                        *(f"{side}:runs_s" for side in sides)])
            for r in rows:
                w.writerow([r.kernel, r.native, r.ours, r.ratio, *(r.phases[k] for k in cols),
                            *(r.stages[side].get(c, 0.0) for side in sides for c in stage_cols),
                            *(" ".join(f"{x:.4f}" for x in r.samples[side]) for side in sides)])
    if args.top:
        profile(kernels, p, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
