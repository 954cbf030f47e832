"""Expected values from Triton's own interpreter (`TRITON_INTERPRET=1`) for corpus kernels.

Triton reads TRITON_INTERPRET when `triton` is first imported, so the kernels
run in a child process (`python -m xpu_passes.interp.reference IN OUT`) and the
rest of the process keeps the real compiler. The child needs torch (CPU build).
Triton 3.3's interpreter gets bf16 wrong (errors of 1e10): use f16/f32 here.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class Launch:
    """One launch of a corpus kernel (a function of `xpu_passes.corpus.KERNEL_MODULES`)."""

    kernel: str
    args: list[Any]  # NumPy arrays for pointers (f16/f32/ints), Python scalars
    grid: tuple[int, ...]
    constexprs: dict[str, int] = field(default_factory=dict)


class TritonInterpreterError(Exception):
    pass


def run_triton_interpreter(launches: list[Launch], timeout: float = 600) -> list[list[Any]]:
    """The arguments of each launch after Triton's interpreter ran it (arrays written in place)."""
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / "in.pkl", Path(d) / "out.pkl"
        src.write_bytes(pickle.dumps(launches))
        env = dict(os.environ, TRITON_INTERPRET="1")
        proc = subprocess.run(
            [sys.executable, "-m", "xpu_passes.interp.reference", str(src), str(dst)],
            env=env, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
        if proc.returncode != 0:
            raise TritonInterpreterError(f"Triton's interpreter failed:\n{proc.stderr[-4000:]}")
        return pickle.loads(dst.read_bytes())


def _patch_index(interpreter: Any) -> None:
    """Triton 3.3 turns 1-element arrays into ints with int(array), an error since NumPy 2.4."""
    original = interpreter._patch_lang_tensor

    def patch(tensor: Any) -> None:
        original(tensor)
        tensor.__index__ = lambda self: int(np.asarray(self.handle.data).reshape(-1)[0])

    interpreter._patch_lang_tensor = patch


def _child(src: Path, dst: Path) -> None:
    assert os.environ.get("TRITON_INTERPRET") == "1"
    import torch
    import triton.runtime.interpreter as interpreter

    from xpu_passes.corpus import kernel_function

    _patch_index(interpreter)

    out = []
    for launch in pickle.loads(src.read_bytes()):
        fn = kernel_function(launch.kernel)
        args = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in launch.args]
        for a in args:
            if isinstance(a, torch.Tensor) and a.dtype == torch.bfloat16:
                raise TritonInterpreterError("bf16 is wrong in Triton 3.3's interpreter; use f16/f32")
        fn[launch.grid](*args, **launch.constexprs)
        out.append([a.numpy() if isinstance(a, torch.Tensor) else a for a in args])
    dst.write_bytes(pickle.dumps(out))


if __name__ == "__main__":
    _child(Path(sys.argv[1]), Path(sys.argv[2]))
