"""Compile time of our pipeline against triton-xpu's, per corpus kernel, TTIR -> LLVM IR.

Each kernel/config of the corpus goes through the Intel backend's stages as
`triton.compile` runs them (make_ttir, make_ttgir, make_llir), natively and with our
pipeline in the TTGIR stage (the plugin's code path), interleaved (native, ours, then
ours, native, ...), best of `--repeat`. Our time is split into: `parse` (our front end
reading triton's print, including that print), `RLC` and `other passes` (our passes: RemoveLayoutConversions,
the rest), `print` (our printer, including triton re-reading our text), `plugin` (the plugin's own
print of the stage's input: the fallback's backup), and `native` (everything else: native passes and
lowering). Prints the table, the median and worst ratio ours/native, the per-column and per-pass sums, the
front end's microseconds per op, and cProfile's top entries of one pass over the corpus.

    python benchmarks/compile_time.py [--repeat 3] [--pipeline xpu|xpu:raise_block_pointer|TEXT]
                                      [--set core|workloads|all] [--only KERNEL] [--top 20] [--csv out.csv]
                                      [--no-skip | --compare-skip] [--profile-only] [--dump-ttgir DIR]

`--no-skip` runs every round trip (pipeline.SKIP_IDLE_ROUND_TRIPS off); `--compare-skip`
measures both, interleaved with native, and prints both tables (before/after figures);
`--cpu` measures this process's CPU time instead of wall time (steadier when other jobs share
the machine; triton's passes run in this thread). `--check-skip` only checks that skipping changes no kernel's TTGIR (exit 1 if one differs):
run it after changing a pass that pipeline.NEEDS_TEXT makes claims about. `--dump-ttgir DIR` writes
each kernel's final TTGIR with ours (strict) to DIR/<kernel>__<config>.ttgir and exits: run it on two
versions and `diff -r` the directories to show a change leaves every kernel's TTGIR as it was.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import gc
import io
import pstats
import statistics
import sys
from dataclasses import dataclass, field
import time
from typing import Any

from xpu_passes import corpus, pipeline, roundtrip
from xpu_passes.pipeline import Plan, plan
from xpu_passes.triton_plugin import compile_ttgir, parse_spec


@dataclass
class Row:
    kernel: str
    native: float = float("inf")
    ours: float = float("inf")
    phases: dict[str, float] = field(default_factory=dict)  # of our best run

    @property
    def ratio(self) -> float:
        return self.ours / self.native


def compile_once(spec: corpus.KernelSpec, cfg: corpus.Config, p: Plan | None, skip: bool = True,
                 collect: bool = True) -> tuple[float, dict[str, float]]:
    """Seconds for TTIR -> LLVM IR (the module built by the front end outside the clock), and phases."""
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    md: dict[str, Any] = {}
    times: dict[str, float] = {}
    roundtrip.TIMES = times if p is not None else None
    pipeline.SKIP_IDLE_ROUND_TRIPS = skip
    if collect:
        gc.collect()
    try:
        t0 = roundtrip.CLOCK()
        mod = backend.make_ttir(mod, md, opts)
        if p is None:
            mod = backend.make_ttgir(mod, md, opts, backend.properties)
        else:  # what the plugin runs in triton.compile (by default: with the native fallback)
            mod = compile_ttgir(p, False, backend.make_ttgir, mod, md, opts, backend.properties)
        backend.make_llir(mod, md, opts)
        return roundtrip.CLOCK() - t0, times
    finally:
        roundtrip.TIMES = None
        pipeline.SKIP_IDLE_ROUND_TRIPS = True


RLC = pipeline.RLC


def phases(total: float, times: dict[str, float]) -> dict[str, float]:
    rlc = times.get(f"pass:{RLC}", 0.0)
    other = sum(v for k, v in times.items() if k.startswith("pass:") and k != f"pass:{RLC}")
    parse = times.get("parse", 0.0) + times.get("triton_print", 0.0)
    printing = times.get("print", 0.0) + times.get("triton_parse", 0.0)
    plugin = times.get("plugin", 0.0)
    return {"parse": parse, "rlc": rlc, "other": other, "passes": rlc + other, "print": printing,
            "plugin": plugin, "native": total - parse - rlc - other - printing - plugin,
            "ops": times.get("ops", 0), "parse_only": times.get("parse", 0.0), "print_only": times.get("print", 0.0),
            "triton_print": times.get("triton_print", 0.0), "triton_parse": times.get("triton_parse", 0.0),
            "round_trips": times.get("round_trips", 0),
            **{k: v for k, v in times.items() if k.startswith("pass:")}}


def run(kernels: list[tuple[corpus.KernelSpec, corpus.Config]], p: Plan, repeat: int,
        skips: tuple[bool, ...]) -> dict[bool, list[Row]]:
    """Rows per skip setting; native, then each of ours, in rotating order, best of `repeat`."""
    rows = {skip: [Row(f"{s.name} {c.name}") for s, c in kernels] for skip in skips}
    variants: list[bool | None] = [None, *skips]
    for r in range(repeat):
        for k, (spec, cfg) in enumerate(kernels):
            shift = (r + k) % len(variants)
            for which in variants[shift:] + variants[:shift]:
                t, times = compile_once(spec, cfg, None if which is None else p, True if which is None else which)
                for skip in skips:
                    row = rows[skip][k]
                    if which is None:
                        row.native = min(row.native, t)
                    elif which == skip and t < row.ours:
                        row.ours, row.phases = t, phases(t, times)
        print(f"  round {r + 1}/{repeat} done", file=sys.stderr)
    return rows


def report(rows: list[Row], label: str) -> None:
    ms = 1e3
    clock = "CPU" if roundtrip.CLOCK is time.process_time else "wall"
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
    print("our passes: " + ", ".join(f"{k[5:]} {sum(r.phases.get(k, 0.0) for r in rows) * ms:.0f} ms" for k in passes))
    print(f"round trips: {sum(r.phases['round_trips'] for r in rows):.0f}, triton's print "
          f"{sum(r.phases['triton_print'] for r in rows) * ms:.0f} ms (in parse), triton's parse of our text "
          f"{sum(r.phases['triton_parse'] for r in rows) * ms:.0f} ms (in print)")


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
            roundtrip.TIMES, pipeline.SKIP_IDLE_ROUND_TRIPS = {}, skip
            try:
                mod = compile_ttgir(p, True, backend.make_ttgir, mod, {}, opts, backend.properties)
                out[skip] = (str(mod), roundtrip.TIMES.get("round_trips", 0))
            finally:
                roundtrip.TIMES, pipeline.SKIP_IDLE_ROUND_TRIPS = None, True
        same = out[False][0] == out[True][0]
        differ += not same
        print(f"{spec.name} {cfg.name}: round trips {out[False][1]:.0f} -> {out[True][1]:.0f}, "
              f"TTGIR {'identical' if same else 'DIFFERENT'}")
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
    ap.add_argument("--compare-skip", action="store_true", help="measure with and without skipping")
    ap.add_argument("--check-skip", action="store_true", help="check that skipping changes no TTGIR, and exit")
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process instead of wall time")
    ap.add_argument("--dump-ttgir", metavar="DIR", help="write each kernel's final TTGIR (ours) to DIR, and exit")
    args = ap.parse_args(argv)
    roundtrip.CLOCK = time.process_time if args.cpu else time.perf_counter

    from xpu_passes import triton_plugin

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
    compile_once(*kernels[0], p)  # warm up imports and caches on both sides
    compile_once(*kernels[0], None)
    if args.profile_only:
        profile(kernels, p, args.top or 20)
        return 0
    skips = (False, True) if args.compare_skip else (not args.no_skip,)
    by_skip = run(kernels, p, args.repeat, skips)
    for skip in skips:
        report(by_skip[skip], f"{args.pipeline}, {'skipping idle round trips' if skip else 'every round trip'}")
    rows = by_skip[skips[-1]]
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            cols = ("parse", "rlc", "other", "print", "plugin", "native")
            w.writerow(["kernel", "native_s", "ours_s", "ratio", "parse_s", "rlc_s", "other_passes_s", "print_s",
                        "plugin_s", "native_part_s"])
            for r in rows:
                w.writerow([r.kernel, r.native, r.ours, r.ratio, *(r.phases[k] for k in cols)])
    if args.top:
        profile(kernels, p, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
