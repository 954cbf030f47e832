"""Scans (prefix sums along either axis of a tile, and along long rows with a carry) and
MoE-style gathers (rows picked by index arrays: the expert GEMM of a fused MoE layer, and
a plain row gather).
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def cumsum_2d(y_ptr, x_ptr, M, N, stride_xm, stride_ym, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    """Inclusive prefix sum of a (BM, BN) tile along AXIS."""
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_n[None, :], mask=mask, other=0)
    y = tl.cumsum(x, axis=AXIS)
    tl.store(y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :], y, mask=mask)


@triton.jit
def cumsum_rows(y_ptr, x_ptr, N, stride, BLOCK: tl.constexpr):
    """Prefix sum of a long row, BLOCK at a time, carrying the running total."""
    row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros((), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (tl.cumsum(x, axis=0) + carry).to(y_ptr.dtype.element_ty),
                 mask=cols < N)
        carry += tl.sum(x, axis=0)


@triton.jit
def moe_gemm(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_ids_ptr, expert_ids_ptr, padded_ptr, N, K,
             num_valid, stride_am, stride_be, stride_bk, stride_cm,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, TOP_K: tl.constexpr):
    """C[token] = weight * (A[token // TOP_K] @ B[expert]) for the BM token slots of one block,
    slots sorted by expert and padded per expert; blocks past the padded count return."""
    pid_m = tl.program_id(0) // tl.cdiv(N, BN)
    pid_n = tl.program_id(0) % tl.cdiv(N, BN)
    if pid_m * BM >= tl.load(padded_ptr):
        return
    tokens = tl.load(sorted_ids_ptr + pid_m * BM + tl.arange(0, BM))
    valid = tokens < num_valid
    expert = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (tokens[:, None] // TOP_K) * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + expert * stride_be + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=valid[:, None] & (offs_k[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BK) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    acc *= tl.load(topk_weights_ptr + tokens, mask=valid, other=0)[:, None]
    c_ptrs = c_ptr + tokens[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=valid[:, None] & (offs_n[None, :] < N))


@triton.jit
def moe_gather_rows(out_ptr, x_ptr, idx_ptr, n_idx, N, stride_x, stride_out, BM: tl.constexpr, BN: tl.constexpr):
    """out[i] = x[idx[i]] for BM indices and BN columns per program (token permutation)."""
    offs_i = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    rows = tl.load(idx_ptr + offs_i, mask=offs_i < n_idx, other=0).to(tl.int64)
    mask = (offs_i[:, None] < n_idx) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + offs_n[None, :], mask=mask, other=0)
    tl.store(out_ptr + offs_i[:, None] * stride_out + offs_n[None, :], x, mask=mask)
