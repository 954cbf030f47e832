"""Switch our pipeline into the installed Intel Triton backend.

    import xpu_passes.integration.plugin as plugin
    plugin.enable()            # every compile for an xpu target uses the `xpu` pipeline
    plugin.disable()           # back to triton-xpu's own

or set `XPU_PASSES_PIPELINE=xpu` (options after a colon: `xpu:rewrite_tensor_pointer,rlc=all,strict`,
or a pass-pipeline text: `builtin.module(triton-annotate-module{target-arch=spir64}, ...)`):
the `.pth` hook installed with the package (`xpu_passes._autoload`) enables the plugin
as soon as triton is imported, without any import of ours in the user's program. The
backend's cache key includes our version, the pipeline text and the versions of the
packages that provided its passes, so no natively compiled kernel
is served from Triton's cache, and vice versa. `use_offline_pvc_target()` lets
`triton.compile(src)` build for PVC on a machine without an Intel GPU (the backend
otherwise probes a SYCL device, and Triton asks the active driver for the target);
`pvc_target()` is that target, for `triton.compile(src, target=...)`.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

from xpu_passes import __version__
from xpu_passes.integration import oracle
from xpu_passes.integration import roundtrip
from xpu_passes.integration.pipeline import PIPELINES, PassFailure, PipelineError, Plan, plan, run_plan

ENV = "XPU_PASSES_PIPELINE"
# Any value but ""/"0"/"false" makes failures of ours errors by default (the test suite sets it).
STRICT_ENV = "XPU_PASSES_STRICT"

# Native methods of each patched copy of XPUBackend (triton loads the registry's copy
# from a file, and `import triton.backends.intel.compiler` makes a second one).
_ORIGINAL: dict[type, dict[str, Any]] = {}
_OFFLINE: set[type] = set()  # classes built with PVC's properties
# (plan, strict) while enabled, so copies loaded later follow suit.
_ACTIVE: tuple[Plan, bool] | None = None


class XpuPassesWarning(UserWarning):
    """A failure of ours: the kernel was compiled with triton-xpu's own pipeline instead."""


def strict_by_default() -> bool:
    return os.environ.get(STRICT_ENV, "").strip().lower() not in ("", "0", "false", "no")


def backend_class() -> Any:
    """The XPUBackend class triton.compile instantiates (triton loads its own copy)."""
    from triton.backends import backends

    if "intel" not in backends:
        raise PipelineError("the installed triton has no Intel backend (pip install 'xpu-passes[triton]')")
    return backends["intel"].compiler


def backend_classes() -> list[Any]:
    """Every loaded copy of XPUBackend: the registry's, then the importable module's."""
    classes = [backend_class()]
    module = sys.modules.get("triton.backends.intel.compiler")
    if module is not None and getattr(module, "XPUBackend", None) not in (None, *classes):
        classes.append(module.XPUBackend)
    return classes


def enable(pipeline: str = "xpu", strict: bool | None = None, **options: Any) -> None:
    """Make the Intel backend's TTGIR stage run `pipeline`: a name (`xpu`, `native`) with
    `options`, or an MLIR pass-pipeline text (see `xpu_passes.integration.pipeline.pipeline_text`).

    Any failure of ours (reading triton's IR, a pass, triton rejecting our output)
    compiles the kernel with triton-xpu's own pipeline, with one `XpuPassesWarning`
    naming the pass, the op and its line; `strict=True` (default: `XPU_PASSES_STRICT`)
    raises `PassFailure` instead. Bad pipelines raise `PipelineError` here, not at compile.
    """
    global _ACTIVE
    strict = strict_by_default() if strict is None else bool(strict)
    _ACTIVE = (plan(pipeline, **options), strict)
    for cls in backend_classes():
        _patch(cls)


def adopt(cls: Any) -> None:
    """A copy of XPUBackend imported after `enable()`: switch it on as well."""
    if _ACTIVE is not None:
        _patch(cls)


def cache_tag(p: Plan, strict: bool) -> str:
    """What the backend's cache key gets from us: our version, the text, its passes' packages."""
    packages = ",".join(f"{k}=={v}" for k, v in p.providers.items())
    return f"xpu-passes-{__version__}-[{p.text}]-[{packages}]-strict={strict}"


