"""liger-kernel (LLM training): normalizations, losses, activations, RoPE, through its autograd Functions.

Forward and backward of each op on small CPU tensors with LLM row widths (hidden 1024/4096/8192,
vocabulary 32000), bf16 and fp32: the wrappers compute BLOCK_SIZE and num_warps from the widths
(`calculate_settings`) and take their XPU branches (infer_device() is "xpu" under the fake device).
"""

from __future__ import annotations

from .capture import Recorder
from .common import call, grad_of

PACKAGE = "liger-kernel"
# The wrappers' `X.device.type == "xpu"` branches (layer_norm.py, rms_norm.py).
XPU_OPTIONS = {
    "_layer_norm_forward_kernel": {"grf_mode": "large"},
    "_layer_norm_backward_kernel": {"grf_mode": "large", "num_warps": 32, "num_stages": 4},
    "_rms_norm_forward_kernel": {"grf_mode": "large"},
    "_rms_norm_backward_kernel": {"grf_mode": "large"},
}


def launches(rec: Recorder) -> None:
    import torch

    from liger_kernel.ops import (cross_entropy, dyt, fused_linear_cross_entropy, fused_linear_jsd, geglu,
                                  group_norm, grpo_loss, jsd, kl_div, layer_norm, qwen2vl_mrope, rms_norm, rope,
                                  sparsemax, swiglu, tvd)

    rec.xpu_options.update(XPU_OPTIONS)
    g = torch.Generator().manual_seed(0)

    def t(*shape: int, dtype: torch.dtype = torch.float32, grad: bool = True) -> torch.Tensor:
        return torch.randn(*shape, generator=g, dtype=dtype).requires_grad_(grad)

    V, BT = 32000, 4
    for dt in (torch.bfloat16, torch.float32):
        d = str(dt).split(".")[-1]
        for H in (1024, 4096, 8192):
            call(rec, f"rms_norm {d} H={H}", lambda: grad_of(rms_norm.LigerRMSNormFunction.apply(t(BT, H, dtype=dt), t(H, dtype=dt), 1e-6, 0.0, "llama", False)))
            call(rec, f"rms_norm gemma {d} H={H}", lambda: grad_of(rms_norm.LigerRMSNormFunction.apply(t(BT, H, dtype=dt), t(H, dtype=dt), 1e-6, 1.0, "gemma", False)))
            call(rec, f"layer_norm {d} H={H}", lambda: grad_of(layer_norm.LigerLayerNormFunction.apply(t(BT, H, dtype=dt), t(H, dtype=dt), t(H, dtype=dt), 1e-6)))
            call(rec, f"swiglu {d} I={H}", lambda: grad_of(swiglu.LigerSiLUMulFunction.apply(t(BT, H, dtype=dt), t(BT, H, dtype=dt))))
            call(rec, f"geglu {d} I={H}", lambda: grad_of(geglu.LigerGELUMulFunction.apply(t(BT, H, dtype=dt), t(BT, H, dtype=dt))))
            call(rec, f"dyt {d} H={H}", lambda: grad_of(dyt.LigerDyTFunction.apply(t(BT, H, dtype=dt), t(1, dtype=dt), t(H, dtype=dt), t(H, dtype=dt))))
        lbl = torch.randint(0, V, (BT,), generator=g)
        call(rec, f"cross_entropy {d}", lambda: grad_of(cross_entropy.LigerCrossEntropyFunction.apply(t(BT, V, dtype=dt), lbl, None)[0]))
        call(rec, f"cross_entropy z-loss softcap smoothing {d}", lambda: grad_of(cross_entropy.LigerCrossEntropyFunction.apply(
            t(BT, V, dtype=dt), lbl, None, -100, 1e-4, 0.1, "mean", 30.0, True)[0]))
        call(rec, f"fused_linear_cross_entropy {d}", lambda: grad_of(fused_linear_cross_entropy.LigerFusedLinearCrossEntropyFunction.apply(
            t(BT, 1024, dtype=dt), t(V, 1024, dtype=dt), lbl)[0]))
        call(rec, f"fused_linear_jsd {d}", lambda: grad_of(fused_linear_jsd.LigerFusedLinearJSDFunction.apply(
            t(BT, 1024, dtype=dt), t(V, 1024, dtype=dt), t(BT, 1024, dtype=dt), t(V, 1024, dtype=dt, grad=False))))
        call(rec, f"jsd {d}", lambda: grad_of(jsd.LigerJSDFunction.apply(t(BT, V, dtype=dt), t(BT, V, dtype=dt, grad=False))))
        call(rec, f"kl_div {d}", lambda: grad_of(kl_div.LigerKLDivLossFunction.apply(t(BT, V, dtype=dt), t(BT, V, dtype=dt, grad=False))))
        call(rec, f"tvd {d}", lambda: grad_of(tvd.LigerTVDLossFunction.apply(t(BT, V, dtype=dt), t(BT, V, dtype=dt, grad=False))))
        call(rec, f"group_norm {d}", lambda: grad_of(group_norm.LigerGroupNormFunction.apply(
            t(2, 64, 256, dtype=dt), t(64, dtype=dt), t(64, dtype=dt), 64, 8, 1e-6)))
        call(rec, f"rope {d}", lambda: grad_of(rope.LigerRopeFunction.apply(
            t(1, 32, 16, 128, dtype=dt), t(1, 8, 16, 128, dtype=dt), t(1, 16, 128, dtype=dt, grad=False), t(1, 16, 128, dtype=dt, grad=False))))
        call(rec, f"qwen2vl_mrope {d}", lambda: grad_of(qwen2vl_mrope.LigerQwen2VLMRopeFunction.apply(
            t(1, 28, 16, 128, dtype=dt), t(1, 4, 16, 128, dtype=dt), t(3, 1, 16, 128, dtype=dt, grad=False),
            t(3, 1, 16, 128, dtype=dt, grad=False), [16, 24, 24])))
        call(rec, f"sparsemax {d}", lambda: grad_of(sparsemax.LigerSparsemaxFunction.apply(t(BT, 1000, dtype=dt), -1)))
        call(rec, f"grpo_loss {d}", lambda: grad_of(grpo_loss.GrpoLossFunction.apply(
            t(2, 17, 32000, dtype=dt), None, None, torch.randint(0, V, (2, 16), generator=g), t(2, grad=False),
            torch.ones(2, 16, dtype=torch.int32), 0.9, 0.04, 0.2, 0.2, False)[0]))
        call(rec, f"selective_log_softmax {d}", lambda: grpo_loss.fused_selective_log_softmax(
            t(2, 17, 32000, dtype=dt, grad=False), torch.randint(0, V, (2, 16), generator=g)))
