"""What every xpu-passes pass shares: the registry, remarks, and pass errors.

What a pass run says (its remarks, its report of the result) belongs to the run: it goes to
the sink and report of the current context (`ContextVar`s: each thread has its own, and
`collecting_remarks`/`run_reporting` scope them), never to process-wide state, so passes may
run in several threads at once."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import ClassVar, TypeVar

import functools

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.passes import ModulePass

from xpu_passes.registry import OUR_PASSES, register_pass


@dataclass(frozen=True)
class Remark:
    pass_name: str
    op: Operation
    message: str


class RemarkSink:
    """Collects remarks so the driver can print them located in the input."""

    def __init__(self) -> None:
        self.remarks: list[Remark] = []

    def emit(self, pass_name: str, op: Operation, message: str) -> None:
        self.remarks.append(Remark(pass_name, op, message))

    def drain(self) -> list[Remark]:
        out, self.remarks = self.remarks, []
        return out


_SINK: ContextVar[RemarkSink | None] = ContextVar("xpu_passes_remarks", default=None)


@contextlib.contextmanager
def collecting_remarks(sink: RemarkSink | None = None) -> Iterator[RemarkSink]:
    """The remarks of the passes run inside (in this context) go to `sink` (a new one by default)."""
    sink = RemarkSink() if sink is None else sink
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


def drain_remarks() -> list[Remark]:
    """The remarks collected here so far (taken: the sink is empty after)."""
    sink = _SINK.get()
    return [] if sink is None else sink.drain()


def remarks_wanted() -> bool:
    """Whether remarks are being collected here (passes may then say more, repeats are not skipped)."""
    return _SINK.get() is not None


class PassError(Exception):
    """A pass met IR it cannot handle; reported at `op` in the input."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


# What a run said of its result (`XpuPass.said`), for the round trip that skips repeated runs
# (`roundtrip._apply`): the module is as it was given, or a run of the same pass with the same
# options on the result would leave it as it is. Nothing said: it may have changed.
UNCHANGED, FIXPOINT = "unchanged", "fixpoint"
# The run ran out of its work budget and left the module as it was given (a caller that can run
# triton-xpu's own pass takes its result instead: integration/never_worse.py).
OVER_BUDGET = "over-budget"
# The report of the run under way in this context ([what it said]; a pass may run another: each
# run sets its own), and where a finished run leaves its report (`run_reporting`'s).
_SAID: ContextVar[list[str | None] | None] = ContextVar("xpu_passes_said", default=None)
_REPORT: ContextVar[list[str | None] | None] = ContextVar("xpu_passes_report", default=None)


def run_reporting(p: ModulePass, ctx: Context, op: ModuleOp) -> str | None:
    """Run `p` on `op`: what the run said of its result (UNCHANGED, FIXPOINT, OVER_BUDGET; None: nothing)."""
    box: list[str | None] = [None]
    token = _REPORT.set(box)
    try:
        p.apply(ctx, op)
    finally:
        _REPORT.reset(token)
    return box[0]


@dataclass(frozen=True)
class XpuPass(ModulePass):
    """Base of our passes: `remark()` says why a rewrite was not done, `said()` what a run left."""

    name = "xpu-pass"
    summary: ClassVar[str] = ""
    # Whether the pass reads the foreign layouts the algebra maps (`layouts.encodings.modelled_foreign`).
    reads_modelled_foreign: ClassVar[bool] = False

    def remark(self, op: Operation, message: str) -> None:
        sink = _SINK.get()
        if sink is not None:
            sink.emit(self.name, op, message)

    @staticmethod
    def said(what: str) -> None:
        """UNCHANGED or FIXPOINT, only when sure (the round trip then skips a repeated run of the
        pass; its check mode, the pipeline option `check_reports`, verifies every report)."""
        box = _SAID.get()
        if box is not None:
            box[0] = what

    def __init_subclass__(cls, **kwargs: object) -> None:
        # Every pass leaves a module that holds another backend's layout alone (one
        # place, so no pass can forget it): our layout algebra does not model them.
        super().__init_subclass__(**kwargs)
        inner = cls.__dict__.get("apply")
        if inner is None:
            return

        @functools.wraps(inner)
        def apply(self: XpuPass, ctx: Context, op: ModuleOp) -> None:
            box: list[str | None] = [None]
            token = _SAID.set(box)
            try:
                found = (None if _JUDGED_CLEAN.get() is op else foreign_layout_use(op, True)
                         if self.reads_modelled_foreign else foreign_layout_use(op))
                if found is not None:
                    self.remark(found[0], f"left alone: {found[1]} is another backend's layout, not modelled here")
                    self.said(UNCHANGED)
                    return
                inner(self, ctx, op)
            finally:
                _SAID.reset(token)
                report = _REPORT.get()
                if report is not None:  # (an outer run, finishing later, overwrites it)
                    report[0] = box[0]

        cls.apply = apply  # type: ignore[method-assign]


class OverBudget(Exception):
    """A pass spent its work budget (`WorkBudget`): it undoes what it did and says OVER_BUDGET."""


