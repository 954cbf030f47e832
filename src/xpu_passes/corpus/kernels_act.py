"""Losses and activations of LLM training: cross entropy over a large vocabulary, rotary
embeddings (half-split and interleaved), SwiGLU/GeGLU forward/backward, sparsemax
forward/backward, seeded dropout.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def cross_entropy(logits_ptr, loss_ptr, target_ptr, stride, V, ignore_index, BLOCK: tl.constexpr):
    """Loss of one row with an online softmax over the vocabulary, then its gradient
    written over the logits; rows whose target is ignore_index return early."""
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * stride
    y = tl.load(target_ptr + row)
    if y == ignore_index:
        for off in range(0, V, BLOCK):
            cols = off + tl.arange(0, BLOCK)
            tl.store(logits_ptr + cols, tl.zeros((BLOCK,), dtype=tl.float32), mask=cols < V)
        return
    m = float("-inf")
    d = 0.0
    x_y = tl.load(logits_ptr + y).to(tl.float32)
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    tl.store(loss_ptr + row, lse - x_y)
    tl.debug_barrier()  # x_y and the statistics are read before the logits are overwritten
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        grad = tl.exp(x - lse) - tl.where(cols == y, 1.0, 0.0)
        tl.store(logits_ptr + cols, grad.to(logits_ptr.dtype.element_ty), mask=cols < V)


@triton.jit
def rope(q_ptr, cos_ptr, sin_ptr, stride_row, stride_head, stride_cos, seq_len, n_heads, head_dim,
         HEADS: tl.constexpr, HALF: tl.constexpr, BACKWARD: tl.constexpr):
    """Half-split rotary embedding of one token's heads, in place; backward rotates by -theta."""
    row = tl.program_id(0)
    pos = row % seq_len
    d = tl.arange(0, HALF)
    h = tl.arange(0, HEADS)
    cos = tl.load(cos_ptr + pos * stride_cos + d, mask=d < head_dim // 2, other=0).to(tl.float32)
    sin = tl.load(sin_ptr + pos * stride_cos + d, mask=d < head_dim // 2, other=0).to(tl.float32)
    if BACKWARD:
        sin = -sin
    mask = (h[:, None] < n_heads) & (d[None, :] < head_dim // 2)
    first = q_ptr + row * stride_row + h[:, None] * stride_head + d[None, :]
    second = first + head_dim // 2
    x1 = tl.load(first, mask=mask, other=0).to(tl.float32)
    x2 = tl.load(second, mask=mask, other=0).to(tl.float32)
    tl.store(first, (x1 * cos[None, :] - x2 * sin[None, :]).to(q_ptr.dtype.element_ty), mask=mask)
    tl.store(second, (x2 * cos[None, :] + x1 * sin[None, :]).to(q_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rope_interleaved(out_ptr, q_ptr, cos_ptr, sin_ptr, stride_row, stride_cos, seq_len,
                     HEADS: tl.constexpr, HEAD_DIM: tl.constexpr):
    """GPT-J style: pairs (2i, 2i+1) rotate together; split/join the pairs of a row."""
    row = tl.program_id(0)
    pos = row % seq_len
    offs = row * stride_row + tl.arange(0, HEADS)[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    x = tl.load(q_ptr + offs).to(tl.float32)
    x1, x2 = tl.split(tl.reshape(x, (HEADS, HEAD_DIM // 2, 2)))
    cos = tl.load(cos_ptr + pos * stride_cos + tl.arange(0, HEAD_DIM // 2)).to(tl.float32)[None, :]
    sin = tl.load(sin_ptr + pos * stride_cos + tl.arange(0, HEAD_DIM // 2)).to(tl.float32)[None, :]
    y = tl.reshape(tl.join(x1 * cos - x2 * sin, x2 * cos + x1 * sin), (HEADS, HEAD_DIM))
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty))


@triton.jit
def swiglu_fwd(c_ptr, a_ptr, b_ptr, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    a = tl.load(a_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + cols, mask=mask, other=0)
    c = (a * tl.sigmoid(a)).to(b.dtype) * b
    tl.store(c_ptr + row * stride + cols, c, mask=mask)


@triton.jit
def swiglu_bwd(dc_ptr, a_ptr, b_ptr, stride, N, BLOCK: tl.constexpr):
    """da and db overwrite a and b (recomputing silu(a) instead of storing it)."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    dc = tl.load(dc_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    a = tl.load(a_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    sig = tl.sigmoid(a)
    silu = a * sig
    db = dc * silu
    da = dc * (silu * (1 - sig) + sig) * b
    tl.store(a_ptr + row * stride + cols, da.to(a_ptr.dtype.element_ty), mask=mask)
    tl.store(b_ptr + row * stride + cols, db.to(b_ptr.dtype.element_ty), mask=mask)


@triton.jit
def geglu_fwd(c_ptr, a_ptr, b_ptr, stride, N, BLOCK: tl.constexpr):
    """Exact (erf) GELU of a times b."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    a = tl.load(a_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    gelu = 0.5 * a * (1 + tl.math.erf(a * 0.7071067811865476))
    tl.store(c_ptr + row * stride + cols, (gelu * b).to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def geglu_bwd(dc_ptr, a_ptr, b_ptr, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    dc = tl.load(dc_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    a = tl.load(a_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    cdf = 0.5 * (1 + tl.math.erf(a * 0.7071067811865476))
    pdf = tl.exp(-0.5 * a * a) * 0.3989422804014327
    db = dc * a * cdf
    da = dc * b * (cdf + a * pdf)
    tl.store(a_ptr + row * stride + cols, da.to(a_ptr.dtype.element_ty), mask=mask)
    tl.store(b_ptr + row * stride + cols, db.to(b_ptr.dtype.element_ty), mask=mask)


@triton.jit
def sparsemax_fwd(y_ptr, x_ptr, stride, N, BLOCK: tl.constexpr):
    """Sort a row descending, find the support size k with a cumulative sum, threshold."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
    z = tl.sort(x, descending=True)
    z_safe = tl.where(cols < N, z, 0.0)
    cumsum = tl.cumsum(z_safe, axis=0)
    r = (cols + 1).to(tl.float32)
    support = (1 + r * z_safe > cumsum) & (cols < N)
    k = tl.max(tl.where(support, r, 0.0), axis=0)
    tau = (tl.sum(tl.where(support, z_safe, 0.0), axis=0) - 1) / k
    y = tl.maximum(x - tau, 0.0)
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def sparsemax_bwd(dx_ptr, dy_ptr, y_ptr, stride, N, BLOCK: tl.constexpr):
    """Gradient on the support: dy minus its mean over the support."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    y = tl.load(y_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    support = y > 0
    mean = tl.sum(tl.where(support, dy, 0.0), axis=0) / tl.sum(support.to(tl.float32), axis=0)
    dx = tl.where(support, dy - mean, 0.0)
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def dropout(y_ptr, x_ptr, n, p, seed, BLOCK: tl.constexpr):
    """Keep an element with probability 1-p (Philox stream of the element's offset), scaled."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    keep = tl.rand(seed, offs) > p
    y = tl.where(keep, x / (1 - p), 0.0)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
