"""`XPU_PASSES_PIPELINE` without `import xpu_passes.integration.plugin`: a lazy import hook.

The `xpu-passes-autoload.pth` file installed with the package calls `install()` at
interpreter start-up, and only when the variable is set. Importing triton then would
slow every Python start, so `install()` only puts a finder on `sys.meta_path` that
watches two modules and runs a callback right after each has been executed:

- `triton`: the backend registry (`triton.backends.backends["intel"].compiler`, the
  class `triton.compile` uses) exists by then; importing our plugin enables it from
  the environment.
- `triton.backends.intel.compiler`: a second copy of the backend class when imported
  by name; the plugin patches it too if it is on.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: importing typing would cost ~15 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any


def _enable_plugin(_triton: ModuleType) -> None:
    from xpu_passes.pipeline_syntax import PipelineError

    try:
        import xpu_passes.integration.plugin  # noqa: F401  # enables from the environment on import
    except PipelineError as e:  # the user's setting, not our code: its message alone, no import traceback
        raise SystemExit(f"xpu-passes: error: {e}") from None


def _adopt_backend(module: ModuleType) -> None:
    plugin = sys.modules.get("xpu_passes.integration.plugin")
    if plugin is not None:
        plugin.adopt(module.XPUBackend)


class AfterImportHook:  # a sys.meta_path finder; duck-typed, importlib.abc is slow to import
    """Finds nothing itself: lets the other finders find `name` and wraps the loader."""

    def __init__(self, callbacks: dict[str, Callable[[ModuleType], None]]) -> None:
        self.callbacks = callbacks

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        callback = self.callbacks.get(fullname)
        if callback is None:
            return None
        spec = self._real_spec(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_call(module: ModuleType) -> None:
            exec_module(module)
            callback(module)

        # Patch this module's own loader instance (file loaders are one per module), so
        # `__loader__` keeps its type and get_source / resources work as before.
        spec.loader.exec_module = exec_then_call  # type: ignore[method-assign]
        return spec

    def _real_spec(self, fullname: str, path: Any, target: Any) -> ModuleSpec | None:
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        return None


def install() -> None:
    """Register the hook once; if triton is already imported, act now."""
    if any(isinstance(f, AfterImportHook) for f in sys.meta_path):
        return
    callbacks = {"triton": _enable_plugin, "triton.backends.intel.compiler": _adopt_backend}
    sys.meta_path.insert(0, AfterImportHook(callbacks))
    for name, callback in callbacks.items():
        if name in sys.modules:
            callback(sys.modules[name])
