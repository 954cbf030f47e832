"""same_module: two prints of one module up to the order of its constants (and locations), read without a
parse; the stage guard's shortcut on it (judge_stages keeps ours without estimating either side) and where it
must be refused: a constant's value, a constant moved to another run, an op order, a layout, two functions.

The construct: a masked store of a 64x128 f32 tile whose bound is a constant. A bound that is a multiple of
the vector (128) masks whole vectors: 32 scatters; a bound of 3 masks each element: 128. So the two prints
that differ in that constant only differ at the ISA, by the estimate the shortcut skips."""

from __future__ import annotations

import pytest

from xpu_passes.integration import oracle, stage_figures
from xpu_passes.integration.isa_estimate import estimate_text
from xpu_passes.integration.stage_figures import judge_stages
from xpu_passes.integration.same_module import canonical, same_module
from integration.bound_construct import OTHER, store

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")


def test_the_construct_differs_at_the_isa_by_its_bound() -> None:
    whole, each = estimate_text(store(128)), estimate_text(store(3))
    assert whole is not None and each is not None
    assert (whole.scatters, each.scatters) == (32, 128)
    # the reordered print reads as the same module, with the same estimate
    assert estimate_text(store(128, order=(2, 0, 1))) == whole


def test_constants_in_another_order_and_locations_are_the_same_module() -> None:
    base = store()
    assert same_module(base, base)
    for order in [(1, 0, 2), (2, 1, 0), (2, 0, 1)]:
        other = store(order=order)
        assert other != base and same_module(base, other) and same_module(other, base)
    assert same_module(base, store(locs=("#loc3", "#loc3")))  # (locations: no figure reads them)


@pytest.mark.parametrize("other", [
    store(3),  # a constant's value (the bound: 4x the scatters)
    store(order=(1, 0, 2), bound=3),
    store(inner=True),  # the row stride defined in a second run (another place in the block)
    store(swap_ops=True),  # two ops in the other order (triton-xpu's allocation numbers ops in walk order)
    store(layout=OTHER),  # a layout
    store(attr=' {cache = 1 : i32}'),  # an attribute of an op
])
def test_what_is_not_the_same_module(other: str) -> None:
    assert not same_module(store(), other) and not same_module(other, store())


def test_refused_where_a_name_could_mean_two_things() -> None:
    # two functions: SSA names are per function
    assert canonical(store(functions=2)) is None and not same_module(store(functions=2), store(order=(1, 0, 2), functions=2))
    # one run defining the same constant twice: a key would name two constants
    twice = store().replace("dense<0.000000e+00> : tensor<64x128xf32", "dense<128> : tensor<64x1xi32", 1)
    assert canonical(twice) is None
    # a quoted string holding a '%'
    assert canonical(store(attr=' {note = "%cst"}')) is None


@needs_triton
def test_the_stage_guard_skips_the_estimate_of_the_same_module(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_estimate(text: str, scratch: bool) -> None:
        raise AssertionError("estimated")

    # where the cheap figures tie and the modules are the same: ours kept, neither estimated nor allocated
    with monkeypatch.context() as m:
        m.setattr(stage_figures, "_estimated", no_estimate)
        m.setattr(stage_figures, "_allocated", no_estimate)
        losses, why = judge_stages(store(), store(order=(2, 0, 1)), oracle.context())
    assert losses == [] and why.startswith("our stage kept: triton-xpu's is the same module up to the order"), why
    # a constant's value differs (every cheap figure ties): estimated, and native's fewer scatters kept
    losses, why = judge_stages(store(3), store(order=(2, 0, 1)), oracle.context())
    assert losses == ["scatters 128 > 32 (estimated)"], why
