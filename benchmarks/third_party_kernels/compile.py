"""Compile one captured launch for PVC offline, natively or with one of our pipelines, and judge rows.

TTIR -> TTGIR -> LLVM IR through the Intel backend's own stages, as `triton.compile` runs them (the
front end's TTIR built outside the clock, SPIR-V not made: it adds nothing to the figures); ours in
the TTGIR stage as the plugin runs it, strict (a failure of ours is a failure, no native fallback).
Figures and verdicts are corpus_compare's (`oracle.figures`; `corpus_verdicts.verdict`: on IGC's ISA
figures when both sides have them, as issue 28 judges, else on the LLVM IR figures).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from typing import Any

import corpus_verdicts
from corpus_compare import Result

from .capture import Launch

NATIVE = "native"


def make_ir(launch: Launch) -> tuple[Any, Any, Any]:
    """(TTIR module as the front end builds it, options, PVC backend)."""
    from triton.compiler.compiler import ASTSource

    from xpu_passes.integration import oracle

    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(launch.options))
    src = ASTSource(launch.fn, dict(launch.signature), dict(launch.constexprs), dict(launch.attrs))
    mod = src.make_ir(opts, backend.get_codegen_implementation(opts), backend.get_module_map(), oracle.context())
    return mod, opts, backend


def compile_launch(launch: Launch, pipeline: str | None) -> Result:
    """One compile (`pipeline` None: triton-xpu's own); its figures and ms, or the error as the result
    (with the first assertion or error MLIR printed, captured from fd 2)."""
    from xpu_passes.integration import oracle

    with oracle.captured_stderr() as captured:
        result = _compile(launch, pipeline)
    diagnostics = "".join(captured).splitlines()
    if result.error:  # MLIR reports on fd 2 what stopped it; the exception only says that it failed
        reason = next((ln for ln in diagnostics if _REASON.search(ln)), "")
        if reason and reason not in result.error:
            result.error = f"{result.error.splitlines()[0]} [{_short_reason(reason)}]"
    return result


_REASON = re.compile(r"Assertion .* failed|LLVM ERROR|error: (?!Failures have been detected)")


def _short_reason(line: str) -> str:
    line = re.sub(r"^.*?(Assertion|LLVM ERROR)", r"\1", line)
    return re.sub(r"^\S*site-packages/", "", line.strip())[:300]


def _plan(pipeline: str | None) -> Any:
    """The plugin's plan for a pipeline spec (`xpu:option=value`), None for native."""
    from xpu_passes.integration.pipeline import plan
    from xpu_passes.integration.plugin import parse_spec

    if pipeline is None:
        return None
    name, options = parse_spec(pipeline)
    return plan(name, **options)


def _to_ttgir(p: Any, mod: Any, md: dict[str, Any], opts: Any, backend: Any) -> Any:
    """TTIR and TTGIR stages of `mod`: triton-xpu's own (p None) or with the plan's passes (strict)."""
    from xpu_passes.integration.plugin import compile_ttgir

    mod = backend.make_ttir(mod, md, opts)
    if p is None:
        return backend.make_ttgir(mod, md, opts, backend.properties)
    return compile_ttgir(p, True, backend.make_ttgir, mod, md, opts, backend.properties)


def _compile(launch: Launch, pipeline: str | None) -> Result:
    from xpu_passes.integration import oracle

    try:
        mod, opts, backend = make_ir(launch)
        md: dict[str, Any] = {}
        p = _plan(pipeline)
        t0 = Clock.now()
        mod = _to_ttgir(p, mod, md, opts, backend)
        t1 = Clock.now()
        ttgir = str(mod)  # outside the clock: not part of what triton does
        t2 = Clock.now()
        llir = backend.make_llir(mod, md, opts)
        ms = (t1 - t0 + Clock.now() - t2) * 1e3
        figures = oracle.figures(ttgir, llir, int(md.get("shared") or 0))
        figures.extra.update(isa_figures(llir, md, opts, backend))
        return Result(figures, ms=[ms], ttgir=ttgir, **isa_result(figures.extra))
    except Exception as e:  # noqa: BLE001 - every failure is a row of the table
        text = str(e).strip() or type(e).__name__
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) > 1 and lines[0].startswith("at "):  # a front-end error: where, then the source, then what
            text = f"{lines[0]} {lines[-1].strip()}\n{text}"
        return Result(error=f"{type(e).__name__}: {text}")


