"""The cases of `gemm_postop.py`: Intel's GEMM-with-post-op kernels, shapes and autotune
configurations, and what `--run` measures of one (a Problem: inputs, torch reference, FLOPs and
bytes, kernel arguments; its best Timing)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SHAPES = [(n, n, n) for n in (1024, 2048, 4096, 8192)] + [
    (1, 5120, 13824), (4, 4096, 12288), (512, 8192, 8192), (1024, 28672, 8192), (16384, 8192, 4096),
]
# (BM, BN, BK, warps, stages): Intel's autotune configurations.
CONFIGS = [(256, 256, 32, 32, 3), (256, 256, 32, 32, 2), (256, 128, 32, 32, 3), (64, 128, 32, 4, 3),
           (8, 512, 64, 32, 3), (8, 128, 64, 4, 3)]  # fmt: skip
DTYPES = ["bf16", "fp16"]  # of A and B: the kernels' dots and TOLERANCES are for 16-bit inputs
# Case name (as printed and as --only takes it) -> (corpus kernel, extra fp32 pointers).
KERNELS = {
    "gemm": ("gemm_block_ptr", ()),
    "gemm+add(block ptr)": ("gemm_add_block_ptr", ("d_ptr",)),
    "gemm+add(masked ptrs)": ("gemm_add_tensor_ptr", ("d_ptr",)),
    "gemm+gelu": ("gemm_gelu", ()),
    "exp+gemm": ("gemm_exp_preop", ()),
    "batched gemm": ("batched_gemm", ()),
    "gemm(ptr A/B)": ("gemm_tensor_ptr", ()),
}


BATCH = 4  # batch size of the batched GEMM case (Intel's batched shapes use 4)
TORCH_DTYPES = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}
# Inputs are exact in fp32 and accumulated in fp32: what differs is the summation order
# (and, for the exp pre-op, exp's last bit before rounding to the 16-bit type).
TOLERANCES = {"bf16": (1e-2, 1e-2), "fp16": (1e-2, 1e-3)}  # (atol, rtol)


@dataclass(frozen=True)
class Problem:
    """One --run measurement: a case of KERNELS at one shape (and batch) and dtype."""

    case: str
    dtype: str
    M: int
    N: int
    K: int
    batch: int = 1

    @property
    def kernel(self) -> str:
        return KERNELS[self.case][0]

    @property
    def has_d(self) -> bool:
        return "d_ptr" in KERNELS[self.case][1]

    @property
    def shape(self) -> str:
        return f"{self.batch}x" * (self.batch > 1) + f"{self.M}x{self.N}x{self.K}"

    def flops(self) -> int:
        return 2 * self.batch * self.M * self.N * self.K

    def bytes(self) -> int:
        """Compulsory traffic: A and B read, C written (fp32), D read (fp32) if added."""
        elt = 2  # bf16 / fp16
        per_batch = (self.M * self.K + self.K * self.N) * elt + self.M * self.N * 4 * (2 if self.has_d else 1)
        return self.batch * per_batch

    def make_inputs(self, device: str = "cpu", seed: int = 0) -> dict[str, Any]:
        """a, b (dtype), c (fp32, NaN so a kernel that skips a tile is caught) and d (fp32)."""
        import torch

        g = torch.Generator(device=device).manual_seed(seed)
        dtype = getattr(torch, TORCH_DTYPES[self.dtype])
        lead = (self.batch,) if self.batch > 1 else ()

        def randn(*shape: int) -> Any:
            return torch.randn(*lead, *shape, generator=g, device=device, dtype=torch.float32)

        out = {"a": randn(self.M, self.K).to(dtype), "b": randn(self.K, self.N).to(dtype),
               "c": torch.full((*lead, self.M, self.N), float("nan"), device=device)}
        if self.has_d:
            out["d"] = randn(self.M, self.N)
        return out

    def reference(self, x: dict[str, Any]) -> Any:
        """What the kernel computes, in fp32 with torch."""
        import torch

        a = x["a"]
        if self.case == "exp+gemm":
            a = torch.exp(a.float()).to(a.dtype)
        acc = torch.matmul(a.float(), x["b"].float())
        if self.has_d:
            acc = acc + x["d"]
        if self.case == "gemm+gelu":
            acc = torch.nn.functional.gelu(acc)  # the erf form, as the kernel
        return acc

    def kernel_args(self, arg_names: list[str], x: dict[str, Any]) -> list[Any]:
        """The kernel's runtime arguments in order (pointers, sizes, strides; no constexprs)."""
        values: dict[str, Any] = {"M": self.M, "N": self.N, "K": self.K}
        for t in ("a", "b", "c", "d"):
            if t in x:
                values[f"{t}_ptr"] = x[t]
                values[f"stride_{t}b"] = x[t].stride(0) if self.batch > 1 else 0
        values |= {"stride_am": x["a"].stride(-2), "stride_bk": x["b"].stride(-2), "stride_cm": x["c"].stride(-2)}
        if "d" in x:
            values["stride_dm"] = x["d"].stride(-2)
        return [values[n] for n in arg_names if n not in ("BM", "BN", "BK")]

    def grid(self, bm: int, bn: int) -> tuple[int, int]:
        return (-(-self.M // bm)) * (-(-self.N // bn)), self.batch


Shape = tuple[int, int, int]


def problems(dtypes: list[str], only: list[str] | None = None, shapes: list[Shape] | None = None) -> list[Problem]:
    out = []
    for case in KERNELS:
        if only and case not in only:
            continue
        for dtype in dtypes:
            for m, n, k in shapes or SHAPES:
                out.append(Problem(case, dtype, m, n, k, BATCH if case == "batched gemm" else 1))
    return out


def check(p: Problem, out: Any, ref: Any) -> str | None:
    """None if `out` matches torch within the dtype's tolerance, else what is wrong."""
    import torch

    atol, rtol = TOLERANCES[p.dtype]
    try:
        torch.testing.assert_close(out, ref, atol=atol, rtol=rtol)
    except AssertionError as e:  # torch's message: mismatched elements, greatest differences
        return "; ".join(line.strip() for line in str(e).splitlines()[1:] if line.strip())
    return None


@dataclass
class Timing:
    """The best configuration of one pipeline on one problem (ms None: none ran)."""

    config: str = "-"
    ms: float | None = None
    failures: dict[str, str] | None = None  # config -> why it did not run or was wrong

    def tflops(self, p: Problem) -> float:
        return p.flops() / (self.ms * 1e-3) / 1e12 if self.ms else 0.0

    def gbps(self, p: Problem) -> float:
        return p.bytes() / (self.ms * 1e-3) / 1e9 if self.ms else 0.0



def parse_shape(text: str) -> Shape:
    m, n, k = (int(v) for v in text.lower().split("x"))
    return m, n, k
