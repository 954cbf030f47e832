"""Replicated tiles in the register price (pressure.replicated_bytes, live_across's size_of and limit,
costs.pressure_peak): a tile whose lanes and warps lie along a dim they cannot split is held whole
by every lane, and what is live across a small access is looked at for it."""

from __future__ import annotations

from xdsl.parser import Parser

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend.parser import parse_module
from xpu_passes.layouts.pressure import GRF_LARGE, budget, live_across, replicated_bytes, tensor_bytes
from xpu_passes.transforms.remove_layout_conversions import costs

BLK = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>"
REP = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>"
DPAS = ("#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
        "threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>")

# A loop carrying an Nx1 count in ACC's layout beside a small load in BLK (4 warps of 32 lanes).
KERNEL = """
#blk = BLK
#acc = ACC
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @count(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<Nx1xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %cN = arith.constant N : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<Nx1xf32, #acc>
    %one = arith.constant dense<1.000000e+00> : tensor<Nx1xf32, #acc>
    %base = tt.splat %x : !tt.ptr<f16> -> tensor<Nx1x!tt.ptr<f16>, #blk>
    %w = scf.for %i = %c0 to %n step %cN iter_args(%a = %zero) -> (tensor<Nx1xf32, #acc>)  : i32 {
      %iv = tt.splat %i : i32 -> tensor<Nx1xi32, #blk>
      %p = tt.addptr %base, %iv : tensor<Nx1x!tt.ptr<f16>, #blk>, tensor<Nx1xi32, #blk>
      %v = tt.load %p : tensor<Nx1x!tt.ptr<f16>, #blk>
      %a2 = arith.addf %a, %one : tensor<Nx1xf32, #acc>
      scf.yield %a2 : tensor<Nx1xf32, #acc>
    }
    tt.return %w : tensor<Nx1xf32, #acc>
  }
}
"""


def _attr(text: str):
    return Parser(make_context(), text).parse_attribute()


def _load(n: int, acc: str) -> tuple[tt.LoadOp, object]:
    text = KERNEL.replace("BLK", BLK).replace("ACC", acc).replace("N", str(n))
    module = parse_module(make_context(), text, "<test>").module
    return next(op for op in module.walk() if isinstance(op, tt.LoadOp)), module


def test_replicated_bytes_is_what_a_lane_holds_of_a_replicated_tile() -> None:
    assert tensor_bytes(_attr(f"tensor<256x1xf32, {REP}>")) == replicated_bytes(_attr(f"tensor<256x1xf32, {REP}>")) == 1024
    assert tensor_bytes(_attr(f"tensor<256x1xf32, {BLK}>")) == 8  # spread: 2 rows per lane
    assert replicated_bytes(_attr(f"tensor<256x1xf32, {BLK}>")) == 0
    assert replicated_bytes(_attr(f"tensor<1x1xf32, {REP}>")) == 0  # one value per lane: nothing to hold twice
    assert replicated_bytes(_attr(f"tensor<256x1xi32, {REP}>")) == 0  # offsets: not counted (tensor_bytes)
    # B of a DPAS dot, held whole by both warps along M: the dot's need, not a layout choice
    b = _attr(f"tensor<32x128xbf16, #ttg.dot_op<{{opIdx = 1, parent = {DPAS}, kWidth = 2}}>>")
    assert tensor_bytes(b) == 32 * 128 * 2 // 32 and replicated_bytes(b) == 0


def test_live_across_sizes_and_limit() -> None:
    load, _ = _load(256, REP)
    own = {id(v) for v in load.operands}
    skip = lambda v: id(v) in own  # noqa: E731
    # the carried count and %one (used again by the loop); not %zero, the loop's initial value
    assert live_across(load, skip) == 2 * 1024
    assert live_across(load, skip, replicated_bytes) == 2 * 1024
    # the nearest values first: %p, %iv, then the body's arguments %i and %a (the count)
    assert live_across(load, skip, replicated_bytes, limit=3) == 0
    assert live_across(load, skip, replicated_bytes, limit=4) == 1024
    spread, _ = _load(256, BLK)
    own = {id(v) for v in spread.operands}
    assert live_across(spread, lambda v: id(v) in own, replicated_bytes) == 0
    assert live_across(spread, lambda v: id(v) in own) == 2 * 8


def test_live_across_from_block_indexes_is_the_walk_back() -> None:
    # one state of the IR, costed from the blocks' indexes (costs.one_state): the same sums, with and without
    # a limit, every limit across the loop's body and the function's block
    load, _ = _load(256, REP)
    own = {id(v) for v in load.operands}
    skip = lambda v: id(v) in own  # noqa: E731
    blocks: dict = {}
    sizes: dict = {}
    for size_of in (tensor_bytes, replicated_bytes):
        assert live_across(load, skip, size_of, None, sizes, blocks) == live_across(load, skip, size_of) == 2 * 1024
        for limit in range(12):
            assert (live_across(load, skip, size_of, limit, sizes, blocks)
                    == live_across(load, skip, size_of, limit)), limit
    assert live_across(load, skip, replicated_bytes, 3, sizes, blocks) == 0
    assert live_across(load, skip, replicated_bytes, 4, sizes, blocks) == 1024
    assert len(blocks) == 3  # (the body's, the function's, the module's: made once, read by every call)
    spread, _ = _load(256, BLK)
    own = {id(v) for v in spread.operands}
    assert live_across(spread, lambda v: id(v) in own, tensor_bytes, None, {}, {}) == 2 * 8


def test_a_replicated_tile_is_priced_at_a_small_access() -> None:
    load, module = _load(256, REP)
    facts = costs.facts_of(module)
    peak = costs.pressure_peak(load, facts)
    assert peak is not None and peak[1] == 32
    held = peak[0] - 2 * 1024  # the load's own bytes: far below the shortcut's share
    assert 0 < held and held * costs.SMALL_SHARE <= budget(GRF_LARGE, 32)
    assert costs.priced_excess(load, facts) == 2 * 1024 + held - budget(GRF_LARGE, 32) - costs.SLACK
    # the same count spread over the lanes, or replicated but small: the shortcut holds
    for n, acc in ((256, BLK), (32, REP)):
        load, module = _load(n, acc)
        assert costs.pressure_excess(load, costs.facts_of(module)) == 0


def test_a_limited_scan_indexes_its_blocks_within_the_cap() -> None:
    # a limited scan first on a state (no full scan made the indexes): it indexes the blocks once it meets a value
    # to count, if each has at most `index_cap` ops, and reads its reach by bisection: the walk back's sums
    load, _ = _load(256, REP)
    own = {id(v) for v in load.operands}
    skip = lambda v: id(v) in own  # noqa: E731
    for limit in range(12):
        blocks: dict = {}
        assert live_across(load, skip, replicated_bytes, limit, {}, blocks, 1000) == live_across(load, skip,
                                                                                                 replicated_bytes, limit)
    blocks = {}
    assert live_across(load, skip, replicated_bytes, 64, {}, blocks, 1000) == 2 * 1024
    assert sum(k > 0 for k in blocks) == 3  # (the body's, the function's, the module's)
    blocks = {}
    assert live_across(load, skip, replicated_bytes, 64, {}, blocks, 1) == 2 * 1024  # walked back
    assert not any(k > 0 for k in blocks)  # (a block over the cap is noted as such, not indexed)

