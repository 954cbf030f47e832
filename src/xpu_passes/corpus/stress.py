"""Corpus kernels compiled through `triton.compile` with the plugin, from threads and process pools
(issue 31): what the concurrency test and `benchmarks/concurrency.py` share.

A job is (kernel, config); its result is the final TTGIR, or the failure as text. With
`TRITON_ALWAYS_COMPILE=1` in the environment every compile misses triton's cache, so each one runs
our passes. Pool workers get the plugin the way PyTorch's compile workers do: `XPU_PASSES_PIPELINE`
set in the parent, the `.pth` hook enabling it as triton is imported (spawn), or the parent's
patched backend (fork); a worker without it reports a failure.
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

Job = tuple[str, str]  # (kernel, config), as corpus.find takes them

# A few kernels that exercise RemoveLayoutConversions' trials (GEMM epilogues, attention, softmax).
SMALL: tuple[Job, ...] = (
    ("gemm_add_tensor_ptr", "64x128x32-w4-s3"),
    ("flash_attention_fwd", "64x32x64-w4-s2"),
    ("softmax", "1024-w4-s1"),
)
MORE: tuple[Job, ...] = SMALL + (
    ("gemm_add_tensor_ptr", "256x256x32-w32-s3"),
    ("gemm_gelu", "64x128x32-w4-s3"),
    ("gemm_tensor_ptr", "64x128x32-w4-s3"),
    ("flash_attention_fwd", "128x64x64-w8-s3"),
    ("softmax", "4096-w16-s1"),
)


def prepare() -> None:
    """This process compiles for PVC offline (the plugin is the environment's)."""
    from xpu_passes.integration import plugin

    plugin.use_offline_pvc_target()


def compile_ttgir(job: Job) -> str:
    """The final TTGIR of `job` through triton.compile; a failure raises."""
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes import corpus
    from xpu_passes.integration import oracle

    spec, cfg = corpus.find(*job)
    src = ASTSource(spec.fn, spec.signature(), dict(cfg.constexprs), spec.attrs())
    opts = dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, grf_mode="large")
    return triton.compile(src, target=oracle.pvc_target(), options=opts).asm["ttgir"]


# CPython before 3.11.9/3.12.3 (gh-106905): `ast.parse` in several threads at once may raise this
# SystemError. It happens in triton's front end (JITFunction.parse, before any pass of ours), so a
# compile that met it is made again, once; `RETRIED` counts them (the benchmark prints it).
_AST_RACE = "AST constructor recursion depth mismatch"
RETRIED: list[Job] = []


def _ast_race(e: BaseException | None) -> bool:
    """`e` is that SystemError, or was raised from it (triton's code generator wraps what a nested
    JIT function's parse raised in a CompilationError)."""
    seen = 0
    while e is not None and seen < 20:
        if isinstance(e, SystemError) and _AST_RACE in str(e):
            return True
        e, seen = e.__cause__ or e.__context__, seen + 1
    return False


def attempt(job: Job) -> tuple[Job, str | None, str]:
    """(job, TTGIR or None, the failure's last traceback lines or "")."""
    from xpu_passes.integration import plugin

    try:
        if os.environ.get(plugin.ENV) and not plugin.enabled():
            raise RuntimeError(f"{plugin.ENV} is set and the plugin is not active in process {os.getpid()}")
        try:
            return job, compile_ttgir(job), ""
        except Exception as e:
            if not _ast_race(e):
                raise
            RETRIED.append(job)
            return job, compile_ttgir(job), ""
    except BaseException as e:  # noqa: BLE001 (reported, whatever it was)
        tail = "".join(traceback.format_exception(e)[-3:]).strip()
        return job, None, f"{type(e).__name__}: {e}"[:300] + f"\n{tail[-600:]}"


def _worker_init() -> None:
    prepare()


def in_threads(jobs: Sequence[Job], threads: int) -> list[tuple[Job, str | None, str]]:
    """Every job at once in `threads` threads (started together, so their passes overlap)."""
    import threading

    barrier = threading.Barrier(min(threads, len(jobs)))

    def run(job: Job) -> tuple[Job, str | None, str]:
        try:
            barrier.wait(timeout=60)
        except threading.BrokenBarrierError:
            pass
        return attempt(job)

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(run, jobs))


