"""TTGIR pipelines mixing triton-xpu's native passes and ours: named, or as MLIR pass-pipeline text.

The `xpu` pipeline is triton-xpu 3.3's `make_ttgir`, pass for pass, with ours in
place of the native MaterializeBlockPointer and RemoveLayoutConversions (all three
runs), and after MaterializeBlockPointer the Subgroup2DBlock layout assignment, our
RemoveLayoutConversions and the legalization of those layouts for triton-xpu 3.3.
Options add our guarded RewriteTensorPointer after MaterializeBlockPointer and the
raising of pointer arithmetic to block pointers on the TTIR; last, our slicing of epilogues with
per-element branches (`slice_epilogue`, on by default; `-xpu-slice-epilogue`); `never_worse=false` lets our
RemoveLayoutConversions' results stand without comparing them with triton-xpu's own pass's
(integration/never_worse.py; by default every run that replaces a native one in a kernel with a tt.dot,
the last one in others, and the whole stage with triton-xpu's; `never_worse_positions=last|all`).

`pipeline_text(name, **options)` spells a named pipeline as pass-pipeline text
(`builtin.module(triton-annotate-module{target-arch=spir64}, ...)`); `run_ttgir` runs a
name or such a text. Native options the text leaves out come from the compile
(`num-warps`, `num-stages`, `threads-per-warp`, target properties). Consecutive Python
passes share one text round trip (`integration/roundtrip.py`), consecutive native passes one pass
manager. In a round trip, a repeated RemoveLayoutConversions run on the module its previous,
idle run was given, or on a result its previous run said is a fixpoint, is skipped
(`RoundTripOptions.repeats`, `XpuPass.said`); across round trips nothing is skipped that
way: the native passes between two of our runs always change the text (accelerate-matmul adds
conversions; pipelining, cse and prefetch reorder, merge and add ops in conversions' slices).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from typing import Any

from xpu_passes import registry
from xpu_passes.registry import PassSpec, PipelineError, check_order
from xpu_passes.integration import native_passes, roundtrip, twin_fork
from xpu_passes.integration.roundtrip import PassFailure, providers, run_python
# the stages (re-exported: their names are this module's public ones too)
from xpu_passes.integration.stages import (AFTER_COMPARISON, ANNOTATE, ESC, LEGAL, MBP, NATIVE_PREFIX, NMD, SFD,  # noqa: F401
                                           OBIO, ORL, OSV, PIPELINES, POSITIONS, RAISE, RLC, RTP, RVL, SLICE, SLICE_RED,
                                           Stage,
                                           named_stages)
# what each pass needs in the text (re-exported as above)
from xpu_passes.integration.prefilters import (NATIVE_NEEDS_TEXT, NEEDS_MATCH, NEEDS_TEXT,  # noqa: F401
                                               drop_idle_natives, idle, needs_match, needs_text)

__all__ = ["PIPELINES", "PassFailure", "PipelineError", "Plan", "check_options", "check_order", "option_defaults",
           "pipeline_text", "plan", "run_plan", "run_ttgir"]


@dataclass
class Plan:
    """A pipeline ready to run: its stages, its text, and where its passes come from."""

    stages: list[Stage]
    text: str
    providers: dict[str, str] = field(default_factory=dict)  # package -> version, for the cache key
    round_trips: roundtrip.RoundTripOptions = field(default_factory=roundtrip.RoundTripOptions)
    # never_worse: triton-xpu's own stage, run on the same input; the better final TTGIR is kept
    # (stage_guard.compare_stage). None: the plan's result stands.
    native_twin: list[Stage] | None = None
    # never_worse_positions "dot": the RLC runs before the last are compared only in kernels with a tt.dot
    guard_early_only_with_dot: bool = False
    # native_first: with a native_twin, a kernel without tt.dot runs triton-xpu's stage first and keeps it
    # without running ours where it leaves ours nothing to win (stage_guard.compare_stage)
    native_first: bool = False


def _format(stages: list[Stage]) -> str:
    """Text of stages: a native pass that shares its flag with one of ours gets NATIVE_PREFIX."""
    return registry.format_pipeline([PassSpec(s.name if s.python else registry.native_name(s.name), s.spec.options)
                                     for s in stages])


def pipeline_text(name: str = "xpu", **options: Any) -> str:
    """The TTGIR stage of pipeline `name` with `options` as MLIR pass-pipeline text."""
    check_options(options)
    return _format(named_stages(name, **options))


def parse_text(text: str) -> Plan:
    """A pipeline text -> stages; unknown passes/options, syntax and order errors as PipelineError."""
    try:
        specs = registry.parse_pipeline(text)
    except registry.PipelineSyntaxError as e:
        raise PipelineError(f"malformed pipeline text: {e.message} at column {e.column}\n  {text}\n"
                            f"  {' ' * max(e.column - 1, 0)}^") from None
    if not specs:
        raise PipelineError("empty pipeline text")
    stages: list[Stage] = []
    for spec in specs:
        if registry.is_native(spec.name):
            native_passes.native_options(spec)  # unknown or ill-typed options fail here, before any compile
            stages.append(Stage(PassSpec(spec.name.removeprefix(NATIVE_PREFIX), spec.options), False))
            continue
        name = registry.canonical_name(spec.name)
        if name not in registry.python_passes():
            raise PipelineError(registry.unknown_pass_message(spec.name))
        spec = PassSpec(name, spec.options)
        # loaded now: unknown or ill-typed options fail here, before any compile
        stages.append(Stage(spec, True, registry.make_pass(spec)))
    check_order([s.name if s.python else registry.native_name(s.name) for s in stages])
    return Plan(stages, _format(stages), providers([s.name for s in stages if s.python]))


def is_pipeline_text(pipeline: str) -> bool:
    """A pipeline name (`xpu`, `native`) or a pass-pipeline text."""
    return pipeline.strip() not in PIPELINES


def plan(pipeline: str = "xpu", check_reports: bool | None = None, **options: Any) -> Plan:
    """The plan of a named pipeline with `options`, or of a pipeline text (which takes no options).
    `check_reports`: verify every report of our passes in the round trips (RoundTripOptions; by
    default XPU_PASSES_CHECK_REPORTS, read now)."""
    if is_pipeline_text(pipeline):
        word = pipeline.strip().partition(":")[0]
        if word.replace("-", "").replace("_", "").isalnum() and word not in registry.all_names():
            raise PipelineError(f"unknown pipeline '{word}' (choose from {', '.join(PIPELINES)}, "
                                f"or give a pass-pipeline text)")
        if options:
            raise PipelineError(f"pipeline options ({', '.join(options)}) go with a pipeline name, not a text")
        p = parse_text(pipeline)
    else:
        check_options(options)
        p = parse_text(pipeline_text(pipeline.strip(), **options))
        if pipeline.strip() != "native" and options.get("never_worse", True):
            orl = options.get("reduction_locality", False)  # (our port is in both sides: made by parse_text)
            p.native_twin = parse_text(pipeline_text("native", reduction_locality=orl)).stages if orl else named_stages("native")
            p.guard_early_only_with_dot = options.get("never_worse_positions", "dot") == "dot"
            p.native_first = bool(options.get("native_first", True))
    if check_reports is not None:
        p.round_trips = roundtrip.RoundTripOptions(check_reports=bool(check_reports))
    return p


def option_defaults() -> dict[str, Any]:
    """The options of a named pipeline, with their defaults."""
    return {p: v.default for p, v in inspect.signature(named_stages).parameters.items() if p != "pipeline"}


def check_options(options: dict[str, Any]) -> None:
    unknown = sorted(set(options) - set(option_defaults()))
    if unknown:
        raise PipelineError(f"unknown pipeline option(s) {', '.join(unknown)} (choose from {', '.join(option_defaults())})")


def compile_options(opt: Any, properties: dict[str, Any]) -> dict[str, Any]:
    """What native passes take from the compile when a text leaves their options out."""
    return {**properties, "target": "xpu", "num_warps": opt.num_warps, "num_stages": opt.num_stages,
            "threads_per_warp": opt.threads_per_warp, "num_ctas": opt.num_ctas}


class NativeGroupFailure(PassFailure):
    """Several native passes in one pass manager failed: which one is found by a replay."""


def _run_native(mod: Any, stages: list[Stage], opt: Any, properties: dict[str, Any], after_ours: bool,
                split: bool = False) -> None:
    """Consecutive native passes in one pass manager (each in its own with `split`), except that the
    module annotation runs alone: it decides the threads per warp the conversion to TTGIR takes."""
    groups: list[list[Stage]] = []
    for s in stages:
        if split or not groups or s.name == ANNOTATE or groups[-1][-1].name == ANNOTATE:
            groups.append([])
        groups[-1].append(s)
    for group in groups:
        roundtrip.count("pass_managers")
        try:
            native_passes.run_native(mod, [s.spec for s in group], compile_options(opt, properties))
        except native_passes.NativePassError as e:  # on our output, or configured by a pipeline text
            names = ", ".join(s.name for s in group)
            kind = NativeGroupFailure if len(group) > 1 else PassFailure
            raise kind(f"triton-xpu's {names} failed{' on the output of our passes' if after_ours else ''}: "
                       f"{e}") from None
        if group[0].name == ANNOTATE:
            from triton._C.libtriton import intel

            opt.threads_per_warp = intel.get_threads_per_warp(mod)
        if (fork := twin_fork.current()) is not None:  # (the never-worse twin may start where this leaves mod)
            fork.ran(mod, [s.spec for s in group])




def stages_run(stages: list[Stage], text: str, options: roundtrip.RoundTripOptions) -> list[Stage]:
    """The stages run_plan runs of `stages` on an input printed as `text` (natives proved idle dropped)."""
    if options.skip_idle and any(s.name in NATIVE_NEEDS_TEXT for s in stages):
        return drop_idle_natives(stages, text)
    return stages


def _may_skip(stages: list[Stage], options: roundtrip.RoundTripOptions) -> bool:
    from xpu_passes.transforms.base import remarks_wanted

    # with remarks on (xpu-opt --remarks), an idle pass still says why it left things alone
    return options.skip_idle and not remarks_wanted() and all(needs_text(s) for s in stages)


def unguard_early(stages: list[Stage]) -> list[Stage]:
    """`stages` with every guarded RemoveLayoutConversions run but the last one run alone (ours, not
    compared): a kernel without tt.dot, where the whole stage's comparison covers what they change
    (accelerate-matmul, the pipeliner and the dot-operand passes, which rely on layouts native's pass
    leaves, have nothing to do)."""
    from xpu_passes.integration import never_worse

    guarded = [i for i, s in enumerate(stages) if s.python and s.instance is not None and never_worse.guarded(s.instance)]
    out = list(stages)
    for i in guarded[:-1]:
        s = stages[i]
        options = {k: v for k, v in s.spec.options.items() if k != "never-worse-than-native"}
        out[i] = Stage(PassSpec(s.name, options), True, replace(s.instance, never_worse_than_native=False))  # type: ignore[type-var]
    return out


def _with_compile_warps(stages: list[Stage], opt: Any) -> list[Stage]:
    """Our passes with a `num_warps` option left at 0 take the compile's, as native passes take theirs (a TTIR
    has no ttg.num-warps yet: triton-raise-block-pointer's wide-positions weighs a dot's tiles per warp), and
    with a `grf_mode` left "" the compile's (the register file those tiles are weighed against; triton-xpu's
    options hold the tuple of choices when the launch names none: "default")."""
    grf = opt.grf_mode if isinstance(getattr(opt, "grf_mode", None), str) else "default"
    out: list[Stage] = []
    for s in stages:
        if s.python and s.instance is not None and getattr(s.instance, "num_warps", None) == 0:
            s = replace(s, instance=replace(s.instance, num_warps=opt.num_warps))  # type: ignore[type-var]
        if s.python and s.instance is not None and getattr(s.instance, "grf_mode", None) == "":
            s = replace(s, instance=replace(s.instance, grf_mode=grf))  # type: ignore[type-var]
        out.append(s)
    return out


def run_plan(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], p: Plan,
             text: str | None = None, printed: str | None = None) -> Any:
    """Drop-in for XPUBackend.make_ttgir (non-advanced path) running the stages of `p`;
    `text`: the print of `mod`, if the caller has it. When native passes sharing a pass manager
    fail, the stage is replayed from `text` with one pass manager per native pass, to name it.
    `printed`: `str(mod)` itself, if the caller has it (a first round trip reads it instead of printing
    `mod` again; `text` may be the print `mod` was parsed from)."""
    if p.native_twin is not None:  # (its own plan of each side: compare_stage)
        from xpu_passes.integration import stage_guard

        return stage_guard.compare_stage(mod, metadata, opt, properties, p, text)
    stages, options = _with_compile_warps(p.stages, opt), p.round_trips
    if options.skip_idle and any(s.name in NATIVE_NEEDS_TEXT for s in stages):
        if text is None:
            t = roundtrip.now()
            text = str(mod)
            roundtrip.record("plugin", t)
        stages = stages_run(stages, text, options)
        if p.guard_early_only_with_dot and "tt.dot" not in text:
            stages = unguard_early(stages)
    threads = opt.threads_per_warp
    if any(s.python and s.name == RAISE and getattr(s.instance, "never_worse_than_native", False) for s in stages):
        from xpu_passes.integration import never_worse

        return never_worse.compare_raising(mod, metadata, opt, properties, stages, text, options)
    try:
        return _run_stages(mod, metadata, opt, properties, stages, options, printed=printed)
    except NativeGroupFailure:
        if text is None:
            raise
        from xpu_passes.integration import oracle

        opt.threads_per_warp = threads
        _run_stages(oracle.parse(text, mod.context), metadata, opt, properties, stages, options, split=True)
        raise  # the replay did not fail: keep what we know


def _run_stages(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], stages: list[Stage],
                options: roundtrip.RoundTripOptions, split: bool = False, printed: str | None = None) -> Any:
    """`printed`: `str(mod)` as given, if the caller has it (read by a first round trip: nothing ran before)."""
    i, ours_ran = 0, False
    session = roundtrip.Session(options)  # this compile's only: dropped when it returns
    while i < len(stages):
        j = i
        while j < len(stages) and stages[j].python == stages[i].python:
            j += 1
        if stages[i].python:
            may_skip = _may_skip(stages[i:j], options)
            fork = twin_fork.current()
            follows = fork is not None and fork.follows(mod)
            text = printed if i == 0 else None
            # the round trip's input, printed once: to see if it has work, for the fork, for the round trip
            if text is None and (may_skip or follows):
                t = roundtrip.now()
                text = str(mod)
                roundtrip.record("triton_print", t)
            if follows:
                fork.reached(mod, text, opt.threads_per_warp)  # type: ignore[union-attr]
            if not (may_skip and idle(stages[i:j], text)):  # type: ignore[arg-type]
                session.keep = options.reuse_modules and any(s.python for s in stages[j:])
                mod = run_python(mod, [(s.name, s.instance) for s in stages[i:j]], text,  # type: ignore[misc]
                                 session)
                ours_ran = True
        else:
            _run_native(mod, stages[i:j], opt, properties, ours_ran, split)
        i = j
    cluster = opt.cluster_dims if opt.cluster_dims is not None else (1, 1, 1)
    metadata["cluster_dims"] = tuple(cluster)
    return mod


def run_ttgir(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], pipeline: str = "xpu",
              **options: Any) -> Any:
    """Drop-in for XPUBackend.make_ttgir running `pipeline` (a name with options, or a text)."""
    return run_plan(mod, metadata, opt, properties, plan(pipeline, **options))
