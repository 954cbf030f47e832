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
import csv
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules, also when imported by path

import compile_time_core as core  # noqa: E402
from compile_time_core import AGAIN, GC_STAGES, NATIVE, Row, compile_once, phases, run  # noqa: E402,F401
from compile_time_probes import (_normalized_ops, check_skip, dump_ttgir, long_process, lower_only,  # noqa: E402,F401
                                 native_changes, native_only, profile)
from compile_time_report import report  # noqa: E402
from xpu_passes import corpus  # noqa: E402
from xpu_passes.integration.pipeline import plan  # noqa: E402
from xpu_passes.integration.plugin import parse_spec  # noqa: E402


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
    core.CLOCK = time.process_time if args.cpu else time.perf_counter
    core.REUSE = not args.no_reuse
    core.ONLY_REPEATS = args.compare_repeats

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
