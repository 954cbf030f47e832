"""SLM messages of conversions through SLM and of local_loads (layouts/slm_messages.py). The construct:
a 32x1 f16 column (one row a lane) converted for a 32x64 product in one warp of 32 lanes, as a GEMV
scaling a dequantized tile per row; IGC's own counts: tests/python/integration/test_slm_messages_isa.py."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, f16, i32

from xpu_passes.layouts.slm_messages import UNIFORM_LOAD_BYTES, convert_messages, local_load_messages

from layouts.layout_attrs import MMA_4W, attr, dot, tensor

COL = attr("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>")
# every lane holds whole columns: the 32x1 column is the same 32 elements in every lane
ROW = attr("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>")
# pairs of lanes split the rows: a lane holds 16 rows of a column, its pair the other 16
TILE = attr("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>")


def test_a_column_every_lane_reads_whole_is_read_in_uniform_block_loads() -> None:
    # one store (a lane's one row), then the 32 rows read at the same addresses by every lane
    assert convert_messages(tensor((32, 1), COL, f16), tensor((32, 1), ROW, f16)) == 1 + 32 * 2 // UNIFORM_LOAD_BYTES


def test_a_column_split_between_lanes_is_read_element_by_element() -> None:
    # a lane's 16 rows are not its pair's: one load each (the column's rows are not contiguous along dim 1)
    assert convert_messages(tensor((32, 1), COL, f16), tensor((32, 1), TILE, f16)) == 1 + 16


def test_conversions_without_slm_cost_no_message() -> None:
    # the tile itself, [1,4]x[2,16] -> [1,2]x[1,32] in one warp: a sub-group shuffle
    assert convert_messages(tensor((32, 64), TILE, f16), tensor((32, 64), ROW, f16)) == 0
    assert convert_messages(tensor((32, 64), TILE, f16), tensor((32, 64), TILE, f16)) == 0


def test_vectors_along_the_destinations_inner_dim() -> None:
    # 32x64 from a whole row a lane (64 contiguous f16: stores of 128 bits, 8 elements) into [1,4]x[2,16]
    # (4 contiguous f16 a load); a lane holds 64 elements either way
    src, dst = tensor((32, 64), COL, f16), tensor((32, 64), TILE, f16)
    assert convert_messages(src, dst) == 64 // 8 + 64 // 4
    # a destination ordered along dim 0 lays the scratch out by columns: the source's rows are no longer
    # contiguous there and its own registers run along dim 0 by 4 (not the tensor's inner dim): one message
    # per element both ways
    col_major = attr("#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [0, 1]}>")
    assert convert_messages(src, tensor((32, 64), col_major, f16)) == 64 + 64


def test_dot_operands_and_tensors_without_a_layout_are_not_estimated() -> None:
    blocked = attr("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
    assert convert_messages(tensor((64, 64), blocked, f16), tensor((64, 64), dot(1, MMA_4W), f16)) is None
    assert convert_messages(tensor((64, 64), blocked, f16), TensorType(f16, [64, 64])) is None


def test_local_load_vectors_along_the_buffers_fastest_dim() -> None:
    # [1,4]x[2,16] holds 4 contiguous elements along dim 1: one load per 4 of a lane's 64 along order 1,
    # one per element along order 0 (its rows are 2 lanes apart)
    t = tensor((32, 64), TILE, f16)
    assert local_load_messages(t, 1) == 64 // 4
    assert local_load_messages(t, 0) == 64
    assert local_load_messages(tensor((32, 64), TILE, i32), 1) == 64 // 4
