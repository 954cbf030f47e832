"""Block-pointer loads and stores in a layout that is not a 2D block one (isa_estimate.block_pointer_access,
layouts/memory.block_pointer_messages). The construct: a 64x64 tile loaded through a block pointer in a
blocked layout and stored through another (raising makes these: attn_bwd's K/V loads before the dot,
64 gathers a lane where the estimate said none). triton-xpu 3.3 lowers them one element at a time;
IGC merges a lane's elements adjacent in memory. Each case is also compiled to PVC's ISA when IGC is
installed, and the estimate must equal IGC's gathers and scatters (the calibration, kept)."""

from __future__ import annotations

import pytest

from xpu_passes.integration import isa, oracle
from xpu_passes.integration.isa_estimate import estimate_text

BLOCKED = "#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = [4, 1], order = {order}}}>"
HEADER = ('module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, '
          'triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, '
          '"ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {')


def tile_copy(spt: str, tpw: str, order: str = "[1, 0]", elem: str = "f16", column_major: bool = False,
              checked: str = "", pitch: str = "") -> str:
    """Load a 64x64 tile through a block pointer in a blocked layout and store it through another.
    `column_major`: unit stride on dim 0; `checked`: the boundary check's dims; `pitch`: attributes of
    the row pitch (its divisibility)."""
    strides, ptr_order = ("[%c1, %ld]", "0, 1") if column_major else ("[%ld, %c1]", "1, 0")
    t = f"tensor<64x64x{elem}, #blocked>"
    load_attrs = f" {{boundaryCheck = array<i32: {checked}>, padding = 1 : i32}}" if checked else ""
    store_attrs = f" {{boundaryCheck = array<i32: {checked}>}}" if checked else ""
    return f"""#blocked = {BLOCKED.format(spt=spt, tpw=tpw, order=order)}
{HEADER}
  tt.func public @tile_copy(%a: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}}, %b: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}}, %m: i64, %ld: i64{pitch}) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %a, [%m, %m], {strides}, [%c0, %c0] {{order = array<i32: {ptr_order}>}} : <{t}>
    %x = tt.load %p{load_attrs} : !tt.ptr<{t}>
    %q = tt.make_tensor_ptr %b, [%m, %m], {strides}, [%c0, %c0] {{order = array<i32: {ptr_order}>}} : <{t}>
    tt.store %q, %x{store_attrs} : !tt.ptr<{t}>
    tt.return
  }}
}}
"""


ALIGNED = " {tt.divisibility = 16 : i32}"
# (case, (gathers, scatters)): 4,096 elements over 64 lanes, 64 a lane
CASES = [
    # one element of a row a lane: nothing to merge
    (dict(spt="[1, 1]", tpw="[1, 16]"), (64, 64)),
    # 8 adjacent f16 a lane, the pitch unknown (2-byte aligned rows): a dword (2 elements) a message
    (dict(spt="[1, 8]", tpw="[2, 8]"), (32, 32)),
    # ... the pitch a multiple of 16 elements: 16 bytes (8 elements) a message
    (dict(spt="[1, 8]", tpw="[2, 8]", pitch=ALIGNED), (8, 8)),
    # f32, the pitch unknown: 4 dwords a message (naturally aligned elements)
    (dict(spt="[1, 8]", tpw="[2, 8]", elem="f32"), (16, 16)),
    # unaligned, a boundary check masks each element, on either dim: IGC merges nothing
    (dict(spt="[1, 8]", tpw="[2, 8]", checked="0"), (64, 64)),
    (dict(spt="[1, 8]", tpw="[2, 8]", checked="0, 1"), (64, 64)),
    # aligned, triton's own vectors: a boundary check masks whole vectors
    (dict(spt="[1, 8]", tpw="[2, 8]", checked="0, 1", pitch=ALIGNED), (8, 8)),
    (dict(spt="[1, 4]", tpw="[4, 4]", elem="f32", checked="0", pitch=ALIGNED), (16, 16)),
    # the layout's fastest dim is not the unit-stride dim: loads still merge 4 adjacent f32, stores do not
    (dict(spt="[2, 4]", tpw="[4, 4]", order="[0, 1]", elem="f32"), (16, 64)),
    # ... nor does triton vectorize them, aligned or not: IGC's dword of f16
    (dict(spt="[2, 8]", tpw="[4, 4]", order="[0, 1]", pitch=ALIGNED), (32, 64)),
    # unit stride on dim 0, lanes along dim 1 and rows 4 apart (warps along dim 0): nothing adjacent
    (dict(spt="[1, 1]", tpw="[1, 16]", column_major=True), (64, 64)),
]


