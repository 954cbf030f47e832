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
native does not: TRADE); without it, on the LLVM IR figures as above. Last line: issue 29's
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
from dataclasses import dataclass
from typing import Any

from xpu_passes.corpus import KernelSpec
from xpu_passes.integration import isa, oracle

SHAPES = [(n, n, n) for n in (1024, 2048, 4096, 8192)] + [
    (1, 5120, 13824), (4, 4096, 12288), (512, 8192, 8192), (1024, 28672, 8192), (16384, 8192, 4096),
]
# (BM, BN, BK, warps, stages): Intel's autotune configurations.
CONFIGS = [(256, 256, 32, 32, 3), (256, 256, 32, 32, 2), (256, 128, 32, 32, 3), (64, 128, 32, 4, 3),
           (8, 512, 64, 32, 3), (8, 128, 64, 4, 3)]  # fmt: skip
DTYPES = ["bf16", "fp16"]  # of A and B: the kernels' dots and TOLERANCES are for 16-bit inputs
# Case name (as printed and as --only takes it) -> (corpus kernel, extra fp32 pointers).
KERNELS = {
    "gemm": ("gemm_block_ptr", ()),
    "gemm+add(block ptr)": ("gemm_add_block_ptr", ("d_ptr",)),
    "gemm+add(masked ptrs)": ("gemm_add_tensor_ptr", ("d_ptr",)),
    "gemm+gelu": ("gemm_gelu", ()),
    "exp+gemm": ("gemm_exp_preop", ()),
    "batched gemm": ("batched_gemm", ()),
    "gemm(ptr A/B)": ("gemm_tensor_ptr", ()),
}


@dataclass
class Row:
    case: str
    dtype: str
    config: str
    native: oracle.StaticFigures
    ours: oracle.StaticFigures
    ms_native: float
    ms_ours: float
    isa_native: isa.IsaFigures | None = None
    isa_ours: isa.IsaFigures | None = None
    isa_error: str = ""  # IGC failed on ours (or on both)
    dot: bool = True  # the kernel's TTIR has a tt.dot (a GEMM row of issue 29's count)

    def judged(self) -> tuple[str, list[str]]:
        """("ok" | "WORSE" | "TRADE", what ours loses): on the ISA when both have one."""
        n, o = self.native, self.ours
        if self.isa_native and self.isa_ours:
            return isa.judge(self.isa_native, self.isa_ours, n.shared_bytes, o.shared_bytes)
        if self.isa_error and self.isa_native:
            return "WORSE", [self.isa_error]
        lost = [name for name, bad in (("SLM", o.shared_bytes > n.shared_bytes), ("converts", o.converts > n.converts),
                                       ("2D reads", o.block_reads < n.block_reads), ("DPAS", o.dpas < n.dpas),
                                       ("block-io loads", o.block_io_loads < n.block_io_loads)) if bad]  # fmt: skip
        return ("WORSE" if lost else "ok"), lost

    @property
    def worse(self) -> bool:
        return self.judged()[0] == "WORSE"

    def better(self) -> list[str]:
        """What ours wins at the ISA where it loses nothing (isa.strictly_better); else []."""
        if not (self.isa_native and self.isa_ours):
            return []
        n, o = self.native.shared_bytes, self.ours.shared_bytes
        return isa.gains(self.isa_native, self.isa_ours, n, o) if isa.strictly_better(
            self.isa_native, self.isa_ours, n, o) else []  # fmt: skip


def dot_count(rows: list[Row]) -> str:
    """Issue 29's count on the GEMM rows (a tt.dot in the kernel): strictly better than native at the
    ISA on at least a third, worse on none."""
    dots = [r for r in rows if r.dot]
    if not any(r.isa_native for r in dots):
        return f"GEMM rows (a tt.dot in the kernel): {len(dots)}; no ISA figures: better not counted"
    won = sum(bool(r.better()) for r in dots)
    verdicts = [r.judged()[0] for r in dots]
    return (f"GEMM rows (a tt.dot in the kernel): {len(dots)}; {PIPELINE} strictly better than native at the ISA "
            f"on {won} ({100 * won / max(len(dots), 1):.0f}%; goal >= {-(-len(dots) // 3)}), worse on "
            f"{verdicts.count('WORSE')}, trade {verdicts.count('TRADE')}")  # fmt: skip


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


# Each figure column is `native/ours`; `!` marks SLM over PVC's 128 KB.
HEADER = (f"{'case':22} {'dtype':5} {'config':20} {'SLM native/ours':>21} {'cvt n/o':>7}  "
          f"{'2D-block-I/O loads/loads n->o':>29}  {'2D reads n/o':>12} {'writes n/o':>10}  {'DPAS n/o':>9}  "
          f"{'compile ms n/o':>14} {'o/n':>5}")


