"""benchmarks/intel_rlc_chunks.py: which RUN lines it takes, what it runs first, how it counts and judges.

Built from RUN lines and a chunk written here (no Intel file is read): a file is taken when a
RUN line runs RemoveLayoutConversions, the passes before it run natively first, conversions are
counted as ops (not as text: CHECK lines name them too), and a chunk with more conversions than
native fails the run.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.integration import oracle


@pytest.fixture(scope="module")
def bench() -> Iterator[Any]:
    path = Path(__file__).resolve().parents[3] / "benchmarks" / "intel_rlc_chunks.py"
    spec = importlib.util.spec_from_file_location("intel_rlc_chunks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks its module up)
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def test_run_lines_give_the_passes_before_rlc(bench: Any) -> None:
    only = "// RUN: triton-opt %s -split-input-file -tritonintelgpu-remove-layout-conversions 2>&1 | FileCheck %s\n"
    after = ("// RUN: triton-opt %s -split-input-file -tritonintelgpu-materialize-block-pointer "
             "-tritonintelgpu-remove-layout-conversions | FileCheck %s\n")
    options = ("// RUN: triton-opt %s -split-input-file -allow-unregistered-dialect "
               "-tritonintelgpu-remove-layout-conversions='max-backward-remat-iterations=10' | FileCheck %s\n")
    other = "// RUN: triton-opt %s -split-input-file -tritongpu-remove-layout-conversions | FileCheck %s\n"
    assert bench.prefix_passes(only) == []
    assert bench.prefix_passes(after) == ["-native-tritonintelgpu-materialize-block-pointer"]
    assert bench.prefix_passes(options) == []
    assert bench.prefix_passes(other) is None  # upstream's pass: not this benchmark's


_CHUNK = """
// CHECK: ttg.convert_layout
// CHECK: ttg.convert_layout
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%p: tensor<128x!tt.ptr<f32>, #b>) {
    %x = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
    %f = arith.sitofp %x : tensor<128xi32, #a> to tensor<128xf32, #a>
    %c = ttg.convert_layout %f : tensor<128xf32, #a> -> tensor<128xf32, #b>
    tt.store %p, %c : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}
"""


def test_conversions_are_counted_as_ops(bench: Any) -> None:
    converts, _, cost, foreign = bench.measure(_CHUNK)
    assert (converts, foreign) == (1, "")
    assert cost > 0


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
def test_a_chunk_is_run_both_ways_and_judged(bench: Any, tmp_path: Path) -> None:
    row = bench.run_chunk("test/TritonIntelGPU/f.mlir", 0, _CHUNK, 0, [], str(tmp_path))
    assert not row.excluded and row.accepted
    assert (row.before, row.native, row.ours) == (1, 0, 0)
    assert bench.verdict(row) == "equal"
    row.ours = row.native + 1
    assert bench.verdict(row) == "MORE"
    assert bench.report([row], "") == 1
