"""Switch our pipeline into the installed Intel Triton backend.

    import xpu_passes.triton_plugin as plugin
    plugin.enable()            # every compile for an xpu target uses the `xpu` pipeline
    plugin.disable()           # back to triton-xpu's own

or set `XPU_PASSES_PIPELINE=xpu` (options after a colon: `xpu:rewrite_tensor_pointer`)
and `import xpu_passes.triton_plugin`. The backend's cache key includes our version
and pipeline, so no natively compiled kernel is served from Triton's cache, and vice
versa. `use_offline_pvc_target()` lets `triton.compile` build for PVC on a machine
without an Intel GPU (the backend otherwise probes a SYCL device).
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from xpu_passes import __version__, oracle
from xpu_passes.pipeline import PIPELINES, PassFailure, PipelineError, run_ttgir

_ORIGINAL: dict[str, Any] = {}


def backend_class() -> Any:
    """The XPUBackend class triton.compile instantiates (triton loads its own copy)."""
    from triton.backends import backends

    return backends["intel"].compiler


def _save(cls: Any, name: str) -> None:
    if name not in _ORIGINAL:
        _ORIGINAL[name] = cls.__dict__[name]


def enable(pipeline: str = "xpu", fallback: bool = False, **options: Any) -> None:
    """Make the Intel backend's TTGIR stage run `pipeline` with `options`.

    A pass of ours that fails raises a compile error naming the pass and the op;
    with `fallback=True` the kernel is compiled natively instead, with a warning.
    """
    if pipeline not in PIPELINES:
        raise PipelineError(f"unknown pipeline '{pipeline}' (choose from {', '.join(PIPELINES)})")
    cls = backend_class()
    _save(cls, "make_ttgir")
    _save(cls, "hash")
    native_hash = _ORIGINAL["hash"]
    tag = f"xpu-passes-{__version__}-{pipeline}-{sorted(options.items())}-fallback={fallback}"

    def make_ttgir(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any]) -> Any:
        if not fallback:
            return run_ttgir(mod, metadata, opt, properties, pipeline, **options)
        backup = oracle.parse(str(mod), mod.context)  # our passes may have changed `mod`
        try:
            return run_ttgir(mod, metadata, opt, properties, pipeline, **options)
        except PassFailure as e:
            warnings.warn(f"xpu-passes: {e}; compiling with triton-xpu's own pipeline", stacklevel=2)
            return _ORIGINAL["make_ttgir"].__func__(backup, metadata, opt, properties)

    def hash(self: Any) -> str:
        return f"{native_hash(self)}-{tag}"

    cls.make_ttgir = staticmethod(make_ttgir)
    cls.hash = hash


def disable() -> None:
    """Restore triton-xpu's own TTGIR stage and cache key."""
    cls = backend_class()
    for name in ("make_ttgir", "hash"):
        if name in _ORIGINAL:
            setattr(cls, name, _ORIGINAL.pop(name))


def enabled() -> bool:
    return "make_ttgir" in _ORIGINAL


def use_offline_pvc_target() -> None:
    """Build the backend with PVC properties instead of probing a device."""
    from triton.backends.compiler import BaseBackend

    cls = backend_class()
    if "__init__" in _ORIGINAL:
        return
    _ORIGINAL["__init__"] = cls.__init__

    def init(self: Any, target: Any) -> None:
        BaseBackend.__init__(self, target)
        self.device_arch = None
        self.binary_ext = "spv"
        self.properties = dict(oracle.PVC_PROPERTIES)

    cls.__init__ = init


def _from_environment() -> None:
    spec = os.environ.get("XPU_PASSES_PIPELINE")
    if not spec or not oracle.available():
        return
    name, _, opts = spec.partition(":")
    enable(name, **{o: True for o in opts.split(",") if o})


_from_environment()