def format_row(r: Row) -> str:
    n, o = r.native, r.ours

    def slm(f: oracle.StaticFigures) -> str:
        return f"{f.shared_bytes}{'' if f.fits_slm else '!'}"

    return (f"{r.case:22} {r.dtype:5} {r.config:20} {slm(n) + '/' + slm(o):>21} {f'{n.converts}/{o.converts}':>7}  "
            f"{f'{n.block_io_loads}/{n.loads}->{o.block_io_loads}/{o.loads}':>29}  "
            f"{f'{n.block_reads}/{o.block_reads}':>12} {f'{n.block_writes}/{o.block_writes}':>10}  "
            f"{f'{n.dpas}/{o.dpas}':>9}  {f'{r.ms_native:.0f}/{r.ms_ours:.0f}':>14} "
            f"x{r.ms_ours / r.ms_native:4.2f}{'  WORSE' if r.worse else ''}" + format_isa(r))


def format_isa(r: Row) -> str:
    """The ISA line (native/ours) and, when ours loses, what it loses; "" without ISA figures."""
    out = f"\n    ISA {isa.columns(r.isa_native, r.isa_ours)}" if r.isa_native or r.isa_ours or r.isa_error else ""
    verdict, lost = r.judged()
    won = r.better()
    return out + (f"\n    {verdict}: {'; '.join(lost)}" if verdict != "ok" else "") + (
        f"\n    better: {', '.join(won)}" if won else "")


def write_csv(rows: list[Row], path: str) -> None:
    fields = ["shared_bytes", "converts", "loads", "block_io_loads", "block_reads", "block_writes", "dpas"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "dtype", "config", *(f"native_{k}" for k in fields), *(f"ours_{k}" for k in fields),
                    "ms_native", "ms_ours", *(f"{who}_isa_{k}" for who in ("native", "ours") for k in isa.FIGURE_NAMES),
                    "isa_error", "verdict", "lost", "better"])  # fmt: skip
        for r in rows:
            figs = [f.as_dict() if f else {} for f in (r.isa_native, r.isa_ours)]
            verdict, lost = r.judged()
            w.writerow([r.case, r.dtype, r.config, *(getattr(r.native, k) for k in fields),
                        *(getattr(r.ours, k) for k in fields), f"{r.ms_native:.1f}", f"{r.ms_ours:.1f}",
                        *(f.get(k, "") for f in figs for k in isa.FIGURE_NAMES), r.isa_error[:300], verdict,
                        "; ".join(lost), "; ".join(r.better())])  # fmt: skip


def write_png(rows: list[Row], path: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: pip install matplotlib for the chart)")
        return False
    labels = [f"{r.case} {r.dtype} {r.config}" for r in rows]
    fig, ax = plt.subplots(figsize=(12, max(4, len(rows) * 0.22)))
    y = range(len(rows))
    ax.barh([i + 0.2 for i in y], [r.native.shared_bytes / 1024 for r in rows], 0.4, label="native")
    ax.barh([i - 0.2 for i in y], [r.ours.shared_bytes / 1024 for r in rows], 0.4, label="xpu-passes")
    ax.axvline(128, color="red", linestyle="--", label="PVC SLM (128 KB)")
    ax.set_yticks(list(y), labels, fontsize=6)
    ax.set_xlabel("SLM per work-group (KB)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


# ----------------------------------------------------------------- --run

BATCH = 4  # batch size of the batched GEMM case (Intel's batched shapes use 4)
TORCH_DTYPES = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}
# Inputs are exact in fp32 and accumulated in fp32: what differs is the summation order
# (and, for the exp pre-op, exp's last bit before rounding to the 16-bit type).
TOLERANCES = {"bf16": (1e-2, 1e-2), "fp16": (1e-2, 1e-3)}  # (atol, rtol)


