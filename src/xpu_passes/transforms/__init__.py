"""Our passes, one per module. Importing this package registers them all."""

from xpu_passes.transforms.base import PASSES, REMARKS, PassError, XpuPass, register

# Pass modules register themselves on import; list them here.
_PASS_MODULES: tuple[str, ...] = (
    "materialize_block_pointer",
    "remove_layout_conversions",
    "rewrite_tensor_pointer",
    "raise_block_pointer",
    "optimize_block_io_encoding",
    "legalize_block_io_encoding",
)


def load_all() -> dict:
    import importlib

    for mod in _PASS_MODULES:
        importlib.import_module(f"xpu_passes.transforms.{mod}")
    return PASSES


__all__ = ["PASSES", "REMARKS", "PassError", "XpuPass", "load_all", "register"]
