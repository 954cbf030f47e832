"""Flash-attention backward: the preprocess (delta = rowsum(O * dO)), then dK/dV (a program
per key block, looping over query blocks) and dQ (a program per query block), non-causal.
The forward's log-sum-exp is given (base 2, as the forward keeps it).
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def attn_bwd_preprocess(o_ptr, do_ptr, delta_ptr, N_CTX, stride_m, BM: tl.constexpr, HEAD: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, HEAD)
    ptrs = offs_m[:, None] * stride_m + offs_d[None, :]
    o = tl.load(o_ptr + ptrs, mask=offs_m[:, None] < N_CTX, other=0).to(tl.float32)
    do = tl.load(do_ptr + ptrs, mask=offs_m[:, None] < N_CTX, other=0).to(tl.float32)
    tl.store(delta_ptr + offs_m, tl.sum(o * do, axis=1), mask=offs_m < N_CTX)


@triton.jit
def attn_bwd_dkdv(q_ptr, k_ptr, v_ptr, do_ptr, dk_ptr, dv_ptr, lse_ptr, delta_ptr, sm_scale, N_CTX, stride_m,
                  BM: tl.constexpr, BN: tl.constexpr, HEAD: tl.constexpr):
    """N_CTX is a multiple of BM and BN (as the tutorial's launcher requires)."""
    start_n = tl.program_id(0) * BN
    offs_n = start_n + tl.arange(0, BN)
    offs_d = tl.arange(0, HEAD)
    k = tl.load(k_ptr + offs_n[:, None] * stride_m + offs_d[None, :])
    v = tl.load(v_ptr + offs_n[:, None] * stride_m + offs_d[None, :])
    dk = tl.zeros((BN, HEAD), dtype=tl.float32)
    dv = tl.zeros((BN, HEAD), dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    offs_m = tl.arange(0, BM)
    q_t_ptrs = q_ptr + offs_m[None, :] * stride_m + offs_d[:, None]
    do_ptrs = do_ptr + offs_m[:, None] * stride_m + offs_d[None, :]
    for start_m in range(0, N_CTX, BM):
        q_t = tl.load(q_t_ptrs)
        lse = tl.load(lse_ptr + start_m + offs_m)
        s_t = tl.dot(k, q_t)  # (BN, BM) = (Q K^T)^T
        p_t = tl.math.exp2(s_t * qk_scale - lse[None, :])
        do = tl.load(do_ptrs)
        dv += tl.dot(p_t.to(do.dtype), do)
        delta = tl.load(delta_ptr + start_m + offs_m)
        dp_t = tl.dot(v, tl.trans(do))
        ds_t = (p_t * (dp_t - delta[None, :])).to(q_t.dtype)
        dk += tl.dot(ds_t, tl.trans(q_t))
        q_t_ptrs += BM * stride_m
        do_ptrs += BM * stride_m
    ptrs = offs_n[:, None] * stride_m + offs_d[None, :]
    tl.store(dv_ptr + ptrs, dv.to(dv_ptr.dtype.element_ty))
    tl.store(dk_ptr + ptrs, (dk * sm_scale).to(dk_ptr.dtype.element_ty))


@triton.jit
def attn_bwd_dq(q_ptr, k_ptr, v_ptr, do_ptr, dq_ptr, lse_ptr, delta_ptr, sm_scale, N_CTX, stride_m,
                BM: tl.constexpr, BN: tl.constexpr, HEAD: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, HEAD)
    q = tl.load(q_ptr + offs_m[:, None] * stride_m + offs_d[None, :])
    do = tl.load(do_ptr + offs_m[:, None] * stride_m + offs_d[None, :])
    lse = tl.load(lse_ptr + offs_m)
    delta = tl.load(delta_ptr + offs_m)
    qk_scale = sm_scale * 1.44269504
    dq = tl.zeros((BM, HEAD), dtype=tl.float32)
    offs_n = tl.arange(0, BN)
    k_t_ptrs = k_ptr + offs_n[None, :] * stride_m + offs_d[:, None]
    v_t_ptrs = v_ptr + offs_n[None, :] * stride_m + offs_d[:, None]
    for _ in range(0, N_CTX, BN):
        k_t = tl.load(k_t_ptrs)
        p = tl.math.exp2(tl.dot(q, k_t) * qk_scale - lse[:, None])
        dp = tl.dot(do, tl.load(v_t_ptrs))
        ds = (p * (dp - delta[:, None])).to(k_t.dtype)
        dq += tl.dot(ds, tl.trans(k_t))
        k_t_ptrs += BN * stride_m
        v_t_ptrs += BN * stride_m
    tl.store(dq_ptr + offs_m[:, None] * stride_m + offs_d[None, :], (dq * sm_scale).to(dq_ptr.dtype.element_ty))
