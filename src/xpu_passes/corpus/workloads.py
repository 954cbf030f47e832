"""The workload families of the corpus: kernels people run on Intel GPUs, each at two or
more of its autotune configurations (tiles, warps, stages as Intel's and others' autotune
lists use them) and dtypes. Kernels live in kernels_*.py, one module per family group.
"""

from __future__ import annotations

from xpu_passes.corpus import Config, KernelSpec


def _c(warps: int, stages: int = 3, **constexprs: int) -> Config:
    return Config(dict(constexprs), warps, stages)


def _gemm(bm: int, bn: int, bk: int, warps: int, stages: int = 3, **more: int) -> Config:
    return Config({"BM": bm, "BN": bn, "BK": bk, **more}, warps, stages)


def _rows(*blocks: tuple[int, int]) -> tuple[Config, ...]:
    """Row kernels: BLOCK (the row, rounded up to a power of two) and its warps."""
    return tuple(_c(w, 1, BLOCK=b) for b, w in blocks)


_ABC = ("a_ptr", "b_ptr", "c_ptr")


def _typed(names: tuple[str, ...], *types: str) -> dict[str, str]:
    return dict(zip(names, types))


# Intel's GEMM autotune list (BM, BN, BK, GROUP_M, warps, stages): large tiles on 32 warps, small on 4.
_G4 = dict(GROUP_M=4)
GEMM_LOWP = (_gemm(256, 256, 32, 32, 3, **_G4), _gemm(256, 128, 32, 32, 3, **_G4), _gemm(64, 128, 32, 4, 3, **_G4))
GEMM_INT8 = (_gemm(256, 256, 64, 32, 3, **_G4), _gemm(64, 128, 64, 4, 3, **_G4))
SPLITK = (_gemm(256, 256, 32, 32, 4, SPLIT_K=4, **_G4), _gemm(128, 128, 64, 8, 3, SPLIT_K=2, **_G4))
STREAMK = (_gemm(256, 256, 32, 32, 3, **_G4), _gemm(128, 256, 32, 32, 3, **_G4))
PERSISTENT = (_gemm(256, 256, 32, 32, 3, GROUP_M=8, NUM_PROGS=64), _gemm(128, 128, 32, 8, 3, GROUP_M=8, NUM_PROGS=448))
GROUPED = (_gemm(128, 128, 32, 8, 3, NUM_PROGS=64), _gemm(64, 64, 32, 4, 2, NUM_PROGS=448))
BATCHED = (_gemm(256, 256, 32, 32, 3), _gemm(64, 128, 32, 4, 3))
ATTN_BWD = (_c(8, 2, BM=64, BN=64, HEAD=64), _c(4, 2, BM=32, BN=64, HEAD=64))

_NORM_BWD = {p: "fp32" for p in ("dw_ptr", "db_ptr", "w_ptr", "mean_ptr", "rstd_ptr")}
_ATTN = ("q_ptr", "k_ptr", "v_ptr", "do_ptr")
_ATTN_OUT = {"lse_ptr": "fp32", "delta_ptr": "fp32"}

