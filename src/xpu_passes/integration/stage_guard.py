"""Never worse than triton-xpu's whole TTGIR stage: run both stages on the same TTIR, keep the better final TTGIR.

Each position of ours is guarded on its own input (never_worse.apply); `compare_stage` guards what the kernel
is judged by, whatever our earlier positions did to the later ones' inputs (docs/never-worse.md). The twin
(triton-xpu's stage) starts where our side's run already reached one of its states (integration/twin_fork.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from xpu_passes import registry
from xpu_passes.integration import parsed_prints, twin_fork
from xpu_passes.integration.never_worse import STAGE_TIME_KEY, _remark
from xpu_passes.integration.stage_figures import judge_stages, known_texts


def compare_stage(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], p: Any,
                  text: str | None) -> Any:
    """The TTGIR stage of plan `p` (`pipeline.Plan`) on the TTIR `mod`, and triton-xpu's own stage
    (`p.native_twin`) on a copy of it: ours is kept unless its final TTGIR is worse in one of
    `stage_figures`' figures (SLM as triton-xpu allocates it, conversions, 2D block I/O), then
    native's is. Each position of ours is guarded on its own input; this guards what the kernel
    is judged by, whatever our earlier positions did to the later ones' inputs.

    `p.native_first` (pipeline option `native_first`): in a kernel without tt.dot, triton-xpu's stage
    runs first, and where its final TTGIR leaves ours nothing to win (`stage_figures.nothing_to_win`)
    it is kept without running ours (no round trip: counted as `native_first`, with a remark)."""
    # (the final prints compare_raising reads: judge_stages does not read them again; the prints either
    # parsed: the passes after the comparison take the kept one's module instead of parsing it again)
    with known_texts(), parsed_prints.scope():
        return _compare_stage(mod, metadata, opt, properties, p, text)


def _compare_stage(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], p: Any,
                   text: str | None) -> Any:
    from xpu_passes.integration import oracle, pipeline, roundtrip
    from xpu_passes.integration.stage_figures import nothing_to_win

    t = roundtrip.now()
    text = str(mod) if text is None else text
    roundtrip.record(STAGE_TIME_KEY, t)
    threads = opt.threads_per_warp
    after = [s for s in p.stages if s.name in pipeline.AFTER_COMPARISON]
    body = [s for s in p.stages if s.name not in pipeline.AFTER_COMPARISON]
    twin = pipeline.Plan(p.native_twin, "", round_trips=p.round_trips)
    instance = next((s.instance for s in p.stages if s.python), None)
    theirs = None
    if p.native_first and "tt.dot" not in text and _may_skip_ours(body):
        t = roundtrip.now()
        mine, k, stages = twin_fork.opening(body, twin, text)  # (what both stages open with runs once: the twin's)
        theirs, shared = twin_fork.run_twin_first(twin, stages, k, mod, text, metadata, opt, properties)
        their_text = str(theirs)
        why = nothing_to_win(their_text)
        roundtrip.record(STAGE_TIME_KEY, t)
        if why:
            roundtrip.count("native_first")
            if instance is not None:
                _remark(instance, ModuleOp([]), f"triton-xpu's stage kept, ours not run: no tt.dot, {why}")
            return _after(theirs, their_text, metadata, opt, properties, p, after)
        opt.threads_per_warp = threads
        if shared is not None:  # ours from the twin's state after the stages both open with
            t = roundtrip.now()
            text, opt.threads_per_warp = shared
            mod, body = oracle.parse(text, mod.context), mine[k:]
            roundtrip.record("plugin", t)
            roundtrip.count("ours_stages_shared", k)
    fork = twin_fork.Fork.of(twin, mod, text) if theirs is None else None  # (the twin's start, from ours)
    with twin_fork.forking(fork):
        ours = pipeline.run_plan(mod, metadata, opt, properties, dataclasses.replace(p, native_twin=None, stages=body),
                                 text)
    if theirs is None:
        opt.threads_per_warp = threads
        t = roundtrip.now()
        theirs = twin_fork.run_twin(fork, twin, mod, text, metadata, opt, properties)
        their_text = str(theirs)
    else:
        t = roundtrip.now()
    our_text = str(ours)
    losses, why = judge_stages(our_text, their_text, mod.context)
    roundtrip.count("native_stage_kept", int(bool(losses)))
    if instance is not None:
        _remark(instance, ModuleOp([]), why)  # (about the whole kernel: no op of it to point at)
    roundtrip.record(STAGE_TIME_KEY, t)
    return _after(*((theirs, their_text) if losses else (ours, our_text)), metadata, opt, properties, p, after)


# Our passes native_first may leave unrun in a kernel without tt.dot (stage_figures.nothing_to_win says why
# they cannot win there); any other of ours in the stage (RewriteTensorPointer) runs and is judged.
# (raising only with dot-only: idle without a tt.dot)
NATIVE_FIRST = frozenset({registry.MBP, registry.OBIO, registry.RLC, registry.LEGAL, registry.RAISE, registry.ORL})


def _may_skip_ours(stages: list[Any]) -> bool:
    """Whether every pass of ours in `stages` is one native_first may leave unrun (raising: only dot-only)."""
    for s in stages:
        if not s.python:
            continue
        if s.name not in NATIVE_FIRST:
            return False
        if s.name == registry.RAISE and not (getattr(s.instance, "dot_only", False)
                                             and not getattr(s.instance, "ignore_masks", True)):
            return False
    return True


def _after(kept: Any, printed: str, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], p: Any,
           after: list[Any]) -> Any:
    """`kept` (printed as `printed`, for the judge) through the passes that run after the comparison
    (pipeline.AFTER_COMPARISON), if any: their round trip reads that print, not a second one."""
    from xpu_passes.integration import pipeline

    if not after:
        return kept
    return pipeline.run_plan(kept, metadata, opt, properties, dataclasses.replace(p, native_twin=None, stages=after),
                             printed=printed)
