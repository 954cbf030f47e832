"""compile_time.py's other analyses: native alone, make_llir alone, a long process, what triton's passes
change between our round trips, TTGIR dumps, the skipping check, cProfile."""

from __future__ import annotations

import cProfile
import dataclasses
import gc
import io
import pstats
import re
import sys
from typing import Any

import compile_time_core as core
from compile_time_core import AGAIN, GC, NATIVE, STAGES, Row, compile_once, noise_floor, phases
from xpu_passes import corpus
from xpu_passes.integration import pipeline
from xpu_passes.integration import roundtrip
from xpu_passes.integration.pipeline import Plan
from xpu_passes.integration.plugin import compile_ttgir


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
                    t = core.CLOCK()
                    backend.make_llir(mod, {}, opts)
                    t = core.CLOCK() - t
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
            stats["t0"] = core.CLOCK()
            return
        stats["n"][info["generation"]] += 1
        stats["t"][info["generation"]] += core.CLOCK() - stats["t0"]

    def probe(label: str) -> None:
        nat, ours = [], []
        for _ in range(repeat):
            nat.append(compile_once(spec, cfg, None)[0])
            total, times, _ = compile_once(spec, cfg, p)
            ours.append((total, phases(total, times)))
        second = sorted(ours, key=lambda x: x[0])[min(1, repeat - 1)]
        ph = second[1]
        t = core.CLOCK()
        gc.collect()
        full = core.CLOCK() - t
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
            t = core.CLOCK()
            for s, c in kernels:
                compile_once(s, c, p, collect=False)
            took = core.CLOCK() - t
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
