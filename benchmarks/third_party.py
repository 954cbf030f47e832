"""Never worse than native on Triton kernels we did not write: third-party libraries from PyPI.

    pip install --no-deps -r benchmarks/kernels-requirements.txt      # once, after ".[triton,test]"
    python benchmarks/third_party.py [--lib liger fla gemlite flag_gems] [--only SUBSTRING ...] [--list]
                                     [--jobs N] [--pipelines xpu:raise_block_pointer=false xpu]
                                     [--max-configs N] [--csv F] [--timeout S] [--skip-done CSV ...] [--isa]
    python benchmarks/third_party.py --report A.csv [B.csv ...] [--markdown F]   # summarize earlier runs
    python benchmarks/third_party.py --dump-ttgir DIR [--rows F]; ... --changed OLD NEW > F   # rows a change touches

Each library (benchmarks/third_party_kernels/<lib>.py) is imported unchanged and its own Python
entry points are called on small CPU tensors, with torch and triton told that a PVC is present
(fake_xpu.py), so that the wrappers compute the block sizes, warps, stages and grf mode they
would for an XPU device. Every launch is captured at the JIT layer (capture.py: the
specialization triton-xpu's binder computes: signature, divisibility, constexprs, options; every
config of an autotune list, up to --max-configs spread over it) instead of being run: there is no GPU.
Each captured kernel/config is then compiled for PVC offline natively (triton-xpu's pipeline) and
with each of our --pipelines, strict, and its figures printed side by side: SLM bytes, ttg.convert_layout,
2D block reads / writes and DPAS calls in the LLVM IR, TTIR -> LLVM IR ms and ours / native.
With --isa (IGC installed: xpu_passes.integration.isa) a row is judged at the ISA (`isa.judge`): WORSE
when ours has more spill bytes, SLM messages, gathers or scatters, fewer 2D block messages or DPAS, more
than 5% more instructions, or more SLM bytes; TRADE when it loses there but fits PVC's 128 KB of SLM where
native does not, or loses only spill bytes, at most the driver's 1,000, in 128 registers where native runs in 256; without ISA figures, WORSE when ours needs more SLM or conversions or has fewer 2D block
reads/writes or DPAS calls (corpus_compare's rule). FAIL when ours raises where native compiles (or IGC
fails on ours only). Kernels native cannot
compile are listed with the reason and excluded. Writes a CSV; exits 1 on any WORSE or FAIL row.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from typing import Any

from third_party_kernels import LIBS, capture, fake_xpu, runner
from third_party_kernels.compile import ISA, NATIVE, Clock, Row, compile_launch, warm_up
from third_party_kernels.report import short_error

DEFAULT_PIPELINES = ("xpu:raise_block_pointer=false", "xpu")  # without raising, and the default (raising)
FIGS = (("SLM", "shared_bytes"), ("cvt", "converts"), ("2Dr", "block_reads"), ("2Dw", "block_writes"), ("dpas", "dpas"))


def triton_is_intels() -> str:
    """'' when the importable `triton` is triton-xpu's; else one line saying what it is."""
    from importlib import metadata

    try:
        import triton
    except ImportError as e:
        return f"triton cannot be imported ({e}): install the [triton] extra (triton-xpu)"
    owners = metadata.packages_distributions().get("triton", [])
    intel = importlib.util.find_spec("triton.backends.intel") is not None
    if "triton-xpu" in owners and intel and len(set(owners)) == 1:
        return ""
    return (f"triton {getattr(triton, '__version__', '?')} is not Intel's (package owned by {sorted(set(owners))}, "
            f"Intel backend {'present' if intel else 'absent'}): a library's `triton` dependency replaced triton-xpu; "
            f"reinstall triton-xpu and install the libraries with --no-deps")


