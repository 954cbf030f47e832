"""Our `triton-raise-block-pointer` at TTIR vs native, on the corpus and on issue 13's kernels.

1. For every corpus kernel/config that reads or writes through tensors of pointers, the
   TTIR the native TTGIR stage starts from goes through our raising pass first (no
   other change), then through triton-xpu's TTGIR passes and its LLVM lowering for PVC
   (no GPU needed).
2. The kernels below (issue 13's regressions: a 2D softmax and an attention-backward
   preprocess whose SLM grew with raising; a GEMM whose loop-carried pointers are used
   after the loop, which was not raised), through the whole `xpu` pipeline without and
   with `raise_block_pointer`, beside native.

Prints SLM bytes (`!` = over PVC's 128 KB), conversions, 2D block reads (and writes)
and DPAS calls, and how many accesses were raised or left alone (with the remarks'
reasons, `-v`). Exits 1 if raising loses a 2D read or DPAS call or needs more SLM than
native anywhere.

    python benchmarks/raise_block_pointer.py [-v] [--no-corpus]
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path

from xpu_passes.integration import oracle
from xpu_passes.corpus import entries, find, resume_native
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms import collecting_remarks, load_all
from xpu_passes.transforms.raise_block_pointer import RaiseBlockPointer

try:
    import triton
    import triton.language as tl
except ImportError:  # the [triton] extra
    triton = None

TENSOR_OF_PTR = re.compile(r"tt\.(load|store) .*: tensor<[^>]*!tt\.ptr")


def raised_figures(entry: dict) -> tuple[oracle.StaticFigures, int, list[str], float]:
    """(figures after raising, block pointers added, remarks, pass ms) for one corpus entry."""
    step = next(s["file"] for s in entry["steps"] if s["step"] == "ttgir.input")
    text = (Path(entry["dir"]) / step).read_text()
    ctx = make_context()
    parsed = parse_module(ctx, text, step)
    with collecting_remarks() as sink:
        t = time.perf_counter()
        RaiseBlockPointer(dot_only=True).apply(ctx, parsed.module)  # as the plugin's pipeline
        ms = (time.perf_counter() - t) * 1e3
    remarks = [r.message for r in sink.remarks]
    out = print_module(parsed.module, parsed.spelling, debuginfo=True)
    added = out.count("tt.make_tensor_ptr") - text.count("tt.make_tensor_ptr")
    return resume_native(entry, step, out), added, remarks, ms


def pipeline_figures(entry: dict) -> oracle.StaticFigures:
    """The whole `xpu` pipeline with raising, from the entry's TTIR."""
    from xpu_passes.integration.pipeline import run_ttgir

    spec, config = find(entry["kernel"], entry["config"])
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large"))
    step = next(s["file"] for s in entry["steps"] if s["step"] == "ttgir.input")
    mod = run_ttgir(oracle.parse((Path(entry["dir"]) / step).read_text()), {}, opts, backend.properties, "xpu",
                    raise_block_pointer=True)
    return oracle.lower(mod, opts, backend)


