"""One text round trip inside a triton compile: triton's module -> our passes in xDSL -> triton's module.

Every failure of ours becomes a `PassFailure` whose message names the pass, the op, its
source position (the kernel's Python line, from the op's location) and its line in the
TTGIR; the plugin turns it into a native compile with one warning, or an error when strict.

Within one compile (a `Session`), a round trip whose input is the very text triton printed
for our previous output takes our module as it was printed instead of parsing that text
(our print is triton's print: the module is that text's parse), and a round trip whose
passes changed nothing hands triton back its own module instead of a parse of our print.

Nothing here is process-wide: how round trips run is the plan's (`RoundTripOptions`), the
module kept between them the compile's (`Session`), the times measured the caller's context's
(`measure.timing`); compiles in several threads at once do not share any of it.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.context import Context
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from xpu_passes.env_defaults import env_flag
from xpu_passes.integration import never_worse, oracle, parsed_prints
# re-exported: callers time and count through the round trip's names
from xpu_passes.integration.measure import count, measured, now, record, timing  # noqa: F401
from xpu_passes.integration.provenance import providers, source_hash  # noqa: F401
from xpu_passes.frontend import Spelling, TTGIRError, parse_module, print_module
from xpu_passes.frontend.parser import ParsedModule
# ops our print for triton (block_arg_locs) writes in the generic form, triton's print does not
from xpu_passes.frontend.printer import GENERIC_WITH_ARG_LOCS
from xpu_passes.transforms.base import FIXPOINT, OVER_BUDGET, UNCHANGED, XpuPass


class PassFailure(RuntimeError):
    """One of our passes (or triton on its output) failed while compiling a kernel."""


def source_position(loc: Attribute | None) -> str | None:
    """`file.py:LINE:COL` of a location (through names, call sites and fusions), if any."""
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc):
        return source_position(loc.child_loc)
    if isinstance(loc, CallSiteLoc):
        return source_position(loc.callee)
    if isinstance(loc, FusedLoc):
        return next(filter(None, (source_position(x) for x in loc.locations)), None)
    return None


def describe_op(op: Operation, ttgir_line: int | None) -> str:
    where = [w for w in (source_position(getattr(op, "location", None)),
                         f"ttgir line {ttgir_line}" if ttgir_line else None) if w]
    return f"'{op.name}'" + (f" at {', '.join(where)}" if where else "")


def _diagnostic(message: str) -> str:
    """triton's diagnostic, its first line cut short (it prints whole ops)."""
    first = message.strip().splitlines()[0] if message.strip() else "rejected"
    return first if len(first) <= 300 else first[:300] + " ..."


