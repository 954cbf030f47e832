"""GEMM with post-ops (Intel's benchmark set): native pipeline vs ours, side by side.

    python benchmarks/gemm_postop.py [--static] [--dtype bf16 fp16] [--only CASE ...] [--csv F] [--png F]
    python benchmarks/gemm_postop.py --list   # the case names --only takes
    python benchmarks/gemm_postop.py --run [--shape 4096x4096x4096]   # on a machine with an Intel GPU

--static (default, no GPU needed): compiles every case for PVC on the CPU through
`triton.compile`, with triton-xpu's pipeline and with ours (the plugin), and prints
per case: SLM bytes (and whether they fit 128 KB), conversions, 2D-block-I/O loads /
loads, 2D block reads/writes and DPAS calls in the LLVM IR, compile ms of each
pipeline and their ratio; each figure column is `native/ours` (`!`: SLM over 128 KB).
The pipelines alternate which compiles first, after one untimed warm-up of each.
With Intel's GPU compiler installed (`ocloc`, tools/install-igc) it also prints IGC's
ISA figures of both kernels and judges each case on them (xpu_passes.integration.isa.judge:
more spill, SLM messages, gathers or scatters, fewer 2D block messages or DPAS, >5% more
instructions or more SLM bytes are worse, unless ours fits PVC's 128 KB of SLM where
native does not, or loses only spill bytes within the driver's 1,000 in 128 registers where
native runs in 256: TRADE); without it, on the LLVM IR figures as above. Last line: issue 29's
count, the cases strictly better than native at the ISA (isa.strictly_better: nothing worse,
something better by the judge's thresholds mirrored) and the cases worse.
Writes a CSV and (with matplotlib) a PNG chart, and says where. Exits 1 if ours is
worse than native anywhere.

The problem shapes of Intel's GEMM benchmarks (square 1K..8K, LLM shapes) are
runtime arguments: they change nothing in what is compiled, only in --run timings.

--run (needs torch with an XPU): for every case, dtype and shape, launches the kernel
with each autotune configuration through `triton.jit`, once with triton-xpu's pipeline
and once with ours (the plugin), checks every result against torch (`a @ b` and the
epilogue, in fp32), times it with `triton.testing.do_bench` and prints the best
configuration of each pipeline side by side: ms, TFLOPS, GB/s and our speed-up. A
configuration that cannot launch (e.g. native's 257 KB of SLM for the masked epilogue
at 256x256) is reported, not fatal. Exits 1 if a result is wrong.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from xpu_passes.corpus import KernelSpec
from xpu_passes.integration import isa, oracle

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules, also when imported by path

# (the cases and the report, re-exported: the tests import them from here)
from gemm_postop_cases import (  # noqa: E402, F401
    BATCH, CONFIGS, DTYPES, KERNELS, SHAPES, TOLERANCES, TORCH_DTYPES, Problem, Shape, Timing, check, parse_shape,
    problems,
)
from gemm_postop_report import (  # noqa: E402, F401
    HEADER, Row, dot_count, format_isa, format_row, format_run_row, write_csv, write_png,
)


def _figures(kernel: Any) -> oracle.StaticFigures:
    return oracle.figures(kernel.asm["ttgir"], kernel.asm["llir"], kernel.metadata.shared)


def _has_dot(kernel: Any) -> bool:
    return "tt.dot" in kernel.asm["ttir"]


def _compile(spec: KernelSpec, cfg: tuple[int, ...]) -> tuple[Any, float]:
    import triton
    from triton.compiler.compiler import ASTSource

    bm, bn, bk, warps, stages = cfg
    src = ASTSource(spec.fn, spec.signature(), {"BM": bm, "BN": bn, "BK": bk}, spec.attrs())
    t = time.perf_counter()
    k = triton.compile(src, target=oracle.pvc_target(), options=dict(num_warps=warps, num_stages=stages, grf_mode="large"))
    return k, (time.perf_counter() - t) * 1e3


PIPELINE = "xpu"  # the plugin spec ours runs with (--pipeline)


def _isa(kernel: Any, ocloc: str | None) -> tuple[isa.IsaFigures | None, str]:
    """IGC's figures of a compiled kernel (None without ocloc), or IGC's error."""
    if ocloc is None:
        return None, ""
    try:
        return isa.compile_spirv(*oracle.spirv(kernel), ocloc=ocloc), ""
    except isa.IsaError as e:
        return None, str(e)


def _enable_ours() -> None:
    from xpu_passes.integration import plugin as triton_plugin

    name, options = triton_plugin.parse_spec(PIPELINE)
    triton_plugin.enable(name, strict=True, **options)


def _compile_both(spec: KernelSpec, cfg: tuple[int, ...], ours_first: bool) -> tuple[Any, float, Any, float]:
    """(native kernel, its ms, ours, its ms), compiled in the order asked."""
    from xpu_passes import triton_plugin

    out: dict[bool, tuple[Any, float]] = {}
    for ours in (True, False) if ours_first else (False, True):
        if ours:
            _enable_ours()
        try:
            out[ours] = _compile(spec, cfg)
        finally:
            triton_plugin.disable()
    return (*out[False], *out[True])


def _spec(kernel: str, extra: tuple[str, ...], dtype: str) -> KernelSpec:
    return KernelSpec(kernel, {"a_ptr": dtype, "b_ptr": dtype, "c_ptr": "fp32", **{p: "fp32" for p in extra}})


def static(dtypes: list[str], only: list[str] | None = None, ocloc: str | None = None) -> list[Row]:
    """Every case, dtype and config compiled both ways. The two pipelines alternate which goes
    first, after one untimed warm-up compile of each (imports, first-use set-up), so neither
    pays it in the figures; every timed compile misses triton's cache (a fresh directory).
    With `ocloc`, IGC's ISA figures of both kernels too (not timed)."""
    from xpu_passes import triton_plugin

    triton_plugin.use_offline_pvc_target()
    cases = [(case, kernel, extra) for case, (kernel, extra) in KERNELS.items() if not only or case in only]
    rows: list[Row] = []
    saved = os.environ.get("TRITON_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="xpu-passes-bench-") as cache:
        try:
            os.environ["TRITON_CACHE_DIR"] = os.path.join(cache, "warm-up")
            _compile_both(_spec(cases[0][1], cases[0][2], dtypes[0]), CONFIGS[-1], False)
            os.environ["TRITON_CACHE_DIR"] = os.path.join(cache, "timed")  # no cached kernels
            print(HEADER, flush=True)
            for case, kernel, extra in cases:
                for dtype in dtypes:
                    spec = _spec(kernel, extra, dtype)
                    for cfg in CONFIGS:
                        native, ms_n, ours, ms_o = _compile_both(spec, cfg, ours_first=len(rows) % 2 == 1)
                        name = "{}x{}x{}-w{}-s{}".format(*cfg)
                        (isa_n, err_n), (isa_o, err_o) = _isa(native, ocloc), _isa(ours, ocloc)
                        rows.append(Row(case, dtype, name, _figures(native), _figures(ours), ms_n, ms_o, isa_n, isa_o,
                                        err_o or err_n, _has_dot(native)))  # fmt: skip
                        print(format_row(rows[-1]), flush=True)
        finally:
            if saved is None:
                os.environ.pop("TRITON_CACHE_DIR", None)
            else:
                os.environ["TRITON_CACHE_DIR"] = saved
    return rows



def _use_pipeline(pipeline: str, fn: Any) -> None:
    """Switch the plugin and drop the JIT's in-memory kernels (its key ignores the backend hash)."""
    from xpu_passes.integration import plugin as triton_plugin

    if pipeline == "ours":
        _enable_ours()
    else:
        triton_plugin.disable()
    fn.device_caches.clear()


def time_problem(p: Problem, pipeline: str, x: dict[str, Any], ref: Any) -> Timing:
    import triton.testing

    fn = KernelSpec(p.kernel, {}).fn
    _use_pipeline(pipeline, fn)
    args = p.kernel_args(fn.arg_names, x)
    best, failures = Timing(), {}
    for cfg in CONFIGS:
        bm, bn, bk, warps, stages = cfg
        name = "{}x{}x{}-w{}-s{}".format(*cfg)

        def launch() -> None:
            fn[p.grid(bm, bn)](*args, BM=bm, BN=bn, BK=bk, num_warps=warps, num_stages=stages, grf_mode="large")

        try:
            x["c"].fill_(float("nan"))
            launch()
            if wrong := check(p, x["c"], ref):
                failures[name] = f"wrong result: {wrong}"
                continue
            ms = triton.testing.do_bench(launch)
        except Exception as e:  # e.g. more SLM than the device has: this config does not run
            failures[name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            continue
        if best.ms is None or ms < best.ms:
            best = Timing(name, ms)
    best.failures = failures
    return best


def run_on_gpu(dtypes: list[str] | None = None, only: list[str] | None = None,
               shapes: list[Shape] | None = None, csv_path: str | None = None) -> int:
    try:
        import torch

        has_xpu = hasattr(torch, "xpu") and torch.xpu.is_available()
    except ImportError:
        has_xpu = False
    if not has_xpu:
        print("--run needs an Intel GPU (torch.xpu.is_available() is false here); nothing to time.")
        return 0
    wrong = 0
    rows = []
    for p in problems(dtypes or ["bf16", "fp16"], only, shapes):
        x = p.make_inputs("xpu")
        ref = p.reference(x)
        native, ours = (time_problem(p, pipeline, x, ref) for pipeline in ("native", "ours"))
        print(format_run_row(p, native, ours), flush=True)
        for who, t in (("native", native), ("ours", ours)):
            for cfg, why in (t.failures or {}).items():
                wrong += why.startswith("wrong result")
                print(f"    {who} {cfg}: {why}")
        rows.append((p, native, ours))
        del x, ref
        torch.xpu.empty_cache()
    from xpu_passes.integration import plugin as triton_plugin

    triton_plugin.disable()
    if csv_path:
        os.makedirs(os.path.dirname(os.path.abspath(csv_path)), exist_ok=True)
        with open(csv_path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["case", "dtype", "shape", "native_config", "native_ms", "native_tflops", "native_gbps",
                        "ours_config", "ours_ms", "ours_tflops", "ours_gbps"])
            for p, n, o in rows:
                w.writerow([p.case, p.dtype, p.shape, n.config, n.ms, f"{n.tflops(p):.2f}", f"{n.gbps(p):.1f}",
                            o.config, o.ms, f"{o.tflops(p):.2f}", f"{o.gbps(p):.1f}"])
        print(f"wrote {os.path.abspath(csv_path)}")
    print(f"\n{len(rows)} problems; wrong results: {wrong}")
    return 1 if wrong else 0



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--static", action="store_true", help="static figures (default)")
    ap.add_argument("--run", action="store_true", help="time on an Intel GPU")
    ap.add_argument("--dtype", nargs="+", choices=DTYPES, default=DTYPES, help="of A and B (C and D are fp32)")
    ap.add_argument("--only", nargs="+", choices=list(KERNELS), metavar="CASE",
                    help="these cases, named as printed (--list lists them)")
    ap.add_argument("--list", action="store_true", help="list the case names and exit")
    ap.add_argument("--pipeline", default="xpu",
                    help="our pipeline as the plugin spells it (xpu raises by default), e.g. xpu:raise_block_pointer=false")
    ap.add_argument("--ocloc", help="IGC's ocloc for ISA figures (default: on PATH, else tools/install-igc's)")
    ap.add_argument("--shape", nargs="+", type=parse_shape, help="--run: MxNxK shapes (default: Intel's)")
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    ap.add_argument("--csv", default=os.path.join(out, "gemm_postop.csv"))
    ap.add_argument("--png", default=os.path.join(out, "gemm_postop.png"))
    ap.add_argument("--run-csv", default=os.path.join(out, "gemm_postop_run.csv"))
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(KERNELS))
        return 0
    global PIPELINE
    PIPELINE = args.pipeline
    if args.run:
        return run_on_gpu(args.dtype, args.only, args.shape, args.run_csv)
    ocloc = isa.ocloc_path(args.ocloc)
    print(f"ISA: IGC {ocloc}: cases judged on the ISA" if ocloc else f"{isa.MISSING}; cases judged on the LLVM IR")
    rows = static(args.dtype, args.only, ocloc)
    for path in (args.csv, args.png):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_csv(rows, args.csv)
    print(f"\nwrote {os.path.abspath(args.csv)}")
    if write_png(rows, args.png):
        print(f"wrote {os.path.abspath(args.png)}")
    worse = [r for r in rows if r.worse]
    ratio = sum(r.ms_ours for r in rows) / sum(r.ms_native for r in rows)
    trades = sum(r.judged()[0] == "TRADE" for r in rows)
    print(f"{len(rows)} cases; ours worse than native in {len(worse)}{f'; trades {trades}' if trades else ''}"
          f"; compile time ours/native x{ratio:.2f}")
    if trades:
        print(isa.TRADE_NOTE)
    print(dot_count(rows, PIPELINE))
    print(f"shapes timed by --run: {', '.join('x'.join(map(str, s)) for s in SHAPES)}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