@dataclass
class WorkBudget:
    """Work a run may do, in the pass's own units (e.g. slice values walked or rewritten): a fixed
    amount per op of its input, so the bound grows with the module and never depends on the clock
    (a run over budget gives the same output on every machine)."""

    limit: int | None  # None: unbounded
    spent: int = 0

    @classmethod
    def per_op(cls, per_op: int, ops: int) -> WorkBudget:
        """`per_op` units per op of the input (0 or less: unbounded)."""
        return cls(per_op * max(ops, 1) if per_op > 0 else None)

    def spend(self, units: int) -> None:
        self.spent += units
        if self.limit is not None and self.spent > self.limit:
            raise OverBudget(f"work budget spent ({self.spent} > {self.limit} units)")


# Default work budgets of the passes that decide in one walk (units: ops and values a run visits,
# per op of its input; 0: unbounded). Their runs spend a few per op: the budget only cuts a run whose
# work grows faster than the module (a long use chain walked again per access, say).
LINEAR_WORK_PER_OP = 50


def over_budget(p: XpuPass, op: Operation, e: OverBudget, per_op: int, kept: str = "input kept") -> None:
    """Say that `p` ran out of its work budget on `op` (a remark) and that its run left the module as
    it was given (OVER_BUDGET: a round trip that can run triton-xpu's pass of the same flag takes its result)."""
    p.remark(op, f"{kept}: {e}, max-work-per-op={per_op}")
    if kept == "input kept":
        p.said(OVER_BUDGET)


_Chosen = TypeVar("_Chosen")


def within_budget(p: XpuPass, op: ModuleOp, ops: list[Operation], per_op: int,
                  judge: Callable[[list[Operation], WorkBudget], _Chosen]) -> _Chosen | None:
    """What `judge(ops, budget)` chose, with a budget of `per_op` units per op of `ops`; None when it ran
    out (over_budget says so, and the input is kept: `judge` only decides, the caller rewrites after)."""
    try:
        return judge(ops, WorkBudget.per_op(per_op, len(ops)))
    except OverBudget as e:
        over_budget(p, op, e, per_op)
        return None


# The module a round trip found free of foreign layouts (`judged_clean`): its passes skip the check.
_JUDGED_CLEAN: ContextVar[Operation | None] = ContextVar("xpu_passes_judged_clean", default=None)


@contextlib.contextmanager
def judged_clean(module: ModuleOp) -> Iterator[None]:
    """Check `module` for foreign layouts once for a sequence of passes, not once per pass: our
    passes never create one (only the parser makes ForeignLayoutAttr, for layouts it cannot read)."""
    token = _JUDGED_CLEAN.set(module if foreign_layout_use(module) is None else _JUDGED_CLEAN.get())
    try:
        yield
    finally:
        _JUDGED_CLEAN.reset(token)


# A type -> the foreign layout it mentions, by identity (types are immutable and shared between
# ops, so each is judged once per process); an entry holds its type, so no id is reused while cached.
# Shared by threads: one get or set per access (atomic), and an entry is checked to be its type's.
_FOREIGN: dict[tuple[int, bool], tuple[Attribute, str | None]] = {}
_FOREIGN_MAX = 100_000


def foreign_layout_use(module: Operation, modelled: bool = False) -> tuple[Operation, str] | None:
    """The first op whose types mention another backend's layout, and that layout's name
    (`modelled`: but those the layout algebra maps)."""
    from xpu_passes.dialects.ttg import ForeignLayoutAttr
    from xpu_passes.layouts.encodings import modelled_foreign

    seen: dict[Attribute, str | None] = {}

    def find(attr: Attribute) -> str | None:
        if attr in seen:
            return seen[attr]
        seen[attr] = None
        hit: str | None = None
        if isinstance(attr, ForeignLayoutAttr):
            hit = None if modelled and modelled_foreign(attr) else f"#{attr.name}"
        elif isinstance(attr, ParametrizedAttribute):
            hit = next((h for p in attr.parameters if (h := find(p)) is not None), None)
        elif isinstance(attr, ArrayAttr):
            hit = next((h for p in attr.data if (h := find(p)) is not None), None)
        seen[attr] = hit
        return hit

    def judged(t: Attribute) -> str | None:
        entry = _FOREIGN.get((id(t), modelled))
        if entry is not None and entry[0] is t:
            return entry[1]
        if len(_FOREIGN) >= _FOREIGN_MAX:
            _FOREIGN.clear()
        name = find(t)
        _FOREIGN[(id(t), modelled)] = (t, name)
        return name

    for op in module.walk():
        for r in op.results:
            if (name := judged(r.type)) is not None:
                return op, name
        for region in op.regions:
            for b in region.blocks:
                for a in b.args:
                    if (name := judged(a.type)) is not None:
                        return op, name
    return None


# Our passes live in the registry (`xpu_passes.registry`): `register` is its decorator and
# PASSES its view of ours by flag (each a factory importing the pass's module).
register = register_pass
PASSES = OUR_PASSES
