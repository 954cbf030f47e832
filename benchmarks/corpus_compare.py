"""The whole corpus, natively and through ours, side by side: is ours ever worse than native?

    python benchmarks/corpus_compare.py [--set all|core|workloads] [--only KERNEL ...] [--repeat N]
                                        [--csv F] [--markdown F] [--no-explain]
    python benchmarks/corpus_compare.py --from-csv F [--markdown F]   # count a CSV again, no compile

Every kernel/config of the corpus (src/xpu_passes/corpus: the core set and the workload
families) is compiled for PVC on the CPU through `triton.compile` (the backend's stages
TTIR -> TTGIR -> LLVM IR -> SPIR-V) three ways, interleaved: triton-xpu's own pipeline,
ours (`xpu`) and ours with raising (`xpu:raise_block_pointer`), both STRICT: a failure of
ours is a failure (no native fallback). Figures: SLM bytes (metadata "shared"; `!` = over
PVC's 128 KB), ttg.convert_layout in the final TTGIR, 2D block reads/writes and DPAS calls
in the LLVM IR, compile time (median of --repeat, and ours / native).

With Intel's GPU compiler installed (`ocloc`, tools/install-igc), every SPIR-V is also
compiled for PVC by IGC and the row shows its ISA figures (instructions, spill bytes, 2D
block loads+prefetches/stores, gathers/scatters, SLM messages, DPAS; see
xpu_passes.integration.isa), and the row is judged on them: WORSE when ours needs more SLM
bytes, or has more spill bytes, SLM messages, gathers or scatters, fewer 2D block messages
or DPAS, or more than 5% more instructions; TRADE (not worse) when those losses buy an SLM
footprint that fits PVC's 128 KB where native's does not (native cannot launch). Without
ocloc the row is judged on the LLVM IR, as follows. A row is WORSE when ours needs more SLM
or conversions, or has fewer 2D block reads/writes or DPAS calls than native; FAIL when
ours raises where native compiles (or IGC fails on ours only). For those rows the
reason is printed: the error, or the ops that consume ours' extra conversions, our passes'
remarks, and whether `rlc=last` (ours only at the last RemoveLayoutConversions) or
`block_io_encoding=false` clears it. Writes a CSV; exits 1 if any row is WORSE or FAIL.

Last, issue 29's count per pipeline: of the GEMM/attention rows (those whose kernel has a
tt.dot in its TTIR), how many are strictly better than native at the ISA (nothing worse by
the judge, at least one figure better by its thresholds mirrored: isa.strictly_better), and
how many worse; each better row with what it wins; then the rows where raising loses an ISA
figure to `xpu` itself.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from xpu_passes.corpus import SETS, Config, KernelSpec
from xpu_passes.integration import isa, oracle

PIPELINES = {"ours": "xpu", "raise": "xpu:raise_block_pointer"}
FIGURES = ("shared_bytes", "converts", "block_reads", "block_writes", "dpas")
EXPLAIN = {"rlc=last": "rlc=last", "no block-io encoding": "block_io_encoding=false"}
ISA_COLUMNS = ("instructions", "spill_bytes", "block2d", "gathers", "scatters", "slm_messages", "dpas")
OCLOC: str | None = None  # set by main(): IGC's ocloc, or None (judge on the LLVM IR)


@dataclass
class Result:
    """One compile: its figures, or the error that stopped it."""

    figures: oracle.StaticFigures | None = None
    error: str = ""
    isa: isa.IsaFigures | None = None
    isa_error: str = ""
    ms: list[float] = field(default_factory=list)
    ttgir: str = ""
    remarks: list[str] = field(default_factory=list)
    dot: bool = False  # the kernel's TTIR has a tt.dot: a GEMM/attention row

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms) if self.ms else float("nan")


def worse_figures(native: oracle.StaticFigures, ours: oracle.StaticFigures) -> list[str]:
    """The figures in which `ours` loses to `native` (empty: never worse)."""
    out = []
    if ours.shared_bytes > native.shared_bytes:
        out.append(f"SLM {native.shared_bytes}->{ours.shared_bytes}")
    if ours.converts > native.converts:
        out.append(f"converts {native.converts}->{ours.converts}")
    for name in ("block_reads", "block_writes", "dpas"):
        if getattr(ours, name) < getattr(native, name):
            out.append(f"{name} {getattr(native, name)}->{getattr(ours, name)}")
    return out


def worse_isa(native: Result, ours: Result) -> list[str] | None:
    """The ISA figures (and SLM bytes) in which ours loses; None when either has no ISA."""
    if native.isa is None or ours.isa is None or native.figures is None or ours.figures is None:
        return None
    return isa.judge(native.isa, ours.isa, native.figures.shared_bytes, ours.figures.shared_bytes)[1]


def worse(native: Result, ours: Result) -> list[str]:
    """What ours loses: on the ISA when both have one, else on the LLVM IR figures."""
    assert native.figures is not None and ours.figures is not None
    on_isa = worse_isa(native, ours)
    return worse_figures(native.figures, ours.figures) if on_isa is None else on_isa


def verdict(native: Result, ours: Result) -> str:
    if native.figures is None:
        return "native fails"
    if ours.figures is None or (ours.isa_error and not native.isa_error):
        return "FAIL"
    if native.isa is not None and ours.isa is not None:
        return isa.judge(native.isa, ours.isa, native.figures.shared_bytes, ours.figures.shared_bytes)[0]
    return "WORSE" if worse_figures(native.figures, ours.figures) else "ok"


def better(native: Result, ours: Result) -> list[str]:
    """What ours wins at the ISA where it loses nothing (strictly better, isa.strictly_better); else []."""
    if native.isa is None or ours.isa is None or native.figures is None or ours.figures is None:
        return []
    slm = (native.figures.shared_bytes, ours.figures.shared_bytes)
    return isa.gains(native.isa, ours.isa, *slm) if isa.strictly_better(native.isa, ours.isa, *slm) else []


_CVT = re.compile(r"(%[\w#]+) = ttg\.convert_layout ")


def conversion_users(ttgir: str) -> Counter[str]:
    """For each ttg.convert_layout, the op that first uses its result: what needed the conversion."""
    lines = ttgir.splitlines()
    users: Counter[str] = Counter()
    for i, line in enumerate(lines):
        m = _CVT.search(line)
        if not m:
            continue
        use = re.compile(re.escape(m.group(1)) + r"\b")
        user = next((ln for ln in lines[i + 1 :] if use.search(ln.split("=", 1)[-1])), "")
        op = re.search(r"\b((?:tt|ttg|ttig|arith|math|scf|cf)\.\w+)", user.split("=", 1)[-1] if "=" in user else user)
        users[op.group(1) if op else "?"] += 1
    return users


# ---------------------------------------------------------------- compiling


def compile_once(spec: KernelSpec, config: Config, pipeline: str | None, with_isa: bool = True) -> Result:
    """triton.compile for PVC with `pipeline` (None: native), strict; errors are results.
    With OCLOC set and `with_isa`, also IGC's ISA figures of the kernel (not timed)."""
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.integration import plugin as triton_plugin
    from xpu_passes.transforms.base import RemarkSink, collecting_remarks

    triton_plugin.disable()
    sink = RemarkSink()
    if pipeline is not None:
        name, options = triton_plugin.parse_spec(pipeline)
        triton_plugin.enable(name, strict=True, **options)
    src = ASTSource(spec.fn, spec.signature(), dict(config.constexprs), spec.attrs())
    opts = dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large")
    t = time.perf_counter()
    try:
        with collecting_remarks(sink) if pipeline is not None else contextlib.nullcontext():
            k = triton.compile(src, target=oracle.pvc_target(), options=opts)
        ms = (time.perf_counter() - t) * 1e3
        figures = oracle.figures(k.asm["ttgir"], k.asm["llir"], k.metadata.shared)
        result = Result(figures, ms=[ms], ttgir=k.asm["ttgir"], dot="tt.dot" in k.asm["ttir"])
        if OCLOC is not None and with_isa:
            try:
                result.isa = isa.compile_spirv(*oracle.spirv(k), ocloc=OCLOC)
            except isa.IsaError as e:
                result.isa_error = str(e)
    except Exception as e:  # noqa: BLE001 - every failure is a row of the table
        text = str(e).strip() or type(e).__name__
        result = Result(error=f"{type(e).__name__}: {text}")
    finally:
        triton_plugin.disable()
    result.remarks = [f"{r.pass_name}: {r.message}" for r in sink.remarks]
    return result


