"""What the plugin's tests share: the oracle mark, and a corpus kernel compiled through
`triton.compile` for PVC (with whatever pipeline the plugin has switched in)."""

from __future__ import annotations

from typing import Any

import pytest

from xpu_passes.integration import oracle


def needs_triton(test: Any) -> Any:
    """Oracle tests: marked `triton`, skipped without triton-xpu."""
    return pytest.mark.triton(pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")(test))


def compile_kernel(kernel: str = "gemm_add_tensor_ptr", config: str = "256x256x32-w32-s3") -> Any:
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.corpus import find

    spec, cfg = find(kernel, config)
    src = ASTSource(spec.fn, spec.signature(), dict(cfg.constexprs), spec.attrs())
    opts = dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, grf_mode="large")
    return triton.compile(src, target=oracle.pvc_target(), options=opts)
