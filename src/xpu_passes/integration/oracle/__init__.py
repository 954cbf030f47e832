"""triton-xpu as the oracle: parse/verify/print, its native pipeline, and lowering figures.

This package is the only place that imports triton. The Intel backend's own
constructor probes a SYCL device; `pvc_backend()` builds it with Data Center GPU
Max (PVC) properties instead, so everything runs on a machine without a GPU.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from xpu_passes.integration.occupancy import warps_of

PVC_PROPERTIES: dict[str, Any] = dict(
    sub_group_sizes=[16, 32],
    has_subgroup_2d_block_io=True,
    has_subgroup_matrix_multiply_accumulate=True,
    has_bfloat16_conversions=True,
    has_subgroup_matrix_multiply_accumulate_tensor_float32=False,
    max_work_group_size=1024,
    max_num_sub_groups=64,
    has_fp64=True,
)


class OracleUnavailable(RuntimeError):
    """triton-xpu is not installed (extra `[triton]`, Python 3.11)."""


class OracleError(RuntimeError):
    """triton-xpu rejected the IR; the message is its diagnostic."""


def available() -> bool:
    return importlib.util.find_spec("triton") is not None


def _triton() -> Any:
    if not available():
        raise OracleUnavailable("triton-xpu is not installed: pip install 'xpu-passes[triton]'")
    from triton._C.libtriton import intel, ir, passes  # noqa: F401

    return ir, intel


@contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """MLIR prints diagnostics on fd 2 from C++; capture them (one string, appended at exit)."""
    out: list[str] = []
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            yield out
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            out.append(tmp.read().decode(errors="replace"))


def context() -> Any:
    ir, intel = _triton()
    ctx = ir.context()
    ir.load_dialects(ctx)
    intel.load_dialects(ctx)
    return ctx


def parse(text: str, ctx: Any | None = None) -> Any:
    """Parse and verify with triton-xpu; raise OracleError with its diagnostic."""
    ir, _ = _triton()
    ctx = ctx or context()
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        with captured_stderr() as err:
            try:
                mod = ir.parse_mlir_module(path, ctx)
            except RuntimeError:
                mod = None
        if mod is None:
            raise OracleError(err[0].strip().replace(path, "<input>") or "triton-xpu could not parse the module")
        mod.context = ctx
        return mod
    finally:
        os.unlink(path)


# triton's diagnostics: `loc("<input>":3:5): error: ...`; further lines continue the message.
_DIAG = re.compile(r'^(?:loc\("[^"]*"|[^:\s]*):(\d+):(\d+)\)?: (error|warning|note|remark): (.*)$')


def diagnostics(text: str) -> list[tuple[int, int, str, str]]:
    """(line, column, kind, message) of what triton-xpu reports parsing and verifying `text`;
    empty if it accepts it."""
    try:
        parse(text)
    except OracleError as e:
        out: list[tuple[int, int, str, str]] = []
        for line in str(e).splitlines():
            if m := _DIAG.match(line):
                out.append((int(m[1]), int(m[2]), m[3], m[4]))
            elif out:  # a multi-line message (`Layout has ...` after the layout)
                ln, col, kind, msg = out[-1]
                out[-1] = (ln, col, kind, msg + "\n" + line)
        return out
    return []


def parse_verify(text: str) -> str:
    """triton-xpu's print of `text` (with locations), or OracleError."""
    return str(parse(text))


# ----------------------------------------------------------------- backend


def pvc_backend() -> Any:
    """The Intel XPU backend set up for PVC without probing a device."""
    _triton()
    from triton.backends.compiler import BaseBackend, GPUTarget
    from triton.backends.intel.compiler import XPUBackend

    class PVCBackend(XPUBackend):
        def __init__(self, target: Any) -> None:
            BaseBackend.__init__(self, target)
            self.device_arch = None
            self.binary_ext = "spv"
            self.properties = dict(PVC_PROPERTIES)

    return PVCBackend(GPUTarget("xpu", {"architecture": 0}, 16))


def pvc_target() -> Any:
    from triton.backends.compiler import GPUTarget

    return GPUTarget("xpu", {"architecture": 0}, 16)


# --------------------------------------------------------- native pipeline


@dataclass(frozen=True)
class Step:
    """One native pass, run in its own pass manager so the IR between passes can be seen."""

    name: str
    add: Callable[[Any], None]
    after: Callable[[Any], None] | None = None  # e.g. read back module annotations