def in_pool(jobs: Sequence[Job], workers: int, method: str) -> list[tuple[Job, str | None, str]]:
    """The jobs in a process pool of `workers` started by `method` (spawn, fork)."""
    ctx = multiprocessing.get_context(method)
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init) as pool:
        return list(pool.map(attempt, jobs))


def mismatches(results: Iterable[tuple[Job, str | None, str]], serial: dict[Job, str]) -> list[str]:
    """One line per failure and per TTGIR that is not the serial one."""
    out = []
    for job, ttgir, why in results:
        if ttgir is None:
            out.append(f"{job[0]} {job[1]}: failed: {why}")
        elif ttgir != serial[job]:
            out.append(f"{job[0]} {job[1]}: TTGIR differs from the serial compile's")
    return out


def serial(jobs: Iterable[Job], run: Callable[[Job], str] = compile_ttgir) -> dict[Job, str]:
    return {job: run(job) for job in dict.fromkeys(jobs)}


def repeated(jobs: Sequence[Job], times: int) -> list[Job]:
    return [j for _ in range(times) for j in jobs]


def through_plan(job: Job, p: Any) -> str:
    """`job`'s TTIR through pipeline plan `p` (pipeline.run_plan, as the plugin's TTGIR stage): the TTGIR."""
    from xpu_passes import corpus
    from xpu_passes.integration import pipeline

    spec, cfg = corpus.find(*job)
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    mod = backend.make_ttir(mod, {}, opts)
    return str(pipeline.run_plan(mod, {}, opts, backend.properties, p))


def through_xpu(job: Job) -> str:
    """`through_plan` with the `xpu` pipeline (picklable: a clean process's answer, in a pool)."""
    from xpu_passes.integration import pipeline

    return through_plan(job, pipeline.plan("xpu"))


def in_order(jobs: Sequence[Job]) -> list[str]:
    """Each job's TTGIR, compiled one after another in this process (what one leaves behind meets
    the next: compiled again, a job must give its first TTGIR)."""
    from xpu_passes.integration import plugin

    if os.environ.get(plugin.ENV) and not plugin.enabled():
        raise RuntimeError(f"{plugin.ENV} is set and the plugin is not active in process {os.getpid()}")
    return [compile_ttgir(job) for job in jobs]


def forked_after(warm: Sequence[Job], jobs: Sequence[Job]) -> tuple[list[str], list[str]]:
    """In this process: the plugin on (strict), `warm` compiled here, then `jobs` in order in a forked
    worker (which inherits every process-wide table `warm` filled): (this process's, the worker's)."""
    from xpu_passes.integration import plugin

    prepare()
    plugin.enable(os.environ.get(plugin.ENV) or "xpu", strict=True)
    here = in_order(warm)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        return here, pool.submit(in_order, jobs).result()


def pool_against_serial(jobs: Sequence[Job], workers: int, method: str) -> list[str]:
    """In this process: the plugin on (strict), each job compiled serially, then every job in a pool;
    the mismatches. Run in a fresh interpreter for `fork`: a parent that has run threads (a test
    runner's worker) may hand its children a lock some thread held, which kills them at random."""
    from xpu_passes.integration import plugin

    prepare()
    plugin.enable(os.environ.get(plugin.ENV) or "xpu", strict=True)
    expected = serial(jobs)
    return mismatches(in_pool(jobs, workers, method), expected)


if __name__ == "__main__":  # python -m xpu_passes.corpus.stress METHOD: pool_against_serial(SMALL x2)
    import json  # (or: ... stress again K/C... -- K/C...: forked_after(warm, jobs))
    import sys

    if sys.argv[1] == "again":
        at = sys.argv.index("--")
        warm, jobs = ([tuple(a.split("/")) for a in args] for args in (sys.argv[2:at], sys.argv[at + 1:]))
        print(json.dumps(forked_after(warm, jobs)))  # type: ignore[arg-type]
    else:
        print(json.dumps(pool_against_serial(repeated(SMALL, 2), 2, sys.argv[1])))
