"""Linear layouts (layouts/linear.py): how one placement converts to another (register
reorders, sub-group shuffles, conversions across warps) and the remembered building blocks."""

from __future__ import annotations

import dataclasses

import pytest

from xpu_passes.layouts import from_linear, needs_slm, same_placement, to_linear
from xpu_passes.layouts.linear import conversion, mixed_transpositions, reorders_registers

from layouts.layout_attrs import EPI_256, MMA_32W


# --------------------------------------------------------- conversions


def test_conversion_classes() -> None:
    shape = (256, 256)
    a, b = to_linear(EPI_256, shape), to_linear(MMA_32W, shape)
    assert reorders_registers(a, a)
    assert not reorders_registers(a, b) and mixed_transpositions(a, b) is None  # crosses warps
    swapped = dataclasses.replace(a, register=(a.register[1], a.register[0]) + a.register[2:])
    assert reorders_registers(a, swapped) and not same_placement(EPI_256, from_linear(swapped), shape)
    assert a.holds_all_of(swapped, "lane") and swapped.holds_all_of(a, "lane")
    assert not a.holds_all_of(b, "lane") and not a.holds_all_of(b, "warp") and a.holds_all_of(b, "block")
    conv = conversion(a, swapped)
    assert conv["register"][:2] == ((("register", 1),), (("register", 0),))
    # One register bit traded for one lane bit inside each warp: a sub-group shuffle.
    one_swap = dataclasses.replace(a, register=(a.lane[0],) + a.register[1:], lane=(a.register[0],) + a.lane[1:])
    assert mixed_transpositions(a, one_swap) == 1 and not needs_slm(EPI_256, from_linear(one_swap), shape)
    assert not a.holds_all_of(one_swap, "lane") and a.holds_all_of(one_swap, "warp")


def test_building_blocks_are_remembered_as_built_and_conversion_lists_src_bits_in_order() -> None:
    """identity1d/zeros1d/empty are remembered (pure, immutable answers): the answer equals a
    fresh build, out_order included; conversion's images list src bits by (dim, index)."""
    from xpu_passes.layouts.linear import LinearLayout, empty, identity1d, zeros1d

    for fn, args in ((identity1d, (8, "lane", 1, 2)), (zeros1d, (4, "warp", 0, 2)), (empty, (3,))):
        got, fresh = fn(*args), fn.__wrapped__(*args)  # type: ignore[attr-defined]
        assert got == fresh and got.out_order == fresh.out_order and fn(*args) is got
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.shape = (1,)  # type: ignore[misc]
    # dst's lane bit 0 holds what src's register bit 0 XOR lane bit 0 hold.
    src = LinearLayout((4,), register=((1,),), lane=((2,),))
    dst = LinearLayout((4,), register=((2,),), lane=((3,),))
    conv = conversion(src, dst)
    assert conv["register"] == ((("lane", 0),),) and conv["lane"] == ((("register", 0), ("lane", 0)),)
