"""The kernels of our corpus: GEMM variants with epilogues, attention, softmax, layer norm.

Written the way Intel's benchmarks and Triton's tutorials write them. Unit strides
are constexpr 1 and other strides/sizes are specialized as divisible by 16, as
Triton's JIT does for such arguments, so block loads can qualify for 2D block I/O.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def _tile_ids(M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    num_n = tl.cdiv(N, BN)
    return pid // num_n, pid % num_n


@triton.jit
def _dot_block_ptr(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PRE_EXP: tl.constexpr):
    a = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        x = tl.load(a, boundary_check=(0, 1))
        if PRE_EXP:
            x = tl.exp(x.to(tl.float32)).to(x.dtype)
        acc += tl.dot(x, tl.load(b, boundary_check=(0, 1)))
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, (BK, 0))
    return acc


@triton.jit
def gemm_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = _tile_ids(M, N, BM, BN)
    acc = _dot_block_ptr(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, BM, BN, BK, False)
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def gemm_exp_preop(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = _tile_ids(M, N, BM, BN)
    acc = _dot_block_ptr(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, BM, BN, BK, True)
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def gemm_add_block_ptr(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, stride_am, stride_bk, stride_cm, stride_dm,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = _tile_ids(M, N, BM, BN)
    acc = _dot_block_ptr(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, BM, BN, BK, False)
    d = tl.make_block_ptr(d_ptr, (M, N), (stride_dm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    acc += tl.load(d, boundary_check=(0, 1)).to(tl.float32)
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def gemm_add_tensor_ptr(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, stride_am, stride_bk, stride_cm, stride_dm,
                        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = _tile_ids(M, N, BM, BN)
    acc = _dot_block_ptr(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, BM, BN, BK, False)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    d = tl.load(d_ptr + offs_m[:, None] * stride_dm + offs_n[None, :], mask=mask, other=0.0)
    acc += d.to(tl.float32)
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def gemm_gelu(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = _tile_ids(M, N, BM, BN)
    acc = _dot_block_ptr(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, BM, BN, BK, False)
    acc = 0.5 * acc * (1.0 + tl.math.erf(acc * 0.7071067811865476))
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def gemm_tensor_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """Tutorial style: wrap-around offsets and `k < K - k * BK` masks."""
    pid_m, pid_n = _tile_ids(M, N, BM, BN)
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def batched_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_cb, stride_cm,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    batch = tl.program_id(1)
    pid_m, pid_n = _tile_ids(M, N, BM, BN)
    acc = _dot_block_ptr(a_ptr + batch * stride_ab, b_ptr + batch * stride_bb, M, N, K, stride_am, stride_bk,
                         pid_m, pid_n, BM, BN, BK, False)
    c = tl.make_block_ptr(c_ptr + batch * stride_cb, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN),
                          (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def flash_attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, N_CTX, stride_qm, stride_km, stride_vm, stride_om,
                        BM: tl.constexpr, BN: tl.constexpr, HEAD: tl.constexpr):
    start_m = tl.program_id(0)
    q_blk = tl.make_block_ptr(q_ptr, (N_CTX, HEAD), (stride_qm, 1), (start_m * BM, 0), (BM, HEAD), (1, 0))
    k_blk = tl.make_block_ptr(k_ptr, (HEAD, N_CTX), (1, stride_km), (0, 0), (HEAD, BN), (0, 1))
    v_blk = tl.make_block_ptr(v_ptr, (N_CTX, HEAD), (stride_vm, 1), (0, 0), (BN, HEAD), (1, 0))
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, HEAD], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(q_blk)
    for _ in range(0, N_CTX, BN):
        qk = tl.dot(q, tl.load(k_blk))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        acc += tl.dot(p.to(tl.float16), tl.load(v_blk))
        m_i = m_ij
        k_blk = tl.advance(k_blk, (0, BN))
        v_blk = tl.advance(v_blk, (BN, 0))
    acc = acc / l_i[:, None]
    o_blk = tl.make_block_ptr(o_ptr, (N_CTX, HEAD), (stride_om, 1), (start_m * BM, 0), (BM, HEAD), (1, 0))
    tl.store(o_blk, acc.to(tl.float16))


@triton.jit
def softmax(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_row_stride + offs, mask=offs < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + offs, y, mask=offs < n_cols)


@triton.jit
def layer_norm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    var_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        var_acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(var_acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * tl.load(w_ptr + cols, mask=mask) + tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + cols, y, mask=mask)