WORKLOADS: tuple[KernelSpec, ...] = (
    # ---- GEMM families
    KernelSpec("splitk_gemm", _typed(_ABC, "bf16", "bf16", "fp32"), configs=SPLITK),
    KernelSpec("splitk_gemm_f16", _typed(_ABC, "fp16", "fp16", "fp32"), configs=SPLITK[:1], function="splitk_gemm"),
    KernelSpec("streamk_gemm", _typed(_ABC, "bf16", "bf16", "fp32"), configs=STREAMK),
    KernelSpec("persistent_gemm", _typed(_ABC, "fp16", "fp16", "fp16"), configs=PERSISTENT),
    KernelSpec("grouped_gemm", dict.fromkeys(("group_a_ptrs", "group_b_ptrs", "group_c_ptrs"), "i64")
               | {"group_sizes": "i32", "group_lds": "i32"}, configs=GROUPED),  # fmt: skip
    KernelSpec("batched_gemm_tensor_ptr", _typed(_ABC, "bf16", "bf16", "fp32"), configs=BATCHED),
    KernelSpec("gemm_f16", _typed(_ABC, "fp16", "fp16", "fp16"), configs=GEMM_LOWP, function="gemm_lowp"),
    KernelSpec("gemm_bf16", _typed(_ABC, "bf16", "bf16", "bf16"), configs=GEMM_LOWP, function="gemm_lowp"),
    KernelSpec("gemm_int8", _typed(_ABC, "i8", "i8", "i32"), configs=GEMM_INT8),
    # ---- scans
    KernelSpec("cumsum_2d", {"y_ptr": "fp32", "x_ptr": "fp32"},
               configs=(_c(4, 1, BM=64, BN=64, AXIS=0), _c(4, 1, BM=64, BN=64, AXIS=1),
                        _c(8, 1, BM=16, BN=256, AXIS=1), _c(8, 1, BM=256, BN=16, AXIS=0))),  # fmt: skip
    KernelSpec("cumsum_2d_i32", {"y_ptr": "i32", "x_ptr": "i32"}, function="cumsum_2d",
               configs=(_c(4, 1, BM=32, BN=128, AXIS=1), _c(4, 1, BM=128, BN=32, AXIS=0))),
    KernelSpec("cumsum_rows", {"y_ptr": "fp32", "x_ptr": "fp32"}, configs=_rows((1024, 4), (4096, 16))),
    KernelSpec("cumsum_rows_bf16", {"y_ptr": "bf16", "x_ptr": "bf16"}, configs=_rows((1024, 4)),
               function="cumsum_rows"),
    # ---- normalizations
    KernelSpec("layer_norm_bwd_dx", {"dx_ptr": "fp32", "dy_ptr": "fp32", "x_ptr": "fp32", "lock_ptr": "i32",
                                     **_NORM_BWD}, configs=(_c(8, 1, GROUP=64, BLOCK=1024), _c(16, 1, GROUP=32, BLOCK=4096))),
    KernelSpec("layer_norm_bwd_dwdb", {p: "fp32" for p in ("dw_ptr", "db_ptr", "final_dw_ptr", "final_db_ptr")},
               configs=(_c(4, 1, BM=32, BN=128), _c(8, 1, BM=64, BN=64))),
    KernelSpec("rms_norm_fwd", {"y_ptr": "fp32", "x_ptr": "fp32", "w_ptr": "fp32", "rstd_ptr": "fp32"},
               floats=("eps",), configs=_rows((1024, 4), (4096, 16))),
    KernelSpec("rms_norm_fwd_bf16", {"y_ptr": "bf16", "x_ptr": "bf16", "w_ptr": "bf16", "rstd_ptr": "fp32"},
               floats=("eps",), configs=_rows((8192, 32)), function="rms_norm_fwd"),
    KernelSpec("rms_norm_bwd", {"dx_ptr": "fp32", "dy_ptr": "fp32", "x_ptr": "fp32", "w_ptr": "fp32",
                                "rstd_ptr": "fp32", "dw_ptr": "fp32"}, configs=_rows((1024, 4), (4096, 16))),
    KernelSpec("rms_norm_bwd_bf16", {"dx_ptr": "bf16", "dy_ptr": "bf16", "x_ptr": "bf16", "w_ptr": "bf16",
                                     "rstd_ptr": "fp32", "dw_ptr": "fp32"}, configs=_rows((4096, 16)),
               function="rms_norm_bwd"),  # fmt: skip
    KernelSpec("rms_norm_block_fwd", {"y_ptr": "fp32", "x_ptr": "fp32", "w_ptr": "fp32", "rstd_ptr": "fp32"},
               floats=("eps",), configs=(_c(8, 1, BLOCK_ROW=16, BLOCK=512), _c(16, 1, BLOCK_ROW=4, BLOCK=2048))),
    KernelSpec("rms_norm_block_fwd_bf16", {"y_ptr": "bf16", "x_ptr": "bf16", "w_ptr": "bf16", "rstd_ptr": "fp32"},
               floats=("eps",), configs=(_c(8, 1, BLOCK_ROW=16, BLOCK=512),), function="rms_norm_block_fwd"),
    KernelSpec("rms_norm_block_bwd", {"dx_ptr": "fp32", "dy_ptr": "fp32", "x_ptr": "fp32", "w_ptr": "fp32",
                                      "rstd_ptr": "fp32", "dw_ptr": "fp32"},
               configs=(_c(8, 1, BLOCK_ROW=16, BLOCK=512), _c(16, 1, BLOCK_ROW=4, BLOCK=2048))),
    KernelSpec("group_norm_fwd", {p: "fp32" for p in ("y_ptr", "x_ptr", "w_ptr", "b_ptr", "mean_ptr", "rstd_ptr")},
               floats=("eps",), configs=(_c(4, 1, CH=16, BLOCK=256), _c(8, 1, CH=32, BLOCK=128))),
    KernelSpec("group_norm_bwd", {p: "fp32" for p in ("dx_ptr", "dy_ptr", "x_ptr", "w_ptr", "mean_ptr", "rstd_ptr",
                                                      "dw_ptr", "db_ptr")},
               configs=(_c(4, 1, CH=16, BLOCK=256), _c(8, 1, CH=32, BLOCK=128))),  # fmt: skip
    # ---- small rows: a softmax of 128-256 columns on 1-2 warps
    KernelSpec("softmax_small", {"out_ptr": "fp32", "in_ptr": "fp32"}, function="softmax",
               configs=(_c(1, 1, BLOCK=128), _c(2, 1, BLOCK=256))),
    # ---- losses and activations
    KernelSpec("cross_entropy", {"logits_ptr": "fp32", "loss_ptr": "fp32", "target_ptr": "i64"},
               configs=_rows((4096, 32), (32768, 32))),
    KernelSpec("cross_entropy_bf16", {"logits_ptr": "bf16", "loss_ptr": "fp32", "target_ptr": "i64"},
               configs=_rows((8192, 32)), function="cross_entropy"),
    KernelSpec("rope_fwd", {"q_ptr": "bf16", "cos_ptr": "fp32", "sin_ptr": "fp32"}, function="rope",
               configs=(_c(4, 1, HEADS=32, HALF=64, BACKWARD=0), _c(8, 1, HEADS=64, HALF=64, BACKWARD=0))),
    KernelSpec("rope_bwd", {"q_ptr": "fp32", "cos_ptr": "fp32", "sin_ptr": "fp32"}, function="rope",
               configs=(_c(4, 1, HEADS=32, HALF=64, BACKWARD=1), _c(4, 1, HEADS=8, HALF=32, BACKWARD=1))),
    KernelSpec("rope_interleaved", {"out_ptr": "fp16", "q_ptr": "fp16", "cos_ptr": "fp32", "sin_ptr": "fp32"},
               configs=(_c(4, 1, HEADS=32, HEAD_DIM=128), _c(4, 1, HEADS=8, HEAD_DIM=64))),
    KernelSpec("swiglu_fwd", {"c_ptr": "bf16", "a_ptr": "bf16", "b_ptr": "bf16"}, configs=_rows((4096, 8), (16384, 32))),
    KernelSpec("swiglu_bwd", {"dc_ptr": "fp32", "a_ptr": "fp32", "b_ptr": "fp32"}, configs=_rows((4096, 8), (1024, 4))),
    KernelSpec("geglu_fwd", {"c_ptr": "fp16", "a_ptr": "fp16", "b_ptr": "fp16"}, configs=_rows((4096, 8), (1024, 4))),
    KernelSpec("geglu_bwd", {"dc_ptr": "fp32", "a_ptr": "fp32", "b_ptr": "fp32"}, configs=_rows((4096, 8), (16384, 32))),
    KernelSpec("sparsemax_fwd", {"y_ptr": "fp32", "x_ptr": "fp32"}, configs=_rows((256, 4), (1024, 8))),
    KernelSpec("sparsemax_bwd", {"dx_ptr": "fp32", "dy_ptr": "fp32", "y_ptr": "fp32"},
               configs=_rows((1024, 4), (4096, 16))),
    KernelSpec("dropout", {"y_ptr": "fp32", "x_ptr": "fp32"}, floats=("p",), configs=_rows((1024, 4), (4096, 16))),
    KernelSpec("dropout_bf16", {"y_ptr": "bf16", "x_ptr": "bf16"}, floats=("p",), configs=_rows((2048, 8)),
               function="dropout"),
    # ---- attention backward
    KernelSpec("attn_bwd_preprocess", {"o_ptr": "fp16", "do_ptr": "fp16", "delta_ptr": "fp32"},
               configs=(_c(4, 1, BM=128, HEAD=64), _c(8, 1, BM=128, HEAD=128))),
    KernelSpec("attn_bwd_dkdv", {**dict.fromkeys(_ATTN, "fp16"), "dk_ptr": "fp16", "dv_ptr": "fp16", **_ATTN_OUT},
               floats=("sm_scale",), configs=ATTN_BWD),
    KernelSpec("attn_bwd_dq", {**dict.fromkeys(_ATTN, "fp16"), "dq_ptr": "fp16", **_ATTN_OUT},
               floats=("sm_scale",), configs=ATTN_BWD),
    KernelSpec("attn_bwd_dq_bf16", {**dict.fromkeys(_ATTN, "bf16"), "dq_ptr": "bf16", **_ATTN_OUT},
               floats=("sm_scale",), configs=ATTN_BWD[:1], function="attn_bwd_dq"),
    # ---- MoE gathers
    KernelSpec("moe_gemm", {"a_ptr": "bf16", "b_ptr": "bf16", "c_ptr": "bf16", "topk_weights_ptr": "fp32",
                            "sorted_ids_ptr": "i32", "expert_ids_ptr": "i32", "padded_ptr": "i32"},
               configs=(_gemm(64, 64, 32, 4, 3, TOP_K=2), _gemm(16, 64, 64, 4, 3, TOP_K=2),
                        _gemm(128, 128, 64, 8, 3, TOP_K=8))),  # fmt: skip
    KernelSpec("moe_gather_rows", {"out_ptr": "bf16", "x_ptr": "bf16", "idx_ptr": "i32"},
               configs=(_c(4, 1, BM=16, BN=256), _c(8, 1, BM=32, BN=512))),
)
