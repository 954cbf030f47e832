"""The positions' guard takes a module's axis facts once for its figures and its estimate
(never_worse._figures_and_facts, isa_estimate.estimate's `facts`): the same answers as an estimate that
analyses the module again, where the facts decide (a store masked by a constant bound: whole vectors or
one element a message), and none handed on where the figures took none."""

from __future__ import annotations

from xpu_passes.dialects import tt
from xpu_passes.integration.isa_estimate import estimate, read_print
from xpu_passes.integration.never_worse import _figures, _figures_and_facts
from integration.bound_construct import store


def test_the_figures_facts_give_the_estimate_its_own_would() -> None:
    for bound, scatters in [(128, 32), (3, 128)]:
        module = read_print(store(bound))
        figures, facts = _figures_and_facts(module)
        assert facts is not None and figures == _figures(read_print(store(bound)))
        shared, fresh = estimate(module, facts=facts), estimate(read_print(store(bound)))
        assert shared == fresh and shared.scatters == scatters


def test_another_modules_facts_would_be_a_stale_answer() -> None:
    # (why the guard hands on only the facts of the module it estimates: the bound's facts decide)
    _, facts = _figures_and_facts(read_print(store(3)))
    assert estimate(read_print(store(128)), facts=facts).scatters != 32


def test_no_facts_where_the_figures_took_none() -> None:
    module = read_print(store())
    for op in [op for op in module.walk() if isinstance(op, tt.StoreOp)]:
        op.detach()
        op.erase()
    assert _figures_and_facts(module)[1] is None
