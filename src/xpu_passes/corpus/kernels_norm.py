"""Normalizations as LLM training runs them: layer-norm backward (with the lock that
serializes partial weight gradients), RMS norm forward/backward, group norm forward/backward.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def layer_norm_bwd_dx(dx_ptr, dy_ptr, dw_ptr, db_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, lock_ptr, stride, N,
                      GROUP: tl.constexpr, BLOCK: tl.constexpr):
    """dx of one row; its dw/db contribution added to one of GROUP partial rows under a spin lock."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = tl.where(mask, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = dy.to(w.dtype)
    lock_id = row % GROUP
    lock = lock_ptr + lock_id
    count = lock_ptr + GROUP + lock_id
    dw_ptrs = dw_ptr + lock_id * N + cols
    db_ptrs = db_ptr + lock_id * N + cols
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        partial_dw += tl.load(dw_ptrs, mask=mask)
        partial_db += tl.load(db_ptrs, mask=mask)
    tl.store(dw_ptrs, partial_dw, mask=mask)
    tl.store(db_ptrs, partial_db, mask=mask)
    tl.debug_barrier()  # every lane's store before the release
    tl.atomic_xchg(lock, 0)


@triton.jit
def layer_norm_bwd_dwdb(dw_ptr, db_ptr, final_dw_ptr, final_db_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """Sum the GROUP partial rows of dw/db, BN columns per program."""
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    dw = tl.zeros((BM, BN), dtype=tl.float32)
    db = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(0, M, BM):
        rows = i + tl.arange(0, BM)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(dw_ptr + offs, mask=mask, other=0.0)
        db += tl.load(db_ptr + offs, mask=mask, other=0.0)
    tl.store(final_dw_ptr + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(final_db_ptr + cols, tl.sum(db, axis=0), mask=cols < N)


@triton.jit
def rms_norm_fwd(y_ptr, x_ptr, w_ptr, rstd_ptr, stride, n_rows, N, eps, BLOCK: tl.constexpr):
    """A row per program; grids are rounded up, so programs past the last row return at once."""
    row = tl.program_id(0)
    if row >= n_rows:
        return
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0).to(tl.float32)
    rstd = tl.math.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_bwd(dx_ptr, dy_ptr, x_ptr, w_ptr, rstd_ptr, dw_ptr, stride, n_rows, N, rows_per_program,
                 BLOCK: tl.constexpr):
    """dx row by row; each program keeps its rows' dw in registers and stores it once."""
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0).to(tl.float32)
    dw = tl.zeros((BLOCK,), dtype=tl.float32)
    start = pid * rows_per_program
    for row in range(start, tl.minimum(start + rows_per_program, n_rows)):
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
        dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0).to(tl.float32)
        rstd = tl.load(rstd_ptr + row)
        xhat = x * rstd
        wdy = w * dy
        dx = rstd * (wdy - xhat * (tl.sum(wdy * xhat, axis=0) / N))
        tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw += dy * xhat
    tl.store(dw_ptr + pid * N + cols, dw, mask=mask)


