"""triton-xpu 3.3's native passes by MLIR flag name: a static table, so listing them needs no triton import
(integration/native_passes.py runs them).

Each row names the binding (`triton._C.libtriton.<module>.<function>`) and its options in the
binding's argument order; flag and option names are those of the Passes.td files of
intel-xpu-backend-for-triton v3.3.0b1 (and MLIR's for the upstream passes). A test checks the
table against the installed wheel: every `add_*` it exposes is here, with its arity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class NativeOption:
    name: str  # MLIR option name, e.g. "num-warps"
    kind: type  # int / bool / str / list
    default: Any
    # Filled from the kernel's compile options when a pipeline text leaves it out: "num_warps",
    # "num_stages", "threads_per_warp", "num_ctas", "target", or a target property name.
    compile_key: str | None = None


@dataclass(frozen=True)
class NativeRow:
    name: str
    binding: str  # "passes.ttgpuir.add_coalesce" under triton._C.libtriton
    options: tuple[NativeOption, ...] = ()
    summary: str = ""


def _o(name: str, kind: type, default: Any, key: str | None = None) -> NativeOption:
    return NativeOption(name, kind, default, key)


NATIVE_TABLE: tuple[NativeRow, ...] = (
    # MLIR's passes, as bound by triton.
    NativeRow("canonicalize", "passes.common.add_canonicalizer", summary="MLIR canonicalizer"),
    NativeRow("cse", "passes.common.add_cse", summary="MLIR common subexpression elimination"),
    NativeRow("inline", "passes.common.add_inliner", summary="MLIR inliner"),
    NativeRow("loop-invariant-code-motion", "passes.common.add_licm", summary="MLIR LICM"),
    NativeRow("sccp", "passes.common.add_sccp", summary="MLIR sparse conditional constant propagation"),
    NativeRow("symbol-dce", "passes.common.add_symbol_dce", summary="MLIR dead symbol elimination"),
    NativeRow("convert-arith-to-llvm", "passes.convert.add_arith_to_llvmir", summary="arith to LLVM"),
    NativeRow("convert-cf-to-llvm", "passes.convert.add_cf_to_llvmir", summary="cf to LLVM"),
    NativeRow("convert-index-to-llvm", "passes.convert.add_index_to_llvmir", summary="index to LLVM"),
    NativeRow("convert-scf-to-cf", "passes.convert.add_scf_to_cf", summary="scf to cf"),
    NativeRow("enable-line-info", "passes.llvmir.add_di_scope", summary="LLVM debug-info scopes"),
    # Triton (TTIR).
    NativeRow("triton-combine", "passes.ttir.add_combine", summary="combine ops"),
    NativeRow(
        "convert-triton-to-tritongpu",
        "passes.ttir.add_convert_to_ttgpuir",
        (_o("target", str, "", "target"), _o("num-warps", int, 4, "num_warps"),
         _o("threads-per-warp", int, 32, "threads_per_warp"), _o("num-ctas", int, 1, "num_ctas")),
        "TTIR to TTGIR",
    ),
    NativeRow("triton-loop-unroll", "passes.ttir.add_loop_unroll", summary="unroll loops marked for it"),
    NativeRow("triton-reorder-broadcast", "passes.ttir.add_reorder_broadcast", summary="move broadcasts late"),
    NativeRow("triton-rewrite-tensor-pointer", "passes.ttir.add_rewrite_tensor_pointer",
              summary="upstream: block pointers to tensors of pointers"),
    # Triton (TTGIR), upstream.
    NativeRow("tritongpu-accelerate-matmul", "passes.ttgpuir.add_accelerate_matmul", summary="upstream MMA"),
    NativeRow("tritongpu-global-scratch-memory-allocation", "passes.ttgpuir.add_allocate_global_scratch_memory",
              summary="assign global scratch memory"),
    NativeRow("allocate-shared-memory", "passes.ttgpuir.add_allocate_shared_memory", summary="upstream SLM allocation"),
    NativeRow("tritongpu-allocate-warp-groups", "passes.ttgpuir.add_allocate_warp_groups", summary="warp groups"),
    NativeRow("tritongpu-coalesce", "passes.ttgpuir.add_coalesce", summary="upstream coalescing"),
    NativeRow("tritongpu-coalesce-async-copy", "passes.ttgpuir.add_coalesce_async_copy", summary="async copies"),
    NativeRow("tritongpu-combine-tensor-select-and-if", "passes.ttgpuir.add_combine_tensor_select_and_if",
              summary="fold selects into scf.if"),
    NativeRow("tritongpu-F32DotTC", "passes.ttgpuir.add_f32_dot_tc", summary="3xTF32 dots"),
    NativeRow("tritongpu-fuse-nested-loops", "passes.ttgpuir.add_fuse_nested_loops", summary="fuse nested loops"),
    NativeRow("tritongpu-optimize-accumulator-init", "passes.ttgpuir.add_optimize_accumulator_init",
              summary="accumulator init"),
    NativeRow("tritongpu-optimize-dot-operands", "passes.ttgpuir.add_optimize_dot_operands",
              (_o("hoist-layout-conversion", bool, True),), "dot operand layouts"),
    NativeRow("tritongpu-optimize-thread-locality", "passes.ttgpuir.add_optimize_thread_locality",
              summary="reductions within threads"),
    NativeRow("tritongpu-pipeline", "passes.ttgpuir.add_pipeline",
              (_o("num-stages", int, 3, "num_stages"), _o("dump-intermediate-steps", bool, False)),
              "upstream software pipelining"),
    NativeRow("tritongpu-prefetch", "passes.ttgpuir.add_prefetch", summary="prefetch dot operands"),
    NativeRow("tritongpu-reduce-data-duplication", "passes.ttgpuir.add_reduce_data_duplication",
              summary="upstream: convert through shared memory"),
    NativeRow("tritongpu-remove-layout-conversions", "passes.ttgpuir.add_remove_layout_conversions",
              summary="upstream RemoveLayoutConversions"),
    NativeRow("tritongpu-reorder-instructions", "passes.ttgpuir.add_reorder_instructions", summary="reorder"),
    # Intel.
    NativeRow("arith-emulate-unsupported-floats", "intel.passes.arith.add_arith_emulate_unsupported_floats",
              (_o("source-types", list, []), _o("target-type", str, "")), "emulate float types"),
    NativeRow("tritonintelgpu-accelerate-matmul", "intel.passes.ttgpuir.add_accelerate_matmul", summary="DPAS"),
    NativeRow("intel-allocate-shared-memory", "intel.passes.ttgpuir.add_allocate_shared_memory",
              summary="Intel SLM allocation"),
    NativeRow("tritonintelgpu-coalesce", "intel.passes.ttgpuir.add_coalesce", summary="Intel coalescing"),
    NativeRow("intel-decompose-unsupported-conversions",
              "intel.passes.ttgpuir.add_decompose_unsupported_conversions", summary="split conversions"),
    NativeRow("tritonintelgpu-distribute-to-warps", "intel.passes.ttgpuir.add_distribute_to_warps",
              summary="advanced path: warp distribution"),
    NativeRow("tritonintelgpu-match-target-size", "intel.passes.ttgpuir.add_match_target_size",
              summary="advanced path: native sizes"),
    NativeRow("tritonintelgpu-materialize-block-pointer", "intel.passes.ttgpuir.add_materialize_block_pointer",
              summary="Intel MaterializeBlockPointer"),
    NativeRow("tritonintelgpu-optimize-reduction-locality", "intel.passes.ttgpuir.add_optimize_reduction_locality",
              summary="reductions within sub-groups"),
    NativeRow("tritonintelgpu-pipeline", "intel.passes.ttgpuir.add_pipeline",
              (_o("num-stages", int, 3, "num_stages"), _o("support-regular-ptr", bool, False)),
              "Intel software pipelining"),
    NativeRow("tritonintelgpu-prefetch-block", "intel.passes.ttgpuir.add_prefetch_block",
              (_o("num-advance-prefetches", int, 3), _o("inject-split-barriers", bool, True)),
              "advanced path: prefetch"),
    NativeRow("tritonintelgpu-reduce-data-duplication", "intel.passes.ttgpuir.add_reduce_data_duplication",
              summary="Intel: convert through shared memory"),
    NativeRow("tritonintelgpu-remove-layout-conversions", "intel.passes.ttgpuir.add_remove_layout_conversions",
              summary="Intel RemoveLayoutConversions"),
    NativeRow("tritonintelgpu-rewrite-stack-ptr", "intel.passes.ttgpuir.add_rewrite_stack_ptr",
              summary="stack pointer for Intel"),
    NativeRow("tritonintelgpu-schedule-load", "intel.passes.ttgpuir.add_schedule_load",
              summary="advanced path: load scheduling"),
    NativeRow("convert-triton-intel-gpu-to-llvm", "intel.passes.ttgpuir.add_to_llvmir",
              (_o("advanced_path", bool, False), _o("one_matrix_per_load_for_bt", bool, False)),
              "TTGIR to LLVM"),
    NativeRow(
        "triton-annotate-module",
        "intel.passes.ttgpuir.add_triton_annotate_module",
        (_o("min-sg-size", int, 32, "min_sg_size"), _o("support-sg-2d-block", bool, False, "has_subgroup_2d_block_io"),
         _o("support-dpas", bool, False, "has_subgroup_matrix_multiply_accumulate"),
         _o("support-bf16-conversion", bool, False, "has_bfloat16_conversions"),
         _o("threads-per-warp", int, 32, "threads_per_warp"), _o("target-arch", str, "spir64")),
        "target attributes on the module",
    ),
    NativeRow("convert-triton-to-tritongpu-warp", "intel.passes.ttir.add_convert_to_ttgpuir_warp",
              (_o("num-warps", int, 4, "num_warps"),), "advanced path: TTIR to TTGIR"),
    NativeRow("triton-raise-block-pointer", "intel.passes.ttir.add_raise_block_pointer",
              (_o("ignore-masks", bool, False),), "Intel: raise pointer arithmetic to block pointers"),
    NativeRow("triton-intel-remove-masks", "intel.passes.ttir.add_remove_masks", summary="drop provable masks"),
)

NATIVE_BY_NAME: dict[str, NativeRow] = {row.name: row for row in NATIVE_TABLE}