def native_ttir_steps(opt: Any) -> list[Step]:
    """triton-xpu 3.3's make_ttir, one pass at a time."""
    _, intel = _triton()
    from triton._C.libtriton import passes
    from triton.backends.intel.compiler import XPUBackend

    raise_flags = XPUBackend.parse_raise_block_pointer_flags()
    steps = [
        Step("inline", passes.common.add_inliner),
        Step("triton-combine", passes.ttir.add_combine),
        Step("triton-intel-remove-masks", intel.passes.ttir.add_remove_masks),
    ]
    if raise_flags["enabled"]:
        ignore = bool(raise_flags["ignore-masks"])
        steps.append(Step("triton-raise-block-pointer", lambda pm: intel.passes.ttir.add_raise_block_pointer(pm, ignore)))
    steps += [
        Step("canonicalize", passes.common.add_canonicalizer),
        Step("triton-reorder-broadcast", passes.ttir.add_reorder_broadcast),
        Step("cse", passes.common.add_cse),
        Step("loop-invariant-code-motion", passes.common.add_licm),
        Step("symbol-dce", passes.common.add_symbol_dce),
        Step("triton-loop-unroll", passes.ttir.add_loop_unroll),
    ]
    return steps


def native_ttgir_steps(opt: Any, properties: dict[str, Any]) -> list[Step]:
    """triton-xpu 3.3's make_ttgir (not the advanced path), one pass at a time."""
    _, intel = _triton()
    from triton._C.libtriton import passes

    def annotate(pm: Any) -> None:
        intel.passes.ttgpuir.add_triton_annotate_module(
            pm,
            min(properties["sub_group_sizes"]),
            properties["has_subgroup_2d_block_io"],
            properties["has_subgroup_matrix_multiply_accumulate"],
            properties["has_bfloat16_conversions"],
            opt.threads_per_warp,
            "spir64",
        )

    def read_threads(mod: Any) -> None:
        opt.threads_per_warp = threads_per_warp(mod)

    g = intel.passes.ttgpuir
    steps = [
        Step("triton-annotate-module", annotate, read_threads),
        Step(
            "convert-triton-to-tritongpu",
            lambda pm: passes.ttir.add_convert_to_ttgpuir(pm, "xpu", opt.num_warps, opt.threads_per_warp, opt.num_ctas),
        ),
        Step("tritonintelgpu-coalesce", g.add_coalesce),
        Step("tritonintelgpu-remove-layout-conversions", g.add_remove_layout_conversions),
        Step("tritonintelgpu-accelerate-matmul", g.add_accelerate_matmul),
        Step("tritonintelgpu-remove-layout-conversions", g.add_remove_layout_conversions),
        Step("tritonintelgpu-materialize-block-pointer", g.add_materialize_block_pointer),
        Step("tritonintelgpu-pipeline", lambda pm: g.add_pipeline(pm, opt.num_stages, False)),
        Step("tritongpu-fuse-nested-loops", passes.ttgpuir.add_fuse_nested_loops),
        Step("tritongpu-optimize-thread-locality", passes.ttgpuir.add_optimize_thread_locality),
        Step("tritongpu-optimize-dot-operands", lambda pm: passes.ttgpuir.add_optimize_dot_operands(pm, True)),
        Step("cse", passes.common.add_cse),
        Step("tritongpu-prefetch", passes.ttgpuir.add_prefetch),
        Step("tritongpu-optimize-dot-operands", lambda pm: passes.ttgpuir.add_optimize_dot_operands(pm, True)),
    ]
    if os.getenv("TRITON_INTEL_OPTIMIZE_REDUCTION_LOCALITY", "0") == "1":
        steps.append(Step("tritonintelgpu-optimize-reduction-locality", g.add_optimize_reduction_locality))
    steps += [
        Step("tritonintelgpu-remove-layout-conversions", g.add_remove_layout_conversions),
        Step("tritonintelgpu-reduce-data-duplication", g.add_reduce_data_duplication),
        Step("tritongpu-reorder-instructions", passes.ttgpuir.add_reorder_instructions),
        Step("cse", passes.common.add_cse),
        Step("symbol-dce", passes.common.add_symbol_dce),
        Step("canonicalize", passes.common.add_canonicalizer),
        Step(
            "arith-emulate-unsupported-floats",
            lambda pm: intel.passes.arith.add_arith_emulate_unsupported_floats(pm, ["bf16"], "f32"),
        ),
    ]
    return steps


def run_steps(mod: Any, steps: list[Step], dump: Callable[[str, str], None] | None = None) -> Any:
    """Run steps in order; `dump(step_name, ir_before_step)` sees the IR before each."""
    ir, _ = _triton()
    for step in steps:
        if dump is not None:
            dump(step.name, str(mod))
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        step.add(pm)
        pm.run(mod)
        if step.after is not None:
            step.after(mod)
    return mod


# ------------------------------------------------------------- lowering


@dataclass
class StaticFigures:
    """Code-quality figures read off triton-xpu's lowering (no GPU needed)."""

    shared_bytes: int = 0
    converts: int = 0
    loads: int = 0
    block_io_loads: int = 0
    block_reads: int = 0
    block_writes: int = 0
    block_prefetches: int = 0
    dpas: int = 0
    warps: int = 0  # the module's ttg.num-warps (0: unknown): what SLM costs in occupancy (integration.occupancy)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def fits_slm(self) -> bool:
        return self.shared_bytes <= 128 * 1024


