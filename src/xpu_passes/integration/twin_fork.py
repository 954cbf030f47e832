"""The native twin's start, taken from what our side of the stage already ran instead of run again.

`stage_guard.compare_stage` runs triton-xpu's own stage (the twin) on a copy of the TTIR our stage
was given. Both stages open with the same native passes (annotate-module, convert-triton-to-tritongpu,
coalesce), and in a kernel with a tt.dot our first RemoveLayoutConversions position runs triton-xpu's
pass on its input to compare with it: on that input, the twin's next stage. Run again, these cost the
twin half or more of its time (a GEMM: 4.8 of 9.4 ms; fla fused_recurrent bwd: 12 of 18 ms).

A `Fork` follows our side's triton modules whose content is provably the twin's after its first k
stages (`lineage`): the TTIR at k = 0; a native group run on such a module advances k if it is the twin's
next stages (same names and options), else the module leaves the lineage. A round trip never changes the
module it reads (it returns a parse of its output, or that module when nothing changed), so what it
reads keeps its k, and what it returns is not followed (ours in place of a native pass is not that pass;
raising that changed nothing hands back the very module: still followed). Where a round trip is about
to read such a module, its print is the twin's state after k stages (`at`); where the first guarded
position runs triton-xpu's pass on exactly that print and it is the twin's stage k, the resulting module
is the twin's state after k + 1 (`after`). The twin then starts from the later of the two (a parse of the
print, or that module as it is) and runs only its remaining stages: its final TTGIR is the one it would
reach from the TTIR (triton's print is read back as the module it prints: the round trips and the
positions' comparisons rely on the same).

The other way round, where native_first runs the twin first (a kernel without tt.dot): the twin is
printed after the native stages our stage opens with too (`opening`: annotate-module,
convert-triton-to-tritongpu, coalesce; our raising, dot-only, is idle without a tt.dot), and where ours
has to run, it starts from a parse of that print (`run_twin_first`) instead of running them again.

Scoped to one stage comparison (`forking`: a ContextVar), nothing outlives it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from xpu_passes.registry import PassSpec


@dataclass
class Fork:
    """Where the twin (`twin`: its stages as they will run, idle natives dropped) may start."""

    twin: list[Any]  # pipeline.Stage (all native)
    lineage: dict[int, tuple[Any, int]] = field(default_factory=dict)  # id(module) -> (module, twin stages had)
    at: tuple[int, str, int] | None = None  # (k, print of the twin's state after k stages, threads per warp)
    after: tuple[int, Any, int] | None = None  # (k, the twin's state after k stages: a triton module, threads)

    @classmethod
    def of(cls, twin: Any, mod: Any, text: str) -> Fork:
        """The fork of `twin` (a `pipeline.Plan` of native stages) run on `mod`, the TTIR printed as `text`."""
        from xpu_passes.integration import pipeline

        fork = cls(pipeline.stages_run(twin.stages, text, twin.round_trips))
        fork.lineage[id(mod)] = (mod, 0)
        return fork

    def follows(self, mod: Any) -> bool:
        return self._had(mod) is not None

    def _had(self, mod: Any) -> int | None:
        entry = self.lineage.get(id(mod))
        return entry[1] if entry is not None and entry[0] is mod else None

    def ran(self, mod: Any, specs: list[PassSpec]) -> None:
        """Native passes `specs` ran on `mod` (one group, in order)."""
        k = self._had(mod)
        if k is None:
            return
        if k + len(specs) <= len(self.twin) and all(self.twin[k + i].spec == s for i, s in enumerate(specs)):
            self.lineage[id(mod)] = (mod, k + len(specs))
        else:
            self.lineage.pop(id(mod), None)

    def reached(self, mod: Any, text: str, threads: int) -> None:
        """A round trip is about to read `mod`, printed as `text`; `threads`: the compile's threads per warp."""
        k = self._had(mod)
        if k is not None and k > 0 and (self.at is None or k > self.at[0]):
            self.at = (k, text, threads)

    def native_ran(self, text: str, flag: str, result: Any) -> None:
        """triton-xpu's pass `flag` ran on a parse of `text` (a position's comparison), leaving `result`."""
        if self.at is None or (self.after is not None and self.after[0] > self.at[0]):
            return
        k, at_text, threads = self.at
        if k < len(self.twin) and (text is at_text or text == at_text):
            stage = self.twin[k]
            if stage.name == flag and not stage.spec.options:
                self.after = (k + 1, result, threads)

    def start(self, context: Any) -> tuple[Any, int, int] | None:
        """(the twin's state, how many of its stages it has had, threads per warp then), or None: from the TTIR."""
        from xpu_passes.integration import oracle

        if self.after is not None and (self.at is None or self.after[0] > self.at[0]):
            return self.after[1], self.after[0], self.after[2]
        if self.at is not None:
            k, text, threads = self.at
            return oracle.parse(text, context), k, threads
        return None


