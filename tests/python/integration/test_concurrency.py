"""Issue 31: the plugin under concurrency, bounded (benchmarks/concurrency.py runs more).

A few corpus kernels compiled through `triton.compile` with the plugin (strict, offline PVC, past
triton's cache) at once in several threads, then in process pools of two (spawn and fork, with
`XPU_PASSES_PIPELINE` set in the parent): no failure, every TTGIR the serial one. A compile
interrupted in the middle of RemoveLayoutConversions (an exception, KeyboardInterrupt) leaves
nothing that changes the next one; the same kernel compiled by two processes at once leaves one
consistent cache entry. Compiled again after others (in this worker, a fresh spawned one, one forked
from a process that compiled them), a kernel gives its first TTGIR byte for byte.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.corpus import stress
from xpu_passes.integration import oracle

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

JOBS = stress.SMALL  # a GEMM with an epilogue, attention, softmax


@pytest.fixture()
def serial(plugin: Any, monkeypatch: pytest.MonkeyPatch) -> dict[stress.Job, str]:
    """The plugin on (strict), every compile past the cache; each job's TTGIR compiled serially."""
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    plugin.enable("xpu", strict=True)
    return stress.serial(JOBS)


def test_threads_compile_as_serial(serial: dict[stress.Job, str]) -> None:
    results = stress.in_threads(stress.repeated(JOBS, 2), 6)
    assert len(results) == 6 and stress.mismatches(results, serial) == []


def test_spawned_pool_compiles_as_serial(serial: dict[stress.Job, str], plugin: Any,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Spawned workers get the plugin from XPU_PASSES_PIPELINE through the .pth hook."""
    monkeypatch.setenv(plugin.ENV, "xpu")
    results = stress.in_pool(stress.repeated(JOBS, 2), 2, "spawn")
    assert len(results) == 6 and stress.mismatches(results, serial) == []


def test_forked_pool_compiles_as_serial(tmp_path: Path) -> None:
    """Forked workers get the parent's plugin (enabled as the hook would have at its start). The
    parent is a fresh interpreter: this test runner's worker has run threads, and a fork of it may
    die of a lock one of them held (seen once in CI), which says nothing about the plugin."""
    env = dict(os.environ, XPU_PASSES_PIPELINE="xpu", TRITON_ALWAYS_COMPILE="1",
               TRITON_CACHE_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "xpu_passes.corpus.stress", "fork"], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == []


def test_a_worker_without_the_plugin_is_a_failure(plugin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative case: XPU_PASSES_PIPELINE set only after the fork's parent started (its plugin off)."""
    monkeypatch.setenv(plugin.ENV, "xpu")
    (job, ttgir, why), = stress.in_pool(JOBS[2:], 1, "fork")
    assert ttgir is None and "plugin is not active" in why


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_interrupted_compile_leaves_nothing_behind(error: type[BaseException]) -> None:
    """RemoveLayoutConversions raises at its third trial; the next compile in this process prints
    what a clean process prints (a spawned one)."""
    from xpu_passes.integration import pipeline

    job = JOBS[0]
    calls: list[int] = []

    def hook() -> None:
        calls.append(1)
        if len(calls) >= 3:  # (and on: a raised stage that fails compiles without raising, which fails too)
            raise error("interrupted")

    p = pipeline.plan("xpu")
    rlc = "tritonintelgpu-remove-layout-conversions"
    stages = [dataclasses.replace(s, instance=dataclasses.replace(s.instance, trial_hook=hook)) if s.name == rlc
              else s for s in p.stages]
    with pytest.raises((error, pipeline.PassFailure)):
        stress.through_plan(job, dataclasses.replace(p, stages=stages))
    assert len(calls) >= 3
    again = stress.through_plan(job, p)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        clean = pool.submit(stress.through_xpu, job).result()
    assert again == clean


def test_two_processes_leave_one_cache_entry(plugin: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One kernel compiled by two processes at once into one cache: one entry, complete, whose TTGIR
    is the one a compile then reads back from the cache."""
    cache = tmp_path / "shared"
    monkeypatch.setenv("TRITON_CACHE_DIR", str(cache))
    monkeypatch.setenv(plugin.ENV, "xpu")
    monkeypatch.delenv("TRITON_ALWAYS_COMPILE", raising=False)
    job = JOBS[0]
    results = stress.in_pool([job, job], 2, "spawn")
    assert stress.mismatches(results, {job: results[0][1] or ""}) == []
    entries = [d for d in cache.iterdir() if any(d.glob("*.ttgir"))]
    assert len(entries) == 1
    (group,) = entries[0].glob("__grp__*.json")
    files = json.loads(group.read_text())["child_paths"]
    assert all(Path(f).exists() for f in files.values())
    (ttgir,) = entries[0].glob("*.ttgir")
    assert ttgir.read_text() == results[0][1]
    plugin.enable("xpu", strict=True)
    assert stress.compile_ttgir(job) == results[0][1]  # read from the cache
    assert [d for d in cache.iterdir() if any(d.glob("*.ttgir"))] == entries


A, B = JOBS[0], JOBS[2]  # raising's GEMM (RemoveLayoutConversions' trials too), a softmax


def test_compiled_again_after_others_is_the_first(plugin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A, B, A: the second A is the first, byte for byte, and each is what a fresh process compiles: in
    a spawned worker per task (A first; B first), in this test runner's worker (after whatever tests ran
    here before), and in a worker forked from a process that compiled B and A first (it inherits every
    process-wide table they filled). A fresh interpreter forks, as in test_forked_pool_compiles_as_serial."""
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    monkeypatch.setenv(plugin.ENV, "xpu")
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn, initializer=stress.prepare, max_tasks_per_child=1) as pool:
        aba, ba = pool.submit(stress.in_order, [A, B, A]), pool.submit(stress.in_order, [B, A])
        (a, b, a_again), (b_first, a_after_b) = aba.result(), ba.result()
    assert a != b and a_again == a and a_after_b == a and b_first == b
    plugin.enable("xpu", strict=True)
    assert stress.in_order([A, B, A]) == [a, b, a]
    run = subprocess.run([sys.executable, "-m", "xpu_passes.corpus.stress", "again", "/".join(B), "/".join(A), "--",
                          "/".join(A), "/".join(B), "/".join(A)], env=dict(os.environ), capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    here, forked = json.loads(run.stdout.strip().splitlines()[-1])
    assert here == [b, a] and forked == [a, b, a]


def test_a_planted_leftover_changes_the_next_compile(plugin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative case of the above: a process-wide table left wrong (the parser's locations, each moved
    1000 lines down) does change the next compile, and clearing the tables gives the first TTGIR back."""
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr

    from xpu_passes.frontend.fast import memo

    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    plugin.enable("xpu", strict=True)
    (first,) = stress.in_order([A])
    assert memo._LOCS
    for key, loc in list(memo._LOCS.items()):
        memo._LOCS[key] = FileLineColLoc(loc.filename, IntAttr(loc.line.data + 1000), loc.column)
    try:
        (planted,) = stress.in_order([A])
    finally:
        memo.clear_shared()
    assert planted != first
    assert stress.in_order([A]) == [first]
