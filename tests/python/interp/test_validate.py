"""Corpus kernels at small ragged shapes: our interpreter against Triton's, and across passes.

Each kernel is compiled for PVC on the CPU at a small tile config with f16/f32
data (Triton 3.3's interpreter is wrong on bf16). Its TTIR, run by our
interpreter, must match Triton's own interpreter (`TRITON_INTERPRET=1`, in a
child process). The native TTGIR stages, and the TTGIR after each of our passes,
must then give exactly the TTIR's values. A deliberately broken copy of a pass
must be caught on a ragged shape.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i32
from xdsl.rewriter import Rewriter

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.interp import Inputs, run_kernel, validate

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

M, N, K = 40, 24, 40  # ragged against 32x32x16 tiles
LDA, LDB, LDC = 48, 32, 32  # row strides: multiples of 16 (the kernels are specialized so), wider than the rows


@dataclass
class Case:
    kernel: str
    dtypes: dict[str, str]
    constexprs: dict[str, int]
    make: Callable[[np.random.Generator], tuple[list[Any], tuple[int, ...]]]
    floats: tuple[str, ...] = ()
    num_warps: int = 4
    rtol: float = 2e-3  # ours vs Triton's interpreter: summation order and libm differ
    stages: dict[str, str] = field(default_factory=dict)
    function: str = ""  # the corpus function when `kernel` names a variant of it (default: `kernel`)


def _f16(rng: np.random.Generator, n: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(n) * scale).astype(np.float16)


def _f32(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.standard_normal(n).astype(np.float32)


def _gemm_args(add: bool, m: int = M, n: int = N, k: int = K) -> Callable[[np.random.Generator], tuple[list[Any], tuple[int, ...]]]:
    def make(rng: np.random.Generator) -> tuple[list[Any], tuple[int, ...]]:
        a, b = _f16(rng, m * LDA, 0.5), _f16(rng, k * LDB, 0.5)
        c = np.full(m * LDC, -7.0, np.float32)  # sentinel: stores outside the tile would show
        ptrs = [a, b, c] + ([_f32(rng, m * LDC)] if add else [])
        strides = [LDA, LDB, LDC] + ([LDC] if add else [])
        return ptrs + [m, n, k] + strides, (-(-m // 32) * -(-n // 32),)

    return make


def _batched(rng: np.random.Generator) -> tuple[list[Any], tuple[int, ...]]:
    batch = 2
    a, b = _f16(rng, batch * M * LDA, 0.5), _f16(rng, batch * K * LDB, 0.5)
    c = np.full(batch * M * LDC, -7.0, np.float32)
    return [a, b, c, M, N, K, M * LDA, LDA, K * LDB, LDB, M * LDC, LDC], (2, batch)


def _attention(rng: np.random.Generator) -> tuple[list[Any], tuple[int, ...]]:
    n_ctx, head = 64, 16
    q, k, v = (_f16(rng, n_ctx * head) for _ in range(3))
    o = np.zeros(n_ctx * head, np.float16)
    return [q, k, v, o, 0.5, n_ctx, head, head, head, head], (n_ctx // 16,)


def _softmax(rng: np.random.Generator) -> tuple[list[Any], tuple[int, ...]]:
    rows, stride, cols = 5, 64, 50
    x = _f32(rng, rows * stride)
    y = np.full(rows * stride, -7.0, np.float32)
    return [y, x, stride, stride, cols], (rows,)


def _layer_norm(rng: np.random.Generator) -> tuple[list[Any], tuple[int, ...]]:
    rows, stride, n = 4, 64, 50
    x = _f32(rng, rows * stride)
    y = np.full(rows * stride, -7.0, np.float32)
    return [x, y, _f32(rng, n), _f32(rng, n), stride, n, 1e-5], (rows,)


_AB = {"a_ptr": "fp16", "b_ptr": "fp16", "c_ptr": "fp32"}
_TILE = {"BM": 32, "BN": 32, "BK": 16}
CASES = [
    Case("gemm_block_ptr", _AB, _TILE, _gemm_args(False)),
    Case("gemm_add_block_ptr", {**_AB, "d_ptr": "fp32"}, _TILE, _gemm_args(True)),
    Case("gemm_add_tensor_ptr", {**_AB, "d_ptr": "fp32"}, _TILE, _gemm_args(True)),
    Case("gemm_gelu", _AB, _TILE, _gemm_args(False)),
    Case("gemm_exp_preop", _AB, _TILE, _gemm_args(False)),
    Case("gemm_tensor_ptr", _AB, _TILE, _gemm_args(False)),
    Case("batched_gemm", _AB, _TILE, _batched),
    Case(
        "flash_attention_fwd", {"q_ptr": "fp16", "k_ptr": "fp16", "v_ptr": "fp16", "o_ptr": "fp16"},
        {"BM": 16, "BN": 16, "HEAD": 16}, _attention, floats=("sm_scale",), rtol=1e-2,
    ),
    Case("softmax", {"out_ptr": "fp32", "in_ptr": "fp32"}, {"BLOCK": 64}, _softmax),
    Case(
        "layer_norm_fwd", {"x_ptr": "fp32", "y_ptr": "fp32", "w_ptr": "fp32", "b_ptr": "fp32"},
        {"BLOCK": 16}, _layer_norm, floats=("eps",),
    ),
]  # fmt: skip
from corpus_cases import FRONTEND_GAPS, WORKLOAD_CASES  # noqa: E402  (the workload families: tests/python/corpus_cases.py)

from xpu_passes.frontend.diagnostics import TTGIRError  # noqa: E402

CASES += [Case(**kw) for kw in WORKLOAD_CASES]
IDS = [
    pytest.param(c.kernel, marks=pytest.mark.xfail(strict=True, raises=TTGIRError, reason=FRONTEND_GAPS[c.kernel]))
    if c.kernel in FRONTEND_GAPS else c.kernel
    for c in CASES
]  # fmt: skip

# Stages read from triton-xpu's pipeline: the TTIR from its front end and the one it hands to make_ttgir, the TTGIR
# before its MaterializeBlockPointer and before its last RemoveLayoutConversions, the final TTGIR.
MBP = "tritonintelgpu-materialize-block-pointer"
RTP = "tritonintelgpu-rewrite-tensor-pointer"
RLC = "tritonintelgpu-remove-layout-conversions"


def _compile(case: Case) -> dict[str, str]:
    from xpu_passes.corpus import Config, KernelSpec, make_ttir_module

    spec = KernelSpec(case.kernel, case.dtypes, case.floats, function=case.function)
    mod, opts, backend = make_ttir_module(spec, Config(case.constexprs, case.num_warps, 2))
    stages = {"ttir-frontend": str(mod)}  # before inlining: tt.call of the kernels' helpers
    oracle.run_steps(mod, oracle.native_ttir_steps(opts))
    stages["ttir"] = str(mod)
    dumps: list[tuple[str, str]] = []
    oracle.run_steps(mod, oracle.native_ttgir_steps(opts, backend.properties), lambda n, t: dumps.append((n, t)))
    stages["ttgir-before-mbp"] = next(t for n, t in dumps if n == MBP)
    stages["ttgir-before-last-rlc"] = [t for n, t in dumps if n == RLC][-1]
    stages["ttgir-final"] = str(mod)
    return stages


@functools.cache
def _prepared() -> dict[str, tuple[Case, Inputs, list[Any]]]:
    """Every case compiled, its inputs, and Triton's interpreter's outputs (one child process)."""
    from xpu_passes.interp.reference import Launch, run_triton_interpreter

    out: dict[str, tuple[Case, Inputs, list[Any]]] = {}
    launches = []
    for i, case in enumerate(CASES):
        case.stages = _compile(case)
        args, grid = case.make(np.random.default_rng(i))
        inputs = Inputs(args, grid)
        launches.append(Launch(case.function or case.kernel, inputs.copy(), grid, case.constexprs))
        out[case.kernel] = (case, inputs, [])
    for case, result in zip(CASES, run_triton_interpreter(launches)):
        out[case.kernel][2].extend(result)
    return out


def _module(text: str, ctx: Context | None = None) -> ModuleOp:
    return parse_module(ctx or make_context(), text, "corpus.mlir").module


def _run(text: str, inputs: Inputs) -> list[Any]:
    args = inputs.copy()
    run_kernel(_parsed(text), args, inputs.grid)
    return args


@pytest.mark.parametrize("kernel", IDS)
def test_ttir_matches_triton_interpreter(kernel: str) -> None:
    case, inputs, expected = _prepared()[kernel]
    got = _run(case.stages["ttir"], inputs)
    wrote = False
    for i, (e, g, before) in enumerate(zip(expected, got, inputs.args)):
        if not isinstance(e, np.ndarray):
            continue
        wrote |= not np.array_equal(e, before)
        scale = max(1.0, float(np.abs(e.astype(np.float64)).max()))
        np.testing.assert_allclose(g, e, rtol=case.rtol, atol=case.rtol * scale, err_msg=f"buffer {i}")
        # Sentinels outside the stored tiles stay bit-identical.
        untouched = e == before
        np.testing.assert_array_equal(g[untouched], e[untouched], err_msg=f"buffer {i} outside the stores")
    assert wrote, "the kernel stored nothing: the comparison would be vacuous"


@pytest.mark.parametrize("stage", ["ttir-frontend", "ttgir-before-mbp", "ttgir-before-last-rlc", "ttgir-final"])
@pytest.mark.parametrize("kernel", IDS)
def test_native_ttgir_stages_equal_ttir(kernel: str, stage: str) -> None:
    case, inputs, _ = _prepared()[kernel]
    # triton-combine folds `acc + dot(a, b, 0)` into `dot(a, b, acc)`: one rounding less, so the
    # front end's TTIR is equal up to an ulp; every later stage must be bit-identical.
    tol = 1e-6 if stage == "ttir-frontend" else 0.0
    r = validate(_parsed(case.stages["ttir"]), _parsed(case.stages[stage]), inputs, rtol=tol, atol=tol)
    assert r.ok, f"{kernel} {stage}: {r}"


def _apply(text: str, passes: list[str]) -> tuple[ModuleOp, ModuleOp]:
    from xdsl.passes import PassPipeline

    from xpu_passes.transforms import load_all

    before = _parsed(text)  # shared: neither validation nor interpretation changes a module
    after = before.clone()
    PassPipeline.parse_spec(load_all(), ",".join(passes)).apply(_CTX, after)
    return before, after


_CTX = make_context()


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> ModuleOp:
    return _module(text, _CTX)


OUR_PASSES = {
    "mbp": ("ttgir-before-mbp", [MBP]),
    "rtp": ("ttgir-before-mbp", [RTP]),
    "rtp-unguarded": ("ttgir-before-mbp", [RTP + "{guard=false}"]),
    "rlc": ("ttgir-before-last-rlc", [RLC]),
    "pipeline": ("ttgir-before-mbp", [RLC, MBP, RTP + "{guard=false}", RLC]),
}


@pytest.mark.parametrize("passes", list(OUR_PASSES))
@pytest.mark.parametrize("kernel", IDS)
def test_our_passes_preserve_values(kernel: str, passes: str) -> None:
    case, inputs, _ = _prepared()[kernel]
    stage, names = OUR_PASSES[passes]
    before, after = _apply(case.stages[stage], names)
    if "guard=false" in names[-1]:  # the rewrite really happened: no block pointer is left
        assert not any(isinstance(op, tt.MakeTensorPtrOp) for op in after.walk())
    r = validate(before, after, inputs)
    assert r.ok, f"{kernel} after {names}: {r}"


# ---------------------------------------------------------------- planted bugs


def _drop_masks(module: ModuleOp) -> int:
    """A broken rewrite: loads lose their mask and `other` (what RTP must generate)."""
    n = 0
    for op in list(module.walk()):
        if isinstance(op, tt.LoadOp) and op.mask is not None:
            props = {k: v for k, v in op.properties.items() if k != "operandSegmentSizes"}
            new = tt.LoadOp.build(operands=[op.ptr, [], []], result_types=[op.result.type], properties=props)
            Rewriter.replace_op(op, new)
            n += 1
    return n


def _flip_boundary_check(module: ModuleOp) -> int:
    """A broken rewrite: block-pointer stores checking rows and columns check only columns."""
    n = 0
    for op in module.walk():
        if isinstance(op, tt.StoreOp) and op.boundary_check == (0, 1):
            op.properties["boundaryCheck"] = DenseArrayBase.from_list(i32, [1])
            n += 1
    return n


@pytest.mark.parametrize(
    "kernel, bug, error",
    [
        # Ragged K: the unmasked reads of B go past its last row, out of the buffer.
        ("gemm_add_block_ptr", "drop-masks-after-rtp", "out-of-bounds load: buffer 1"),
        # Ragged M: the last row tile stores past C's last row, out of the buffer.
        ("gemm_block_ptr", "flip-boundary-check", "out-of-bounds store: buffer 2"),
    ],
)
def test_planted_bug_is_caught(kernel: str, bug: str, error: str) -> None:
    case, inputs, _ = _prepared()[kernel]
    # A copy of the pipeline step with the bug planted after the real pass's rewrite.
    real = RTP + "{guard=false}" if bug == "drop-masks-after-rtp" else MBP
    before, after = _apply(case.stages["ttgir-before-mbp"], [real])
    assert validate(before, after, inputs).ok  # the real pass is right
    broken = _drop_masks(after) if bug == "drop-masks-after-rtp" else _flip_boundary_check(after)
    assert broken > 0
    r = validate(before, after, inputs)
    assert not r.ok and r.error is not None and error in r.error, str(r)
    # With room after every buffer the accesses succeed and C differs.
    rng = np.random.default_rng(5)
    padded = [np.concatenate([a, rng.standard_normal(4096).astype(a.dtype)]) if isinstance(a, np.ndarray) else a
              for a in inputs.args]  # fmt: skip
    r = validate(before, after, Inputs(padded, inputs.grid))
    assert r.mismatch is not None and r.mismatch.buffer == 2, str(r)
    # The same bug on a shape that is a multiple of the tiles goes unseen: why the shapes are ragged.
    args, grid = _gemm_args("add" in kernel, 64, 32, 32)(np.random.default_rng(0))
    assert validate(before, after, Inputs(args, grid)).ok


def test_verify_semantics_spec_names_kernel_arguments() -> None:
    """The CLI's spec names arguments as the kernel's source does (the TTIR's location points at it)."""
    from xpu_passes.interp.validate import argument_names, validate_spec
    from xpu_passes.interp.core import pick_function

    case, _, _ = _prepared()["gemm_block_ptr"]
    before, after = _apply(case.stages["ttgir-before-mbp"], [RTP + "{guard=false}"])
    assert argument_names(pick_function(before, None)) == [
        "a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm",
    ]  # fmt: skip
    spec = f"a_ptr={M * LDA},b_ptr={K * LDB},c_ptr={M * LDC},M={M},N={N},K={K},stride_am={LDA},stride_bk={LDB},stride_cm={LDC},grid=2"
    r = validate_spec(before, after, spec)
    assert r.ok and r.compared == M * LDA + K * LDB + M * LDC, str(r)
    _drop_masks(after)
    assert "out-of-bounds load" in str(validate_spec(before, after, spec))
    with pytest.raises(ValueError, match="unknown kernel argument 'stride_x'; names: a_ptr, b_ptr"):
        validate_spec(before, after, "stride_x=3")


@pytest.mark.parametrize("kernel", IDS)
def test_every_registered_pass_preserves_values(kernel: str) -> None:
    """Passes added by others are checked too: each alone, on the TTIR and two TTGIR stages."""
    from xpu_passes.transforms import load_all

    case, inputs, _ = _prepared()[kernel]
    failures = []
    for name in sorted(set(load_all()) - {MBP, RTP, RLC}):  # those three have their own test
        for stage in ("ttir", "ttgir-before-mbp", "ttgir-before-last-rlc"):
            before, after = _apply(case.stages[stage], [name])
            r = validate(before, after, inputs)
            if not r.ok:
                failures.append(f"{name} on {stage}: {r}")
    assert not failures, "\n".join(failures)


def _corpus_values(kernel: str, constexprs: dict[str, int]) -> tuple[dict[str, int], tuple[int, ...]]:
    """Ragged sizes for a corpus config's tiles (row strides = row lengths) and its grid."""
    c = constexprs
    if "BK" in c:  # GEMMs: one tile and a bit in M and N, two K steps and a bit
        m, n, k = c["BM"] + 8, c["BN"] + 16, 2 * c["BK"] + 16
        far = 1 << 15  # batch strides: far apart in the 2^18-element buffers
        values = dict(M=m, N=n, K=k, stride_am=k, stride_bk=n, stride_cm=n, stride_dm=n,
                      stride_ab=far, stride_bb=far, stride_cb=far)  # fmt: skip
        return values, (-(-m // c["BM"]) * -(-n // c["BN"]), 2 if kernel == "batched_gemm" else 1)
    if "HEAD" in c:  # attention reads whole tiles (no boundary checks): N_CTX a multiple of BM and BN
        h = c["HEAD"]
        return dict(N_CTX=2 * c["BM"], stride_qm=h, stride_km=h, stride_vm=h, stride_om=h), (2,)
    return dict(in_row_stride=64, out_row_stride=64, stride=64, n_cols=50, N=50), (3,)


def test_whole_corpus_bf16_configs() -> None:
    """Every corpus kernel/config as compiled for the benchmarks (bf16, 256x256 tiles...):
    the native final TTGIR equals the TTIR, and so does the before-MBP TTGIR after our pipeline."""
    from xpu_passes.corpus import CONSTEXPRS, entries, find
    from xpu_passes.interp import random_inputs

    pipeline = [RLC, MBP, RTP + "{guard=false}", RLC]
    failures = []
    for e in entries():
        spec, config = find(e["kernel"], e["config"])
        names = [a for a in spec.fn.arg_names if a not in CONSTEXPRS]
        values, grid = _corpus_values(e["kernel"], config.constexprs)
        ttir = _module((e["dir"] / "final.ttir").read_text())
        inputs = random_inputs(ttir, {k: v for k, v in values.items() if k in names}, grid, buffer_elems=1 << 18)
        r = validate(ttir, _module((e["dir"] / "final.ttgir").read_text()), inputs)
        stored = any(not np.array_equal(a, b) for a, b in zip(r.outputs, (x for x in inputs.args if isinstance(x, np.ndarray))))
        if not (r.ok and stored):
            failures.append(f"{e['kernel']} {e['config']} final TTGIR: {r} (stored: {stored})")
        step = next(s["file"] for s in e["steps"] if s["step"] == f"ttgir.{MBP}")
        r = validate(*_apply((e["dir"] / step).read_text(), pipeline), inputs)
        if not r.ok:
            failures.append(f"{e['kernel']} {e['config']} our pipeline: {r}")
    assert not failures, "\n".join(failures)
