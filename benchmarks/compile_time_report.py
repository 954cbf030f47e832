"""compile_time.py's tables: ours against native per kernel, the sums, the noise floor, first runs and
our native part stage by stage."""

from __future__ import annotations

import statistics
import time

import compile_time_core as core
from compile_time_core import AGAIN, GC_STAGES, NATIVE, STAGES, Row, noise_floor


def report(rows: list[Row], label: str) -> None:
    ms = 1e3
    clock = "CPU" if core.CLOCK is time.process_time else "wall"
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

