"""Small kernels of the constructs RemoveLayoutConversions lost to native on (issue 13).

Written for these tests (split-K GEMM with an atomic epilogue, prefix sums, rotary
embedding (also interleaved: reshape/split/join), a chunked row reduction as in sparsemax,
an RMS norm, a group norm backward); `compile_steps`
compiles one for PVC through triton-xpu's stages and keeps the IR before each pass.
"""

from __future__ import annotations

import functools
from typing import Any

import triton
import triton.language as tl


@triton.jit
def splitk_gemm_atomic(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_n = tl.cdiv(N, BN)
    pid_m, pid_n = pid // num_n, pid % num_n
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = pid_k * BK + tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK * SPLIT_K)):
        rest = K - k * BK * SPLIT_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < rest, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < rest, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK * SPLIT_K
        b_ptrs += BK * SPLIT_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.atomic_add(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def cumsum_2d(x_ptr, y_ptr, stride, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    offs = rows[:, None] * stride + tl.arange(0, BN)[None, :]
    tl.store(y_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), axis=AXIS))


@triton.jit
def rope_fwd(q_ptr, cos_ptr, sin_ptr, q_row_stride, cos_row_stride, seq_len, n_heads,
             BH: tl.constexpr, HEAD: tl.constexpr):
    pid = tl.program_id(0)
    pos = pid % seq_len
    half = tl.arange(0, HEAD // 2)
    cos = tl.load(cos_ptr + pos * cos_row_stride + half)
    sin = tl.load(sin_ptr + pos * cos_row_stride + half)
    heads = tl.arange(0, BH)[:, None]
    mask = heads < n_heads
    p1 = q_ptr + pid * q_row_stride + heads * HEAD + half[None, :]
    p2 = p1 + HEAD // 2
    q1 = tl.load(p1, mask=mask, other=0.0)
    q2 = tl.load(p2, mask=mask, other=0.0)
    tl.store(p1, q1 * cos[None, :] - q2 * sin[None, :], mask=mask)
    tl.store(p2, q2 * cos[None, :] + q1 * sin[None, :], mask=mask)


@triton.jit
def row_max_sum_chunked(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    """Sparsemax's pattern: a loop over chunks of a row, reducing each chunk right after its load."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = -float("inf")
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_ptr + row * stride + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        m = tl.maximum(m, tl.max(x, axis=0))
    s = 0.0
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_ptr + row * stride + start + offs, mask=start + offs < n_cols, other=-float("inf"))
        s += tl.sum(tl.maximum(x - m, 0.0), axis=0)
    for start in range(0, n_cols, BLOCK):
        x = tl.load(x_ptr + row * stride + start + offs, mask=start + offs < n_cols, other=0.0)
        tl.store(y_ptr + row * stride + start + offs, tl.maximum(x - m, 0.0) / s, mask=start + offs < n_cols)


@triton.jit
def rms_norm_fwd(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = cols[None, :] < n_cols
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0)
    tl.store(y_ptr + offs, x * rstd[:, None] * w[None, :], mask=mask)


@triton.jit
def rms_norm_bwd(dy_ptr, x_ptr, w_ptr, dx_ptr, dw_ptr, stride, n_cols, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = cols[None, :] < n_cols
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / n_cols + 1e-6)
    wdy = w[None, :] * dy
    c = tl.sum(x * wdy, axis=1) / n_cols
    dx = (wdy - x * rstd[:, None] * rstd[:, None] * c[:, None]) * rstd[:, None]
    tl.store(dx_ptr + offs, dx, mask=mask)
    tl.atomic_add(dw_ptr + cols, tl.sum(dy * x * rstd[:, None], axis=0), mask=cols < n_cols)


@triton.jit
def attn_bwd_dkdv(q_ptr, k_ptr, v_ptr, do_ptr, dk_ptr, dv_ptr, m_ptr, d_ptr, stride_m, N_CTX,
                  BM: tl.constexpr, BN: tl.constexpr, HEAD: tl.constexpr):
    """Attention backward's dK/dV loop, as the tutorial writes it (transposed Q and dO in dots)."""
    offs_n = tl.program_id(0) * BN + tl.arange(0, BN)
    offs_d = tl.arange(0, HEAD)
    offs_m = tl.arange(0, BM)
    kv = offs_n[:, None] * stride_m + offs_d[None, :]
    k = tl.load(k_ptr + kv)
    v = tl.load(v_ptr + kv)
    dk = tl.zeros([BN, HEAD], dtype=tl.float32)
    dv = tl.zeros([BN, HEAD], dtype=tl.float32)
    qT_ptrs = q_ptr + offs_m[None, :] * stride_m + offs_d[:, None]
    do_ptrs = do_ptr + offs_m[:, None] * stride_m + offs_d[None, :]
    for start_m in range(0, N_CTX, BM):
        qT = tl.load(qT_ptrs)
        m = tl.load(m_ptr + start_m + offs_m)
        pT = tl.math.exp2(tl.dot(k, qT) - m[None, :])
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(tl.float16), do)
        di = tl.load(d_ptr + start_m + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = (pT * (dpT - di[None, :])).to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        qT_ptrs += BM * stride_m
        do_ptrs += BM * stride_m
    tl.store(dv_ptr + kv, dv.to(tl.float16))
    tl.store(dk_ptr + kv, dk.to(tl.float16))


@triton.jit
def group_norm_bwd(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, HW, C,
                   G: tl.constexpr, CG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    ch = (pid % G) * CG + tl.arange(0, CG)
    hw = tl.arange(0, BLOCK)
    offs = (pid // G) * C * HW + ch[:, None] * HW + hw[None, :]
    mask = hw[None, :] < HW
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + ch)
    mean = tl.load(mean_ptr + pid)
    rstd = tl.load(rstd_ptr + pid)
    xhat = (x - mean) * rstd
    wdy = w[:, None] * dy
    c1 = tl.sum(tl.sum(xhat * wdy, axis=1), axis=0) / (CG * HW)
    c2 = tl.sum(tl.sum(wdy, axis=1), axis=0) / (CG * HW)
    tl.store(dx_ptr + offs, (wdy - (xhat * c1 + c2)) * rstd, mask=mask)


@triton.jit
def rope_pairs(q_ptr, cos_ptr, sin_ptr, out_ptr, BH: tl.constexpr, HEAD: tl.constexpr):
    """Interleaved rotary embedding: (even, odd) pairs taken apart by reshape + split, joined back."""
    rows = tl.arange(0, BH)[:, None]
    cols = tl.arange(0, HEAD)[None, :]
    q = tl.load(q_ptr + rows * HEAD + cols).to(tl.float32)
    even, odd = tl.split(tl.reshape(q, (BH, HEAD // 2, 2)))
    half = tl.arange(0, HEAD // 2)
    cos = tl.load(cos_ptr + half)[None, :]
    sin = tl.load(sin_ptr + half)[None, :]
    out = tl.reshape(tl.join(even * cos - odd * sin, odd * cos + even * sin), (BH, HEAD))
    tl.store(out_ptr + rows * HEAD + cols, out.to(tl.float16))


# name -> (kernel, pointer dtypes, float args, constexprs, warps)
CASES: dict[str, tuple[Any, dict[str, str], tuple[str, ...], dict[str, int], int]] = {
    "splitk_atomic_64x128": (splitk_gemm_atomic, {"a_ptr": "bf16", "b_ptr": "bf16", "c_ptr": "fp32"}, (),
                             {"BM": 64, "BN": 128, "BK": 32, "SPLIT_K": 4}, 4),
    "cumsum_axis0": (cumsum_2d, {"x_ptr": "fp32", "y_ptr": "fp32"}, (), {"BM": 64, "BN": 64, "AXIS": 0}, 4),
    "cumsum_axis1": (cumsum_2d, {"x_ptr": "fp32", "y_ptr": "fp32"}, (), {"BM": 64, "BN": 64, "AXIS": 1}, 4),
    "rope_fwd": (rope_fwd, {"q_ptr": "fp32", "cos_ptr": "fp32", "sin_ptr": "fp32"}, (), {"BH": 32, "HEAD": 128}, 4),
    "row_max_sum_chunked": (row_max_sum_chunked, {"x_ptr": "fp32", "y_ptr": "fp32"}, (), {"BLOCK": 1024}, 8),
    "rms_norm_fwd": (rms_norm_fwd, {"x_ptr": "bf16", "w_ptr": "fp32", "y_ptr": "bf16"}, ("eps",),
                     {"BM": 4, "BN": 1024}, 8),
    "attn_bwd_dkdv": (attn_bwd_dkdv, {**{k: "fp16" for k in ("q_ptr", "k_ptr", "v_ptr", "do_ptr", "dk_ptr", "dv_ptr")},
                                      "m_ptr": "fp32", "d_ptr": "fp32"}, (), {"BM": 32, "BN": 64, "HEAD": 64}, 4),
    "group_norm_bwd": (group_norm_bwd, {k: "fp32" for k in ("x_ptr", "dy_ptr", "w_ptr", "mean_ptr", "rstd_ptr", "dx_ptr")},
                       (), {"G": 8, "CG": 4, "BLOCK": 1024}, 4),
    "rope_pairs": (rope_pairs, {"q_ptr": "fp16", "cos_ptr": "fp32", "sin_ptr": "fp32", "out_ptr": "fp16"}, (),
                   {"BH": 8, "HEAD": 64}, 4),
    "rms_norm_bwd": (rms_norm_bwd, {k: "fp32" for k in ("dy_ptr", "x_ptr", "w_ptr", "dx_ptr", "dw_ptr")}, (),
                     {"BM": 4, "BN": 512}, 8),
}


def _signature(fn: Any, dtypes: dict[str, str], floats: tuple[str, ...], constexprs: dict[str, int]) -> dict[str, str]:
    return {a: "constexpr" if a in constexprs else "*" + dtypes[a] if a in dtypes else "fp32" if a in floats
            else "i32" for a in fn.arg_names}


@functools.lru_cache(maxsize=None)
def compile_steps(name: str) -> tuple[list[tuple[str, str]], Any]:
    """([(ttgir step name, IR before it)], native static figures) of kernel `name` for PVC."""
    from triton.compiler.compiler import ASTSource

    from xpu_passes.integration import oracle

    fn, dtypes, floats, constexprs, warps = CASES[name]
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=warps, num_stages=2, grf_mode="large"))
    attrs = {(i,): [["tt.divisibility", 16]] for i, a in enumerate(fn.arg_names) if a in dtypes or "stride" in a}
    src = ASTSource(fn, _signature(fn, dtypes, floats, constexprs), dict(constexprs), attrs)
    mod = src.make_ir(opts, backend.get_codegen_implementation(opts), backend.get_module_map(), oracle.context())
    oracle.run_steps(mod, oracle.native_ttir_steps(opts))
    steps: list[tuple[str, str]] = []
    oracle.run_steps(mod, oracle.native_ttgir_steps(opts, backend.properties), lambda n, t: steps.append((n, t)))
    steps.append(("final", str(mod)))
    return steps, oracle.lower(mod, opts, backend)


def resume(name: str, k: int, text: str) -> Any:
    """Static figures of `text` (the IR right after step k) taken on through the native steps after k."""
    from xpu_passes.integration import oracle

    fn, dtypes, floats, constexprs, warps = CASES[name]
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=warps, num_stages=2, grf_mode="large"))
    mod = oracle.parse(text)
    opts.threads_per_warp = oracle.threads_per_warp(mod)
    oracle.run_steps(mod, oracle.native_ttgir_steps(opts, backend.properties)[k + 1:])
    return oracle.lower(mod, opts, backend)


def pipeline_figures(name: str, **options: Any) -> Any:
    """Static figures of kernel `name` through our whole `xpu` pipeline (`options`: pipeline.plan's)."""
    from xpu_passes.integration import oracle
    from xpu_passes.integration import pipeline

    fn, dtypes, floats, constexprs, warps = CASES[name]
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=warps, num_stages=2, grf_mode="large"))
    mod = oracle.parse(compile_steps(name)[0][0][1])
    mod = pipeline.run_ttgir(mod, {}, opts, backend.properties, "xpu", **options)
    return oracle.lower(mod, opts, backend)
