"""compile_time.py's measuring core: one compile timed stage by stage (with Python's GC per stage), our
phases, and the interleaved runs of native and ours (see compile_time.py for the method)."""

from __future__ import annotations

import dataclasses
import gc
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from xpu_passes import corpus
from xpu_passes.integration import pipeline
from xpu_passes.integration import roundtrip
from xpu_passes.integration.pipeline import Plan
from xpu_passes.integration.plugin import compile_ttgir


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