def isa_figures(llir: str, md: dict[str, Any], opts: Any, backend: Any) -> dict[str, Any]:
    """IGC's ISA figures of the kernel (xpu_passes.integration.isa, through ocloc), outside the clock.

    Without ocloc, or ISA figures not asked for (ISA.enabled), the row has none. Its figures go to `extra`."""
    if not ISA.enabled:
        return {}
    from xpu_passes.integration import isa

    spv = backend.make_spv(llir, md, opts)  # (also names the kernel in `md`)
    key = hashlib.sha256(f"{md['name']}\0{md.get('build_flags', '')}\0".encode() + spv).hexdigest()
    if key not in _ISA_SEEN:  # the same SPIR-V (ours left the kernel as native's): the same ISA, IGC once
        try:
            _ISA_SEEN[key] = {f"isa_{k}": v for k, v in
                              isa.compile_spirv(spv, md.get("build_flags", ""), md["name"]).as_dict().items()}
        except isa.IsaError as e:
            _ISA_SEEN[key] = {"isa_error": str(e).splitlines()[0][:200]}
    return dict(_ISA_SEEN[key])


def isa_result(extra: dict[str, Any]) -> dict[str, Any]:
    """`Result`'s isa / isa_error fields from the `isa_*` entries of a compile's extra figures (empty:
    no ISA asked for or ocloc absent)."""
    from xpu_passes.integration import isa

    if "isa_error" in extra:
        return {"isa_error": str(extra["isa_error"])}
    if not all(f"isa_{k}" in extra for k in isa.FIGURE_NAMES):
        return {}
    return {"isa": isa.IsaFigures(**{k: int(extra[f"isa_{k}"]) for k in isa.FIGURE_NAMES})}


# SPIR-V digest -> its ISA figures, within one row's process (a forked row starts empty).
_ISA_SEEN: dict[str, dict[str, Any]] = {}


class Clock:
    """What a compile's ms are measured on: wall time, or with --cpu this process's CPU time (steadier
    when other jobs share the machine; triton's passes and ours run in the compiling thread)."""

    now = staticmethod(time.perf_counter)


class ISA:
    """Whether compiles also ask IGC for ISA figures (--isa: slow, seconds per kernel)."""

    enabled = False


@dataclass
class Row:
    """One kernel/config: its results per pipeline ("native" and each of ours)."""

    launch_name: str
    kernel: str
    config: str
    origin: str
    results: dict[str, Result] = field(default_factory=dict)

    def verdict(self, pipeline: str) -> str:
        """excluded (native fails), TIMEOUT, FAIL, WORSE, TRADE (worse at the ISA but fits PVC's SLM
        where native does not, or spills within the driver's limit in half native's registers) or ok."""
        native, ours = self.results[NATIVE], self.results[pipeline]
        if native.figures is None:
            return "excluded"
        if ours.figures is None and ours.error.startswith("Timeout"):
            return "TIMEOUT"
        return corpus_verdicts.verdict(native, ours)

    def worse(self, pipeline: str) -> list[str]:
        native, ours = self.results[NATIVE], self.results[pipeline]
        if native.figures is None or ours.figures is None:
            return []
        if ours.isa_error and not native.isa_error:
            return [f"ISA: {ours.isa_error}"]
        return corpus_verdicts.worse(native, ours)

    def better(self, pipeline: str) -> list[str]:
        """What ours wins at the ISA where it loses nothing there (strictly better); else []."""
        return corpus_verdicts.better(self.results[NATIVE], self.results[pipeline])

    def ratio(self, pipeline: str) -> float:
        n, o = self.results[NATIVE], self.results[pipeline]
        return o.median_ms / n.median_ms if n.ms and o.ms else float("nan")


# What the parent compiles, untimed, before forking the rows' processes: one of our corpus's kernels
# (a dot, a reduction, a loop), so that neither side's one-time start-up in a process (imports, caches,
# first-use set-ups of triton's and of our passes) is counted in every row's compile time.
WARMUP_KERNEL = ("flash_attention_fwd", None)


def warm_up(pipelines: tuple[str, ...]) -> dict[str, float]:
    """Compile WARMUP_KERNEL natively and with each of `pipelines` (strict); ms of each, first compile."""
    from xpu_passes import corpus

    spent: dict[str, float] = {}
    for side in (NATIVE, *pipelines):
        mod, opts, backend = corpus.make_ttir_module(*corpus.find(*WARMUP_KERNEL))
        md: dict[str, Any] = {}
        p = _plan(None if side == NATIVE else side)
        t0 = time.perf_counter()
        backend.make_llir(_to_ttgir(p, mod, md, opts, backend), md, opts)
        spent[side] = (time.perf_counter() - t0) * 1e3
    return spent
