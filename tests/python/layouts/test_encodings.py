"""The linear maps of TTGIR layouts (layouts/encodings.py): blocked, slice, DPAS and its dot
operands, 2D block reads, placement equality and the layouts without a map.

The maps are checked against independent definitions (Triton's blocked formula, the DPAS
instruction shape, slicing as projection, the 2D block read rule, Intel's own unit tests);
test_encodings_triton.py checks them against triton-xpu's lowering.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.ir import Attribute

from xpu_passes.dialects import ttig
from xpu_passes.layouts import LayoutError, elems_per_thread, from_linear, same_placement, to_linear
from xpu_passes.layouts.linear import reorders_registers

from layouts.layout_attrs import (
    EPI_256, MMA_4W, MMA_32W, MMA_FA, MMA_SKINNY, attr, blocked, dot, dpas, sg2d, spell,
)


# ------------------------------------------------------------- blocked


def blocked_reference(spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int], order: Sequence[int],
                      shape: Sequence[int]) -> dict[tuple[int, ...], tuple[int, int]]:
    """Triton's blocked placement written out: element -> (lane, warp), for a shape that
    is a multiple of the tile. Lanes and warps are numbered fastest dim first (order)."""
    out = {}
    for idx in product(*(range(s) for s in shape)):
        lane = warp = 0
        lane_stride = warp_stride = 1
        for d in order:
            lane += (idx[d] // spt[d] % tpw[d]) * lane_stride
            warp += (idx[d] // (spt[d] * tpw[d]) % wpc[d]) * warp_stride
            lane_stride *= tpw[d]
            warp_stride *= wpc[d]
        out[idx] = (lane, warp)
    return out


def test_blocked_map_matches_triton_formula() -> None:
    spt, tpw, wpc, order = [1, 4], [2, 8], [2, 2], [1, 0]
    shape = (8, 64)  # 2x the tile along dim 0, 1x along dim 1
    ll = to_linear(blocked(spt, tpw, wpc, order), shape)
    ref = blocked_reference(spt, tpw, wpc, order, shape)
    inv = ll.invert()
    assert {e: (lw[1], lw[2]) for e, lw in inv.items()} == ref
    # A thread's first registers walk its sizePerThread along the fastest dim.
    assert [ll.apply(register=r) for r in range(4)] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert elems_per_thread(blocked(spt, tpw, wpc, order), shape) == 8 * 64 // (16 * 4)


def test_blocked_wraps_registers_fastest_dim_first() -> None:
    # Tile 4x64; a 16x128 tensor needs 8 tiles per thread: dim 1 (fastest) first.
    ll = to_linear(blocked([1, 4], [2, 8], [2, 2], [1, 0]), (16, 128))
    assert ll.register[2:] == ((0, 64), (4, 0), (8, 0))


def test_blocked_smaller_than_tile_holds_replicas() -> None:
    b = blocked([1, 4], [1, 16], [8, 4], [1, 0])  # tile 8x256
    ll = to_linear(b, (4, 64))
    assert ll.num("register") == 4
    assert ll.free_bases("warp") == [0, 1, 4]  # warps along dim 1 and the top one along dim 0
    assert not ll.free_bases("lane")
    assert ll.is_surjective() and not ll.is_injective()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_blocked_is_a_bijection_on_multiples_of_its_tile(data: st.DataObject) -> None:
    rank = data.draw(st.sampled_from([1, 2, 3]))

    def split(total: int) -> list[int]:
        out = [1] * rank
        for _ in range(total.bit_length() - 1):
            out[data.draw(st.integers(0, rank - 1))] *= 2
        return out

    spt = [data.draw(st.sampled_from([1, 2, 4])) for _ in range(rank)]
    tpw, wpc = split(16), split(data.draw(st.sampled_from([1, 2, 4, 8])))
    order = data.draw(st.permutations(list(range(rank))))
    shape = [s * t * w * data.draw(st.sampled_from([1, 2])) for s, t, w in zip(spt, tpw, wpc)]
    ll = to_linear(blocked(spt, tpw, wpc, order), shape)
    assert ll.is_bijective()
    assert ll.num("register") * ll.num("lane") * ll.num("warp") == ll.num_elements
    if all(s == s0 * t * w for s, s0, t, w in zip(shape, spt, tpw, wpc)):
        assert {e: (x[1], x[2]) for e, x in ll.invert().items()} == blocked_reference(spt, tpw, wpc, order, shape)


# --------------------------------------------------------------- slice


@pytest.mark.parametrize("parent", [EPI_256, MMA_32W, dot(0, MMA_32W)], ids=["blocked", "dpas", "dot_a"])
@pytest.mark.parametrize("dim", [0, 1])
def test_slice_is_the_parent_projected(parent: Attribute, dim: int) -> None:
    shape2 = (256, 32)
    sl = attr(f"#ttg.slice<{{dim = {dim}, parent = {spell(parent).replace('#triton_intel_gpu.', '#ttig.')}}}>")
    shape1 = (shape2[1 - dim],)
    s = to_linear(sl, shape1)
    p = to_linear(parent, shape2[:dim] + (1,) + shape2[dim + 1 :])
    assert s.lane == tuple(b[:dim] + b[dim + 1 :] for b in p.lane)
    assert s.warp == tuple(b[:dim] + b[dim + 1 :] for b in p.warp)
    assert all(any(b) for b in s.register)  # replicated registers are dropped
    assert s.is_surjective()


# ---------------------------------------------------------------- dpas


def test_dpas_instruction_tile() -> None:
    """One 8x16 DPAS result: lane l holds column l, its 8 registers the 8 rows."""
    ll = to_linear(dpas([1, 1], [1, 1]), (8, 16))
    for r, ln in product(range(8), range(16)):
        assert ll.apply(register=r, lane=ln) == (r, ln)


@pytest.mark.parametrize("layout,shape", [(MMA_32W, (256, 256)), (MMA_4W, (64, 128)), (MMA_SKINNY, (8, 128))])
def test_dpas_accumulator_of_the_corpus(layout: Attribute, shape: tuple[int, int]) -> None:
    ll = to_linear(layout, shape)
    assert ll.is_bijective()
    warps = layout.warps_per_cta  # type: ignore[attr-defined]
    rc = layout.rep_cluster  # type: ignore[attr-defined]
    assert elems_per_thread(layout, shape) == shape[0] * shape[1] // (16 * warps[0] * warps[1])
    # Warps are row-major over the grid of (8*rc0) x (16*rc1) warp tiles.
    tile = (8 * rc[0], 16 * rc[1])
    for w in range(ll.num("warp")):
        assert ll.apply(warp=w) == ((w // warps[1]) * tile[0], (w % warps[1]) * tile[1])


@settings(max_examples=40, deadline=None)
@given(
    warps=st.tuples(st.sampled_from([1, 2, 4, 8]), st.sampled_from([1, 2, 4])),
    rc=st.tuples(st.sampled_from([1, 2, 4]), st.sampled_from([1, 2])),
    opc=st.sampled_from([1, 2, 4]),
    reps=st.tuples(st.sampled_from([1, 2, 4]), st.sampled_from([1, 2, 4])),
)
def test_dpas_family_covers_multiples_of_its_tile(
    warps: tuple[int, int], rc: tuple[int, int], opc: int, reps: tuple[int, int]
) -> None:
    """C is a bijection on any multiple of its tile; A and B cover theirs, replicated
    only across the warps that share K."""
    layout = dpas(list(warps), list(rc), opc)
    m, n, k = 8 * rc[0] * warps[0] * reps[0], 16 * rc[1] * warps[1] * reps[1], 8 * opc * reps[0]
    assert to_linear(layout, (m, n)).is_bijective()
    for op_idx, shape, shared in ((0, (m, k), warps[1]), (1, (k, n), warps[0])):
        x = to_linear(dot(op_idx, layout), shape)
        assert x.is_surjective()
        assert x.num("register") * x.num("lane") * x.num("warp") == x.num_elements * shared


@pytest.mark.parametrize("layout,m,n,k", [(MMA_32W, 256, 256, 32), (MMA_4W, 64, 128, 32), (MMA_FA, 128, 64, 64)])
def test_dot_operands_replicate_along_k(layout: Attribute, m: int, n: int, k: int) -> None:
    warps = layout.warps_per_cta  # type: ignore[attr-defined]
    a = to_linear(dot(0, layout), (m, k))
    b = to_linear(dot(1, layout), (k, n))
    # A: warps along N hold the same rows; B: warps along M hold the same columns.
    assert len(a.free_bases("warp")) == warps[1].bit_length() - 1
    assert len(b.free_bases("warp")) == warps[0].bit_length() - 1
    for x in (a, b):
        assert x.is_surjective()
        assert not x.free_bases("lane") and not x.free_bases("register")
    assert elems_per_thread(dot(0, layout), (m, k)) == m * k // (16 * warps[0])


def test_dot_operand_with_blocked_parent_holds_all_of_k() -> None:
    parent = blocked([1, 4], [2, 8], [2, 2], [1, 0])
    a = to_linear(dot(0, parent), (16, 32))
    # Each thread holds its rows' whole K extent; lanes/warps along K hold replicas.
    assert sorted(a.apply(register=r)[1] for r in range(a.num("register")) if a.apply(register=r)[0] == 0) == list(
        range(32)
    )
    assert a.free_bases("lane") == [0, 1, 2] and a.free_bases("warp") == [0]


# Intel's own unit tests for subgroup2DBlockToLinearLayout (LinearLayoutConversionsTest.cpp):
# A operands (K contiguous: order [1, 0]) and B operands (order [0, 1]); fp16 with warps
# [8, 4], fp32 (8-wide A blocks: rows wrap onto lanes 8..15) and int8 (32-wide A blocks:
# 2 bytes a lane) with the kWidth Intel passes.
SG2D_INTEL = [
    (sg2d([32, 32], 1, [1, 0]), (256, 32),
     dict(register=[[0, 1], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], lane=[[0, 2], [0, 4], [0, 8], [0, 16]],
          warp=[[0, 0], [0, 0], [32, 0], [64, 0], [128, 0]])),
    (sg2d([32, 16], 2, [1, 0]), (256, 32),
     dict(register=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 16]], lane=[[0, 1], [0, 2], [0, 4], [0, 8]],
          warp=[[0, 0], [0, 0], [32, 0], [64, 0], [128, 0]])),
    (sg2d([32, 16], 2, [0, 1]), (32, 256),
     dict(register=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 16], [0, 128]], lane=[[0, 1], [0, 2], [0, 4], [0, 8]],
          warp=[[0, 32], [0, 64], [0, 0], [0, 0], [0, 0]])),
    (sg2d([32, 8], 2, [1, 0], k_width=4), (256, 32),
     dict(register=[[2, 0], [4, 0], [8, 0], [16, 0], [0, 8], [0, 16]], lane=[[0, 1], [0, 2], [0, 4], [1, 0]],
          warp=[[0, 0], [0, 0], [32, 0], [64, 0], [128, 0]])),
    (sg2d([32, 16], 1, [0, 1], k_width=4), (32, 128),
     dict(register=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 64]], lane=[[0, 1], [0, 2], [0, 4], [0, 8]],
          warp=[[0, 16], [0, 32], [0, 0], [0, 0], [0, 0]])),
    (sg2d([16, 32], 1, [1, 0], warps=(4, 8), k_width=1), (64, 32),
     dict(register=[[0, 1], [1, 0], [2, 0], [4, 0], [8, 0]], lane=[[0, 2], [0, 4], [0, 8], [0, 16]],
          warp=[[0, 0], [0, 0], [0, 0], [16, 0], [32, 0]])),
    (sg2d([32, 16], 1, [0, 1], warps=(4, 8), k_width=1), (32, 128),
     dict(register=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], lane=[[0, 1], [0, 2], [0, 4], [0, 8]],
          warp=[[0, 16], [0, 32], [0, 64], [0, 0], [0, 0]])),
]  # fmt: skip
SG2D_INTEL_IDS = ["A-32x32", "A-32x16x2", "B-32x16x2", "A-fp32-32x8x2", "B-fp32-32x16", "A-i8-16x32", "B-i8-32x16"]


@pytest.mark.parametrize("layout,shape,bases", SG2D_INTEL, ids=SG2D_INTEL_IDS)
def test_subgroup_2d_block(layout: Attribute, shape: tuple[int, int], bases: dict[str, list[list[int]]]) -> None:
    ll = to_linear(layout, shape)
    assert {d: [list(b) for b in ll.bases(d)] for d in bases} == bases
    assert ll.is_surjective()


def test_subgroup_2d_block_of_the_bf16_gemm() -> None:
    """What the 32x16x2 reads hold is what the 256x256x32 GEMM's DPAS operands need:
    exactly for A, up to the order of registers for B."""
    a, b = sg2d([32, 16], 2, [1, 0]), sg2d([32, 16], 2, [0, 1])
    assert same_placement(a, dot(0, MMA_32W), (256, 32))
    assert not same_placement(b, dot(1, MMA_32W), (32, 256))
    assert reorders_registers(to_linear(b, (32, 256)), to_linear(dot(1, MMA_32W), (32, 256)))


def block_read_reference(h: int, w: int, blocks: int, lanes: int) -> dict[tuple[int, int], tuple[int, int]]:
    """Where one sub-group's 2D block read puts each element, written out from the
    SPV_INTEL_2d_block_io rule: each block is handed out row-major, in runs of
    ceil(w / lanes) adjacent elements per work item; later blocks follow in registers.
    (row, col) -> (register, lane)."""
    per_lane = max(1, w // lanes)
    regs_per_block = h * w // lanes
    out = {}
    for blk, r, c in product(range(blocks), range(h), range(w)):
        run, k = divmod(r * w + c, per_lane)
        out[(r, blk * w + c)] = (blk * regs_per_block + run // lanes * per_lane + k, run % lanes)
    return out


@pytest.mark.parametrize("h", [1, 2, 8, 16, 32])
@pytest.mark.parametrize("w", [4, 8, 16, 32, 64])
@pytest.mark.parametrize("blocks", [1, 2, 4])
def test_subgroup_2d_block_is_the_read(h: int, w: int, blocks: int) -> None:
    """One warp, one read: every element sits where the hardware read puts it, narrow
    blocks (rows wrap onto lanes), wide blocks (several columns a lane) and blocks as
    wide as the sub-group alike; kWidth changes nothing."""
    shape = (h, w * blocks)
    layouts = [sg2d([h, w], blocks, order, warps=(1, 1), k_width=kw) for order in ([1, 0], [0, 1]) for kw in (1, 2, 4)]
    if h * w < 16:  # the read would leave lanes empty
        for layout in layouts:
            with pytest.raises(LayoutError, match="smaller than its 16-lane sub-group"):
                to_linear(layout, shape)
        return
    ll = to_linear(layouts[0], shape)
    assert ll.num("lane") == 16 and ll.is_bijective()
    assert {e: (x[0], x[1]) for e, x in ll.invert().items()} == block_read_reference(h, w, blocks, 16)
    assert all(to_linear(layout, shape) == ll for layout in layouts[1:])


# DPAS operands of each element width and the 2D block layouts our OptimizeBlockIOEncoding
# gives their loads (block_io.subgroup_2d_block_for): (bits, opsPerChan, warps, repCluster, (M, N, K)).
OPERAND_READS = [
    (8, 4, [4, 1], [2, 2], (64, 64, 64)),  # the int8 case of legalize-block-io-encoding.mlir: A 16x32x2
    (8, 4, [4, 8], [2, 1], (64, 128, 32)),  # Intel's I8 test: A 16x32x1
    (16, 2, [8, 4], [4, 2], (256, 256, 32)),  # the bf16 GEMM: A 32x16x2, B 32x16x2
    (16, 2, [1, 4], [1, 2], (8, 128, 64)),  # skinny: A 8x16x2
    (32, 1, [8, 4], [4, 1], (256, 128, 32)),  # Intel's FP32 test: A 32x8x2, B 32x16
    (32, 1, [4, 1], [2, 1], (64, 16, 32)),  # A 16x8x2: rows wrap onto lanes 8..15
]


@pytest.mark.parametrize("bits,opc,warps,rc,mnk", OPERAND_READS, ids=lambda v: str(v).replace(" ", ""))
@pytest.mark.parametrize("op_idx", [0, 1], ids=["A", "B"])
def test_subgroup_2d_block_feeds_its_dot_operand(
    bits: int, opc: int, warps: list[int], rc: list[int], mnk: tuple[int, int, int], op_idx: int
) -> None:
    """The DPAS operand definitions imply: a 2D block read of A holds each element on the
    register, lane and warp the DPAS A operand wants it (same placement); one of B holds
    the same elements in every thread, the registers possibly numbered otherwise (a B
    read stacks K tiles, the operand puts its repCluster's N tiles first)."""
    from xpu_passes.layouts.block_io import subgroup_2d_block_for

    m, n, k = mnk
    shape = (m, k) if op_idx == 0 else (k, n)
    operand = dot(op_idx, dpas(warps, rc, opc))
    block = subgroup_2d_block_for(operand, shape, bits, row_major=True)  # type: ignore[arg-type]
    assert isinstance(block, ttig.Subgroup2DBlockEncodingAttr)
    ll, want = to_linear(block, shape), to_linear(operand, shape)
    assert ll.num("lane") == 16 and ll.num("warp") == warps[0] * warps[1]
    if op_idx == 0:
        assert same_placement(block, operand, shape), f"{ll}\n{want}"
    else:
        assert ll.holds_all_of(want, "lane") and want.holds_all_of(ll, "lane"), f"{ll}\n{want}"
        assert reorders_registers(ll, want)


# ------------------------------------------------------ equality / errors


def test_same_placement_across_spellings() -> None:
    for layout, shape in [(EPI_256, (256, 256)), (MMA_32W, (256, 256)), (dot(0, MMA_FA), (128, 64))]:
        ll = to_linear(layout, shape)
        assert same_placement(layout, from_linear(ll), shape)
    # Order only matters along dims that have more than one thread/warp/register.
    a = blocked([1, 1], [1, 16], [1, 4], [1, 0])
    b = blocked([1, 1], [1, 16], [1, 4], [0, 1])
    assert a != b and same_placement(a, b, (1, 64)) and same_placement(a, b, (2, 64))
    # ... but it decides which dim registers wrap around first.
    assert not same_placement(a, b, (2, 128))


def test_different_placements_are_not_equal() -> None:
    ll = to_linear(EPI_256, (256, 256))
    swapped = dataclasses.replace(ll, register=(ll.register[1], ll.register[0]) + ll.register[2:])
    assert not same_placement(EPI_256, from_linear(swapped), (256, 256))
    assert not same_placement(EPI_256, MMA_32W, (256, 256))
    assert not same_placement(blocked([1, 4], [1, 16], [8, 4], [1, 0]), blocked([4, 1], [16, 1], [4, 8], [0, 1]), (256, 256))


def test_unsupported_layouts_raise() -> None:
    shared = attr("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>")
    with pytest.raises(LayoutError, match="no linear layout"):
        to_linear(shared, (16, 16))
    with pytest.raises(LayoutError, match="rank"):
        to_linear(EPI_256, (16, 16, 16))
    with pytest.raises(LayoutError, match="powers of two"):
        to_linear(EPI_256, (24, 16))
    multi = attr(
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0], "
        "CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>"
    )
    with pytest.raises(LayoutError, match="more than one CTA"):
        to_linear(multi, (256, 256))
    # 2D block reads come in powers of two; a block too small for the sub-group has no map.
    with pytest.raises(LayoutError, match="instrShape, numBlocks, threadsPerWarp and warpsPerCTA must be powers"):
        to_linear(sg2d([16, 12], 1, [1, 0]), (128, 64))
    with pytest.raises(LayoutError, match="smaller than its 16-lane sub-group"):
        to_linear(sg2d([2, 4], 1, [1, 0]), (64, 32))
