"""What the per-library modules share: calling a library entry point under a recorder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .capture import Recorder


def call(rec: Recorder, origin: str, fn: Callable[[], Any]) -> None:
    """Run `fn` (a library call on CPU tensors) with launches recorded under `origin`; a failure of
    the library's own Python on the CPU is noted, not fatal."""
    rec.origin = origin
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - listed as not captured, with the reason
        rec.failures.append((origin, f"{type(e).__name__}: {str(e).strip().splitlines()[0][:200] if str(e).strip() else ''}"))
    finally:
        rec.origin = ""


def grad_of(out: Any) -> None:
    """Backward through a library's autograd Function (its backward kernels are launched)."""
    import torch

    outs = out if isinstance(out, (tuple, list)) else (out,)
    outs = [o for o in outs if isinstance(o, torch.Tensor) and o.requires_grad]
    torch.autograd.backward(outs, [torch.ones_like(o) for o in outs])