def ttgir_counts(text: str) -> tuple[int, int, int]:
    """(convert_layout, tt.load, block_io-tagged loads) in printed TTGIR (by its text: no parse)."""
    lines = text.splitlines()
    loads = [ln for ln in lines if " tt.load " in ln]
    tagged = [ln for ln in loads if "block_io" in ln]
    return sum(" ttg.convert_layout " in ln for ln in lines), len(loads), len(tagged)


def renamings(text: str) -> int:
    """The conversions in printed TTGIR that only rename registers (the same data in every thread).

    triton lowers them to no instruction (`-xpu-slice-epilogue` makes two), so they are no cost to count.
    """
    from xpu_passes.dialects import make_context
    from xpu_passes.dialects.ttg import ConvertLayoutOp
    from xpu_passes.frontend import parse_module
    from xpu_passes.layouts.linear import reorders_registers
    from xpu_passes.layouts.memoize import linear_of

    module = parse_module(make_context(), text, "<ttgir>", verify=False).module
    n = 0
    for op in module.walk():
        if not isinstance(op, ConvertLayoutOp):
            continue
        src, dst = op.operands[0].type, op.results[0].type
        enc_a, enc_b = getattr(src, "encoding", None), getattr(dst, "encoding", None)
        if enc_a is None or enc_b is None:
            continue
        shape = tuple(src.get_shape())
        a, b = linear_of(enc_a, shape), linear_of(enc_b, shape)
        n += a == b or reorders_registers(a, b)
    return n


def figures(ttgir: str, llir: str, shared_bytes: int) -> StaticFigures:
    """The figures of one compile: its final TTGIR text, LLVM IR text and SLM bytes; its conversions
    are those that move data (`renamings` cost nothing)."""
    converts, loads, tagged = ttgir_counts(ttgir)
    converts -= renamings(ttgir) if converts else 0
    calls = [ln for ln in llir.splitlines() if " call " in ln]

    def count(name: str) -> int:
        return sum(name in ln for ln in calls)

    return StaticFigures(
        shared_bytes=shared_bytes,
        converts=converts,
        loads=loads,
        block_io_loads=tagged,
        block_reads=count("2d_block_read"),
        block_writes=count("2d_block_write"),
        block_prefetches=count("2d_block_prefetch"),
        dpas=count("matrix_mad"),
        warps=warps_of(ttgir),
    )


def threads_per_warp(mod: Any) -> int:
    """The sub-group size the annotate-module step recorded on `mod`."""
    _, intel = _triton()
    return int(intel.get_threads_per_warp(mod))


def lower(mod: Any, opts: Any, backend: Any | None = None) -> StaticFigures:
    """make_llir on a TTGIR module (consumed) and the figures of the result."""
    backend = backend or pvc_backend()
    ttgir = str(mod)
    md: dict[str, Any] = {}
    llir = backend.make_llir(mod, md, opts)
    return figures(ttgir, llir, int(md.get("shared") or 0))


def lower_text(text: str, opts: Any, backend: Any | None = None) -> StaticFigures:
    return lower(parse(text), opts, backend)


def spirv(kernel: Any) -> tuple[bytes, str, str]:
    """What the driver gets from a `triton.compile` result for an xpu target: its SPIR-V,
    build flags (e.g. `-cl-intel-256-GRF-per-thread`) and kernel name (for `integration.isa`)."""
    return bytes(kernel.asm["spv"]), str(kernel.metadata.build_flags), str(kernel.metadata.name)


def lower_spirv(mod: Any, opts: Any, backend: Any | None = None) -> tuple[bytes, str, str]:
    """make_llir and make_spv on a TTGIR module (consumed): SPIR-V, build flags, kernel name."""
    backend = backend or pvc_backend()
    md: dict[str, Any] = {}
    spv = backend.make_spv(backend.make_llir(mod, md, opts), md, opts)
    return bytes(spv), str(md["build_flags"]), str(md["name"])


def run_native_pass(text: str, step_name: str) -> str:
    """Run one native TTGIR pass (by its step name) on `text`; return triton's print."""
    ir, _ = _triton()
    mod = parse(text)
    pm = ir.pass_manager(mod.context)
    _native_pass_table()[step_name](pm)
    pm.run(mod)
    return str(mod)


def _native_pass_table() -> dict[str, Callable[[Any], None]]:
    """Native passes that take no options, by flag name."""
    _, intel = _triton()
    g = intel.passes.ttgpuir
    return {
        "tritonintelgpu-materialize-block-pointer": g.add_materialize_block_pointer,
        "tritonintelgpu-remove-layout-conversions": g.add_remove_layout_conversions,
        "tritonintelgpu-coalesce": g.add_coalesce,
        "tritonintelgpu-accelerate-matmul": g.add_accelerate_matmul,
    }