def run_twin(fork: Fork | None, twin: Any, mod: Any, text: str, metadata: dict[str, Any], opt: Any,
             properties: dict[str, Any]) -> Any:
    """The twin (`twin`: a `pipeline.Plan`) on the TTIR `mod` printed as `text` (left as it is): from
    `fork`'s start when it has one, else from a parse of `text`."""
    from xpu_passes.integration import oracle, pipeline, roundtrip

    start = fork.start(mod.context) if fork is not None else None
    if start is None:
        return pipeline.run_plan(oracle.parse(text, mod.context), metadata, opt, properties, twin, text)
    module, k, opt.threads_per_warp = start  # (what annotate-module, among the stages had, set)
    roundtrip.count("twin_stages_shared", k)
    return pipeline.run_plan(module, metadata, opt, properties, _unskipped(twin, fork.twin[k:]))


def _unskipped(twin: Any, stages: list[Any]) -> Any:
    """`stages` of the twin (`twin`: a `pipeline.Plan`) as a plan dropping no idle native: they were dropped on
    the TTIR's text already, as run_plan would (`pipeline.stages_run`), not again on a later print."""
    from xpu_passes.integration import pipeline

    return pipeline.Plan(stages, "", round_trips=dataclasses.replace(twin.round_trips, skip_idle=False))


def opening(body: list[Any], twin: Any, text: str) -> tuple[list[Any], int, list[Any]]:
    """Our stages `body` (of a kernel whose TTIR, printed as `text`, has no tt.dot) without a raising provably
    idle on it (dot-only: `pipeline.idle`; annotate-module adds only module attributes, so the TTIR's print
    decides), how many of their leading native stages are the twin's (`twin`: a `pipeline.Plan`) too, and the
    twin's stages as run_plan runs them on `text` (`pipeline.stages_run`; its own with k = 0).
    (0 with remarks wanted: raising then runs to say why it leaves things alone.)"""
    from xpu_passes.integration import pipeline
    from xpu_passes.transforms.base import remarks_wanted

    if remarks_wanted() or not twin.round_trips.skip_idle:
        return body, 0, twin.stages
    mine = [s for s in body if not (s.python and s.name == pipeline.RAISE and pipeline.idle([s], text))]
    theirs = pipeline.stages_run(twin.stages, text, twin.round_trips)
    k = 0
    while k < min(len(mine), len(theirs)) and not mine[k].python and mine[k].spec == theirs[k].spec:
        k += 1
    return mine, k, theirs


def run_twin_first(twin: Any, theirs: list[Any], k: int, mod: Any, text: str, metadata: dict[str, Any], opt: Any,
                   properties: dict[str, Any]) -> tuple[Any, tuple[str, int] | None]:
    """The twin on a parse of `text` (the TTIR `mod`'s print), printed after its first `k` stages of `theirs`
    (the ones our stage opens with; `opening` says both): (its result, (that print, threads per warp then) or
    None with k = 0)."""
    from xpu_passes.integration import oracle, pipeline

    copy = oracle.parse(text, mod.context)
    if k == 0:
        return pipeline.run_plan(copy, metadata, opt, properties, twin, text), None
    pipeline.run_plan(copy, metadata, opt, properties, _unskipped(twin, theirs[:k]))
    shared = (str(copy), opt.threads_per_warp)
    return pipeline.run_plan(copy, metadata, opt, properties, _unskipped(twin, theirs[k:])), shared



_FORK: ContextVar[Fork | None] = ContextVar("xpu_passes_twin_fork", default=None)


@contextmanager
def forking(fork: Fork | None) -> Iterator[Fork | None]:
    """`fork` is told what our side runs until the block ends (None: nothing recorded)."""
    token = _FORK.set(fork)
    try:
        yield fork
    finally:
        _FORK.reset(token)


def current() -> Fork | None:
    return _FORK.get()