@dataclass
class Row:
    spec: KernelSpec
    config: Config
    results: dict[str, Result]  # "native", "ours", "raise"
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def case(self) -> str:
        return f"{self.spec.name}-{self.config.name}"

    def verdicts(self) -> dict[str, str]:
        return {p: verdict(self.results["native"], self.results[p]) for p in PIPELINES}

    @property
    def dot(self) -> bool:
        return self.results["native"].dot


def measure(spec: KernelSpec, config: Config, repeat: int) -> Row:
    """Native, ours and ours+raising, interleaved `repeat` times."""
    results: dict[str, Result] = {}
    for i in range(repeat):
        for key, pipeline in (("native", None), *PIPELINES.items()):
            r = compile_once(spec, config, pipeline) if i == 0 else compile_once(spec, config, pipeline, with_isa=False)
            if key not in results:
                results[key] = r
            else:
                results[key].ms += r.ms
    return Row(spec, config, results)


def explain(row: Row, which: str) -> str:
    """Why ours (or ours+raising) is worse or fails on `row`."""
    native, ours = row.results["native"], row.results[which]
    if ours.figures is None:
        return ours.error.splitlines()[0][:400]
    if ours.isa_error and not native.isa_error:
        return ours.isa_error[:400]
    assert native.figures is not None
    parts = worse(native, ours)
    extra = conversion_users(ours.ttgir) - conversion_users(native.ttgir)
    if extra:
        parts.append("extra conversions before " + ", ".join(f"{op} x{n}" for op, n in extra.items()))
    elif ours.figures.shared_bytes > native.figures.shared_bytes:
        parts.append("no extra conversion: the scratch of a reduce/scan (or a layout it is given)")
    base = PIPELINES[which]
    for label, option in EXPLAIN.items():
        spec = f"{base}{',' if ':' in base else ':'}{option}"
        trial = compile_once(row.spec, row.config, spec)
        if trial.figures is not None and not worse(native, trial):
            parts.append(f"not worse with {label}")
    # The remarks about the ops that needed the extra conversions, else the commonest refusal.
    notes = Counter(r for r in ours.remarks if any(f"'{op}'" in r for op in extra)) or Counter(
        r for r in ours.remarks if "cannot" in r or "left alone" in r
    )
    parts += [f"remark ({n}x) {r[:300]}" for r, n in notes.most_common(1)]
    return "; ".join(parts)


