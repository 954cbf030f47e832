"""corpus_compare's rows out and back: the printed table, the CSV (written and read again), the
README markdown rows, the counts per pipeline and issue 29's GEMM/attention count."""

from __future__ import annotations

import csv
import statistics
from collections import Counter
from typing import Any

from xpu_passes.corpus import Config, KernelSpec
from xpu_passes.integration import isa, oracle

from corpus_verdicts import FIGURES, PIPELINES, Result, Row, better, worse_isa

ISA_COLUMNS = ("instructions", "spill_bytes", "block2d", "gathers", "scatters", "slm_messages", "dpas")


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
                    **{n: int(c[f"{key}_{n}"]) for n in FIGURES}, warps=config.num_warps)
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
    if not dots:  # e.g. --only on kernels without a tt.dot: nothing to count, ISA or not
        return ["GEMM/attention rows (a tt.dot in the kernel): 0; nothing to count"]
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
