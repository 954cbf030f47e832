"""Named TTGIR pipelines mixing triton-xpu's native passes and ours.

The `xpu` pipeline is triton-xpu 3.3's `make_ttgir`, pass for pass, with ours in
place of the native MaterializeBlockPointer and RemoveLayoutConversions (all three
runs), and after MaterializeBlockPointer the Subgroup2DBlock layout assignment, our
RemoveLayoutConversions and the legalization of those layouts for triton-xpu 3.3.
Options add our guarded RewriteTensorPointer after MaterializeBlockPointer and the
raising of pointer arithmetic to block pointers on the TTIR. Consecutive Python
passes share one text round trip between triton's module and xDSL's.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from xpu_passes import oracle
from xpu_passes.frontend import Spelling, TTGIRError, parse_module, print_module

MBP = "tritonintelgpu-materialize-block-pointer"
RLC = "tritonintelgpu-remove-layout-conversions"
RTP = "tritonintelgpu-rewrite-tensor-pointer"
RAISE = "tritonintelgpu-raise-block-pointer"
OBIO = "tritonintelgpu-optimize-block-io-encoding"
LEGAL = "tritonintelgpu-legalize-block-io-encoding"

PIPELINES = ("xpu", "native")

# A pass -> the passes that must run before it (in the same pipeline).
REQUIRES: dict[str, tuple[str, ...]] = {
    # The DPAS guard keeps block pointers whose loads are tagged block_io.
    RTP: (MBP,),
    # Subgroup2DBlock layouts go to loads tagged block_io; legalization folds them.
    OBIO: (MBP,),
    LEGAL: (OBIO,),
}
# A pass -> passes that must NOT run before it: raising works on TTIR, before layouts exist.
BEFORE: dict[str, tuple[str, ...]] = {RAISE: ("convert-triton-to-tritongpu",)}


class PipelineError(ValueError):
    """A pipeline that cannot be built as asked."""


class PassFailure(RuntimeError):
    """One of our passes failed while compiling a kernel."""


@dataclass(frozen=True)
class Stage:
    name: str
    python: bool  # ours (run in xDSL) or native (run by triton-xpu)
    native: oracle.Step | None = None


def check_order(names: list[str]) -> None:
    """Refuse pipelines that run a pass before the passes it depends on (or after what it must precede)."""
    for i, name in enumerate(names):
        for dep in REQUIRES.get(name, ()):
            if dep not in names[:i]:
                raise PipelineError(f"'{name}' must run after '{dep}' (it relies on its results)")
        for later in BEFORE.get(name, ()):
            if later in names[:i]:
                raise PipelineError(f"'{name}' must run before '{later}'")
    if OBIO in names and RLC not in names[names.index(OBIO):]:
        raise PipelineError(f"'{OBIO}' must be followed by '{RLC}' (which keeps its anchors)")


def plan(opt: Any, properties: dict[str, Any], pipeline: str = "xpu", rewrite_tensor_pointer: bool = False,
         raise_block_pointer: bool = False, block_io_encoding: bool = True, rlc: str = "all") -> list[Stage]:
    """The stages of `pipeline`: triton-xpu 3.3's make_ttgir with ours in place of native passes.

    `rlc`: which native RemoveLayoutConversions ours replaces ("all", or "last": only
    the one after pipelining that shapes epilogues). `block_io_encoding`: Subgroup2DBlock
    assignment after MaterializeBlockPointer, then our RemoveLayoutConversions and the
    legalization for triton-xpu 3.3 (which has no subgroup_2d_block layout).
    `raise_block_pointer`: raise pointer arithmetic to block pointers on the TTIR.
    """
    if pipeline not in PIPELINES:
        raise PipelineError(f"unknown pipeline '{pipeline}' (choose from {', '.join(PIPELINES)})")
    if rlc not in ("last", "all"):
        raise PipelineError(f"unknown rlc option '{rlc}' (choose from last, all)")
    steps = oracle.native_ttgir_steps(opt, properties)
    stages = [Stage(s.name, False, s) for s in steps]
    if pipeline == "native":
        return stages
    rlcs = [i for i, s in enumerate(stages) if s.name == RLC]
    for i in rlcs if rlc == "all" else rlcs[-1:]:
        stages[i] = Stage(RLC, True)
    mbp = next(i for i, s in enumerate(stages) if s.name == MBP)
    extra = [Stage(MBP, True)]
    if rewrite_tensor_pointer:
        extra.append(Stage(RTP, True))
    if block_io_encoding:
        extra += [Stage(OBIO, True), Stage(RLC, True), Stage(LEGAL, True)]
    stages[mbp : mbp + 1] = extra
    if raise_block_pointer:
        stages.insert(1, Stage(RAISE, True))  # after annotate-module: TTIR with the target attributes
    check_order([s.name for s in stages])
    return stages


def option_defaults() -> dict[str, Any]:
    """The options `plan` takes besides the target and the pipeline's name, with their defaults."""
    fixed = ("opt", "properties", "pipeline")
    return {p: v.default for p, v in inspect.signature(plan).parameters.items() if p not in fixed}


def check_options(options: dict[str, Any]) -> None:
    unknown = sorted(set(options) - set(option_defaults()))
    if unknown:
        raise PipelineError(f"unknown pipeline option(s) {', '.join(unknown)} (choose from {', '.join(option_defaults())})")


def _run_python(mod: Any, names: list[str]) -> Any:
    """One round trip: triton's module -> text -> our passes -> text -> triton's module."""
    from xpu_passes.dialects import make_context
    from xpu_passes.transforms import PASSES, PassError, load_all

    load_all()
    ctx = make_context()
    text = str(mod)
    try:
        parsed = parse_module(ctx, text, "<ttgir>")
    except TTGIRError as e:
        raise PassFailure(f"xpu-passes could not read triton's TTGIR: {e}") from None
    for name in names:
        try:
            PASSES[name]()().apply(ctx, parsed.module)
        except PassError as e:
            where = parsed.where(e.op)
            raise PassFailure(f"{name} failed on '{e.op.name}' at ttgir line {where}: {e.message}") from None
        except Exception as e:
            raise PassFailure(f"{name} failed: {type(e).__name__}: {e}") from e
    out = print_module(parsed.module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
    try:
        return oracle.parse(out, mod.context)
    except oracle.OracleError as e:
        raise PassFailure(f"triton-xpu rejected the output of {', '.join(names)}: {e}") from None


def run_ttgir(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any], pipeline: str = "xpu",
              **options: Any) -> Any:
    """Drop-in for XPUBackend.make_ttgir (non-advanced path) running `pipeline`."""
    stages = plan(opt, properties, pipeline, **options)
    i = 0
    while i < len(stages):
        if stages[i].python:
            j = i
            while j < len(stages) and stages[j].python:
                j += 1
            mod = _run_python(mod, [s.name for s in stages[i:j]])
            i = j
        else:
            oracle.run_steps(mod, [stages[i].native])  # type: ignore[list-item]
            i += 1
    cluster = opt.cluster_dims if opt.cluster_dims is not None else (1, 1, 1)
    metadata["cluster_dims"] = tuple(cluster)
    return mod
