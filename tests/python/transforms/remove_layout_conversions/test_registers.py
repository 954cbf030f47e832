"""What RemoveLayoutConversions charges a reduction for the registers its layout holds across a
barrier (transforms/remove_layout_conversions/registers.py), and that the module's figures carry it."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.transforms.remove_layout_conversions import registers, solution
from xpu_passes.layouts import pressure
from xpu_passes.transforms.remove_layout_conversions.costs import LOOP_WEIGHT, SLM_CAPACITY, SPILL_WEIGHT
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


# ------------------------------------------------------------------ a dot operand extended in registers


def _widening(warps: int, rep_rows: int, accumulators: int, elem: str = "f16",
              ops_per_chan: int = 1, staged_k: int = 0) -> tuple[object, object]:
    """A loop carrying `accumulators` 128x128 f32 DPAS accumulators on `warps` warps, whose dots read B
    as a 32x128 `elem` tile extended in the operand layout (to f32, or f16 for a 16-bit DPAS); with
    `staged_k`, the first accumulator also takes a 128 x staged_k by staged_k x 128 dot of loop
    invariants (operands staged through SLM); (module, the extf)."""
    mma = (f"#triton_intel_gpu.dpas<{{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
           f"opsPerChan = {ops_per_chan}, threadsPerWarp = 16, warpsPerCTA = [{warps}, 1], repCluster = [{rep_rows}, 1], "
           f"A = [{8 * rep_rows}, {8 * ops_per_chan}], B = [{8 * ops_per_chan}, 16], C = [{8 * rep_rows}, 16]}}>")
    op_b = f"#ttg.dot_op<{{opIdx = 1, parent = #mma, kWidth = {ops_per_chan}}}>"
    op_a = "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>"
    wide = "f32" if ops_per_chan == 1 else "f16"  # (the DPAS's operand type)
    accs = ", ".join(f"%a{i} = %acc" for i in range(accumulators))
    types = ", ".join(["tensor<128x128xf32, #mma>"] * accumulators)
    dots = "\n".join(f"      %d{i} = tt.dot %ca, %bf, %a{i}, inputPrecision = tf32 : tensor<128x32x{wide}, {op_a}> * "
                     f"tensor<32x128x{wide}, {op_b}> -> tensor<128x128xf32, #mma>" for i in range(accumulators))
    if staged_k:
        dots += (f"\n      %d0k = tt.dot %k, %v, %d0, inputPrecision = tf32 : tensor<128x{staged_k}x{wide}, {op_a}> * "
                 f"tensor<{staged_k}x128x{wide}, {op_b}> -> tensor<128x128xf32, #mma>")
    invariants = (f", %k: tensor<128x{staged_k}x{wide}, {op_a}>, %v: tensor<{staged_k}x128x{wide}, {op_b}>"
                  if staged_k else "")
    results = ", ".join("%d0k" if staged_k and i == 0 else f"%d{i}" for i in range(accumulators))
    text = f"""
#mma = {mma}
module attributes {{"ttg.num-warps" = {warps} : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func public @f(%b: tensor<32x128x{elem}, {op_b}>, %ca: tensor<128x32x{wide}, {op_a}>, %acc: tensor<128x128xf32, #mma>, %n: i32{invariants}) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:{accumulators} = scf.for %i = %c0 to %n step %c1 iter_args({accs}) -> ({types}) : i32 {{
      %bf = arith.extf %b : tensor<32x128x{elem}, {op_b}> to tensor<32x128x{wide}, {op_b}>
{dots}
      scf.yield {results} : {types}
    }}
    tt.return
  }}
}}
"""
    module = parse_module(make_context(), text).module
    return module, next(op for op in module.walk() if op.name == "arith.extf")


def test_a_narrow_tile_in_a_tf32_operand_layout_takes_32_bit_slots() -> None:
    """Read from SLM one 16-bit element per 32-bit slot: the f16 tile holds what its f32 extension holds."""
    _, ext = _widening(4, 4, 2)
    narrow, wide = ext.operands[0].type, ext.results[0].type  # type: ignore[attr-defined]
    assert pressure.operand_slot_bytes(narrow) == pressure.operand_slot_bytes(wide) == pressure.tensor_bytes(wide)
    assert pressure.operand_slot_bytes(narrow) == 2 * pressure.tensor_bytes(narrow)


def test_an_extended_operand_is_charged_where_the_accumulators_overfill_the_registers() -> None:
    """flag_gems' _attn_bwd construct (BLOCK_M1=32, 4 warps): two 128x128 f32 accumulators of 1 KB per
    lane each, over a 1 KB register file; the f16 tile read again at the f32 size spills, for every lane."""
    module, ext = _widening(4, 4, 2)
    loop = ext.parent_op()  # type: ignore[attr-defined]
    assert registers.carried_accumulator_bytes(loop) == 2 * pressure.budget(pressure.GRF_LARGE, 16)
    slot = pressure.operand_slot_bytes(ext.operands[0].type)  # type: ignore[attr-defined]
    assert registers.widening_price(ext) == SPILL_WEIGHT * slot * 16 * 4  # type: ignore[arg-type]
    assert solution.figures(module).cost == LOOP_WEIGHT * registers.widening_price(ext)  # type: ignore[arg-type]


@pytest.mark.parametrize("warps, rep_rows, accumulators, elem, ops_per_chan", [
    (8, 2, 2, "f16", 1),  # 8 warps: 512 B per lane each, the register file exactly (BLOCK_M1=64's twin)
    (4, 4, 1, "f16", 1),  # one accumulator: 1 KB, within it
    (4, 4, 2, "f8E5M2", 2),  # a 16-bit DPAS's operand: 8-bit elements are not read into 32-bit slots here
])
def test_no_charge_within_the_registers_or_outside_a_tf32_operand(warps: int, rep_rows: int, accumulators: int,
                                                                  elem: str, ops_per_chan: int) -> None:
    module, ext = _widening(warps, rep_rows, accumulators, elem, ops_per_chan)
    assert registers.widening_price(ext) == 0  # type: ignore[arg-type]
    assert solution.figures(module).cost == 0


def test_no_charge_where_the_extension_would_not_fit_the_slm_with_the_other_staged_operands() -> None:
    """The loop's dots also read 128x256 and 256x128 f32 invariants through SLM (256 KB): converting the
    extension too could not launch (flag_gems' _attn_bwd BLOCK_M1=64 on 4 warps: native 148,480 B);
    the narrow conversion is not charged. With 32-wide invariants (32 KB) it is."""
    _, ext = _widening(4, 4, 2, staged_k=256)
    loop = ext.parent_op()  # type: ignore[attr-defined]
    assert registers.staged_bytes(loop, ext) > SLM_CAPACITY  # type: ignore[arg-type]
    assert registers.widening_price(ext) == 0  # type: ignore[arg-type]
    _, ext = _widening(4, 4, 2, staged_k=32)
    extended = 32 * 128 * 4
    assert registers.staged_bytes(ext.parent_op(), ext) == extended + 128 * 32 * 4 + 2 * 32 * 128 * 4  # type: ignore
    assert registers.widening_price(ext) > 0  # type: ignore[arg-type]