def main(verbose: bool = False, corpus: bool = True) -> int:
    worse = extra_kernels(verbose)
    if not corpus:
        return 1 if worse else 0
    print(f"{'kernel-config':36} {'SLM native':>11} {'SLM raised':>11} {'cvt n/r':>8} {'2D reads n/r':>13} "
          f"{'DPAS n/r':>9} {'raised':>7} {'left':>5} {'ms':>5}   xpu+raise: {'SLM':>8} {'2D r/w':>7} {'DPAS':>5}")
    for e in entries():
        step = next(s["file"] for s in e["steps"] if s["step"] == "ttgir.input")
        if not TENSOR_OF_PTR.search((Path(e["dir"]) / step).read_text()):
            continue
        n = e["figures"]
        o, added, remarks, ms = raised_figures(e)
        p = pipeline_figures(e)
        bad = any(f.shared_bytes > n["shared_bytes"] or f.block_reads < n["block_reads"] or f.dpas < n["dpas"]
                  for f in (o, p))
        worse += bad

        def slm(b: int) -> str:
            return f"{b:,}{'!' if b > 128 * 1024 else ''}"

        print(f"{e['kernel'] + '-' + e['config']:36} {slm(n['shared_bytes']):>11} {slm(o.shared_bytes):>11} "
              f"{n['converts']:>3}/{o.converts:<4} {n['block_reads']:>6}/{o.block_reads:<6} {n['dpas']:>4}/{o.dpas:<4} "
              f"{added:>7} {sum(r.startswith('left alone') for r in remarks):>5} {ms:5.0f}   {'':11}"
              f"{slm(p.shared_bytes):>8} {p.block_reads:>3}/{p.block_writes:<3} {p.dpas:>5}{'  WORSE' if bad else ''}")
        if verbose:
            for why, k in Counter(remarks).items():
                print(f"    {k} x {why}")
    print("(! = over PVC's 128 KB of SLM: fails at launch; raised = block pointers made; left = accesses left "
          "alone, incl. the original copy of a versioned loop nest)")
    return 1 if worse else 0


# ------------------------------------------------------------ issue 13's kernels

if triton is not None:
    from xpu_passes.corpus.kernels_gemm import gemm_tail

    @triton.jit
    def softmax_rows(out_ptr, in_ptr, stride, n_rows, n_cols, BM: tl.constexpr, BLOCK: tl.constexpr):
        rows = tl.program_id(0) * BM + tl.arange(0, BM)
        cols = tl.arange(0, BLOCK)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        x = tl.load(in_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=1)[:, None]
        e = tl.exp(x)
        tl.store(out_ptr + rows[:, None] * stride + cols[None, :], e / tl.sum(e, axis=1)[:, None], mask=mask)

    @triton.jit
    def bwd_preprocess(o_ptr, do_ptr, delta_ptr, n_ctx, BM: tl.constexpr, HEAD: tl.constexpr):
        off_m = tl.program_id(0) * BM + tl.arange(0, BM)
        off_hz = tl.program_id(1)
        off_n = tl.arange(0, HEAD)
        o = tl.load(o_ptr + off_hz * HEAD * n_ctx + off_m[:, None] * HEAD + off_n[None, :])
        do = tl.load(do_ptr + off_hz * HEAD * n_ctx + off_m[:, None] * HEAD + off_n[None, :]).to(tl.float32)
        tl.store(delta_ptr + off_hz * n_ctx + off_m, tl.sum(o * do, axis=1))

    @triton.jit
    def gemm_wrap_padded_c(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        """The tutorial's `% M` rows, but C padded to whole tiles and stored unmasked: the wrapped rows are
        stored, so no proof; raising versions the K loop on `pid_m*BM + BM <= M`."""
        offs_am = (tl.program_id(0) * BM + tl.arange(0, BM)) % M
        offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
            acc += tl.dot(a, b)
            a_ptrs += BK
            b_ptrs += BK * stride_bk
        offs_cm = tl.program_id(0) * BM + tl.arange(0, BM)
        tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_n[None, :], acc)


def extra_cases() -> list[tuple[str, object, dict[str, str], dict[str, int], int]]:
    """(name, kernel, signature, constexprs, warps) of issue 13's kernels at the configs measured there, and
    a wrap-around GEMM the proof cannot cover (issue 16: what versioning costs)."""
    soft = {"out_ptr": "*fp32", "in_ptr": "*fp32", "stride": "i32", "n_rows": "i32", "n_cols": "i32"}
    pre = {"o_ptr": "*fp16", "do_ptr": "*fp16", "delta_ptr": "*fp32", "n_ctx": "i32"}
    gemm = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", **{k: "i32" for k in
            ("M", "N", "K", "stride_am", "stride_bk", "stride_cm")}}
    return [
        ("softmax_rows-2x128-w4", softmax_rows, soft, {"BM": 2, "BLOCK": 128}, 4),
        ("bwd_preprocess-128x64-w4", bwd_preprocess, pre, {"BM": 128, "HEAD": 64}, 4),
        ("bwd_preprocess-64x64-w8", bwd_preprocess, pre, {"BM": 64, "HEAD": 64}, 8),
        ("gemm_tail-256x256x32-w32", gemm_tail, gemm, {"BM": 256, "BN": 256, "BK": 32}, 32),
        ("gemm_tail-64x128x32-w4", gemm_tail, gemm, {"BM": 64, "BN": 128, "BK": 32}, 4),
        ("gemm_wrap_padded_c-256x256x32-w32", gemm_wrap_padded_c, gemm, {"BM": 256, "BN": 256, "BK": 32}, 32),
        ("gemm_wrap_padded_c-64x128x32-w4", gemm_wrap_padded_c, gemm, {"BM": 64, "BN": 128, "BK": 32}, 4),
    ]