@triton.jit
def rms_norm_block_fwd(y_ptr, x_ptr, w_ptr, rstd_ptr, stride, n_rows, N, eps,
                       BLOCK_ROW: tl.constexpr, BLOCK: tl.constexpr):
    """BLOCK_ROW rows per program (short rows, many of them): a 2D tile reduced along its rows."""
    rows = tl.program_id(0) * BLOCK_ROW + tl.arange(0, BLOCK_ROW)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0).to(tl.float32)
    rstd = tl.math.rsqrt(tl.sum(x * x, axis=1) / N + eps)
    tl.store(rstd_ptr + rows, rstd, mask=rows < n_rows)
    y = x * rstd[:, None] * w[None, :]
    tl.store(y_ptr + rows[:, None] * stride + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_block_bwd(dx_ptr, dy_ptr, x_ptr, w_ptr, rstd_ptr, dw_ptr, stride, n_rows, N,
                       BLOCK_ROW: tl.constexpr, BLOCK: tl.constexpr):
    """dx of BLOCK_ROW rows; the program's partial dw (a column sum) stored once."""
    rows = tl.program_id(0) * BLOCK_ROW + tl.arange(0, BLOCK_ROW)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < N)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0).to(tl.float32)
    rstd = tl.load(rstd_ptr + rows, mask=rows < n_rows, other=0)
    xhat = x * rstd[:, None]
    wdy = w[None, :] * dy
    c = tl.sum(wdy * xhat, axis=1) / N
    dx = rstd[:, None] * (wdy - xhat * c[:, None])
    tl.store(dx_ptr + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.store(dw_ptr + tl.program_id(0) * N + cols, tl.sum(dy * xhat, axis=0), mask=cols < N)


@triton.jit
def group_norm_fwd(y_ptr, x_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, C, HW, groups, eps,
                   CH: tl.constexpr, BLOCK: tl.constexpr):
    """Program (sample, group): statistics over CH channels x HW, then per-channel affine."""
    pid = tl.program_id(0)
    g = pid % groups
    base = pid.to(tl.int64) * CH * HW
    ch = tl.arange(0, CH)
    offs = tl.arange(0, BLOCK)
    s = tl.zeros((CH, BLOCK), dtype=tl.float32)
    sq = tl.zeros((CH, BLOCK), dtype=tl.float32)
    for i in range(0, HW, BLOCK):
        mask = (i + offs[None, :]) < HW
        x = tl.load(x_ptr + base + ch[:, None] * HW + i + offs[None, :], mask=mask, other=0.0).to(tl.float32)
        s += x
        sq += x * x
    mean = tl.sum(tl.sum(s, axis=1), axis=0) / (CH * HW)
    var = tl.sum(tl.sum(sq, axis=1), axis=0) / (CH * HW) - mean * mean
    rstd = tl.math.rsqrt(var + eps)
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, rstd)
    w = tl.load(w_ptr + g * CH + ch).to(tl.float32)
    b = tl.load(b_ptr + g * CH + ch).to(tl.float32)
    for i in range(0, HW, BLOCK):
        mask = (i + offs[None, :]) < HW
        ptrs = base + ch[:, None] * HW + i + offs[None, :]
        x = tl.load(x_ptr + ptrs, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w[:, None] + b[:, None]
        tl.store(y_ptr + ptrs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def group_norm_bwd(dx_ptr, dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, C, HW, groups,
                   CH: tl.constexpr, BLOCK: tl.constexpr):
    """dx of one (sample, group); per-(sample, channel) dw/db partials, summed over samples later."""
    pid = tl.program_id(0)
    g = pid % groups
    base = pid.to(tl.int64) * CH * HW
    ch = tl.arange(0, CH)
    offs = tl.arange(0, BLOCK)
    mean = tl.load(mean_ptr + pid)
    rstd = tl.load(rstd_ptr + pid)
    w = tl.load(w_ptr + g * CH + ch).to(tl.float32)
    dyx = tl.zeros((CH, BLOCK), dtype=tl.float32)
    dys = tl.zeros((CH, BLOCK), dtype=tl.float32)
    for i in range(0, HW, BLOCK):
        mask = (i + offs[None, :]) < HW
        ptrs = base + ch[:, None] * HW + i + offs[None, :]
        x = tl.load(x_ptr + ptrs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + ptrs, mask=mask, other=0.0).to(tl.float32)
        dyx += tl.where(mask, dy * (x - mean) * rstd, 0.0)
        dys += dy
    dw = tl.sum(dyx, axis=1)
    db = tl.sum(dys, axis=1)
    tl.store(dw_ptr + pid * CH + ch, dw)
    tl.store(db_ptr + pid * CH + ch, db)
    c1 = tl.sum(dw * w, axis=0) / (CH * HW)
    c2 = tl.sum(db * w, axis=0) / (CH * HW)
    for i in range(0, HW, BLOCK):
        mask = (i + offs[None, :]) < HW
        ptrs = base + ch[:, None] * HW + i + offs[None, :]
        x = tl.load(x_ptr + ptrs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + ptrs, mask=mask, other=0.0).to(tl.float32)
        xhat = (x - mean) * rstd
        dx = (dy * w[:, None] - (xhat * c1 + c2)) * rstd
        tl.store(dx_ptr + ptrs, dx.to(dx_ptr.dtype.element_ty), mask=mask)