def _ttir_has_dot(spec: KernelSpec, config: Config) -> bool:
    from xpu_passes.corpus import make_ttir_module

    return "tt.dot" in str(make_ttir_module(spec, config)[0])


def read_csv(path: str) -> list[Row]:
    """The rows of a CSV this script wrote, without compiling (to count or tabulate a long run again);
    a CSV without the `dot` column gets it from each kernel's TTIR."""
    from xpu_passes.corpus import find

    rows = []
    with open(path, newline="") as f:
        for c in csv.DictReader(f):
            spec, config = find(c["kernel"], c["config"])
            results = {}
            for key in ("native", *PIPELINES):
                figs = None if c[f"{key}_shared_bytes"] == "-" else oracle.StaticFigures(
                    **{n: int(c[f"{key}_{n}"]) for n in FIGURES})
                codes = None if not c[f"{key}_isa_instructions"] else isa.IsaFigures(
                    **{n: int(c[f"{key}_isa_{n}"]) for n in isa.FIGURE_NAMES})
                ms = float(c[f"{key}_ms"])
                results[key] = Result(figs, c[f"{key}_error"], codes, c[f"{key}_isa_error"], [] if ms != ms else [ms])
            results["native"].dot = c["dot"] == "1" if "dot" in c else _ttir_has_dot(spec, config)
            rows.append(Row(spec, config, results, {p: c[f"{p}_reason"] for p in PIPELINES if c[f"{p}_reason"]}))
    return rows


