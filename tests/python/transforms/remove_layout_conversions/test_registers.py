"""What RemoveLayoutConversions charges a reduction for the registers its layout holds across a
barrier (transforms/remove_layout_conversions/registers.py), and that the module's figures carry it."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.transforms.remove_layout_conversions import registers, solution
from xpu_passes.transforms.remove_layout_conversions.costs import SPILL_WEIGHT
from xpu_passes.transforms.remove_layout_conversions.reductions import traffic

# sizePerThread, threadsPerWarp, warpsPerCTA of blocked layouts of a SIMD32 GEMV.
ACROSS = "[1, 4]", "[1, 32]", "[2, 1]"  # warps split dim 0: a sum over axis 0 crosses them
ACROSS_64 = "[1, 4]", "[2, 16]", "[2, 1]"  # the same for 64 columns (no lane holds a copy)
WITHIN = "[1, 2]", "[1, 32]", "[1, 2]"  # warps split dim 1: a sum over axis 0 stays in a warp


def _reduce(rows: int, cols: int, layout: tuple[str, str, str], axis: int = 0,
            elem: str = "f16") -> tuple[object, tt.ReduceOp]:
    spt, tpw, warps = layout
    out = (f"tensor<{cols}x{elem}, #ttg.slice<{{dim = 0, parent = #b}}>>" if axis == 0 else
           f"tensor<{rows}x{elem}, #ttg.slice<{{dim = 1, parent = #b}}>>")
    add = "arith.addf" if elem.startswith("f") else "arith.addi"
    text = f"""
#b = #ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = {warps}, order = [1, 0]}}>
module attributes {{"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @f(%x: tensor<{rows}x{cols}x{elem}, #b>) {{
    %r = "tt.reduce"(%x) <{{axis = {axis} : i32}}> ({{
    ^bb0(%a: {elem}, %b: {elem}):
      %s = {add} %a, %b : {elem}
      tt.reduce.return %s : {elem}
    }}) : (tensor<{rows}x{cols}x{elem}, #b>) -> {out}
    tt.return
  }}
}}
"""
    module = parse_module(make_context(), text).module
    return module, next(op for op in module.walk() if isinstance(op, tt.ReduceOp))


def test_a_sum_across_warps_of_a_register_file_sized_tile_is_charged_its_spill() -> None:
    """The construct that spilled (gemlite's 8-bit GEMV, 64x128 f16 in the load's layout, 2 warps
    along the summed axis): 128 values of 2 bytes in each of 32 lanes fill 128 GRFs of 64 bytes."""
    module, red = _reduce(64, 128, ACROSS)
    assert registers.register_bytes(red.operands[0].type) == registers.FILE_BYTES  # type: ignore[arg-type]
    assert registers.reduce_price(red) == SPILL_WEIGHT * 64 * 128 * 2
    # The module's figures carry it on top of the reduction's scratch.
    scratch = solution.figures(module).slm
    assert scratch > 0 and solution.figures(module).cost == scratch + registers.reduce_price(red) + traffic(red)


def test_lanes_holding_copies_hold_registers_too() -> None:
    """64 columns in a layout made for 128: every value sits in two lanes; each lane still holds 128."""
    _, red = _reduce(64, 64, ACROSS)
    assert registers.register_bytes(red.operands[0].type) == registers.FILE_BYTES  # type: ignore[arg-type]
    assert registers.reduce_price(red) == SPILL_WEIGHT * 64 * 64 * 2


@pytest.mark.parametrize("rows, cols, layout, axis, elem", [
    (64, 128, WITHIN, 0, "f16"),  # one warp holds the summed axis: no barrier inside the reduction
    (64, 64, ACROSS_64, 0, "f16"),  # across warps, but half the register file (IGC: no spill, and cheaper)
    (32, 128, ACROSS, 0, "f16"),  # the same, fewer rows
    (64, 128, ACROSS, 1, "f16"),  # summed along the lanes of one warp (the other axis)
])
def test_no_charge_without_a_barrier_or_with_room_in_the_registers(rows: int, cols: int, layout: tuple[str, str, str],
                                                                    axis: int, elem: str) -> None:
    module, red = _reduce(rows, cols, layout, axis, elem)
    assert registers.reduce_price(red) == 0
    assert solution.figures(module).cost == solution.figures(module).slm + traffic(red)  # the scratch (+ reductions.py)


def test_wider_elements_fill_the_registers_sooner() -> None:
    """f32 values take twice the bytes: a 32x128 tile across warps fills the file, a f16 one does not."""
    _, red32 = _reduce(32, 128, ACROSS, elem="f32")
    _, red16 = _reduce(32, 128, ACROSS, elem="f16")
    assert registers.reduce_price(red32) == SPILL_WEIGHT * 32 * 128 * 4 and registers.reduce_price(red16) == 0
