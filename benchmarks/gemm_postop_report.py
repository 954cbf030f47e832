"""What `gemm_postop.py` prints and writes: a static Row per case and config (native's and ours'
figures, judged on the ISA or the LLVM IR), its table line, the CSV and PNG, issue 29's count,
and the line of a --run timing."""

from __future__ import annotations

import csv
from dataclasses import dataclass

from gemm_postop_cases import Problem, Timing

from xpu_passes.integration import isa, oracle


@dataclass
class Row:
    case: str
    dtype: str
    config: str
    native: oracle.StaticFigures
    ours: oracle.StaticFigures
    ms_native: float
    ms_ours: float
    isa_native: isa.IsaFigures | None = None
    isa_ours: isa.IsaFigures | None = None
    isa_error: str = ""  # IGC failed on ours (or on both)
    dot: bool = True  # the kernel's TTIR has a tt.dot (a GEMM row of issue 29's count)

    def judged(self) -> tuple[str, list[str]]:
        """("ok" | "WORSE" | "TRADE", what ours loses): on the ISA when both have one."""
        n, o = self.native, self.ours
        if self.isa_native and self.isa_ours:
            return isa.judge(self.isa_native, self.isa_ours, *self.slm())
        if self.isa_error and self.isa_native:
            return "WORSE", [self.isa_error]
        lost = [name for name, bad in (("SLM", o.shared_bytes > n.shared_bytes), ("converts", o.converts > n.converts),
                                       ("2D reads", o.block_reads < n.block_reads), ("DPAS", o.dpas < n.dpas),
                                       ("block-io loads", o.block_io_loads < n.block_io_loads)) if bad]  # fmt: skip
        return ("WORSE" if lost else "ok"), lost

    @property
    def worse(self) -> bool:
        return self.judged()[0] == "WORSE"

    def better(self) -> list[str]:
        """What ours wins at the ISA where it loses nothing (isa.strictly_better); else []."""
        if not (self.isa_native and self.isa_ours):
            return []
        return isa.gains(self.isa_native, self.isa_ours, *self.slm()) if isa.strictly_better(
            self.isa_native, self.isa_ours, *self.slm()) else []  # fmt: skip

    def slm(self) -> tuple[int, int, int]:
        """isa.judge's SLM arguments: both sides' SLM bytes and the kernel's warps (0: unknown)."""
        return self.native.shared_bytes, self.ours.shared_bytes, self.native.warps or self.ours.warps


def dot_count(rows: list[Row], pipeline: str = "xpu") -> str:
    """Issue 29's count on the GEMM rows (a tt.dot in the kernel): strictly better than native at the
    ISA on at least a third, worse on none."""
    dots = [r for r in rows if r.dot]
    if not any(r.isa_native for r in dots):
        return f"GEMM rows (a tt.dot in the kernel): {len(dots)}; no ISA figures: better not counted"
    won = sum(bool(r.better()) for r in dots)
    verdicts = [r.judged()[0] for r in dots]
    return (f"GEMM rows (a tt.dot in the kernel): {len(dots)}; {pipeline} strictly better than native at the ISA "
            f"on {won} ({100 * won / max(len(dots), 1):.0f}%; goal >= {-(-len(dots) // 3)}), worse on "
            f"{verdicts.count('WORSE')}, trade {verdicts.count('TRADE')}")  # fmt: skip


# Each figure column is `native/ours`; `!` marks SLM over PVC's 128 KB.
HEADER = (f"{'case':22} {'dtype':5} {'config':20} {'SLM native/ours':>21} {'cvt n/o':>7}  "
          f"{'2D-block-I/O loads/loads n->o':>29}  {'2D reads n/o':>12} {'writes n/o':>10}  {'DPAS n/o':>9}  "
          f"{'compile ms n/o':>14} {'o/n':>5}")


def format_row(r: Row) -> str:
    n, o = r.native, r.ours

    def slm(f: oracle.StaticFigures) -> str:
        return f"{f.shared_bytes}{'' if f.fits_slm else '!'}"

    return (f"{r.case:22} {r.dtype:5} {r.config:20} {slm(n) + '/' + slm(o):>21} {f'{n.converts}/{o.converts}':>7}  "
            f"{f'{n.block_io_loads}/{n.loads}->{o.block_io_loads}/{o.loads}':>29}  "
            f"{f'{n.block_reads}/{o.block_reads}':>12} {f'{n.block_writes}/{o.block_writes}':>10}  "
            f"{f'{n.dpas}/{o.dpas}':>9}  {f'{r.ms_native:.0f}/{r.ms_ours:.0f}':>14} "
            f"x{r.ms_ours / r.ms_native:4.2f}{'  WORSE' if r.worse else ''}" + format_isa(r))


def format_isa(r: Row) -> str:
    """The ISA line (native/ours) and, when ours loses, what it loses; "" without ISA figures."""
    out = f"\n    ISA {isa.columns(r.isa_native, r.isa_ours)}" if r.isa_native or r.isa_ours or r.isa_error else ""
    verdict, lost = r.judged()
    won = r.better()
    return out + (f"\n    {verdict}: {'; '.join(lost)}" if verdict != "ok" else "") + (
        f"\n    better: {', '.join(won)}" if won else "")


def write_csv(rows: list[Row], path: str) -> None:
    fields = ["shared_bytes", "converts", "loads", "block_io_loads", "block_reads", "block_writes", "dpas", "warps"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "dtype", "config", *(f"native_{k}" for k in fields), *(f"ours_{k}" for k in fields),
                    "ms_native", "ms_ours", *(f"{who}_isa_{k}" for who in ("native", "ours") for k in isa.FIGURE_NAMES),
                    "isa_error", "verdict", "lost", "better"])  # fmt: skip
        for r in rows:
            figs = [f.as_dict() if f else {} for f in (r.isa_native, r.isa_ours)]
            verdict, lost = r.judged()
            w.writerow([r.case, r.dtype, r.config, *(getattr(r.native, k) for k in fields),
                        *(getattr(r.ours, k) for k in fields), f"{r.ms_native:.1f}", f"{r.ms_ours:.1f}",
                        *(f.get(k, "") for f in figs for k in isa.FIGURE_NAMES), r.isa_error[:300], verdict,
                        "; ".join(lost), "; ".join(r.better())])  # fmt: skip


def write_png(rows: list[Row], path: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: pip install matplotlib for the chart)")
        return False
    labels = [f"{r.case} {r.dtype} {r.config}" for r in rows]
    fig, ax = plt.subplots(figsize=(12, max(4, len(rows) * 0.22)))
    y = range(len(rows))
    ax.barh([i + 0.2 for i in y], [r.native.shared_bytes / 1024 for r in rows], 0.4, label="native")
    ax.barh([i - 0.2 for i in y], [r.ours.shared_bytes / 1024 for r in rows], 0.4, label="xpu-passes")
    ax.axvline(128, color="red", linestyle="--", label="PVC SLM (128 KB)")
    ax.set_yticks(list(y), labels, fontsize=6)
    ax.set_xlabel("SLM per work-group (KB)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True



def format_run_row(p: Problem, native: Timing, ours: Timing) -> str:
    def side(t: Timing) -> str:
        if t.ms is None:
            return f"{'(no config ran)':>44}"
        return f"{t.config:>18} {t.ms:8.3f} ms {t.tflops(p):6.1f} TF {t.gbps(p):7.1f} GB/s"

    speedup = f"x{native.ms / ours.ms:5.2f}" if native.ms and ours.ms else "   -  "
    return f"{p.case:22} {p.dtype:5} {p.shape:>18} | native {side(native)} | ours {side(ours)} | {speedup}"