def dot_summary(rows: list[Row]) -> list[str]:
    """Issue 29's count: of the GEMM/attention rows (a tt.dot in the kernel's TTIR), how many each
    pipeline makes strictly better than native at the ISA (isa.strictly_better), and how many worse;
    the goal is a third better, none worse."""
    dots = [r for r in rows if r.dot]
    if not any(r.results["native"].isa for r in dots):
        return [f"GEMM/attention rows (a tt.dot in the kernel): {len(dots)}; no ISA figures: better not counted"]
    out = [f"GEMM/attention rows (a tt.dot in the kernel): {len(dots)}; goal: strictly better than native "
           f"at the ISA on >= {-(-len(dots) // 3)}, worse on none"]  # fmt: skip
    for p, pipeline in PIPELINES.items():
        won = {r.case: better(r.results["native"], r.results[p]) for r in dots}
        won = {case: gains for case, gains in won.items() if gains}
        v = Counter(r.verdicts()[p] for r in dots)
        out.append(f"{pipeline:26} strictly better {len(won):3} ({100 * len(won) / len(dots):.0f}%)  "
                   f"worse {v['WORSE']:3}  failing {v['FAIL']:3}  trade {v['TRADE']:3}  "
                   f"equal {v['ok'] - len(won):3}")  # fmt: skip
        out += [f"    better: {case}: {', '.join(gains)}" for case, gains in won.items()]
    return out


# ---------------------------------------------------------------- printing


def _slm(f: oracle.StaticFigures | None) -> str:
    if f is None:
        return "-"
    return f"{f.shared_bytes}{'' if f.fits_slm else '!'}"


def _fig(f: oracle.StaticFigures | None, name: str) -> str:
    return "-" if f is None else str(getattr(f, name))


def _isa(r: Result, name: str) -> str:
    if r.isa is None:
        return "x" if r.isa_error else "-"
    if name == "block2d":  # loads and prefetches + stores
        return f"{r.isa.block2d_loads + r.isa.block2d_prefetches}+{r.isa.block2d_stores}"
    return str(getattr(r.isa, name))


def format_isa(row: Row) -> str:
    """The row's ISA figures, native/ours/raise (x: IGC failed), on a line of its own."""
    return "    ISA " + isa.columns(*(row.results[k].isa for k in ("native", *PIPELINES)))


HEADER = (f"{'kernel-config':46} {'SLM native/ours/raise':>24} {'cvt':>8} {'2D reads':>10} {'2D writes':>10} "
          f"{'DPAS':>11} {'ms native':>9} {'x ours':>6} {'x raise':>7}  verdict")  # fmt: skip


def format_row(row: Row) -> str:
    n, o, r = (row.results[k].figures for k in ("native", "ours", "raise"))

    def three(name: str) -> str:
        return "/".join(_fig(f, name) for f in (n, o, r))

    ms = {k: v.median_ms for k, v in row.results.items()}
    v = row.verdicts()
    verdicts = "ok" if set(v.values()) == {"ok"} else " ".join(f"{k}:{x}" for k, x in v.items() if x != "ok")
    return (f"{row.case:46} {'/'.join(_slm(f) for f in (n, o, r)):>24} {three('converts'):>8} "
            f"{three('block_reads'):>10} {three('block_writes'):>10} {three('dpas'):>11} {ms['native']:9.0f} "
            f"{ms['ours'] / ms['native']:6.2f} {ms['raise'] / ms['native']:7.2f}  {verdicts}"
            + ("\n" + format_isa(row) if any(r.isa or r.isa_error for r in row.results.values()) else ""))  # fmt: skip


