"""flag-gems (a Triton operator library): GEMM (mm, bmm, addmm), attention (SDPA causal/non-causal,
flash varlen with softcapping, paged KV with a block table, paged MLA decode), normalizations, softmax,
losses, per-token-group fp8 quantization, MoE routing and KV-cache writes.

flag-gems 4.2 knows no Intel vendor: it is loaded as its "nvidia" backend (GEMS_VENDOR, set around
its import only) with torch.cuda answering for the fake PVC, so its autotune lists are the nvidia
tune_configs.yaml ones (each a kernel/config, up to `max_configs`). Its `LibEntry` launcher caches
and runs compiled kernels itself: inside the capture it forwards to the kernel's `run` instead.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from .capture import Recorder
from .common import call, grad_of
from .fake_xpu import NAME, TORCH_PROPERTIES

PACKAGE = "flag-gems"


@contextlib.contextmanager
def _as_cuda() -> Iterator[None]:
    import torch

    c = torch.cuda
    patches: dict[str, Any] = dict(
        is_available=lambda: True, device_count=lambda: 1, current_device=lambda: 0,
        get_device_properties=lambda d=None: TORCH_PROPERTIES, get_device_capability=lambda d=None: (8, 0),
        get_device_name=lambda d=None: NAME, device=lambda d=None: contextlib.nullcontext(),
        set_device=lambda d: None, synchronize=lambda d=None: None,
    )
    saved = {k: getattr(c, k) for k in patches}
    saved_env = os.environ.get("GEMS_VENDOR")
    os.environ["GEMS_VENDOR"] = "nvidia"
    for k, v in patches.items():
        setattr(c, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(c, k, v)
        if saved_env is None:
            os.environ.pop("GEMS_VENDOR", None)
        else:
            os.environ["GEMS_VENDOR"] = saved_env


def load() -> None:
    """Import before the capture starts: its LibTuner must exist when the capture patches autotuners."""
    with _as_cuda():
        import flag_gems  # noqa: F401


def launches(rec: Recorder) -> None:
    import importlib

    with _as_cuda():
        libentry = importlib.import_module("flag_gems.utils.libentry")
        flash_api = importlib.import_module("flag_gems.ops.flash_api")
        flash_mla = importlib.import_module("flag_gems.fused.flash_mla")
        # Device checks and allocations CPU tensors cannot pass: `x.device.type == "cuda"` asserts, and
        # flash_mla's output allocated on the "cuda" device.
        saved = (libentry.LibEntry.run, flash_api.CHECK_DEVICE, flash_mla.device)
        libentry.LibEntry.run = lambda self, *args, **kwargs: self.fn.run(*args, **kwargs)
        flash_api.CHECK_DEVICE, flash_mla.device = (lambda x: None), "cpu"
        try:
            _launches(rec)
        finally:
            libentry.LibEntry.run, flash_api.CHECK_DEVICE, flash_mla.device = saved


def _launches(rec: Recorder) -> None:
    import torch

    import flag_gems.fused as Fu
    import flag_gems.ops as O

    g = torch.Generator().manual_seed(0)

    def t(*s: int, dt: torch.dtype = torch.float16, grad: bool = False) -> torch.Tensor:
        return torch.randn(*s, generator=g, dtype=dt).requires_grad_(grad)

    i32 = lambda *v: torch.tensor(v, dtype=torch.int32)  # noqa: E731
    for dt in (torch.float16, torch.bfloat16):
        d = str(dt).split(".")[-1]
        for m, n, k in ((256, 256, 512), (16, 4096, 4096), (4096, 4096, 64)):
            call(rec, f"mm {d} {m}x{n}x{k}", lambda: O.mm(t(m, k, dt=dt), t(k, n, dt=dt)))
        call(rec, f"bmm {d}", lambda: O.bmm(t(4, 256, 512, dt=dt), t(4, 512, 256, dt=dt)))
        call(rec, f"addmm {d}", lambda: O.addmm(t(256, dt=dt), t(256, 512, dt=dt), t(512, 256, dt=dt)))
        call(rec, f"mv {d}", lambda: O.mv(t(4096, 4096, dt=dt), t(4096, dt=dt)))
        for causal in (False, True):
            call(rec, f"sdpa {d} causal={causal}", lambda: grad_of(O.scaled_dot_product_attention(
                t(1, 8, 256, 128, dt=dt, grad=True), t(1, 8, 256, 128, dt=dt, grad=True),
                t(1, 8, 256, 128, dt=dt, grad=True), is_causal=causal)))
            call(rec, f"sdpa GQA head 64 {d} causal={causal}", lambda: O.scaled_dot_product_attention(
                t(1, 32, 256, 64, dt=dt), t(1, 8, 256, 64, dt=dt), t(1, 8, 256, 64, dt=dt), is_causal=causal,
                enable_gqa=True))
        for softcap in (0.0, 30.0):
            call(rec, f"flash varlen prefill paged {d} softcap={softcap}", lambda: O.flash_attn_varlen_func(
                t(512, 8, 128, dt=dt), t(40, 16, 8, 128, dt=dt), t(40, 16, 8, 128, dt=dt), 312, i32(0, 200, 512), 312,
                seqused_k=i32(200, 312), block_table=torch.arange(40, dtype=torch.int32).view(2, 20),
                causal=True, softcap=softcap))
            call(rec, f"flash paged decode {d} softcap={softcap}", lambda: O.flash_attn_varlen_func(
                t(4, 8, 128, dt=dt), t(64, 16, 8, 128, dt=dt), t(64, 16, 8, 128, dt=dt), 1, i32(0, 1, 2, 3, 4), 512,
                seqused_k=i32(100, 200, 300, 400), block_table=(torch.arange(128, dtype=torch.int32) % 64).view(4, 32),
                causal=True, softcap=softcap))
        call(rec, f"flash_mla paged {d}", lambda: Fu.flash_mla(
            t(2, 1, 16, 576, dt=dt), (torch.arange(16, dtype=torch.int32)).view(2, 8), t(16, 64, 1, 576, dt=dt),
            512, 64, 2, 1, i32(300, 500), 16, 1, 576, 512, True))
        call(rec, f"rms_norm {d}", lambda: O.rms_norm(t(4, 4096, dt=dt), [4096], t(4096, dt=dt)))
        call(rec, f"fused_add_rms_norm {d}", lambda: Fu.fused_add_rms_norm(t(4, 4096, dt=dt), t(4, 4096, dt=dt), [4096], t(4096, dt=dt)))
        call(rec, f"layer_norm {d}", lambda: grad_of(O.layer_norm(t(4, 4096, dt=dt, grad=True), [4096], t(4096, dt=dt, grad=True), t(4096, dt=dt, grad=True))))
        call(rec, f"group_norm {d}", lambda: grad_of(O.group_norm(t(2, 64, 256, dt=dt, grad=True), t(64, dt=dt, grad=True), t(64, dt=dt, grad=True), 2, 64, 256, 8, 1e-5)))
        call(rec, f"softmax {d}", lambda: grad_of(O.softmax(t(4, 32000, dt=dt, grad=True), -1)))
        call(rec, f"log_softmax {d}", lambda: grad_of(O.log_softmax(t(4, 32000, dt=dt, grad=True), -1)))
        call(rec, f"cross_entropy {d}", lambda: grad_of(Fu.cross_entropy_loss(t(4, 32000, dt=dt, grad=True), torch.randint(0, 32000, (4,), generator=g))))
        call(rec, f"cross_entropy smoothing {d}", lambda: grad_of(Fu.cross_entropy_loss(
            t(4, 32000, dt=dt, grad=True), torch.randint(0, 32000, (4,), generator=g), label_smoothing=0.1)))
        call(rec, f"per_token_group_quant_fp8 {d}", lambda: O.per_token_group_quant_fp8(t(16, 4096, dt=dt), 128))
        call(rec, f"silu_and_mul {d}", lambda: Fu.silu_and_mul(t(4, 4096, dt=dt), t(4, 4096, dt=dt)))
        call(rec, f"rotary {d}", lambda: Fu.apply_rotary_pos_emb(
            t(1, 16, 32, 128, dt=dt), t(1, 16, 8, 128, dt=dt), t(16, 64, dt=dt), t(16, 64, dt=dt)))
        call(rec, f"reshape_and_cache_flash {d}", lambda: Fu.reshape_and_cache_flash(
            t(8, 8, 128, dt=dt), t(8, 8, 128, dt=dt), t(16, 16, 8, 128, dt=dt), t(16, 16, 8, 128, dt=dt),
            torch.arange(8, dtype=torch.long), "auto", torch.ones(1), torch.ones(1)))
    call(rec, "topk_softmax", lambda: Fu.topk_softmax(
        torch.empty(16, 2), torch.empty(16, 2, dtype=torch.int32), torch.empty(16, 2, dtype=torch.int32), t(16, 64, dt=torch.float32)))
    call(rec, "moe_align_block_size", lambda: Fu.moe_align_block_size(torch.randint(0, 64, (16, 2), generator=g, dtype=torch.int32), 64, 64))
