"""Our passes, one per module. Importing this package registers them all."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass

from xpu_passes.transforms.base import PASSES, REMARKS, PassError, XpuPass, register

# Module -> (flag name, summary) of the pass it defines. Declared here, as MLIR's
# Passes.td does, so xpu-opt lists and offers the passes without importing them
# (start-up); tests/python/test_frontend_speed.py checks it against the classes.
CATALOG: dict[str, tuple[str, str]] = {
    "materialize_block_pointer": (
        "tritonintelgpu-materialize-block-pointer",
        "tag block-pointer loads that can be 2D block reads with ttig.block_io",
    ),
    "remove_layout_conversions": (
        "tritonintelgpu-remove-layout-conversions",
        "remove ttg.convert_layout by layout propagation and rematerialization (DPAS epilogues)",
    ),
    "rewrite_tensor_pointer": (
        "tritonintelgpu-rewrite-tensor-pointer",
        "lower block pointers to tensors of pointers, keeping those 2D block I/O can serve",
    ),
    "raise_block_pointer": (
        "tritonintelgpu-raise-block-pointer",
        "raise 2D tensor-of-pointer loads/stores to block pointers, exactly (masks, wrap-around, versioning)",
    ),
    "optimize_block_io_encoding": (
        "tritonintelgpu-optimize-block-io-encoding",
        "give 2D block loads of dot operands the #ttig.subgroup_2d_block layout of their reads",
    ),
    "legalize_block_io_encoding": (
        "tritonintelgpu-legalize-block-io-encoding",
        "fold #ttig.subgroup_2d_block loads into their dot-operand layout (proven), else #ttg.linear",
    ),
}
_PASS_MODULES: tuple[str, ...] = tuple(CATALOG)


def load_all() -> dict[str, Callable[[], type[ModulePass]]]:
    import importlib

    for mod in _PASS_MODULES:
        importlib.import_module(f"xpu_passes.transforms.{mod}")
    return PASSES


def lazy_factories() -> dict[str, Callable[[], type[ModulePass]]]:
    """Flag name -> factory that imports the pass's module when first called."""
    return {name: _importer(module, name) for module, (name, _) in CATALOG.items()}


def _importer(module: str, name: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        import importlib

        importlib.import_module(f"xpu_passes.transforms.{module}")
        return PASSES[name]()

    return load


__all__ = ["CATALOG", "PASSES", "REMARKS", "PassError", "XpuPass", "lazy_factories", "load_all", "register"]
