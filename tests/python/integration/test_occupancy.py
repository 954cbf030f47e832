"""SLM judged by what it takes from occupancy: work-groups per Xe-core (integration/occupancy.py)."""

from __future__ import annotations

import pytest

from xpu_passes.integration.occupancy import SLM_LIMIT, fewer_work_groups, warps_of, work_groups
from xpu_passes.integration.stage_figures import StageFigures


@pytest.mark.parametrize(
    ("slm", "warps", "groups"),
    [
        (0, 4, 16),  # 64 threads / 4 warps
        (8192, 4, 16),  # 16 x 8 KB = 128 KB: still 16
        (8193, 4, 15),
        (16384, 4, 8),  # SLM, not threads, bounds it
        (16384, 8, 8),
        (0, 32, 2),
        (0, 64, 1),
        (SLM_LIMIT, 1, 1),
        (SLM_LIMIT + 1, 1, 0),  # cannot launch
    ],
)
def test_work_groups(slm: int, warps: int, groups: int) -> None:
    assert work_groups(slm, warps) == groups


def test_fewer_work_groups() -> None:
    assert not fewer_work_groups(8192, 2688, 4)
    assert fewer_work_groups(16384, 2576, 4)
    assert not fewer_work_groups(16384, 2576, 8)
    assert fewer_work_groups(8192, 2688, 2)  # 32 by threads: 8 KB hold 16
    assert fewer_work_groups(2049, 2048, 0)  # warps unknown: any more bytes
    assert not fewer_work_groups(2048, 2049, 0)


def test_warps_of_a_print() -> None:
    assert warps_of('module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32} {') == 8
    assert warps_of("module {") == 0


def test_the_stage_guard_weighs_slm_by_occupancy() -> None:
    # gemlite's split-K GEMM raised (w4: 8 KB vs native's 2.6 KB, 16 work-groups either way) and w4 with 16 KB
    assert StageFigures(8192, 0, 0, warps=4).losses(StageFigures(2688, 3, 0, warps=4)) == []
    assert StageFigures(16384, 0, 0, warps=4).losses(StageFigures(2576, 2, 0, warps=4)) == ["SLM 16384 > 2576"]
    assert StageFigures(8192, 0, 0).losses(StageFigures(2688, 3, 0)) == ["SLM 8192 > 2688"]  # warps unknown
    assert StageFigures(-1, 0, 0, warps=4).losses(StageFigures(2688, 0, 0, warps=4)) == []  # not allocated


def test_a_compiles_figures_carry_its_warps() -> None:
    from xpu_passes.integration import oracle

    ttgir = 'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {\n}\n'
    assert oracle.figures(ttgir, "", 2688).warps == 4
