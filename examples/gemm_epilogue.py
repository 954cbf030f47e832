"""A GEMM with an epilogue, compiled for PVC on a machine without an Intel GPU: by triton-xpu's own
pipeline and with xpu-passes' plugin, the figures of both side by side.

    python examples/gemm_epilogue.py [--tile 8x128x64] [--warps 4] [--stages 3] [--dtype bf16|fp16]
                                     [--pipeline xpu]

The epilogue adds a matrix D read through a masked tensor of pointers and applies a ReLU,
as a bias or residual add does. The figures are read off what `triton.compile` returns:
SLM bytes (its metadata), `ttg.convert_layout` ops and 2D-block-I/O-tagged loads (its final
TTGIR), 2D block reads/writes and DPAS calls (its LLVM IR); where `xpu_passes.integration.isa`
and IGC's `ocloc` are installed, also what IGC makes of its SPIR-V for PVC (instructions,
spills, 2D block messages, gathers, DPAS). Nothing is launched.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

import triton
import triton.language as tl
from triton.compiler.compiler import ASTSource

import xpu_passes.triton_plugin as plugin
from xpu_passes.integration.oracle import StaticFigures, figures

try:  # IGC's ISA figures, where the package has them and ocloc is installed
    from xpu_passes.integration import isa
except ImportError:
    isa = None


@triton.jit
def gemm_add_relu(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, stride_am, stride_bk, stride_cm, stride_dm,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    n_tiles = tl.cdiv(N, BN)
    pid_m, pid_n = pid // n_tiles, pid % n_tiles
    a = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(tl.load(a, boundary_check=(0, 1)), tl.load(b, boundary_check=(0, 1)))
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, (BK, 0))
    # The epilogue: D through a masked tensor of pointers, then a ReLU.
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    d = tl.load(d_ptr + offs_m[:, None] * stride_dm + offs_n[None, :], mask=mask, other=0.0)
    acc = tl.maximum(acc + d, 0.0)
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


def source(dtype: str, tile: tuple[int, int, int]) -> ASTSource:
    """The kernel specialized as Triton's JIT would: pointers and strides divisible by 16."""
    pointers = {"a_ptr": dtype, "b_ptr": dtype, "c_ptr": "fp32", "d_ptr": "fp32"}
    constexprs = dict(zip(("BM", "BN", "BK"), tile, strict=True))
    names = gemm_add_relu.arg_names
    signature = {n: "constexpr" if n in constexprs else "*" + pointers[n] if n in pointers else "i32" for n in names}
    attrs = {(i,): [["tt.divisibility", 16]] for i, n in enumerate(names) if n in pointers or "stride" in n}
    return ASTSource(gemm_add_relu, signature, constexprs, attrs)


def compile_both(dtype: str, tile: tuple[int, int, int], warps: int, stages: int,
                 pipeline: str = "xpu") -> tuple[Any, Any]:
    """(native, ours): the kernel compiled by triton-xpu's pipeline, then with the plugin's `pipeline`."""
    plugin.use_offline_pvc_target()  # PVC's properties, and the target triton.compile asks for
    options = dict(num_warps=warps, num_stages=stages, grf_mode="large")
    out = []
    for ours in (False, True):
        if ours:
            name, pipeline_options = plugin.parse_spec(pipeline)
            plugin.enable(name, strict=True, **pipeline_options)  # strict: a failure of ours raises
        try:
            out.append(triton.compile(source(dtype, tile), options=options))
        finally:
            plugin.disable()
    return out[0], out[1]


def static_figures(kernel: Any) -> StaticFigures:
    return figures(kernel.asm["ttgir"], kernel.asm["llir"], kernel.metadata.shared)


def isa_figures(kernel: Any) -> Any:
    """IGC's figures of the kernel's SPIR-V, as the driver would build it for PVC."""
    assert isa is not None
    return isa.compile_spirv(bytes(kernel.asm["spv"]), str(kernel.metadata.build_flags), str(kernel.metadata.name))


ROWS: list[tuple[str, Any]] = [
    ("SLM bytes", lambda f: f"{f.shared_bytes}{'' if f.fits_slm else ' (over 128 KB)'}"),
    ("ttg.convert_layout", lambda f: f.converts),
    ("2D block I/O loads / loads", lambda f: f"{f.block_io_loads}/{f.loads}"),
    ("2D block reads (LLVM IR)", lambda f: f.block_reads),
    ("2D block writes (LLVM IR)", lambda f: f.block_writes),
    ("2D block prefetches (LLVM IR)", lambda f: f.block_prefetches),
    ("DPAS calls (LLVM IR)", lambda f: f.dpas),
]


def table(native: Any, ours: Any, rows: list[tuple[str, Any]] = ROWS, title: str = "figure") -> str:
    lines = [f"{title:30} {'native':>16} {'xpu-passes':>16}"]
    lines += [f"{label:30} {str(row(native)):>16} {str(row(ours)):>16}" for label, row in rows]
    return "\n".join(lines)


ISA_ROWS: list[tuple[str, Any]] = [
    (name.replace("_", " "), (lambda n: lambda f: getattr(f, n))(name)) for name in (
        "instructions", "spill_bytes", "grf_count", "block2d_loads", "block2d_prefetches", "block2d_stores",
        "gathers", "scatters", "slm_messages", "dpas")
]


def parse_tile(text: str) -> tuple[int, int, int]:
    bm, bn, bk = (int(v) for v in text.lower().split("x"))
    return bm, bn, bk


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tile", type=parse_tile, default=(8, 128, 64), help="BMxBNxBK (default 8x128x64)")
    ap.add_argument("--warps", type=int, default=4)
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--dtype", choices=["bf16", "fp16"], default="bf16", help="of A and B (C and D are fp32)")
    ap.add_argument("--pipeline", default="xpu", help="the plugin's pipeline, e.g. xpu:raise_block_pointer")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="xpu-passes-example-") as cache:
        os.environ["TRITON_CACHE_DIR"] = cache  # compiled here, not served from an earlier run's cache
        native, ours = compile_both(args.dtype, args.tile, args.warps, args.stages, args.pipeline)
    print(f"gemm + add(D) + relu, {args.dtype}, {'x'.join(map(str, args.tile))} tile, {args.warps} warps, "
          f"{args.stages} stages, compiled for PVC ({args.pipeline!r} with the plugin)")
    print(table(static_figures(native), static_figures(ours)))
    if isa is not None:
        print()
        if isa.available():
            print(table(isa_figures(native), isa_figures(ours), ISA_ROWS, "ISA (IGC ocloc, per thread)"))
        else:
            print(isa.MISSING)
    return 0


if __name__ == "__main__":
    sys.exit(main())