def write_csv(rows: list[Row], path: str) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        head = ["kernel", "config", "dtypes"]
        for key in ("native", *PIPELINES):
            head += [f"{key}_{name}" for name in FIGURES] + [f"{key}_ms", f"{key}_error"]
        head += [f"{p}_verdict" for p in PIPELINES] + [f"{p}_reason" for p in PIPELINES]
        head += ["dot"] + [f"{p}_better" for p in PIPELINES]
        w.writerow(head + [f"{k}_isa_{n}" for k in ("native", *PIPELINES) for n in (*isa.FIGURE_NAMES, "error")])
        for row in rows:
            cells: list[Any] = [row.spec.name, row.config.name, " ".join(f"{k}:{v}" for k, v in row.spec.dtypes.items())]
            for key in ("native", *PIPELINES):
                res = row.results[key]
                cells += [_fig(res.figures, name) for name in FIGURES] + [f"{res.median_ms:.1f}", res.error[:300]]
            v = row.verdicts()
            cells += [v[p] for p in PIPELINES] + [row.reasons.get(p, "") for p in PIPELINES]
            cells += [int(row.dot)] + ["; ".join(better(row.results["native"], row.results[p])) for p in PIPELINES]
            for key in ("native", *PIPELINES):
                res = row.results[key]
                figs = res.isa.as_dict() if res.isa else {}
                cells += [figs.get(n, "") for n in isa.FIGURE_NAMES] + [res.isa_error[:300]]
            w.writerow(cells)


def write_markdown(rows: list[Row], path: str) -> None:
    """README table rows: one per kernel/config, figures native / ours / ours+raising."""

    def cell(row: Row, name: str) -> str:
        vals = [_fig(row.results[k].figures, name) for k in ("native", *PIPELINES)]
        if name == "shared_bytes":
            vals = [f"{int(v):,}{' !' if int(v) > 128 * 1024 else ''}" if v != "-" else v for v in vals]
        return " / ".join(vals)

    def isa_cells(row: Row) -> str:
        return "".join(" / ".join(_isa(row.results[k], n) for k in ("native", *PIPELINES)) + " | "
                       for n in ISA_COLUMNS[:-1])  # fmt: skip

    with_isa = any(r.isa for row in rows for r in row.results.values())
    isa_head = "ISA instrs | spill B | 2D l+s | gathers | scatters | SLM msgs | " if with_isa else ""
    with open(path, "w") as f:
        f.write(f"| kernel (dtypes) | config | SLM native / ours / +raise | converts | 2D reads | 2D writes | DPAS "
                f"| {isa_head}compile x | verdict (ours, +raise) |\n|---|---|---:|---|---|---|---|"
                f"{'---|' * (6 if with_isa else 0)}---|---|\n")
        for row in rows:
            v = row.verdicts()
            ms = {k: r.median_ms / row.results["native"].median_ms for k, r in row.results.items()}
            dtypes = ",".join(sorted(set(row.spec.dtypes.values())))
            verdict = ", ".join(v.values()) if set(v.values()) != {"ok"} else "ok"
            reason = "; ".join(f"{p}: {r}" for p, r in row.reasons.items() if r)
            f.write(f"| {row.spec.name} ({dtypes}) | {row.config.name} | {cell(row, 'shared_bytes')} "
                    f"| {cell(row, 'converts')} | {cell(row, 'block_reads')} | {cell(row, 'block_writes')} "
                    f"| {cell(row, 'dpas')} | {isa_cells(row) if with_isa else ''}"
                    f"{ms['ours']:.1f} / {ms['raise']:.1f} | {verdict}"
                    f"{' - ' + reason.replace('|', '/') if reason else ''} |\n")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=sorted(SETS), default="all")
    ap.add_argument("--only", nargs="*", default=[], help="kernel spec names")
    ap.add_argument("--repeat", type=int, default=1, help="compiles of each case per pipeline (median ms)")
    ap.add_argument("--csv", default="benchmarks/results/corpus_compare.csv")
    ap.add_argument("--markdown", help="also write the table as README (markdown) rows to this file")
    ap.add_argument("--ocloc", help="IGC's ocloc (default: on PATH, else tools/install-igc's)")
    ap.add_argument("--no-explain", action="store_true", help="skip the reasons (extra compiles of bad rows)")
    ap.add_argument("--from-csv", metavar="CSV", help="count (and --markdown) the rows of a CSV this wrote; no compile")
    args = ap.parse_args(argv)
    if args.from_csv:
        rows = read_csv(args.from_csv)
        if args.markdown:
            write_markdown(rows, args.markdown)
        return summarize(rows, args.from_csv)

    from xpu_passes.integration import plugin as triton_plugin
    from xpu_passes.transforms import load_all

    load_all()
    global OCLOC
    OCLOC = isa.ocloc_path(args.ocloc)
    print(f"ISA: IGC {OCLOC}: rows judged on the ISA" if OCLOC else f"{isa.MISSING}; rows judged on the LLVM IR")
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # no cached kernel: every compile is timed
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="xpu-passes-corpus-compare-"))
    triton_plugin.use_offline_pvc_target()
    rows: list[Row] = []
    print(HEADER, flush=True)
    for spec in SETS[args.set]:
        if args.only and spec.name not in args.only:
            continue
        for config in spec.configs:
            row = measure(spec, config, args.repeat)
            rows.append(row)
            print(format_row(row), flush=True)
            for p, v in row.verdicts().items():
                if v in ("WORSE", "FAIL"):
                    row.reasons[p] = "" if args.no_explain else explain(row, p)
                    print(f"    {p}: {v}: {row.reasons[p]}", flush=True)
                elif v == "TRADE":
                    native = row.results["native"]
                    row.reasons[p] = f"native needs {native.figures.shared_bytes} B of SLM (over 128 KB); ours " + \
                        "; ".join(worse(native, row.results[p]))
                    print(f"    {p}: {v}: {row.reasons[p]}", flush=True)
    os.makedirs(os.path.dirname(args.csv) or ".", exist_ok=True)
    write_csv(rows, args.csv)
    if args.markdown:
        write_markdown(rows, args.markdown)
    return summarize(rows, args.csv)