def compile_three(kernel: object, signature: dict[str, str], constexprs: dict[str, int], warps: int,
                  keep_going: bool = False) -> dict[str, oracle.StaticFigures | str]:
    """Figures of native, `xpu` and `xpu` with raising: TTIR stage natively, then each TTGIR stage
    (`keep_going`: a failing pipeline gives its error's first line instead)."""
    from triton.compiler.compiler import ASTSource

    from xpu_passes.integration.pipeline import run_ttgir

    backend = oracle.pvc_backend()
    sig = {**signature, **{k: "constexpr" for k in constexprs}}
    attrs = {(i,): [["tt.divisibility", 16]] for i, k in enumerate(signature) if signature[k].startswith("*")
             or "stride" in k}
    out = {}
    for label, pipeline, opts in (("native", "native", {}), ("xpu", "xpu", {}),
                                  ("raised", "xpu", {"raise_block_pointer": True})):
        options = backend.parse_options(dict(num_warps=warps, num_stages=3, grf_mode="large"))
        src = ASTSource(kernel, sig, dict(constexprs), attrs)
        mod = src.make_ir(options, backend.get_codegen_implementation(options), backend.get_module_map(),
                          oracle.context())
        oracle.run_steps(mod, oracle.native_ttir_steps(options))
        try:
            mod = run_ttgir(mod, {}, options, backend.properties, pipeline, **opts)
            out[label] = oracle.lower(mod, options, backend)
        except Exception as e:
            if not keep_going:
                raise
            out[label] = str(e).splitlines()[0][:160]
    return out


def extra_kernels(verbose: bool) -> int:
    if triton is None:
        print("issue 13's kernels need triton-xpu (the [triton] extra): skipped")
        return 0
    worse = 0
    print(f"{'kernel-config (xpu pipeline)':36} {'SLM n/x/r':>26} {'cvt n/x/r':>10} {'2D rd n/x/r':>12} "
          f"{'2D wr n/x/r':>12} {'DPAS n/x/r':>13}")
    for name, kernel, sig, cx, warps in extra_cases():
        f = compile_three(kernel, sig, cx, warps, keep_going=True)
        n, x, r = f["native"], f["xpu"], f["raised"]
        failed = {k: v for k, v in f.items() if isinstance(v, str)}
        bad = bool({"native", "raised"} & failed.keys()) or (  # type: ignore[union-attr]
            r.shared_bytes > n.shared_bytes or r.block_reads < n.block_reads or r.dpas < n.dpas)
        worse += bad

        def three(attr: str) -> str:
            return "/".join("FAIL" if isinstance(v, str) else f"{getattr(v, attr):,}" for v in (n, x, r))

        print(f"{name:36} {three('shared_bytes'):>26} {three('converts'):>10} {three('block_reads'):>12} "
              f"{three('block_writes'):>12} {three('dpas'):>13}{'  WORSE' if bad else ''}")
        for k, why in failed.items():  # our xpu pipeline without raising is judged elsewhere (corpus_compare)
            print(f"    {k} failed: {why}")
    print("(n = native, x = our xpu pipeline, r = xpu with raise_block_pointer)\n")
    return worse


if __name__ == "__main__":
    load_all()
    sys.exit(main("-v" in sys.argv[1:], "--no-corpus" not in sys.argv[1:]))
