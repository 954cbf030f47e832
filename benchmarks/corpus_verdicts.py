"""corpus_compare's judge: one compile's result (figures, ISA, error), a row of native / ours /
ours+raising, and when ours is worse, failing, a trade or strictly better than native."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from xpu_passes.corpus import Config, KernelSpec
from xpu_passes.integration import isa, oracle

# `xpu` raises by default: "ours" is the pipeline without raising, "raise" the default one.
PIPELINES = {"ours": "xpu:raise_block_pointer=false", "raise": "xpu"}
FIGURES = ("shared_bytes", "converts", "block_reads", "block_writes", "dpas")


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
    return isa.judge(native.isa, ours.isa, *_slm(native, ours))[1]


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
        return isa.judge(native.isa, ours.isa, *_slm(native, ours))[0]
    return "WORSE" if worse_figures(native.figures, ours.figures) else "ok"


def better(native: Result, ours: Result) -> list[str]:
    """What ours wins at the ISA where it loses nothing (strictly better, isa.strictly_better); else []."""
    if native.isa is None or ours.isa is None or native.figures is None or ours.figures is None:
        return []
    slm = _slm(native, ours)
    return isa.gains(native.isa, ours.isa, *slm) if isa.strictly_better(native.isa, ours.isa, *slm) else []


def _slm(native: Result, ours: Result) -> tuple[int, int, int]:
    """isa.judge's SLM arguments: both sides' SLM bytes and the kernel's warps (0: unknown)."""
    assert native.figures is not None and ours.figures is not None
    return native.figures.shared_bytes, ours.figures.shared_bytes, native.figures.warps or ours.figures.warps

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