def summarize(rows: list[Row], csv_path: str) -> int:
    """Counts per pipeline, the worse rows' names, the GEMM/attention count; exit status 1 if any row is
    WORSE or FAIL."""
    counts = {p: Counter(r.verdicts()[p] for r in rows) for p in PIPELINES}
    ratios = {p: [r.results[p].median_ms / r.results["native"].median_ms for r in rows
                  if r.results[p].ms and r.results["native"].ms] for p in PIPELINES}  # fmt: skip
    print(f"{len(rows)} kernel/configs; CSV: {csv_path}")
    for p in PIPELINES:
        c = counts[p]
        print(f"{PIPELINES[p]:26} worse {c['WORSE']:3}  failing {c['FAIL']:3}  ok {c['ok']:3}  trade {c['TRADE']:3}  "
              f"(native fails {c['native fails']})  median compile time x{statistics.median(ratios[p] or [float('nan')]):.2f}")
    for p in PIPELINES:
        bad = [f"{r.case} ({r.verdicts()[p]})" for r in rows if r.verdicts()[p] in ("WORSE", "FAIL")]
        if bad:
            print(f"{PIPELINES[p]} worse or failing: {', '.join(bad)}")
    if any(c["TRADE"] for c in counts.values()):
        print(isa.TRADE_NOTE)
    print("\n".join(dot_summary(rows)))
    lost = {r.case: worse_isa(r.results["ours"], r.results["raise"]) for r in rows}
    lost = {case: w for case, w in lost.items() if w}
    print(f"{PIPELINES['raise']} vs {PIPELINES['ours']} at the ISA: worse on {len(lost)}"
          + "".join(f"\n    {case}: {', '.join(w)}" for case, w in lost.items()))
    return 1 if any(c["WORSE"] or c["FAIL"] for c in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
