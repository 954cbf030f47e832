"""fla-core (flash-linear-attention): chunked and recurrent linear attention, delta rules, state-space
style recurrences (HGRN, RWKV, GLA/GSA), softmax attention (parallel, forgetting, native sparse),
fixed-length and varlen (`cu_seqlens`), forward and backward through the ops' autograd Functions.

fla detects the device through triton's active driver: under the fake PVC driver it takes its
Intel branches (`is_intel`, the shared-memory checks against PVC's 128 KB). Its kernels are
`@triton.autotune`d: each config of their lists is launched (a bounded spread, `max_configs`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .capture import Recorder
from .common import call as _call
from .common import grad_of

# The ops compiled with varlen too (cu_seqlens: a kernel/config of its own, IS_VARLEN=1).
VARLEN = ("chunk_gla", "chunk_gated_delta_rule", "fused_recurrent_gated_delta_rule", "chunk_rwkv7",
          "parallel_attn", "parallel_nsa", "chunk_simple_gla", "fused_recurrent_hgrn")


def _varlen_call(rec: Recorder, origin: str, fn: Callable[[], Any]) -> None:
    if origin.rsplit(" varlen", 1)[0] in VARLEN:
        _call(rec, origin, fn)

PACKAGE = "fla-core"


def launches(rec: Recorder) -> None:
    import torch
    import torch.nn.functional as F

    import fla.ops as ops

    g = torch.Generator().manual_seed(0)
    B, T, H, K, V = 1, 256, 2, 64, 64
    dt = torch.bfloat16

    def t(*shape: int, dtype: torch.dtype = dt, grad: bool = True) -> torch.Tensor:
        return torch.randn(*shape, generator=g, dtype=dtype).requires_grad_(grad)

    def logsig(*shape: int) -> torch.Tensor:
        return F.logsigmoid(torch.randn(*shape, generator=g, dtype=torch.float32)).requires_grad_(True)

    def beta() -> torch.Tensor:
        return torch.rand(B, T, H, generator=g, dtype=dt).requires_grad_(True)

    for varlen in (False, True):
        cu = torch.tensor([0, 100, 256], dtype=torch.long) if varlen else None
        tag = " varlen" if varlen else ""
        # varlen (cu_seqlens) only for a representative of each family: it doubles the set's compile time
        call = _call if not varlen else _varlen_call
        qkv = lambda k=K, v=V: (t(B, T, H, k), t(B, T, H, k), t(B, T, H, v))  # noqa: E731
        call(rec, f"chunk_gla{tag}", lambda: grad_of(ops.chunk_gla(*qkv(), logsig(B, T, H, K), cu_seqlens=cu)[0]))
        call(rec, f"fused_recurrent_gla{tag}", lambda: grad_of(ops.fused_recurrent_gla(*qkv(), gk=logsig(B, T, H, K), cu_seqlens=cu)[0]))
        call(rec, f"chunk_simple_gla{tag}", lambda: grad_of(ops.chunk_simple_gla(*qkv(), logsig(B, T, H), cu_seqlens=cu)[0]))
        call(rec, f"chunk_retention{tag}", lambda: grad_of(ops.chunk_retention(*qkv(), cu_seqlens=cu)[0]))
        if not varlen:  # no cu_seqlens in its signature
            call(rec, "chunk_linear_attn", lambda: grad_of(ops.chunk_linear_attn(*qkv())[0]))
        call(rec, f"chunk_delta_rule{tag}", lambda: grad_of(ops.chunk_delta_rule(*qkv(), beta(), cu_seqlens=cu)[0]))
        call(rec, f"fused_recurrent_delta_rule{tag}", lambda: grad_of(ops.fused_recurrent_delta_rule(*qkv(), beta(), cu_seqlens=cu)[0]))
        call(rec, f"chunk_gated_delta_rule{tag}", lambda: grad_of(ops.chunk_gated_delta_rule(
            *qkv(), logsig(B, T, H), beta(), cu_seqlens=cu)[0]))
        call(rec, f"chunk_gated_delta_rule K=V=128{tag}", lambda: grad_of(ops.chunk_gated_delta_rule(
            *qkv(128, 128), logsig(B, T, H), beta(), cu_seqlens=cu)[0]))
        call(rec, f"fused_recurrent_gated_delta_rule{tag}", lambda: ops.fused_recurrent_gated_delta_rule(
            *qkv(), logsig(B, T, H), beta(), cu_seqlens=cu))
        call(rec, f"chunk_comba{tag}", lambda: grad_of(ops.chunk_comba(*qkv(), t(B, T, H, K), logsig(B, T, H), beta(), cu_seqlens=cu)[0]))
        call(rec, f"chunk_dplr_delta_rule{tag}", lambda: grad_of(ops.chunk_dplr_delta_rule(
            *qkv(), t(B, T, H, K), t(B, T, H, K), logsig(B, T, H, K), cu_seqlens=cu)[0]))
        call(rec, f"chunk_rwkv6{tag}", lambda: grad_of(ops.chunk_rwkv6(*qkv(), logsig(B, T, H, K), t(H, K), cu_seqlens=cu)[0]))
        call(rec, f"chunk_rwkv7{tag}", lambda: grad_of(ops.chunk_rwkv7(
            *qkv(), logsig(B, T, H, K), t(B, T, H, K), t(B, T, H, K), cu_seqlens=cu)[0]))
        call(rec, f"fused_recurrent_hgrn{tag}", lambda: grad_of(ops.fused_recurrent_hgrn(
            t(B, T, 512), logsig(B, T, 512), cu_seqlens=cu)[0]))
        call(rec, f"chunk_lightning_attn{tag}", lambda: grad_of(ops.chunk_lightning_attn(*qkv(), 0, 12, cu_seqlens=cu)[0]))
        call(rec, f"chunk_gsa{tag}", lambda: grad_of(ops.chunk_gsa(*qkv(), t(B, T, H, 64), logsig(B, T, H, 64), cu_seqlens=cu)[0]))
        call(rec, f"parallel_attn{tag}", lambda: grad_of(ops.parallel_attn(*qkv(), cu_seqlens=cu)))
        call(rec, f"parallel_attn GQA head 128{tag}", lambda: grad_of(ops.parallel_attn(
            t(B, T, 8, 128), t(B, T, 2, 128), t(B, T, 2, 128), cu_seqlens=cu)))
        call(rec, f"parallel_forgetting_attn{tag}", lambda: grad_of(ops.parallel_forgetting_attn(*qkv(), logsig(B, T, H), cu_seqlens=cu)))
        call(rec, f"parallel_path_attn{tag}", lambda: grad_of(ops.parallel_path_attn(
            *qkv(), t(B, T, H, K), beta(), logsig(B, T, H), cu_seqlens=cu)[0]))
        call(rec, f"parallel_nsa{tag}", lambda: grad_of(ops.parallel_nsa(
            t(B, T, 16, K), t(B, T, 1, K), t(B, T, 1, V), t(B, T, 16), t(B, T, 16), t(B, T, 16),
            block_counts=4, block_size=32, window_size=0, cu_seqlens=cu)))
