"""What one solution of RemoveLayoutConversions works on (`Work`): the module it rewrites in place
(a copy of the input, or the input itself), its journal and figures, and whether it is valid
(`Validity`); and the loads a slice may recompute (`block_loads`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.dialects import tt
from xpu_passes.dialects.ttig import BLOCK_IO
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.transforms.base import WorkBudget
from xpu_passes.transforms.materialize_block_pointer import classify_pointer_tensor
from xpu_passes.transforms.remove_layout_conversions import remat_loads
from xpu_passes.transforms.remove_layout_conversions.remat_cache import RematCache
from xpu_passes.transforms.remove_layout_conversions.solution import Figures, Ledger, has_errors, layout_errors

Changes = tuple[set[Operation], set[Operation]]  # (touched, reshaped), as journal.Journal keeps them


def block_loads(module: ModuleOp, ops: list[Operation] | None = None,
                facts: Callable[[], AxisInfoAnalysis] | None = None) -> set[Operation]:
    """Tensor-of-pointer loads that may be recomputed in another layout (Intel's
    isExpensiveLoadOrStore is false): 2D-block-capable ones, loads of one splat address,
    and loads of fewer elements than the CTA has threads (cache hits). `facts`: the module's axis
    facts as they are now (the run's, `costs.facts_of`: not computed twice), else computed here."""
    ai: list[AxisInfoAnalysis] = []  # built for the first load that needs it (most modules have none)

    def tile(ld: tt.LoadOp) -> bool:
        if not isinstance(ld.result.type, TensorType) or len(ld.result.type.get_shape()) < 2:
            return False  # what classify_pointer_tensor says of 1D, without the analysis
        if not ai:
            ai.append(facts() if facts is not None else AxisInfoAnalysis(module))
        return classify_pointer_tensor(ld, ai[0], check_mask=False).tag is not None

    return {
        ld for ld in (walk_list(module) if ops is None else ops)
        if isinstance(ld, tt.LoadOp) and not ld.is_block_pointer
        and (BLOCK_IO in ld.attributes or remat_loads.cheap_load(ld) or tile(ld))
    }  # fmt: skip


class Validity:
    """Whether the module being rewritten is free of layout_errors.

    Not judged at first (the input's own validity is asked only when needed, once): meanwhile
    what was kept since the input is gathered, and a question is answered from the input's
    validity and those changes. Once judged (`learn`), each kept change updates the answer from
    the ops it touched (`validity.has_errors`)."""

    def __init__(self, module: ModuleOp, check: bool, input_valid: Callable[[], bool], since: Changes) -> None:
        self.module, self.check, self.input_valid = module, check, input_valid
        self.since: Changes | None = since  # None once judged
        self.valid = False  # (once judged)

    def judged(self) -> bool:
        return self.since is None

    def learn(self, valid: bool) -> None:
        self.since, self.valid = None, valid

    def errors(self, change: Changes, attached: set[Operation] | None = None) -> bool:
        """Whether the module has layout_errors with `change` (not kept yet) made; `attached`:
        those of its ops still in the module, if at hand (Ledger.update's)."""
        if self.since is not None:
            if not self.input_valid():
                return bool(layout_errors(self.module, self.check))
            return has_errors(self.module, self.since[0] | change[0], True, self.since[1] | change[1], check=self.check)
        return has_errors(self.module, change[0], self.valid, change[1], attached, self.check)

    def keep(self, change: Changes, attached: set[Operation] | None = None) -> None:
        """`change` is kept (`attached`: as for `errors`)."""
        if self.since is not None:
            self.since[0].update(change[0])
            self.since[1].update(change[1])
        elif self.valid:
            self.valid = not self.errors(change, attached)

    def now(self) -> bool:
        """Whether the module is valid (judged now if not yet)."""
        if self.since is not None:
            self.learn(not self.errors((set(), set())))
        return self.valid


@dataclass
class Work:
    """The module being rewritten: a copy of the input, rewritten in place (or the input itself);
    a trial that is not kept is undone (`journal`). `origin` maps its ops to the input's (remarks
    are located there)."""

    module: ModuleOp
    origin: dict[Operation, Operation]
    journal: Journal
    ledger: Ledger  # the module's figures, per op
    block_loads: set[Operation]
    _figures: Figures  # (read through `figures`)
    cache: RematCache
    validity: Validity
    budget: WorkBudget = field(default_factory=lambda: WorkBudget(None))  # the run's (spent by trials.remove)
    tried: set[Operation] = field(default_factory=set)
    kept: dict[Operation, str] = field(default_factory=dict)
    anchored: int = 0  # block-pointer families anchor_block_pointers retyped
    # The run's input's figures, when this solution's ledger started from the input as given (anchoring
    # changed nothing) or took them from one that did: the safety net's `start` is not costed again.
    input_figures: Figures | None = None
    changed: bool = False  # anything kept (a rewrite, a fold, anchoring, the sweep)
    # The last round changed nothing and read no copy, and nothing was swept after it: a run on
    # the result (given the same block loads, no block pointers) makes that round again.
    settled: bool = False
    # `figures` are not the module's yet (`settle(costed=False)`): `fresh()` costs them
    stale: bool = False

    @property
    def figures(self) -> Figures:
        """The module's figures, as of the last kept change (a fold settled uncosted is costed by `fresh()`)."""
        if self.stale:
            raise AssertionError("RLC: the module's figures read after settle(costed=False) before fresh()")
        return self._figures

    @figures.setter
    def figures(self, figures: Figures) -> None:
        self._figures = figures

    def change(self) -> Changes:
        """What the journal's open session changed."""
        return self.journal.touched, self.journal.reshaped

    def errors(self, now: bool) -> bool:
        """Whether `module` has layout_errors, `now`: with the journal's open change."""
        if now:
            return self.validity.errors(self.change(), self.ledger.attached)
        return self.validity.errors((set(), set()))

    def settle(self, costed: bool = True) -> None:
        """Keep the change made since `journal.begin()` (a fold, the final clean-up). `costed`: `figures` now,
        else when `fresh()` is next called (folds in a row: only the last one's state is compared with a trial's,
        and costing one, its spill over every access, is most of a trial's time)."""
        self.ledger.apply(self.journal.touched)
        self.validity.keep(self.change(), self.ledger.attached)
        self.commit()
        self.stale = True
        if costed:
            self.fresh()

    def fresh(self) -> None:
        """`figures` of the module as it is (kept since the last `settle`), if not costed yet: before a trial
        compares its own with them."""
        if self.stale:
            self._figures = self.ledger.current()
            self.stale = False

    def commit(self) -> None:
        self.ledger.commit()
        self.journal.commit()
        if self.journal.check_mode:
            self.journal.check()

    def undo(self) -> None:
        self.ledger.rollback()
        self.journal.rollback()
