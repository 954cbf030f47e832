"""benchmarks/compile_time.py's analyses: what triton's passes change between our round trips
(--native-changes) and a kernel alone vs late in a process (--long-process)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from xpu_passes.integration import oracle

from support import load_benchmark  # noqa: E402  (tests/python/support.py)

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")


@pytest.fixture()
def bench(monkeypatch: pytest.MonkeyPatch) -> Any:
    return load_benchmark("compile_time", monkeypatch)


def test_renumbering_and_locations_are_not_changes(bench: Any) -> None:
    a = '    %3 = arith.addi %1, %2 : i32 loc(#loc4)\n    %4 = tt.splat %3 : i32 -> tensor<4xi32> loc("f.py":3:1)\n'
    b = '    %7 = arith.addi %arg1, %5 : i32 loc(#loc9)\n    %8 = tt.splat %7 : i32 -> tensor<4xi32> loc(#loc2)\n'
    assert bench._normalized_ops(a) == bench._normalized_ops(b)
    c = b.replace("arith.addi", "arith.subi")
    assert bench._normalized_ops(a) != bench._normalized_ops(c)


@needs_triton
def test_accelerate_matmul_adds_conversions_between_our_round_trips(bench: Any, capsys: pytest.CaptureFixture[str]
                                                                    ) -> None:
    from xpu_passes import corpus
    from xpu_passes.integration.pipeline import plan

    spec, cfg = corpus.find("gemm_block_ptr", "64x128x32-w4-s3")
    bench.native_changes([(spec, cfg)], plan("xpu"))
    out = capsys.readouterr().out
    assert re.search(r"^- round trip 1 -> 2 of \d: ops changed, \+\d+ conversions: 1 kernels \(gemm_block_ptr ", out, re.M), out
    assert re.search(r"op kinds removed: \{'tt.dot': 1\b.*added: \{'ttg.convert_layout': \d+", out), out


@needs_triton
def test_long_process_probes_alone(bench: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--set", "all", "--long-process", "softmax_small:128-w1-s1", "--rounds", "0",
                       "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    assert "## Long process: softmax_small 128-w1-s1, 2nd best of 2" in out
    assert re.search(r"^\| alone \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| \d+ \| \d+ \|$", out, re.M), out
