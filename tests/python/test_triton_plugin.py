"""End to end: triton.compile for PVC with the plugin on and off.

A GEMM + masked add-matrix kernel (256x256x32, 32 warps) compiled through
`triton.compile` with an xpu target reaches SPIR-V both ways; with our pipeline it
needs no SLM (native: 263,168 bytes), and the two compiles have different cache keys.
"""

from __future__ import annotations

from typing import Any

import pytest

from xpu_passes import oracle

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]


@pytest.fixture()
def plugin(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    from xpu_passes import triton_plugin

    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    triton_plugin.use_offline_pvc_target()
    yield triton_plugin
    triton_plugin.disable()


def _compile(kernel: str = "gemm_add_tensor_ptr", config: str = "256x256x32-w32-s3") -> Any:
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.corpus import find

    spec, cfg = find(kernel, config)
    src = ASTSource(spec.fn, spec.signature(), dict(cfg.constexprs), spec.attrs())
    opts = dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, grf_mode="large")
    return triton.compile(src, target=oracle.pvc_target(), options=opts)


def test_plugin_on_and_off(plugin: Any) -> None:
    native = _compile()
    plugin.enable()
    ours = _compile()
    plugin.disable()
    again = _compile()

    assert native.metadata.shared == 263168 and again.metadata.shared == 263168
    assert ours.metadata.shared == 0
    assert "spv" in ours.asm and len(ours.asm["spv"]) > 0
    assert ours.asm["llir"].count("matrix_mad") == native.asm["llir"].count("matrix_mad")
    assert "ttg.convert_layout" not in ours.asm["ttgir"]
    assert ours.hash != native.hash and again.hash == native.hash


def test_locations_survive_the_round_trip(plugin: Any) -> None:
    plugin.enable()
    k = _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    assert 'loc("' in k.asm["ttgir"] and "kernels.py" in k.asm["ttgir"]
    assert "kernels.py" in k.asm["llir"]  # debug info of the final binary


def test_pipeline_options_change_the_cache_key(plugin: Any) -> None:
    plugin.enable()
    a = _compile("gemm_block_ptr", "64x128x32-w4-s3")
    plugin.enable(rewrite_tensor_pointer=True)
    b = _compile("gemm_block_ptr", "64x128x32-w4-s3")
    assert a.hash != b.hash
    assert b.metadata.shared == a.metadata.shared == 0  # the guard keeps the DPAS block pointers


def test_bad_pipeline_is_refused() -> None:
    from xpu_passes.pipeline import PipelineError, check_order
    from xpu_passes.triton_plugin import enable

    with pytest.raises(PipelineError, match="unknown pipeline"):
        enable("nope")
    with pytest.raises(PipelineError, match="must run after 'tritonintelgpu-materialize-block-pointer'"):
        check_order(["tritonintelgpu-rewrite-tensor-pointer", "tritonintelgpu-materialize-block-pointer"])


def test_a_failing_pass_is_a_compile_error_unless_fallback(plugin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted failure in our RemoveLayoutConversions: named error, or native code with fallback."""
    from xpu_passes.pipeline import PassFailure
    from xpu_passes.transforms.base import PassError
    from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

    def broken(self: Any, ctx: Any, module: Any) -> None:
        raise PassError(next(iter(module.walk())), "planted failure")

    monkeypatch.setattr(RemoveLayoutConversions, "apply", broken)
    plugin.enable()
    with pytest.raises(PassFailure, match="tritonintelgpu-remove-layout-conversions failed on 'builtin.module'.*planted"):
        _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    plugin.enable(fallback=True)
    with pytest.warns(UserWarning, match="planted failure"):
        k = _compile("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    assert k.metadata.shared == 33280  # the native result
