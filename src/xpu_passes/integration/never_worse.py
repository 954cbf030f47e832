"""Never worse than triton-xpu's own pass, by construction: run both on the same input, keep the better.

A pass of ours with the option `never-worse-than-native` (RemoveLayoutConversions) is run
through `apply`: triton-xpu's pass of the same flag runs on a copy of the same input (the
module's print, parsed by triton-xpu), its result is read back, and the whole-module figures
of both results (`remove_layout_conversions.solution.figures`: loop-weighted cost of
conversions and scan/reduce scratch, SLM bytes, conversions) decide which is kept. Ours is kept
only when it is no worse in every figure (ties included: see `native_wins`); otherwise, or when
ours ran out of its work budget (OVER_BUDGET), native's result replaces the module. A remark
says which was kept and why. The round trip (`roundtrip._apply`) and xpu-opt (`driver/chunk.py`)
call this with their own way to run the native pass (`NativeRun`: text in, triton's print out).

Raising has no native counterpart in triton-xpu's pipeline and runs on TTIR, where these figures
do not exist yet: `compare_raising` runs the pipeline's TTGIR stage with and without it and keeps
the better final TTGIR (docs/never-worse.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xpu_passes import registry
from xpu_passes.dialects import tt, ttg
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.integration.isa_estimate import Estimate, estimate
from xpu_passes.integration import twin_fork
from xpu_passes.integration.native_passes import run_native
from xpu_passes.integration.stage_figures import remember
from xpu_passes.ir.clone import adopt_body
from xpu_passes.ir.walk_order import walk_list
from xpu_passes.layouts.lowering import copied_gather_loads
from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.transforms.remove_layout_conversions.costs import facts_of, facts_scope
from xpu_passes.transforms.remove_layout_conversions.solution import Figures, figures
from xpu_passes.transforms.base import FIXPOINT, OVER_BUDGET, UNCHANGED, XpuPass, remarks_wanted, run_reporting

# (a module's text, a native pass's flag) -> triton-xpu's print of that pass's result on it, or
# None when the pass left the module as it was (then its figures are the input's: no parse)
NativeRun = Callable[[str, str], "str | None"]

# Where the round trip's timing (roundtrip.timing, the caller's context's) puts the comparison's own time (printing,
# native's pass, reading its result, figures): not in our pass's.
TIME_KEY = "pass:never-worse"
# ... and the whole-stage comparison's (compare_stage: the copy, native's stage, prints, allocations).
STAGE_TIME_KEY = "pass:never-worse-stage"
# The figures compared, in the order a remark names them.
FIGURES = ("slm", "converts", "cost")


# A result no other can beat in any figure.
_NOTHING = Figures(0, 0, 0)

# Our passes compared with triton-xpu's pass of the same flag, by RemoveLayoutConversions' figures.
# (Raising, whose option means something else, is compared by the pipeline: compare_raising.)
COMPARED = frozenset({"tritonintelgpu-remove-layout-conversions"})


def guarded(p: ModulePass) -> bool:
    """Whether `p` asks for the comparison (its option) and is compared so."""
    return bool(getattr(p, "never_worse_than_native", False)) and p.name in COMPARED


def native_wins(ours: Figures, native: Figures) -> list[str]:
    """The figures in which `ours` is worse than `native` (empty: ours is kept).

    Componentwise, so the kept result is never worse than native's in any figure. A tie keeps
    ours: the later passes of our pipeline (block I/O encoding, its legalization) were written
    and tested against our results, and on ties the output stays what it was without the guard.
    """
    return [f"{f} {getattr(ours, f)} > {getattr(native, f)}" for f in FIGURES if getattr(ours, f) > getattr(native, f)]


def in_process(context: Any) -> NativeRun:
    """Native's pass run in this process, in triton's `context` (the compile's)."""
    from xpu_passes.integration import oracle

    def run(text: str, flag: str) -> str | None:
        mod = oracle.parse(text, context)
        before = str(mod)  # (printing is cheap next to reading a print with our parser)
        run_native(mod, [registry.PassSpec(registry.native_name(flag), {})], {})
        if (fork := twin_fork.current()) is not None:  # (on the twin's state: the twin may start from mod)
            fork.native_ran(text, flag, mod)
        after = str(mod)
        return None if after == before else after

    return run


def apply(p: ModulePass, ctx: Context, module: ModuleOp, native: NativeRun, text: str | None = None,
          run_ours: bool = True) -> str | None:
    """Run `p` on `module`, guarded (`guarded(p)`); returns what the run says of its result
    (`transforms.base` UNCHANGED, FIXPOINT or None). `text`: a print of `module` triton-xpu reads,
    if at hand. `native(text, flag)` runs triton-xpu's pass `flag` on `text` and returns its print.
    `run_ours=False`: `p` is known to leave `module` as it is (a repeat, `roundtrip._apply`).

    What is said is about our pass: UNCHANGED when ours was kept and left its input (a run again
    on it makes the same two results), FIXPOINT when ours was kept and a run of ours on it leaves it
    (native's run on it is not known: a guarded repeat still compares with it)."""
    from xpu_passes.integration import roundtrip

    t = roundtrip.now()
    if text is None:
        text = print_module(module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
    t = roundtrip.record(TIME_KEY, t)
    said = run_reporting(p, ctx, module) if run_ours else UNCHANGED  # (this run's report: its context's)
    over = said == OVER_BUDGET
    t = roundtrip.now()
    # Ours left its input as it was, a conversion in it (so ours' figures are not _NOTHING: native's pass runs,
    # whatever they are): native's pass first, and where it leaves the input as it was too, both results are
    # the input, a tie, and neither is costed (with remarks wanted, costed for the remark).
    later = said == UNCHANGED and not remarks_wanted() and _has_conversion(module)
    mine, facts = (None, None) if over or later else _figures_and_facts(module)
    if mine == _NOTHING:
        # (every figure is a count or a size: native's cannot be lower, so its run could only tie)
        roundtrip.count("native_not_run")
        _remark(p, module, f"ours kept: {_NOTHING}; native's pass not run (it cannot do better)")
        roundtrip.record(TIME_KEY, t)
        return said if said in (UNCHANGED, FIXPOINT) else None
    try:
        try:
            out = native(text, p.name)
        except Exception as e:
            raise _NotCompared(_first_line(e)) from None
        if later:
            if out is None:
                roundtrip.count("both_unchanged")
                return said
            mine, facts = _figures_and_facts(module)
        return _decide(p, ctx, module, out, text, said, mine, facts)
    except _NotCompared as e:
        kept = "input kept: ours ran out of its work budget and" if over else "ours kept:"
        _remark(p, module, f"{kept} triton-xpu's pass could not be compared ({e})")
        return said if said in (UNCHANGED, FIXPOINT) else None
    finally:
        roundtrip.record(TIME_KEY, t)


def _has_conversion(module: ModuleOp) -> bool:
    return any(isinstance(op, ttg.ConvertLayoutOp) for op in walk_list(module))


class _NotCompared(Exception):
    """Native's result is not at hand (triton-xpu missing, rejecting the text or failing; ours not reading its print)."""


def _decide(p: ModulePass, ctx: Context, module: ModuleOp, out: str | None, text: str, said: str | None,
            mine: Figures | None, facts: AxisInfoAnalysis | None = None) -> str | None:
    """Keep ours (what it said, its figures `mine`, the axis facts they were taken with, `facts`) or native's
    result `out` (None: its input, printed as `text`). The input's figures are taken only when native's pass
    left it as it was: from `mine` when ours did too (UNCHANGED), else from a parse of `text` (a rarer parse
    than the input's figures on every run)."""
    from xpu_passes.integration import roundtrip

    try:
        theirs = None if out is None else parse_module(ctx, out, "<native>", verify=False).module
    except Exception as e:
        raise _NotCompared(_first_line(e)) from None
    if said == OVER_BUDGET:
        if theirs is not None:  # (else the input, which ours kept)
            adopt_body(module, theirs)
        roundtrip.count("native_kept")
        _remark(p, module, "native's result kept: ours ran out of its work budget")
        return None if theirs is not None else UNCHANGED
    assert mine is not None
    if theirs is None and said != UNCHANGED:  # native's result is the input: read again from its print
        theirs = parse_module(ctx, text, "<input>", verify=False).module
    other, their_facts = (mine, None) if theirs is None else _figures_and_facts(theirs)
    losses = native_wins(mine, other)
    if losses:
        assert theirs is not None  # (ours left the input as it was: the same figures, no loss)
        if copied_gather_loads(theirs) > copied_gather_loads(module):
            # (what our MaterializeBlockPointer tagged, native's pass may load in a dot operand's copies)
            _remark(p, module, f"ours kept: native's result would leave {', '.join(losses)} but loads copies of a "
                               f"tensor-of-pointer load's elements, which triton-xpu lowers element by element "
                               f"(ours: {mine}; native: {other})")
            return said if said in (UNCHANGED, FIXPOINT) else None
        if more := _costs_more_at_the_isa(theirs, module, their_facts, facts):
            _remark(p, module, f"ours kept: native's result would leave {', '.join(losses)} but {more} "
                               f"(ours: {mine}; native: {other})")
            return said if said in (UNCHANGED, FIXPOINT) else None
        adopt_body(module, theirs)
        roundtrip.count("native_kept")
        _remark(p, module, f"native's result kept: ours would leave {', '.join(losses)} "
                           f"(ours: {mine}; native: {other})")
        return None
    _remark(p, module, f"ours kept: {mine}; native: {other}")
    return said if said in (UNCHANGED, FIXPOINT) else None


def _costs_more_at_the_isa(theirs: ModuleOp, ours: ModuleOp, their_facts: AxisInfoAnalysis | None = None,
                           our_facts: AxisInfoAnalysis | None = None) -> str:
    """What native's result `theirs` costs at the ISA beyond `ours` by the stage guard's own estimate
    (isa_estimate: gathers, scatters; "": nothing). RemoveLayoutConversions' figures count
    conversions, not the messages of the loads a rematerialization moves into a DPAS operand's
    layout: a GEMM's tensor-of-pointer A/B loads tagged for 2D block reads, which native's pass
    loads straight in the operand layouts (one conversion left instead of three, gathers x16).
    Taken only where native's figures win (ties keep ours: no estimate on the common path). `their_facts`,
    `our_facts`: the axis facts the figures were taken with (neither module changed since), if at hand."""
    try:
        est_theirs, est_ours = estimate(theirs, facts=their_facts), estimate(ours, facts=our_facts)
    except Exception:  # noqa: BLE001 - an estimate is advice: a module it cannot read is judged without it
        return ""
    more = est_theirs.losses(est_ours)
    return f"{', '.join(more)} at the ISA ({est_ours} ours, {est_theirs} native's)" if more else ""


def _figures_and_facts(module: ModuleOp) -> tuple[Figures, AxisInfoAnalysis | None]:
    """`figures(module)` with the module's axis facts computed once for the call (outside a pass run, here,
    `costs.facts_of` would compute them again for every load and store), and those facts (None: it took
    none, no load or store): an estimate of the same module, unchanged, reads them instead of analysing it
    again (`_costs_more_at_the_isa`)."""
    with facts_scope():
        out = figures(module)
        # (figures took them for its loads and stores: facts_of answers from the scope's cache)
        return out, facts_of(module) if any(isinstance(op, tt.LoadOp | tt.StoreOp) for op in walk_list(module)) else None


def same_pass(a: ModulePass, b: ModulePass) -> bool:
    """The same pass with the same options, `never-worse-than-native` aside (our side of a run)."""
    if type(a) is not type(b) or not dataclasses.is_dataclass(a):
        return a == b
    off = {"never_worse_than_native": False} if hasattr(a, "never_worse_than_native") else {}
    return dataclasses.replace(a, **off) == dataclasses.replace(b, **off)  # type: ignore[type-var]


def _remark(p: ModulePass, module: ModuleOp, message: str) -> None:
    """A remark of `p`'s run, to the remarks collected in this context (`collecting_remarks`), if any."""
    if isinstance(p, XpuPass):
        p.remark(module, message)


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return (lines[0] if lines else type(e).__name__)[:200]



def _ttgir_figures(text: str) -> tuple[Figures, int, Estimate]:
    """A final TTGIR's figures: RemoveLayoutConversions', its loads tagged for 2D block reads, and what
    PVC pays beyond them (isa_estimate)."""
    from xpu_passes.integration import oracle, parsed_prints

    module = parsed_prints.parse(text).module  # (as a round trip parses it: the passes after may take it)
    figures, facts = _figures_and_facts(module)
    est = estimate(module, facts=facts)
    remember(text, est, figures.slm)  # (the stage guard's judge reads the kept one again: compare_stage)
    return figures, oracle.ttgir_counts(text)[2], est


def compare_raising(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], stages: list[Any],
                    text: str | None, options: Any = None) -> Any:
    """The TTGIR stage of `stages` (raising, guarded, among them) on the TTIR `mod`, run on to its end
    twice when raising changed the module: with raising and without it. The raised result is kept
    only when it compiled and is worse in no figure of the final TTGIR (SLM, conversions,
    loop-weighted cost, and fewer loads tagged for 2D block reads). Raising cannot be judged where
    it runs: the TTIR has no layouts yet, and what it changes shows only after the stage's last pass.
    `options`: the plan's round-trip options (`roundtrip.RoundTripOptions`; None: the defaults)."""
    from xpu_passes.integration import pipeline, roundtrip
    from xpu_passes.transforms.base import remarks_wanted

    at = next(i for i, s in enumerate(stages) if s.python and s.name == pipeline.RAISE)
    options = roundtrip.RoundTripOptions() if options is None else options
    head, rest = pipeline.Plan(stages[:at], "", round_trips=options), pipeline.Plan(stages[at + 1:], "", round_trips=options)
    if head.stages:
        mod, text = pipeline.run_plan(mod, metadata, opt, properties, head, text), None
    t = roundtrip.now()
    text = str(mod) if text is None else text
    roundtrip.record("plugin", t)
    failed = ""
    # Provably nothing to raise (RaiseBlockPointer.needs_text: dot-only and no tt.dot): no round trip, unless
    # remarks are wanted (a run says why it leaves things alone)
    idle = options.skip_idle and not remarks_wanted() and pipeline.idle([stages[at]], text)
    try:  # (the round trip hands `mod` back when raising said it changed nothing, and never changes it)
        raised = mod if idle else roundtrip.run_python(mod, [(pipeline.RAISE, stages[at].instance)], text,
                                                       roundtrip.Session(options))
    except pipeline.PassFailure as e:
        raised, failed = None, str(e)
    if raised is mod:  # nothing raised: the plain stage
        return pipeline.run_plan(mod, metadata, opt, properties, rest, text)
    threads, ours = opt.threads_per_warp, None
    if raised is not None:
        try:
            ours = pipeline.run_plan(raised, metadata, opt, properties, rest)
        except pipeline.PassFailure as e:
            failed = str(e)
    opt.threads_per_warp = threads
    other = pipeline.run_plan(mod, metadata, opt, properties, rest, text)
    t = roundtrip.now()
    if ours is None:
        kept, why = other, f"compiled without raising: with it, {_first_line(RuntimeError(failed))}"
    else:
        (mine, blocks, est), (theirs, their_blocks, their_est) = _ttgir_figures(str(ours)), _ttgir_figures(str(other))
        losses = native_wins(mine, theirs) + ([f"2D block loads {blocks} < {their_blocks}"]
                                              if blocks < their_blocks else []) + est.losses(their_est)
        if losses:
            kept, why = other, (f"compiled without raising: with it, {', '.join(losses)} "
                                f"({mine}, {est}; without: {theirs}, {their_est})")
        else:
            kept, why = ours, (f"raised kept: {mine}, {blocks} 2D block loads, {est}; "
                               f"without: {theirs}, {their_blocks}, {their_est}")
    roundtrip.count("raising_dropped", int(kept is other))
    _remark(stages[at].instance, ModuleOp([]), why)  # (about the whole kernel: no op of it to point at)
    roundtrip.record(TIME_KEY, t)
    return kept