def _culprit(mod: Any, text: str, passes: list[tuple[str, ModulePass]]) -> str:
    """The first pass whose output triton-xpu rejects (found again, pass by pass: failures only)."""
    from xpu_passes.dialects import make_context

    ctx = make_context()
    module = parse_module(ctx, text, "<ttgir>").module
    for name, p in passes:
        p.apply(ctx, module)
        out = print_module(module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
        try:
            oracle.parse(out, mod.context)
        except oracle.OracleError:
            return name
    return ", ".join(name for name, _ in passes)


# A pass -> a run of it skipped when the module is, in content, what its previous run in the
# same round trip was given and left as it was, or a module its previous run said is a fixpoint
# of it (`XpuPass.said`): the pass is a function of the module's content (its decisions never
# depend on object identities or earlier runs; benchmarks/rlc_decisions.py gets the same outputs
# in other processes), so that run would leave it as it is. On the corpus: RemoveLayoutConversions
# right after itself (accelerate-matmul dropped) and after MaterializeBlockPointer and
# OptimizeBlockIOEncoding, when those changed nothing.
REPEATS: frozenset[str] = frozenset({"tritonintelgpu-remove-layout-conversions"})  # RoundTripOptions.repeats' default


@dataclass(frozen=True)
class RoundTripOptions:
    """How a compile's round trips run: its plan's (`pipeline.Plan.round_trips`). The shortcuts are
    off only to measure what they save or to check them (benchmarks/compile_time.py)."""

    skip_repeats: bool = True  # a repeated run of a pass skipped when it would leave the module as it is
    repeats: frozenset[str] = REPEATS  # the passes whose repeated runs are skipped so
    skip_idle: bool = True  # a round trip whose passes provably have nothing to do is not made (pipeline)
    reuse_modules: bool = True  # our module taken for the text triton printed of it (Session)
    # Every report of our passes is verified (contents compared, a fixpoint run again). Default:
    # XPU_PASSES_CHECK_REPORTS, read when the options are made; the pipeline option `check_reports`.
    check_reports: bool = field(default_factory=lambda: env_flag("XPU_PASSES_CHECK_REPORTS"))


class Session:
    """One compile's round trips: our module as we last printed it, with that print, so that the
    next round trip reading that very text from triton takes the module instead of parsing it.
    Made per compile (pipeline._run_stages), never shared between compiles."""

    def __init__(self, options: RoundTripOptions | None = None) -> None:
        self.options = RoundTripOptions() if options is None else options
        self.keep = False  # set by the caller: a later round trip may take what this one leaves
        self._kept: tuple[str, Context, ParsedModule] | None = None

    def leave(self, text: str, ctx: Context, parsed: ParsedModule) -> None:
        """`parsed` as printed to `text` (nothing may touch it after)."""
        self._kept = (text, ctx, parsed)

    def take(self, text: str) -> tuple[Context, ParsedModule] | None:
        """The kept module if `text` is its print (then it is the caller's to change); drops it either way."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        if kept[0] != text:
            count("reuse_misses")
            return None
        count("reused")
        return kept[1], kept[2]


def content(module: Operation) -> list[tuple[object, ...]]:
    """`module` as a list two modules compare equal (==) by when they print alike: every op in walk
    order with its name, operands, results (types, name hints), attributes, properties, location,
    regions (blocks, their arguments with types, name hints, locations) and successors; values and
    blocks are numbered by first occurrence, so a clone compares equal to its original."""
    num: dict[int, int] = {}  # id -> number (the module keeps every object alive meanwhile)
    n = num.setdefault
    out: list[tuple[object, ...]] = []
    stack: list[Operation] = [module]
    while stack:
        op = stack.pop()
        regions = []
        kids: list[Operation] = []
        for region in op.regions:
            blocks = []
            for block in region.blocks:
                blocks.append((n(id(block), len(num)), len(block.ops),
                               tuple((n(id(a), len(num)), a.type, a.name_hint, getattr(a, "location", None))
                                     for a in block.args)))
                kids.extend(block.ops)
            regions.append(tuple(blocks))
        kids.reverse()
        stack.extend(kids)  # popped in walk order
        out.append((op.name, tuple([n(id(v), len(num)) for v in op.operands]),
                    tuple([(n(id(r), len(num)), r.type, r.name_hint) for r in op.results]),
                    tuple(op.attributes.items()), tuple(op.properties.items()), op.location, tuple(regions),
                    tuple([n(id(b), len(num)) for b in op.successors])))
    return out


class _Versions:
    """The module's version in a round trip: bumped by every run that may have changed it. Our
    passes say when they did not (`XpuPass.said`); for others contents are compared, when a skip
    could follow."""

    def __init__(self, module: Operation) -> None:
        self.module, self.now = module, 0
        self._known: tuple[int, list[tuple[object, ...]]] | None = None  # a version's content

    def content(self) -> list[tuple[object, ...]]:
        if self._known is None or self._known[0] != self.now:
            self._known = (self.now, content(self.module))
        return self._known[1]

    def same(self, before: list[tuple[object, ...]]) -> bool:
        """Whether the module's content is still `before` (this version's)."""
        if content(self.module) != before:
            return False
        self._known = (self.now, before)
        return True


def _check_report(said: str | None, p: ModulePass, ctx: Context, module: Operation,
                  before: list[tuple[object, ...]]) -> None:
    """RoundTripOptions.check_reports: what a run said holds."""
    if said in (UNCHANGED, OVER_BUDGET) and content(module) != before:
        raise AssertionError(f"{p.name} said it left the module unchanged ({said}), and changed it")
    if said == FIXPOINT:
        now = content(module)
        p.apply(ctx, module)  # type: ignore[arg-type]
        if content(module) != now:
            raise AssertionError(f"{p.name} said its result is a fixpoint, and a second run changed it")


def _apply(passes: list[tuple[str, ModulePass]], ctx: Context, parsed: ParsedModule,
           options: RoundTripOptions | None = None, native: never_worse.NativeRun | None = None,
           text: str | None = None) -> bool:
    """`options`: how the round trip runs (defaults); `native`: runs triton-xpu's passes, for those
    of `passes` never worse than native's (`never_worse.guarded`); `text`: a print of `parsed` as
    given, for the first of them. Returns whether the module may have changed (False: every run
    said, or was seen, to leave it as given)."""
    from xpu_passes.transforms import PassError
    from xpu_passes.transforms.base import judged_clean, remarks_wanted, run_reporting

    # a repeated pass -> (its instance, the module's version it leaves as it is, whether native's
    # result on that version was compared and not kept: never_worse)
    idle: dict[str, tuple[ModulePass, int, bool]] = {}
    v = _Versions(parsed.module)
    options = RoundTripOptions() if options is None else options
    t = now()
    with judged_clean(parsed.module):  # the foreign-layout check once, not once per pass
        for i, (name, p) in enumerate(passes):
            # With remarks on (xpu-opt --remarks), a repeated run still says why it leaves things alone.
            skipping = options.skip_repeats and not remarks_wanted()
            guard = native is not None and never_worse.guarded(p)
            ours_idle = (skipping and name in idle and never_worse.same_pass(idle[name][0], p)
                         and idle[name][1] == v.now)
            if ours_idle and (not guard or idle[name][2]):
                count("repeats_skipped")
                continue
            # (a guarded repeat whose own run would leave the module as it is: native's side only)
            # Contents are compared around a run of another pass than ours (which say what they left)
            # when a repeated run follows that could then be skipped: this one again, unless it is
            # its first run in the round trip (on the corpus a first run always changes the module),
            # or one idle at this version.
            follows = {n for n, _ in passes[i + 1:]} & options.repeats
            again = name in follows and any(n == name for n, _ in passes[:i])
            watch = skipping and not isinstance(p, XpuPass) and (again or bool(follows & idle.keys()))
            before = v.content() if watch or options.check_reports else None
            compared = measured(never_worse.TIME_KEY)
            try:
                if guard:
                    assert native is not None
                    count("repeats_compared" if ours_idle else "never_worse_runs")
                    said = never_worse.apply(p, ctx, parsed.module, native, text if v.now == 0 else None,
                                             run_ours=not ours_idle)
                else:
                    said = (run_reporting(p, ctx, parsed.module) if isinstance(p, XpuPass)
                            else p.apply(ctx, parsed.module))
            except PassError as e:
                where = parsed.where(e.op)
                raise PassFailure(f"{name} failed on {describe_op(e.op, where[0] if where else None)}: "
                                  f"{e.message}") from None
            except Exception as e:
                frame = traceback.extract_tb(e.__traceback__)[-1]
                raise PassFailure(f"{name} raised {type(e).__name__}: {e} "
                                  f"(at {frame.filename}:{frame.lineno})") from e
            if said == OVER_BUDGET and not guard and native is not None and isinstance(p, XpuPass):
                said = _native_instead(p, ctx, parsed, native)
            t = record(f"pass:{name}", t)
            if guard:  # the comparison's time is its own
                measured(f"pass:{name}", measured(never_worse.TIME_KEY) - compared)
            count(f"runs:{name}")
            if options.check_reports and said is not None:
                assert before is not None
                _check_report(said, p, ctx, parsed.module, before)
            # (OVER_BUDGET: the run put its input back)
            unchanged = said in (UNCHANGED, OVER_BUDGET) or said is None and watch and v.same(before)  # type: ignore[arg-type]
            if not unchanged:
                v.now += 1
            idle.pop(name, None)
            if name in options.repeats and (unchanged or said == FIXPOINT):
                idle[name] = (p, v.now, guard and said == UNCHANGED)
            t = record("repeat_check", t)
    return v.now > 0


def _native_instead(p: XpuPass, ctx: Context, parsed: ParsedModule, native: never_worse.NativeRun) -> str | None:
    """Our pass `p` ran out of its work budget and kept its input: triton-xpu's pass of the same flag
    runs on it instead, when there is one (else the input stays). What is said of the result."""
    from xpu_passes import registry
    from xpu_passes.ir.clone import adopt_body

    if p.name not in registry.NATIVE_BY_NAME or p.name == registry.RAISE:
        return UNCHANGED  # (triton-xpu's own pipeline never raises: its stage has no raising to run)
    count("native_instead")
    text = print_module(parsed.module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
    out = native(text, p.name)
    if out is not None:
        adopt_body(parsed.module, parse_module(ctx, out, "<native>", verify=False).module)
    p.remark(parsed.module, "triton-xpu's pass run instead (ours ran out of its work budget)")
    return UNCHANGED if out is None else None


def run_python(mod: Any, passes: list[tuple[str, ModulePass]], text: str | None = None,
               session: Session | None = None) -> Any:
    """One round trip through `passes` (name, instance); returns triton's module of the result.
    `text`: triton's print of `mod`, if the caller has it; `session`: the compile's, to reuse
    our previous output when `text` is its print."""
    from xpu_passes.dialects import make_context

    names = ", ".join(name for name, _ in passes)
    options = session.options if session is not None else None
    t = now()
    text = str(mod) if text is None else text
    t = record("triton_print", t)
    taken = session.take(text) if session is not None else None
    if taken is None and (taken := parsed_prints.take(text)) is not None:
        count("guard_parses_taken")  # (a guard parsed this print to judge it: integration/parsed_prints.py)
    if taken is not None:
        ctx, parsed = taken
        try:
            changed = _apply(passes, ctx, parsed, options, never_worse.in_process(mod.context), text)
        except PassFailure:  # said again from a parse of `text`, whose lines the message quotes
            return run_python(mod, passes, text, Session(session.options) if session is not None else None)
    else:
        ctx = make_context()
        try:
            # Trusted (verify=False): triton's print of a module its pass manager verified; our own
            # verifier took ~half of a parse. What we print back, triton verifies (oracle.parse).
            parsed = parse_module(ctx, text, "<ttgir>", verify=False)
        except TTGIRError as e:
            raise PassFailure(f"xpu-passes could not read triton's TTGIR (before {names}): {e}") from None
        record("parse", t)
        count("ops", len(parsed.op_offsets))  # every op read (a walk here would add to the native part)
        changed = _apply(passes, ctx, parsed, options, never_worse.in_process(mod.context), text)
    t = now()
    # Every pass said it left the module as given: triton's own (no print, whose generic loops differ from `text`).
    out = print_module(parsed.module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True) if changed else text
    t = record("print", t)
    count("round_trips")
    if out == text:  # nothing changed (or a module without loops printed as given): triton's own, not a parse
        count("handed_back")
        if session is not None and session.keep:
            session.leave(text, ctx, parsed)
        return mod
    try:
        result = oracle.parse(out, mod.context)
    except oracle.OracleError as e:
        culprit = _culprit(mod, text, passes) if len(passes) > 1 else names
        raise PassFailure(f"triton-xpu rejected the output of {culprit}: {_diagnostic(str(e))}") from None
    record("triton_parse", t)
    # Kept only when our print is what triton prints: not with loops, printed generically for triton
    # (block_arg_locs). Printing triton's form to compare costs more than it saves: on the corpus the
    # native passes between two of our round trips always change the module (accelerate-matmul, cse).
    if session is not None and session.keep and not any(f'"{name}"' in out for name in GENERIC_WITH_ARG_LOCS):
        session.leave(out, ctx, parsed)
    return result
