"""GEMM families as run on Intel GPUs: split-K and stream-K with atomic epilogues,
persistent, grouped (pointer arrays), batched with tensors of pointers, int8; and
`gemm_tail`, not a corpus workload: the kernel of tests and benchmarks of its own.

Written after the structure of Intel's benchmark kernels and Triton's tutorials
(facts: tile swizzling, which accesses use block pointers, atomic epilogues).
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def _swizzle(tile_id, M, N, BM: tl.constexpr, BN: tl.constexpr, GROUP_M: tl.constexpr):
    """Grouped ordering: GROUP_M row tiles share their B columns in cache."""
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    per_group = GROUP_M * num_n
    first_m = (tile_id // per_group) * GROUP_M
    size_m = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (tile_id % per_group) % size_m
    pid_n = (tile_id % per_group) // size_m
    return pid_m, pid_n


@triton.jit
def _k_range(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, k_start, k_iters,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, ACC: tl.constexpr):
    """acc = A[pid_m, k_start:] @ B[k_start:, pid_n] over k_iters BK steps, with block pointers."""
    a = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, k_start), (BM, BK), (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (k_start, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=ACC)
    for _ in range(0, k_iters):
        acc += tl.dot(tl.load(a, boundary_check=(0, 1)), tl.load(b, boundary_check=(0, 1)), out_dtype=ACC)
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, (BK, 0))
    return acc


@triton.jit
def splitk_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT_K: tl.constexpr, GROUP_M: tl.constexpr):
    """program_id(1) takes one K slice; the slices meet in C through fp32 atomics."""
    pid_m, pid_n = _swizzle(tl.program_id(0), M, N, BM, BN, GROUP_M)
    pid_k = tl.program_id(1)
    k_per_split = tl.cdiv(K, SPLIT_K * BK)
    acc = _k_range(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, pid_k * k_per_split * BK,
                   k_per_split, BM, BN, BK, tl.float32)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.atomic_add(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def streamk_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, iters_per_program, extra_iters,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    """Stream-K's first wave: each program runs a contiguous range of MAC iterations across
    tile boundaries; a whole tile is stored, a partial one is added atomically."""
    pid = tl.program_id(0)
    iters_per_tile = tl.cdiv(K, BK)
    start = pid * iters_per_program + tl.minimum(pid, extra_iters)
    last = (pid + 1) * iters_per_program + tl.minimum(pid + 1, extra_iters)
    while start < last:
        into_tile = start % iters_per_tile
        end = tl.minimum(start + iters_per_tile - into_tile, last)
        pid_m, pid_n = _swizzle(start // iters_per_tile, M, N, BM, BN, GROUP_M)
        acc = _k_range(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, into_tile * BK, end - start,
                       BM, BN, BK, tl.float32)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
        mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        if into_tile == 0 and end % iters_per_tile == 0:
            tl.store(c_ptrs, acc, mask=mask)
        else:
            tl.atomic_add(c_ptrs, acc, mask=mask)
        start = end


@triton.jit
def persistent_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                    NUM_PROGS: tl.constexpr):
    """One program per execution unit, looping over output tiles."""
    num_tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    for tile_id in range(tl.program_id(0), num_tiles, NUM_PROGS):
        pid_m, pid_n = _swizzle(tile_id, M, N, BM, BN, GROUP_M)
        acc = _k_range(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, 0, tl.cdiv(K, BK),
                       BM, BN, BK, tl.float32)
        c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
        tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def grouped_gemm(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_sizes, group_lds, group_count,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, NUM_PROGS: tl.constexpr):
    """A list of independent f16 GEMMs (sizes and base addresses in device arrays), tiles
    dealt round-robin to a fixed number of programs."""
    tile = tl.program_id(0)
    first_tile = 0
    for g in range(0, group_count):
        m = tl.load(group_sizes + g * 3)
        n = tl.load(group_sizes + g * 3 + 1)
        k = tl.load(group_sizes + g * 3 + 2)
        num_n = tl.cdiv(n, BN)
        tiles = tl.cdiv(m, BM) * num_n
        while tile >= first_tile and tile < first_tile + tiles:
            lda = tl.load(group_lds + g * 3)
            ldb = tl.load(group_lds + g * 3 + 1)
            ldc = tl.load(group_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            pid_m = (tile - first_tile) // num_n
            pid_n = (tile - first_tile) % num_n
            offs_m = pid_m * BM + tl.arange(0, BM)
            offs_n = pid_n * BN + tl.arange(0, BN)
            offs_k = tl.arange(0, BK)
            a_ptrs = a_ptr + offs_m[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_n[None, :]
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BK)):
                a = tl.load(a_ptrs, mask=(offs_m[:, None] < m) & (offs_k[None, :] < k - kk * BK), other=0.0)
                b = tl.load(b_ptrs, mask=(offs_k[:, None] < k - kk * BK) & (offs_n[None, :] < n), other=0.0)
                acc += tl.dot(a, b)
                a_ptrs += BK
                b_ptrs += BK * ldb
            c_ptrs = c_ptr + offs_m[:, None] * ldc + offs_n[None, :]
            tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < m) & (offs_n[None, :] < n))
            tile += NUM_PROGS
        first_tile += tiles


@triton.jit
def batched_gemm_tensor_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_cb,
                            stride_cm, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """bmm with tensors of pointers: the batch on program_id(1), full tiles on K."""
    pid_m = tl.program_id(0) // tl.cdiv(N, BN)
    pid_n = tl.program_id(0) % tl.cdiv(N, BN)
    batch = tl.program_id(1).to(tl.int64)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + batch * stride_ab + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + batch * stride_bb + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] + k < K), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] + k < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    c_ptrs = c_ptr + batch * stride_cb + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def gemm_int8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    """int8 x int8 -> int32 accumulation and output."""
    pid_m, pid_n = _swizzle(tl.program_id(0), M, N, BM, BN, GROUP_M)
    acc = _k_range(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, 0, tl.cdiv(K, BK), BM, BN, BK,
                   tl.int32)
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc, boundary_check=(0, 1))


@triton.jit
def gemm_lowp(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    """f16/bf16 inputs, fp32 accumulation, output in C's (16-bit) type."""
    pid_m, pid_n = _swizzle(tl.program_id(0), M, N, BM, BN, GROUP_M)
    acc = _k_range(a_ptr, b_ptr, M, N, K, stride_am, stride_bk, pid_m, pid_n, 0, tl.cdiv(K, BK), BM, BN, BK,
                   tl.float32)
    c = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def gemm_tail(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """K // BK unmasked steps, then the loop's pointers used after it for a masked tail step (issue 13;
    tests/python/test_rlc_pointers_to_dot.py, benchmarks/raise_block_pointer.py)."""
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K // BK):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    rem = K % BK
    a = tl.load(a_ptrs, mask=offs_k[None, :] < rem, other=0.0)
    b = tl.load(b_ptrs, mask=offs_k[:, None] < rem, other=0.0)
    acc += tl.dot(a, b)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
