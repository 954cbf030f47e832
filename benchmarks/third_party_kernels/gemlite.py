"""gemlite (quantized GEMM/GEMV for LLM inference): A16W{8,4,2,1} with group scales and zeros, A8W8
(int8 and fp8 with channel-wise scales), for each of its matmul types (GEMV, GEMV_SPLITK,
GEMV_REVSPLITK, GEMM_SPLITK, GEMM) through `GemLiteLinearTriton.forward_manual`.

Its `triton.autotune` lists ("fast" settings) are pruned by its own pruner against the device's
shared memory (PVC's 128 KB under the fake driver); each surviving config is a kernel/config (up to
`max_configs`, spread). gemlite reads the CUDA device's name at import to pick a tuned config file;
with no CUDA device it is told PVC's name (no file matches: no cached config, its autotune lists).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .capture import Recorder
from .common import call
from .fake_xpu import NAME, TORCH_PROPERTIES

PACKAGE = "gemlite"


@contextlib.contextmanager
def _cuda_name() -> Iterator[None]:
    import torch

    saved = torch.cuda.get_device_properties
    torch.cuda.get_device_properties = lambda device=None: TORCH_PROPERTIES  # type: ignore[assignment]
    try:
        yield
    finally:
        torch.cuda.get_device_properties = saved  # type: ignore[assignment]


def launches(rec: Recorder) -> None:
    import torch

    with _cuda_name():
        import gemlite  # noqa: F401  (its import-time device query)
        from gemlite.core import GemLiteLinearTriton
        from gemlite.dtypes import DType
    assert NAME
    g = torch.Generator().manual_seed(0)
    K, N = 4096, 4096
    cases = [(nbits, gs, DType.FP16, DType.FP16) for nbits in (8, 4, 2, 1) for gs in (64, 128)]
    cases += [(4, 128, DType.BF16, DType.BF16)]
    for nbits, gs, din, dout in cases:
        layer = GemLiteLinearTriton(nbits, gs, K, N, input_dtype=din, output_dtype=dout)
        dt = torch.float16 if din == DType.FP16 else torch.bfloat16
        wq = torch.randint(0, 2**nbits, (N, K), generator=g, dtype=torch.uint8)
        scales = torch.rand(N, K // gs, generator=g, dtype=dt)
        zeros = torch.rand(N, K // gs, generator=g, dtype=dt)
        call(rec, f"pack W{nbits} g{gs}", lambda: layer.pack(wq, scales, zeros, None))
        for mtype, m in (("GEMV", 1), ("GEMV_SPLITK", 1), ("GEMV_REVSPLITK", 1), ("GEMM_SPLITK", 16), ("GEMM", 128)):
            x = torch.randn(m, K, generator=g, dtype=dt)
            call(rec, f"A16W{nbits} g{gs} {din.name} {mtype} M={m}", lambda: layer.forward_manual(x, mtype))
    # A8W8: int8 / fp8 weights and activations, channel-wise scales (group_size None)
    for din, wdt in ((DType.INT8, torch.int8), (DType.FP8, torch.float8_e4m3fn)):
        call(rec, f"A8W8 {din.name}", lambda: _a8w8(rec, GemLiteLinearTriton, din, wdt, g))


def _a8w8(rec: Recorder, cls: type, din: object, wdt: object, g: object) -> None:
    import torch

    from gemlite.dtypes import DType

    K, N = 4096, 4096
    layer = cls(8, None, K, N, input_dtype=din, output_dtype=DType.FP16, scaled_activations=True)
    w = torch.randint(-8, 8, (N, K), generator=g).to(wdt)
    layer.pack(w, torch.rand(1, N, generator=g, dtype=torch.float16), None, None)
    for mtype, m in (("GEMV", 1), ("GEMM_SPLITK", 16), ("GEMM", 128)):
        rec.origin = f"A8W8 {getattr(din, 'name', din)} {mtype} M={m}"
        layer.forward_manual(torch.randn(m, K, generator=g).to(wdt), mtype)