@dataclass(frozen=True)
class Problem:
    """One --run measurement: a case of KERNELS at one shape (and batch) and dtype."""

    case: str
    dtype: str
    M: int
    N: int
    K: int
    batch: int = 1

    @property
    def kernel(self) -> str:
        return KERNELS[self.case][0]

    @property
    def has_d(self) -> bool:
        return "d_ptr" in KERNELS[self.case][1]

    @property
    def shape(self) -> str:
        return f"{self.batch}x" * (self.batch > 1) + f"{self.M}x{self.N}x{self.K}"

    def flops(self) -> int:
        return 2 * self.batch * self.M * self.N * self.K

    def bytes(self) -> int:
        """Compulsory traffic: A and B read, C written (fp32), D read (fp32) if added."""
        elt = 2  # bf16 / fp16
        per_batch = (self.M * self.K + self.K * self.N) * elt + self.M * self.N * 4 * (2 if self.has_d else 1)
        return self.batch * per_batch

    def make_inputs(self, device: str = "cpu", seed: int = 0) -> dict[str, Any]:
        """a, b (dtype), c (fp32, NaN so a kernel that skips a tile is caught) and d (fp32)."""
        import torch

        g = torch.Generator(device=device).manual_seed(seed)
        dtype = getattr(torch, TORCH_DTYPES[self.dtype])
        lead = (self.batch,) if self.batch > 1 else ()

        def randn(*shape: int) -> Any:
            return torch.randn(*lead, *shape, generator=g, device=device, dtype=torch.float32)

        out = {"a": randn(self.M, self.K).to(dtype), "b": randn(self.K, self.N).to(dtype),
               "c": torch.full((*lead, self.M, self.N), float("nan"), device=device)}
        if self.has_d:
            out["d"] = randn(self.M, self.N)
        return out

    def reference(self, x: dict[str, Any]) -> Any:
        """What the kernel computes, in fp32 with torch."""
        import torch

        a = x["a"]
        if self.case == "exp+gemm":
            a = torch.exp(a.float()).to(a.dtype)
        acc = torch.matmul(a.float(), x["b"].float())
        if self.has_d:
            acc = acc + x["d"]
        if self.case == "gemm+gelu":
            acc = torch.nn.functional.gelu(acc)  # the erf form, as the kernel
        return acc

    def kernel_args(self, arg_names: list[str], x: dict[str, Any]) -> list[Any]:
        """The kernel's runtime arguments in order (pointers, sizes, strides; no constexprs)."""
        values: dict[str, Any] = {"M": self.M, "N": self.N, "K": self.K}
        for t in ("a", "b", "c", "d"):
            if t in x:
                values[f"{t}_ptr"] = x[t]
                values[f"stride_{t}b"] = x[t].stride(0) if self.batch > 1 else 0
        values |= {"stride_am": x["a"].stride(-2), "stride_bk": x["b"].stride(-2), "stride_cm": x["c"].stride(-2)}
        if "d" in x:
            values["stride_dm"] = x["d"].stride(-2)
        return [values[n] for n in arg_names if n not in ("BM", "BN", "BK")]

    def grid(self, bm: int, bn: int) -> tuple[int, int]:
        return (-(-self.M // bm)) * (-(-self.N // bn)), self.batch


Shape = tuple[int, int, int]


def problems(dtypes: list[str], only: list[str] | None = None, shapes: list[Shape] | None = None) -> list[Problem]:
    out = []
    for case in KERNELS:
        if only and case not in only:
            continue
        for dtype in dtypes:
            for m, n, k in shapes or SHAPES:
                out.append(Problem(case, dtype, m, n, k, BATCH if case == "batched gemm" else 1))
    return out


def check(p: Problem, out: Any, ref: Any) -> str | None:
    """None if `out` matches torch within the dtype's tolerance, else what is wrong."""
    import torch

    atol, rtol = TOLERANCES[p.dtype]
    try:
        torch.testing.assert_close(out, ref, atol=atol, rtol=rtol)
    except AssertionError as e:  # torch's message: mismatched elements, greatest differences
        return "; ".join(line.strip() for line in str(e).splitlines()[1:] if line.strip())
    return None


@dataclass
class Timing:
    """The best configuration of one pipeline on one problem (ms None: none ran)."""

    config: str = "-"
    ms: float | None = None
    failures: dict[str, str] | None = None  # config -> why it did not run or was wrong

    def tflops(self, p: Problem) -> float:
        return p.flops() / (self.ms * 1e-3) / 1e12 if self.ms else 0.0

    def gbps(self, p: Problem) -> float:
        return p.bytes() / (self.ms * 1e-3) / 1e9 if self.ms else 0.0


def format_run_row(p: Problem, native: Timing, ours: Timing) -> str:
    def side(t: Timing) -> str:
        if t.ms is None:
            return f"{'(no config ran)':>44}"
        return f"{t.config:>18} {t.ms:8.3f} ms {t.tflops(p):6.1f} TF {t.gbps(p):7.1f} GB/s"

    speedup = f"x{native.ms / ours.ms:5.2f}" if native.ms and ours.ms else "   -  "
    return f"{p.case:22} {p.dtype:5} {p.shape:>18} | native {side(native)} | ours {side(ours)} | {speedup}"


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


def parse_shape(text: str) -> Shape:
    m, n, k = (int(v) for v in text.lower().split("x"))
    return m, n, k


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--static", action="store_true", help="static figures (default)")
    ap.add_argument("--run", action="store_true", help="time on an Intel GPU")
    ap.add_argument("--dtype", nargs="+", choices=DTYPES, default=DTYPES, help="of A and B (C and D are fp32)")
    ap.add_argument("--only", nargs="+", choices=list(KERNELS), metavar="CASE",
                    help="these cases, named as printed (--list lists them)")
    ap.add_argument("--list", action="store_true", help="list the case names and exit")
    ap.add_argument("--pipeline", default="xpu", help="our pipeline as the plugin spells it, e.g. xpu:raise_block_pointer")
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
    print(dot_count(rows))
    print(f"shapes timed by --run: {', '.join('x'.join(map(str, s)) for s in SHAPES)}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