@pytest.mark.parametrize(("case", "expected"), CASES)
def test_block_pointer_access_messages(case: dict[str, object], expected: tuple[int, int]) -> None:
    e = estimate_text(tile_copy(**case))  # type: ignore[arg-type]
    assert e is not None and (e.gathers, e.scatters) == expected


def test_column_major_tile_held_down_its_columns_merges() -> None:
    # lanes along dim 1, warps along dim 1 too: a lane holds all 64 rows of one column, adjacent in
    # memory with the unit stride on dim 0 (raised attn_bwd_dq's K^T load): 16 bytes a message when aligned
    text = tile_copy("[1, 1]", "[1, 16]", column_major=True, pitch=ALIGNED).replace("[4, 1]", "[1, 4]")
    e = estimate_text(text)
    # (the store too: the lane's registers walk dim 0 first, whatever the blocked layout's order says)
    assert e is not None and (e.gathers, e.scatters) == (8, 8)
    unaligned = estimate_text(text.replace(ALIGNED, ""))  # a dword (2 elements) a message
    assert unaligned is not None and (unaligned.gathers, unaligned.scatters) == (32, 32)


FMA = "#ttg.dot_op<{opIdx = 1, parent = #blocked}>"


def fma_operand_load() -> str:
    """A dot without DPAS (an FMA dot: operands of a blocked parent) of a constant A by a tile B loaded
    through a block pointer in the B operand layout; the product stored through a block pointer."""
    a_op = "#ttg.dot_op<{opIdx = 0, parent = #blocked}>"
    text = tile_copy("[4, 4]", "[2, 8]", elem="f32", pitch=ALIGNED)
    return (text.replace("%x = tt.load %p : !tt.ptr<tensor<64x64xf32, #blocked>>",
                         f"%ones = arith.constant dense<1.000000e+00> : tensor<64x64xf32, {a_op}>\n"
                         f"    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>\n"
                         f"    %b0 = tt.load %p : !tt.ptr<tensor<64x64xf32, {FMA}>>\n"
                         f"    %x = tt.dot %ones, %b0, %zero : tensor<64x64xf32, {a_op}> * tensor<64x64xf32, {FMA}> "
                         f"-> tensor<64x64xf32, #blocked>")
            .replace("[%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32, #blocked>>\n    %ones",
                     f"[%c0, %c0] {{order = array<i32: 1, 0>}} : <tensor<64x64xf32, {FMA}>>\n    %ones"))


def test_an_fma_dots_operand_is_gathers() -> None:
    # fla's chunk_local_cumsum_vector: ours loaded its B operand so (IGC 64 gathers, native's blocked load 8).
    # A lane holds all 64 rows of the operand and its 4 adjacent columns, twice along the 64 (a tile
    # 32 wide): 512 elements, 4 f32 a message
    text = fma_operand_load()
    assert text.count(FMA) == 3
    e, blocked = estimate_text(text), estimate_text(tile_copy("[4, 4]", "[2, 8]", elem="f32", pitch=ALIGNED))
    assert e is not None and blocked is not None and (e.gathers, blocked.gathers) == (128, 16)


def test_2d_block_layouts_are_not_gathers() -> None:
    dpas = ("#triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
            "threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>")
    text = tile_copy("[1, 1]", "[1, 16]").replace("#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
                                                  "[1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>", f"#blocked = {dpas}")
    assert "dpas" in text
    e = estimate_text(text)
    assert e is not None and (e.gathers, e.scatters) == (0, 0)


@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
@pytest.mark.skipif(not isa.available(), reason=isa.MISSING)
@pytest.mark.parametrize("case", [CASES[1][0], CASES[2][0], CASES[6][0], CASES[8][0], CASES[9][0]])
def test_the_estimate_is_igcs_count(case: dict[str, object], plugin: object) -> None:
    text = tile_copy(**case)  # type: ignore[arg-type]
    backend = oracle.pvc_backend()
    spv, flags, name = oracle.lower_spirv(oracle.parse(text), backend.parse_options(dict(num_warps=4)), backend)
    f = isa.compile_spirv(spv, flags, name)
    e = estimate_text(text)
    assert e is not None and (e.gathers, e.scatters) == (f.gathers, f.scatters)


@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
@pytest.mark.skipif(not isa.available(), reason=isa.MISSING)
def test_the_fma_operand_estimate_is_igcs_count(plugin: object) -> None:
    text = fma_operand_load()
    backend = oracle.pvc_backend()
    spv, flags, name = oracle.lower_spirv(oracle.parse(text), backend.parse_options(dict(num_warps=4)), backend)
    f = isa.compile_spirv(spv, flags, name)
    e = estimate_text(text)
    assert e is not None and (e.gathers, e.scatters) == (f.gathers, f.scatters)
