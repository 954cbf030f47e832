"""Our passes, one per module. Importing a module registers its pass (transforms.base.register).

The flags and modules are listed in xpu_passes.registry.OURS, which xpu-opt and pipelines
read without importing the passes.
"""

from xpu_passes.transforms.base import PASSES, PassError, XpuPass, collecting_remarks, register


def load_all() -> dict:
    """Import every pass of ours; returns transforms.base.PASSES (flag -> factory)."""
    import importlib

    from xpu_passes.registry import OURS

    for mod, _ in OURS.values():
        importlib.import_module(f"xpu_passes.transforms.{mod}")
    return PASSES


__all__ = ["PASSES", "PassError", "XpuPass", "collecting_remarks", "load_all", "register"]
