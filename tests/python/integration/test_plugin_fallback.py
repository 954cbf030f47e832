"""The plugin never breaks a compile: a pass of ours that fails, writes IR triton-xpu rejects or
crashes, or our parser refusing triton's IR, gives triton-xpu's own result with one warning (by
default) or an error (strict, as the test suite runs)."""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any

import pytest
from xdsl.passes import ModulePass

from integration.plugin_support import compile_kernel, needs_triton


@dataclass(frozen=True)
class FailOnDot(ModulePass):
    """Gives up on the first tt.dot it meets, as a pass that cannot handle an op does."""

    name = "test-fail-on-dot"

    def apply(self, ctx: Any, op: Any) -> None:
        from xpu_passes.transforms.base import PassError

        dot = next(o for o in op.walk() if o.name == "tt.dot")
        raise PassError(dot, "cannot handle this dot")


@dataclass(frozen=True)
class DropReturn(ModulePass):
    """Leaves a function without its terminator: output triton-xpu must reject."""

    name = "test-drop-return"

    def apply(self, ctx: Any, op: Any) -> None:
        next(o for o in op.walk() if o.name == "tt.return").detach()


@dataclass(frozen=True)
class Crash(ModulePass):
    """A user pass with a bug."""

    name = "test-crash"

    def apply(self, ctx: Any, op: Any) -> None:
        {}["missing"]  # noqa: B018


def _after_mbp(pass_name: str) -> str:
    """The default pipeline's text with `pass_name` right after our MaterializeBlockPointer."""
    from xpu_passes.integration.pipeline import MBP, pipeline_text

    return pipeline_text("xpu").replace(f"{MBP},", f"{MBP},{pass_name},", 1)


@pytest.fixture()
def failing_passes() -> Any:
    from xpu_passes.registry import _REGISTERED, register_pass

    for cls in (FailOnDot, DropReturn, Crash):
        register_pass(cls)
    yield
    for cls in (FailOnDot, DropReturn, Crash):
        _REGISTERED.pop(cls.name, None)


@needs_triton
@pytest.mark.parametrize(("pass_name", "message"), [
    # the pass, the op, the kernel's source line of the op, its line in the TTGIR
    ("test-fail-on-dot", r"test-fail-on-dot failed on 'tt.dot' at .*kernels.py:\d+:\d+, ttgir line \d+: "
                         r"cannot handle this dot"),
    ("test-drop-return", r"triton-xpu rejected the output of test-drop-return: loc\(.*kernels.py\":\d+:\d+\): "
                         r"error: block with no terminator"),
    ("test-crash", r"test-crash raised KeyError: 'missing' \(at .*test_plugin_fallback.py:\d+\)"),
])  # fmt: skip
def test_a_failure_of_ours_compiles_natively_with_one_warning(plugin: Any, failing_passes: Any, pass_name: str,
                                                              message: str) -> None:
    """By default (not strict) the kernel gets triton-xpu's own code and exactly one warning."""
    native = compile_kernel("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    plugin.enable(_after_mbp(pass_name), strict=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k = compile_kernel("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    ours = [w for w in caught if issubclass(w.category, plugin.XpuPassesWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert re.search(message, str(ours[0].message)), str(ours[0].message)
    assert "compiled with triton-xpu's own pipeline" in str(ours[0].message)
    assert k.metadata.shared == native.metadata.shared == 33280 and len(k.asm["spv"]) > 0
    assert k.asm["ttgir"] == native.asm["ttgir"]  # the native result, bit for bit


@needs_triton
def test_strict_makes_a_failure_of_ours_an_error(plugin: Any, failing_passes: Any) -> None:
    from xpu_passes.integration.pipeline import PassFailure

    plugin.enable(_after_mbp("test-fail-on-dot"), strict=True)
    with pytest.raises(PassFailure, match=r"test-fail-on-dot failed on 'tt.dot' at .*kernels.py:\d+"):
        compile_kernel("gemm_add_tensor_ptr", "64x128x32-w4-s3")


@needs_triton
def test_the_test_suite_runs_strict(plugin: Any, failing_passes: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """conftest.py sets XPU_PASSES_STRICT: enable() with no strict argument raises."""
    from xpu_passes.integration.pipeline import PassFailure

    assert plugin.strict_by_default()
    plugin.enable(_after_mbp("test-crash"))
    with pytest.raises(PassFailure, match="test-crash raised KeyError"):
        compile_kernel("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    monkeypatch.setenv(plugin.STRICT_ENV, "0")
    assert not plugin.strict_by_default()


@needs_triton
def test_unreadable_ttgir_falls_back(plugin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Our parser refusing triton's IR (planted: it refuses tt.dot) is a fallback, located in the TTGIR."""
    from xpu_passes.integration import roundtrip
    from xpu_passes.frontend import TTGIRError

    real = roundtrip.parse_module

    def picky(ctx: Any, text: str, name: str = "<stdin>", **kw: Any) -> Any:
        line = next((i for i, t in enumerate(text.splitlines(), 1) if "tt.dot" in t), 0)
        if line:
            raise TTGIRError(name, line, 5, "unsupported op 'tt.dot'")
        return real(ctx, text, name, **kw)

    monkeypatch.setattr(roundtrip, "parse_module", picky)
    plugin.enable("xpu", strict=False)
    with pytest.warns(plugin.XpuPassesWarning, match=r"could not read triton's TTGIR .*<ttgir>:\d+:5: error: "
                                                     r"unsupported op 'tt.dot'"):
        k = compile_kernel("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    assert k.metadata.shared == 33280
