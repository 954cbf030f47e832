"""The stages of the named pipelines: triton-xpu 3.3's make_ttgir with ours in place of native passes
(`named_stages`).

See integration/pipeline.py for what the `xpu` pipeline is and how its stages run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from xdsl.passes import ModulePass

from xpu_passes import registry
from xpu_passes.registry import (ESC, LEGAL, MBP, NMD, SFD, OBIO, ORL, OSV, RAISE, RLC, RTP, RVL, SLICE, SLICE_RED, PassSpec,
                                PipelineError)

ANNOTATE = "triton-annotate-module"
# Passes that run after every pass of triton-xpu's stage: with never_worse they are not part of the
# comparison of the two stages but run on whichever result is kept (native's gets them too).
AFTER_COMPARISON = frozenset({RVL, NMD, SFD, SLICE, SLICE_RED, OSV, ESC})

# A native pass whose flag is also one of ours is spelled with this prefix in a text.
NATIVE_PREFIX = registry.NATIVE_PREFIX
PIPELINES = ("xpu", "native")
# never_worse_positions: which RemoveLayoutConversions runs (of the three that replace native's) are compared
POSITIONS = ("dot", "last", "all")

@dataclass(frozen=True)
class Stage:
    spec: PassSpec
    python: bool  # ours (run in xDSL) or native (run by triton-xpu)
    instance: ModulePass | None = None  # a Python pass, made once per plan (not per compile)

    @property
    def name(self) -> str:
        return self.spec.name


def _native(name: str, **options: Any) -> Stage:
    text_opts = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in options.items()}
    return Stage(PassSpec(name, text_opts), False)


def named_stages(pipeline: str, rewrite_tensor_pointer: bool = False, raise_block_pointer: bool = True,
                  block_io_encoding: bool = True, rlc: str = "all", never_worse: bool = True,
                  slice_epilogue: bool = True, slice_reduction: bool = True, reduction_locality: bool = False,
                  never_worse_positions: str = "dot", native_first: bool = True,
                  reduce_variable_liveness: bool = True, wide_positions: bool = True,
                  order_store_values: bool = True, early_slm_conversions: bool = True,
                  narrow_masked_dims: bool = True, split_fma_dots: bool = True,
                  sink_straight_loads: bool = False) -> list[Stage]:
    """triton-xpu 3.3's make_ttgir (non-advanced path) as stages, ours in place of native passes.

    Options the compile gives (warps, stages, threads per warp, CTAs, target properties)
    are left out: they are filled in when the pipeline runs. `never_worse_positions` and
    `native_first` change how the stages run, not which (pipeline.plan, stage_guard.compare_stage).
    """
    if pipeline not in PIPELINES:
        raise PipelineError(f"unknown pipeline '{pipeline}' (choose from {', '.join(PIPELINES)})")
    if rlc not in ("last", "all"):
        raise PipelineError(f"unknown rlc option '{rlc}' (choose from last, all)")
    if never_worse_positions not in POSITIONS:
        raise PipelineError(f"unknown never_worse_positions option '{never_worse_positions}' "
                            f"(choose from {', '.join(POSITIONS)})")
    n = _native
    stages = [
        n(ANNOTATE, **{"target-arch": "spir64"}),
        n("convert-triton-to-tritongpu", target="xpu"),
        n("tritonintelgpu-coalesce"),
        n(RLC),
        n("tritonintelgpu-accelerate-matmul"),
        n(RLC),
        n(MBP),
        n("tritonintelgpu-pipeline", **{"support-regular-ptr": False}),
        n("tritongpu-fuse-nested-loops"),
        n("tritongpu-optimize-thread-locality"),
        n("tritongpu-optimize-dot-operands", **{"hoist-layout-conversion": True}),
        n("cse"),
        n("tritongpu-prefetch"),
        n("tritongpu-optimize-dot-operands", **{"hoist-layout-conversion": True}),
    ]
    if os.getenv("TRITON_INTEL_OPTIMIZE_REDUCTION_LOCALITY", "0") == "1":
        stages.append(n("tritonintelgpu-optimize-reduction-locality"))
    elif reduction_locality:  # our port, where 3.3 runs Intel's: the RemoveLayoutConversions after it is needed
        stages.append(Stage(PassSpec(ORL, {}), True))  # (in the native twin too: both sides compared with it)
    stages += [
        n(RLC),
        n("tritonintelgpu-reduce-data-duplication"),
        n("tritongpu-reorder-instructions"),
        n("cse"),
        n("symbol-dce"),
        n("canonicalize"),
        n("arith-emulate-unsupported-floats", **{"source-types": "bf16", "target-type": "f32"}),
    ]
    if pipeline == "native":
        return stages

    def ours(name: str, **options: str) -> Stage:
        return Stage(PassSpec(name, options), True)

    # never_worse: where native runs its RemoveLayoutConversions, ours keeps triton-xpu's result
    # when that is better (integration/never_worse.py); with "last" only at the last of them: the
    # whole stage is compared too (native_twin), and the earlier positions' comparisons cost a
    # parse of native's result each for intermediate modules the kernel is not judged by; "dot"
    # (default) is "all" for a kernel with a tt.dot, "last" for others (run_plan: unguard_early)
    guard = {"never-worse-than-native": "true"} if never_worse else {}
    rlcs = [i for i, s in enumerate(stages) if s.name == RLC]
    for i in rlcs if rlc == "all" else rlcs[-1:]:
        compared = never_worse_positions != "last" or i == rlcs[-1]
        stages[i] = ours(RLC, **(guard if compared else {}))
    mbp = next(i for i, s in enumerate(stages) if s.name == MBP)
    extra = [ours(MBP)]
    if rewrite_tensor_pointer:
        extra.append(ours(RTP))
    if block_io_encoding:
        # Not guarded: native runs no RemoveLayoutConversions here, and triton-xpu 3.3 cannot read the
        # Subgroup2DBlock layouts the module has until LEGAL (the pass keeps its input if it would
        # leave more conversions or SLM: never worse than native's nothing).
        extra += [ours(OBIO), ours(RLC), ours(LEGAL)]
    stages[mbp : mbp + 1] = extra
    if raise_block_pointer:
        # after annotate-module (TTIR with the target attributes); only dot data: 3.3 gives other block pointers worse
        # layouts; only loads that will be 2D block reads: 3.3 gathers the others lane by lane (block-io-only);
        # never_worse: the stage also runs without it, and the better result is kept; wide_positions: i64 positions
        # and dot operands made from a loop's induction variable, where a dot's tiles fit the compile's register
        # file (raise_block_pointer/induction.py)
        wide = {"wide-positions": "true"} if wide_positions else {}
        stages.insert(1, Stage(PassSpec(RAISE, {"dot-only": "true", "block-io-only": "true", **wide, **guard}), True))
    if reduce_variable_liveness:
        # after every pass of triton-xpu (reorder-instructions would move the reads back), on the stage kept;
        # sink_straight_loads: its step 5 (off: worse than native on 2 of 99 fla DPAS rows measured)
        stages.append(ours(RVL, **({"sink-straight-loads": "true"} if sink_straight_loads else {})))
    if narrow_masked_dims:
        # after every pass of triton-xpu (their layouts are kept; none of them sees the narrowed tiles), before
        # the slicing passes (they slice what is left)
        stages.append(ours(NMD))
    if split_fma_dots:
        # after every pass of triton-xpu (reduce-data-duplication stages the FMA dot operands in SLM)
        stages.append(ours(SFD))
    if slice_epilogue:
        # last: after every pass of triton-xpu (none of them sees the slices)
        stages.append(ours(SLICE))
    if slice_reduction:
        # last too: a reduction of a tile held in registers, row by row (triton-xpu's passes never see the loop)
        stages.append(ours(SLICE_RED))
    if order_store_values:
        # last: a block's stored values narrowest first (after every pass that makes or moves them)
        stages.append(ours(OSV))
    if early_slm_conversions:
        # last: after every pass that places conversions (reorder-instructions puts them next to their users)
        stages.append(ours(ESC))
    return stages