def compile_ttgir(p: Plan, strict: bool, native_make_ttgir: Any, mod: Any, metadata: dict[str, Any], opt: Any,
                  properties: dict[str, Any]) -> Any:
    """The TTGIR stage with plan `p`; not strict: on any failure of ours, `native_make_ttgir` on the input."""
    if strict:
        return run_plan(mod, metadata, opt, properties, p)
    t = roundtrip.now()
    backup = str(mod)  # printing is cheap; parsed again only on failure
    roundtrip.record("plugin", t)
    threads = opt.threads_per_warp
    try:
        return run_plan(mod, metadata, opt, properties, p, backup)
    except Exception as e:  # a bug of ours is no reason to fail a compile either
        what = str(e) if isinstance(e, PassFailure) else f"internal error: {type(e).__name__}: {e}"
        warnings.warn(f"xpu-passes: {what}; compiled with triton-xpu's own pipeline", XpuPassesWarning, stacklevel=3)
    opt.threads_per_warp = threads
    return native_make_ttgir(oracle.parse(backup, mod.context), metadata, opt, properties)


def _patch(cls: Any) -> None:
    assert _ACTIVE is not None
    p, strict = _ACTIVE
    saved = _ORIGINAL.setdefault(cls, {name: cls.__dict__[name] for name in ("make_ttgir", "hash")})
    native_make_ttgir, native_hash = saved["make_ttgir"].__func__, saved["hash"]
    tag = cache_tag(p, strict)

    def make_ttgir(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any]) -> Any:
        return compile_ttgir(p, strict, native_make_ttgir, mod, metadata, opt, properties)

    def hash(self: Any) -> str:
        return f"{native_hash(self)}-{tag}"

    cls.make_ttgir = staticmethod(make_ttgir)
    cls.hash = hash


def disable() -> None:
    """Restore triton-xpu's own TTGIR stage and cache key."""
    global _ACTIVE
    _ACTIVE = None
    for cls, saved in _ORIGINAL.items():
        for name, method in saved.items():
            setattr(cls, name, method)
    _ORIGINAL.clear()


def enabled() -> bool:
    return _ACTIVE is not None


def pvc_target() -> Any:
    """Triton's target for Data Center GPU Max (PVC): `triton.compile(src, target=pvc_target())`."""
    return oracle.pvc_target()


def use_offline_pvc_target() -> None:
    """Compile for PVC on a machine without an Intel GPU.

    The backend gets PVC's properties instead of probing a SYCL device, and where Triton finds
    no active GPU driver, an offline one answers `triton.compile(src)`'s question for the
    current target with `pvc_target()` (Triton's own `driver.set_active`); launching a kernel
    still needs a device and says so. On a machine with a GPU, its driver is left alone.
    """
    from triton.backends.compiler import BaseBackend

    cls = backend_class()
    if cls not in _OFFLINE:
        _OFFLINE.add(cls)

        def init(self: Any, target: Any) -> None:
            BaseBackend.__init__(self, target)
            self.device_arch = None
            self.binary_ext = "spv"
            self.properties = dict(oracle.PVC_PROPERTIES)

        cls.__init__ = init
    _set_offline_driver()


def _set_offline_driver() -> None:
    from triton.backends import backends
    from triton.backends.driver import DriverBase
    from triton.runtime.driver import driver

    if driver.active is not driver.default or any(b.driver.is_active() for b in backends.values()):
        return  # a driver set by the user (or by an earlier call), or a real GPU

    class OfflinePVCDriver(DriverBase):
        """Compiles for PVC; anything that needs a device raises, naming it."""

        @classmethod
        def is_active(cls) -> bool:
            return False

        def get_current_target(self) -> Any:
            return pvc_target()

        def get_active_torch_device(self) -> Any:
            return self._no_device("get_active_torch_device")

        def get_benchmarker(self) -> Any:
            return self._no_device("get_benchmarker")

        def __getattr__(self, name: str) -> Any:
            return self._no_device(name)

        @staticmethod
        def _no_device(what: str) -> Any:
            raise RuntimeError(f"no Intel GPU here: xpu-passes' offline PVC target (use_offline_pvc_target) "
                               f"compiles kernels but cannot {what}")

    driver.set_active(OfflinePVCDriver())


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`xpu:rewrite_tensor_pointer,rlc=all` -> ("xpu", {"rewrite_tensor_pointer": True, "rlc": "all"});
    a pass-pipeline text -> (text, {})."""
    name, _, opts = spec.partition(":")
    if name.strip() not in PIPELINES:
        return spec.strip(), {}
    options: dict[str, Any] = {}
    for opt in filter(None, (o.strip() for o in opts.split(","))):
        key, eq, value = opt.partition("=")
        value = value.strip()
        options[key.strip()] = {"true": True, "false": False}.get(value, value) if eq else True
    return name.strip(), options


def _from_environment() -> None:
    spec = os.environ.get(ENV)
    if not spec or not oracle.available():
        return
    name, options = parse_spec(spec)
    try:
        enable(name, **options)
    except PipelineError as e:
        raise PipelineError(f"{ENV}={spec!r}: {e}") from None


_from_environment()