def capture_launches(libs: list[str], max_configs: int) -> tuple[list[capture.Launch], list[tuple[str, str, str]]]:
    """Every launch of `libs`' entry points, and (lib, call, reason) for what did not run or import."""
    launches: list[capture.Launch] = []
    problems: list[tuple[str, str, str]] = []
    with fake_xpu.pvc_device():
        for lib in libs:
            rec = capture.Recorder(lib=lib, max_configs=max_configs)
            try:
                module = importlib.import_module(f"third_party_kernels.{lib}")
                getattr(module, "load", lambda: None)()  # a library whose autotuner subclasses must exist first
                with capture.capturing(rec):
                    module.launches(rec)
            except ImportError as e:
                problems.append((lib, "import", f"not installed ({e}): pip install --no-deps -r "
                                 "benchmarks/kernels-requirements.txt"))
            launches += rec.launches
            problems += [(lib, origin, why) for origin, why in rec.failures]
    return launches, problems


def fmt_row(row: Row, pipelines: tuple[str, ...]) -> str:
    sides = (NATIVE, *pipelines)

    def fig(name: str) -> str:
        vals = [row.results[s].figures for s in sides]
        return "/".join("-" if f is None else str(getattr(f, name)) for f in vals)

    n = row.results[NATIVE]
    v = [f"{p}:{row.verdict(p)}" for p in pipelines if row.verdict(p) != "ok"]
    ratios = " ".join(f"x{row.ratio(p):.2f}" for p in pipelines)
    figs = " ".join(f"{label} {fig(name)}" for label, name in FIGS)
    return f"{row.launch_name[:90]:90} {figs} ms {n.median_ms:.0f} {ratios} {' '.join(v) or 'ok'}"


def csv_head(pipelines: tuple[str, ...]) -> list[str]:
    head = ["lib", "kernel", "config", "origin"]
    for s in (NATIVE, *pipelines):
        head += [f"{s}_{name}" for _, name in FIGS] + [f"{s}_ms", f"{s}_error", f"{s}_isa"]
    return head + [f"{p}_verdict" for p in pipelines] + [f"{p}_worse" for p in pipelines]


def csv_cells(row: Row, pipelines: tuple[str, ...]) -> list[Any]:
    cells: list[Any] = [row.launch_name.split(".", 1)[0], row.kernel, row.config, row.origin]
    for s in (NATIVE, *pipelines):
        r = row.results[s]
        cells += ["" if r.figures is None else getattr(r.figures, name) for _, name in FIGS]
        cells += [f"{r.median_ms:.1f}" if r.ms else "", r.error.splitlines()[0][:400] if r.error else ""]
        cells.append(" ".join(f"{k}={v}" for k, v in (r.figures.extra if r.figures else {}).items()))
    return cells + [row.verdict(p) for p in pipelines] + ["; ".join(row.worse(p)) for p in pipelines]


def write_csv(rows: list[Row], pipelines: tuple[str, ...], path: str) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(csv_head(pipelines))
        for row in rows:
            w.writerow(csv_cells(row, pipelines))


def summary(rows: list[Row], problems: list[tuple[str, str, str]], pipelines: tuple[str, ...]) -> bool:
    """Prints the report; True when some row is WORSE or FAIL."""
    excluded = [r for r in rows if r.results[NATIVE].figures is None]
    print(f"\n{len(rows)} kernel/configs captured ({dict(Counter(r.launch_name.split('.', 1)[0] for r in rows))}); "
          f"{len(rows) - len(excluded)} compiled natively, {len(excluded)} excluded (triton-xpu cannot compile them):")
    for why, n in Counter(short_error(r.results[NATIVE].error)[:200] for r in excluded).most_common():
        names = sorted({r.kernel for r in excluded if short_error(r.results[NATIVE].error)[:200] == why})
        print(f"  {n:4} x {why}  [{', '.join(names)[:300]}]")
    for lib, origin, why in problems:
        print(f"  not captured: {lib} {origin}: {why}")
    bad = False
    for p in pipelines:
        c = Counter(r.verdict(p) for r in rows)
        ratios = sorted((r.ratio(p), r.launch_name) for r in rows if r.verdict(p) in ("ok", "WORSE", "TRADE"))
        med = statistics.median([x for x, _ in ratios]) if ratios else float("nan")
        won = sum(bool(r.better(p)) for r in rows)
        print(f"\n{p}: worse {c['WORSE']}, trades {c['TRADE']}, plugin-only failures {c['FAIL']}, timeouts {c['TIMEOUT']}, "
              f"ok {c['ok']} (strictly better at the ISA {won}); "
              f"compile time ours/native median x{med:.2f}, worst x{ratios[-1][0] if ratios else float('nan'):.2f}")
        for r in rows:
            if r.verdict(p) in ("WORSE", "TRADE"):
                print(f"  {r.verdict(p)} {r.launch_name}: {'; '.join(r.worse(p))}")
            elif r.verdict(p) in ("FAIL", "TIMEOUT"):
                print(f"  FAIL {r.launch_name}: {short_error(r.results[p].error)[:300]}")
        print(dot_rows_line(rows, p))
        print("  ten slowest (ours/native): " + ", ".join(f"{n} x{x:.2f}" for x, n in ratios[::-1][:10]))
        bad |= bool(c["WORSE"] or c["FAIL"] or c["TIMEOUT"])
    return bad


