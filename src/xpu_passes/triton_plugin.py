"""Switch our pipeline into the installed Intel Triton backend.

    import xpu_passes.triton_plugin as plugin
    plugin.enable()            # every compile for an xpu target uses the `xpu` pipeline
    plugin.disable()           # back to triton-xpu's own

or set `XPU_PASSES_PIPELINE=xpu` (options after a colon: `xpu:rewrite_tensor_pointer,rlc=all`):
the `.pth` hook installed with the package (`xpu_passes._autoload`) enables the plugin
as soon as triton is imported, without any import of ours in the user's program. The
backend's cache key includes our version and pipeline, so no natively compiled kernel
is served from Triton's cache, and vice versa. `use_offline_pvc_target()` lets
`triton.compile` build for PVC on a machine without an Intel GPU (the backend
otherwise probes a SYCL device).
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

from xpu_passes import __version__, oracle
from xpu_passes.pipeline import PIPELINES, PassFailure, PipelineError, check_options, run_ttgir

ENV = "XPU_PASSES_PIPELINE"

# Native methods of each patched copy of XPUBackend (triton loads the registry's copy
# from a file, and `import triton.backends.intel.compiler` makes a second one).
_ORIGINAL: dict[type, dict[str, Any]] = {}
_OFFLINE: set[type] = set()  # classes built with PVC's properties
# (pipeline, fallback, options) while enabled, so copies loaded later follow suit.
_ACTIVE: tuple[str, bool, dict[str, Any]] | None = None


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


def enable(pipeline: str = "xpu", fallback: bool = False, **options: Any) -> None:
    """Make the Intel backend's TTGIR stage run `pipeline` with `options`.

    A pass of ours that fails raises a compile error naming the pass and the op;
    with `fallback=True` the kernel is compiled natively instead, with a warning.
    """
    global _ACTIVE
    if pipeline not in PIPELINES:
        raise PipelineError(f"unknown pipeline '{pipeline}' (choose from {', '.join(PIPELINES)})")
    check_options(options)
    _ACTIVE = (pipeline, fallback, dict(options))
    for cls in backend_classes():
        _patch(cls)


def adopt(cls: Any) -> None:
    """A copy of XPUBackend imported after `enable()`: switch it on as well."""
    if _ACTIVE is not None:
        _patch(cls)


def _patch(cls: Any) -> None:
    assert _ACTIVE is not None
    pipeline, fallback, options = _ACTIVE
    saved = _ORIGINAL.setdefault(cls, {name: cls.__dict__[name] for name in ("make_ttgir", "hash")})
    native_make_ttgir, native_hash = saved["make_ttgir"].__func__, saved["hash"]
    tag = f"xpu-passes-{__version__}-{pipeline}-{sorted(options.items())}-fallback={fallback}"

    def make_ttgir(mod: Any, metadata: dict[str, Any], opt: Any, properties: dict[str, Any]) -> Any:
        if not fallback:
            return run_ttgir(mod, metadata, opt, properties, pipeline, **options)
        backup = oracle.parse(str(mod), mod.context)  # our passes may have changed `mod`
        try:
            return run_ttgir(mod, metadata, opt, properties, pipeline, **options)
        except PassFailure as e:
            warnings.warn(f"xpu-passes: {e}; compiling with triton-xpu's own pipeline", stacklevel=2)
            return native_make_ttgir(backup, metadata, opt, properties)

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


def use_offline_pvc_target() -> None:
    """Build the backend with PVC properties instead of probing a device."""
    from triton.backends.compiler import BaseBackend

    cls = backend_class()
    if cls in _OFFLINE:
        return
    _OFFLINE.add(cls)

    def init(self: Any, target: Any) -> None:
        BaseBackend.__init__(self, target)
        self.device_arch = None
        self.binary_ext = "spv"
        self.properties = dict(oracle.PVC_PROPERTIES)

    cls.__init__ = init


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`xpu:rewrite_tensor_pointer,rlc=all` -> ("xpu", {"rewrite_tensor_pointer": True, "rlc": "all"})."""
    name, _, opts = spec.partition(":")
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
