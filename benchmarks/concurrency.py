"""The plugin under concurrency (issue 31), bigger than tests/python/integration/test_concurrency.py.

Corpus kernels (GEMMs with epilogues, attention, softmax) compiled through `triton.compile` with
the plugin, strict, past triton's cache: first serially (the reference), then all at once in
threads, then in process pools of two started by spawn and by fork with `XPU_PASSES_PIPELINE` set
in the parent. Prints every failure and every TTGIR that differs from the serial one, and the
totals; exits 1 on any.

    python benchmarks/concurrency.py [--threads N] [--repeat R] [--pool N] [--small] [--no-pools]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# Set before triton is imported here and inherited by every worker: strict, our pipeline (the
# .pth hook enables it as triton is imported), every compile past the cache.
os.environ.setdefault("XPU_PASSES_STRICT", "1")
os.environ.setdefault("XPU_PASSES_PIPELINE", "xpu")
os.environ["TRITON_ALWAYS_COMPILE"] = "1"

from xpu_passes.corpus import stress  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3, help="compiles of each kernel per run")
    ap.add_argument("--pool", type=int, default=2, help="processes per pool")
    ap.add_argument("--small", action="store_true", help="the test's kernels only")
    ap.add_argument("--no-pools", action="store_true")
    args = ap.parse_args()
    if "TRITON_CACHE_DIR" not in os.environ:
        import tempfile

        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="xpu-concurrency-")
    stress.prepare()
    from xpu_passes.integration import plugin

    if not plugin.enabled():
        print(f"the plugin is not active ({plugin.ENV}={os.environ.get(plugin.ENV)!r})")
        return 1
    jobs = stress.SMALL if args.small else stress.MORE
    t = time.perf_counter()
    serial = stress.serial(jobs)
    print(f"serial: {len(jobs)} kernels in {time.perf_counter() - t:.1f} s")
    runs = [("threads", lambda js: stress.in_threads(js, args.threads))]
    if not args.no_pools:
        runs += [(m, lambda js, m=m: stress.in_pool(js, args.pool, m)) for m in ("spawn", "fork")]
    bad = 0
    for name, run in runs:
        todo = stress.repeated(jobs, args.repeat)
        t = time.perf_counter()
        results = run(todo)
        lines = stress.mismatches(results, serial)
        failed = sum(r[1] is None for r in results)
        retried, stress.RETRIED[:] = len(stress.RETRIED), []
        print(f"{name}: {len(results)} compiles in {time.perf_counter() - t:.1f} s, {failed} failed, "
              f"{len(lines) - failed} TTGIR differ from the serial one"
              + (f" ({retried} made again after CPython's ast.parse race in triton's front end)" if retried else ""))
        for line in lines:
            print(f"  {line}")
        bad += len(lines) + (len(results) != len(todo))
    print("OK" if not bad else f"{bad} failures or mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