def dot_rows_line(rows: list[Row], pipeline: str) -> str:
    """Issue 29's count: of the rows IGC compiled with DPAS natively (GEMM/attention), how many ours makes
    strictly better at the ISA; and where native spills, how often ours spills less."""
    judged = [r for r in rows if r.results[NATIVE].isa and r.results[pipeline].isa]
    dots = [r for r in judged if r.results[NATIVE].isa.dpas > 0]
    won = sum(bool(r.better(pipeline)) for r in dots)
    spills = [r for r in judged if r.results[NATIVE].isa.spill_bytes > 0]
    less = sum(r.results[pipeline].isa.spill_bytes < r.results[NATIVE].isa.spill_bytes for r in spills)
    share = f"{100 * won / len(dots):.0f}%" if dots else "-"
    return (f"  at the ISA: rows with DPAS (GEMM/attention) {len(dots)}, strictly better {won} ({share}); "
            f"native spills on {len(spills)}, ours spills less on {less}")


def _done(paths: list[str]) -> set[tuple[str, str, str]]:
    out = set()
    for path in paths:
        with open(path, newline="") as f:
            out |= {(d["lib"], d["kernel"], d["config"]) for d in csv.DictReader(f)}
    return out


def report(paths: list[str], markdown_path: str | None) -> int:
    from third_party_kernels import report as rep

    rows: list[Row] = []
    pipelines: tuple[str, ...] = ()
    for path in paths:
        more, pipelines = rep.read_csv(path)
        rows += more
    bad = summary(rows, [], pipelines)
    if markdown_path:
        with open(markdown_path, "w") as f:
            f.write(rep.markdown(rows, pipelines))
        print(f"markdown: {markdown_path}")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", nargs="*", choices=LIBS, default=list(LIBS))
    ap.add_argument("--only", nargs="*", default=[], help="substrings of 'lib.kernel[config]' to keep")
    ap.add_argument("--rows", metavar="FILE", help="keep only these kernel/configs: lines 'lib<TAB>kernel<TAB>[config]'")
    ap.add_argument("--list", action="store_true", help="list the captured kernel/configs and exit")
    ap.add_argument("--jobs", type=int, default=1, help="compile processes (forked)")
    ap.add_argument("--pipelines", nargs="*", default=list(DEFAULT_PIPELINES))
    ap.add_argument("--max-configs", type=int, default=4, help="configs of each autotune list (spread); 0: all")
    ap.add_argument("--csv", default="benchmarks/results/third_party.csv")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per kernel/config (all pipelines)")
    ap.add_argument("--skip-done", nargs="*", default=[], metavar="CSV",
                    help="skip the kernel/configs already in these CSVs (of a stopped run: CSV.partial)")
    ap.add_argument("--isa", action="store_true", help="also IGC's ISA figures (xpu_passes.integration.isa, ocloc)")
    ap.add_argument("--report", nargs="*", metavar="CSV", help="only summarize these CSVs (of earlier runs)")
    ap.add_argument("--dump-ttgir", metavar="DIR", help="only write ours' final TTGIR of each row to DIR (the first "
                    "of --pipelines; third_party_kernels/dump.py)")
    ap.add_argument("--changed", nargs=2, metavar=("OLD", "NEW"),
                    help="only print, as --rows lines, the rows whose TTGIR differs between two --dump-ttgir DIRs")
    ap.add_argument("--markdown", help="with --report: also write the README tables to this file")
    ap.add_argument("--phases", action="store_true",
                    help="only compile time: cold and warm (best of --repeat), CPU, ours split in phases "
                         "(third_party_kernels/timing.py), with the first of --pipelines")
    ap.add_argument("--cpu", action="store_true", help="compile times in CPU time of the compiling process, not wall time")
    ap.add_argument("--no-warmup", action="store_true",
                    help="no untimed compile of a corpus kernel each way in the parent: every row then also "
                         "pays each side's one-time start-up in its process")
    ap.add_argument("--repeat", type=int, default=3, help="with --phases: warm rounds per side")
    args = ap.parse_args(argv)
    if args.report:
        return report(args.report, args.markdown)
    if args.changed:
        from third_party_kernels import dump

        print("\n".join(dump.changed(*args.changed)))
        return 0
    problem = triton_is_intels()
    if problem:
        print(problem)
        return 1
    pipelines = tuple(args.pipelines)
    if args.isa:
        from xpu_passes.integration import isa

        ISA.enabled = isa.available()
        if not ISA.enabled:
            print(f"--isa: {isa.MISSING}; rows judged on the LLVM IR figures")
    launches, problems = capture_launches(args.lib, args.max_configs)
    launches = [x for x in launches if not args.only or any(s in x.name for s in args.only)]
    if args.rows:
        with open(args.rows) as f:
            keep = {tuple(ln.rstrip("\n").split("\t")) for ln in f if ln.strip()}
        launches = [x for x in launches if (x.lib, x.kernel, f"[{x.config}]") in keep]
    if args.list:
        for x in launches:
            print(f"{x.name}    <- {x.origin}")
        print(f"{len(launches)} kernel/configs")
        for lib, origin, why in problems:
            print(f"not captured: {lib} {origin}: {why}")
        return 0
    from xpu_passes.integration import plugin as triton_plugin
    from xpu_passes.transforms import load_all

    load_all()
    triton_plugin.use_offline_pvc_target()
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="xpu-passes-third-party-"))
    if args.cpu:
        Clock.now = staticmethod(time.process_time)  # (inherited by the forked rows)
    if not args.no_warmup:  # inherited by every row's forked process
        spent = warm_up(pipelines)
        print("warm-up (first compiles in this process, not counted): "
              + ", ".join(f"{side} {ms:.0f} ms" for side, ms in spent.items()), flush=True)
    if args.dump_ttgir:
        from third_party_kernels import dump

        return dump.run(launches, pipelines[0], args.dump_ttgir, args.timeout)
    if args.phases:
        from third_party_kernels import timing

        return timing.run(launches, pipelines[0], args.repeat, args.csv if args.csv != ap.get_default("csv") else None)
    rows = [Row(x.name, x.kernel, x.config, x.origin) for x in launches]
    # Libraries interleaved: a run stopped early has rows of each (CSV.partial).
    rank = Counter[str]()
    order = []
    for i, x in enumerate(launches):
        order.append((rank[x.lib], i))
        rank[x.lib] += 1
    done = _done(args.skip_done)
    order = [i for _, i in sorted(order) if (launches[i].lib, launches[i].kernel, launches[i].config) not in done]
    print(f"{len(launches)} kernel/configs; figures native/{'/'.join(pipelines)}", flush=True)
    results = runner.run(launches, order, pipelines, args.jobs, args.timeout)
    os.makedirs(os.path.dirname(args.csv) or ".", exist_ok=True)
    with open(args.csv + ".partial", "w", newline="") as partial:  # rows as they come: a stopped run keeps them
        w = csv.writer(partial)
        w.writerow(csv_head(pipelines))
        for i, res in results:
            rows[i].results = res
            print(fmt_row(rows[i], pipelines), flush=True)
            w.writerow(csv_cells(rows[i], pipelines))
            partial.flush()
    rows = [r for r in rows if r.results]
    write_csv(rows, pipelines, args.csv)
    os.remove(args.csv + ".partial")
    bad = summary(rows, problems, pipelines)
    print(f"CSV: {args.csv}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
