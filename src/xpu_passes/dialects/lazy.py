"""A dialect's rarely used constructs, imported the first time a text names one of them.

Intel main's newer ops (descriptors, warp specialization, masks ...) and other backends'
layouts are not in their dialect's `Dialect`: `LAZY_MODULES` names each module of them
and the constructs it defines, and `LazyContext` (the context `make_context` gives)
imports a module when a text first names one of its constructs. The dialect packages
export these modules' names on first use too (`package_getattr`), so importing `tt`
imports neither. `tests/python/dialects/test_lazy.py` checks the names here against the
modules' classes.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

from xdsl.context import Context
from xdsl.ir import Attribute, Dialect, Operation, TypeAttribute

# Layout mnemonics of Triton's other backends (TritonGPUAttrDefs.td, Intel main): ttg's, kept verbatim.
FOREIGN_LAYOUTS = (
    "nvidia_mma", "amd_mfma", "amd_wmma", "nvmma_shared", "padded_shared", "partitioned_shared",
    "shared_linear", "amd_rotating_shared", "generic_linear",
)  # fmt: skip

_P = "xpu_passes.dialects."
# Module -> the names of the constructs it defines (ops, attributes, types).
LAZY_MODULES: dict[str, tuple[str, ...]] = {
    _P + "ttg.foreign_layouts": tuple(f"ttg.{m}" for m in FOREIGN_LAYOUTS),
    _P + "tt.descriptors": (
        "tt.make_tensor_descriptor", "tt.descriptor_load", "tt.experimental_descriptor_load",
        "tt.descriptor_store", "tt.experimental_descriptor_store", "tt.descriptor_reduce",
        "tt.descriptor_gather", "tt.experimental_descriptor_gather", "tt.descriptor_scatter",
        "tt.experimental_descriptor_scatter", "tt.reinterpret_tensor_descriptor",
    ),
    _P + "tt.ops_main": (
        "tt.unsplat", "tt.atomic_poll", "tt.map_elementwise", "tt.map_elementwise.return",
        "tt.grid_dependency_wait", "tt.grid_dependency_launch_dependents",
    ),
    _P + "ttg.ops_main": (
        "ttg.barrier", "ttg.memdesc_reshape", "ttg.memdesc_reinterpret", "ttg.memdesc_index",
        "ttg.memdesc_subslice", "ttg.local_gather", "ttg.local_scatter", "ttg.predicate_stage", "ttg.mask",
        "ttg.mask.return", "ttg.local_atomic_scatter_rmw",
    ),
    _P + "ttg.ops_warp": (
        "ttg.warp_specialize", "ttg.warp_specialize.partitions", "ttg.warp_yield", "ttg.warp_return",
        "ttg.warp_id",
    ),
    _P + "ttg.ops_async": ("ttg.async_wait", "ttg.async_commit_group", "ttg.async_copy_global_to_local"),
    _P + "ttig.ops_main": (
        "ttig.descriptor_prefetch", "ttig.extract_desc", "ttig.2d_block_load", "ttig.2d_block_load_from_ptr",
        "ttig.descriptor_gather", "ttig.descriptor_scatter",
    ),
}  # fmt: skip

# Construct name -> its module.
LAZY: dict[str, str] = {name: module for module, names in LAZY_MODULES.items() for name in names}


def _named(values: Iterable[Any], names: frozenset[str]) -> dict[str, type]:
    found: dict[str, type] = {}
    for value in values:
        for cls in value if isinstance(value, list) else (value,):  # (foreign_layouts keeps a list)
            if isinstance(cls, type) and getattr(cls, "name", None) in names:
                found.setdefault(cls.name, cls)  # type: ignore[attr-defined]
    return found


@cache  # (once per process: the dialect's traits attached once)
def classes_of(module: str) -> tuple[type, ...]:
    """The construct classes `module` defines, as `LAZY_MODULES` names them."""
    from xpu_passes.dialects import traits

    names = frozenset(LAZY_MODULES[module])
    found = _named(vars(importlib.import_module(module)).values(), names)
    if set(found) != names:
        raise LookupError(f"{module} does not define {sorted(names - set(found))} (dialects/lazy.py)")
    ops = [c for c in found.values() if issubclass(c, Operation)]
    traits.attach((op for op in ops if op.name.startswith("tt.") and op.name not in traits.NOT_TT_OP), traits.TT_OP)
    traits.attach((op for op in ops if op.name.startswith("ttg.")), traits.TTG_OP)
    return tuple(found.values())


def with_lazy(dialect: Dialect) -> Dialect:
    """`dialect` with its lazy constructs imported (one Dialect listing every class)."""
    modules = sorted({m for name, m in LAZY.items() if name.split(".", 1)[0] == dialect.name})
    classes = [cls for module in modules for cls in classes_of(module)]
    if not classes:
        return dialect
    ops = [c for c in classes if issubclass(c, Operation)]
    attrs = [c for c in classes if not issubclass(c, Operation)]
    return Dialect(dialect.name, [*dialect.operations, *ops], [*dialect.attributes, *attrs])


class LazyContext(Context):
    """xDSL's Context that also imports a lazy construct's module when a name asked for is one."""

    def __init__(self, allow_unregistered: bool = False) -> None:
        super().__init__(allow_unregistered=allow_unregistered)
        self.pending: dict[str, str] = dict(LAZY)

    def clone(self) -> LazyContext:
        new = super().clone()  # (a plain Context: made ours, the constructs not yet named still pending)
        new.__class__ = LazyContext
        assert isinstance(new, LazyContext)
        new.pending = dict(self.pending)
        return new

    def load_pending(self, name: str) -> None:
        """If `name` is a lazy construct not loaded yet, load its module's constructs."""
        module = self.pending.get(name)
        if module is None:
            return
        for other in LAZY_MODULES[module]:
            self.pending.pop(other, None)
        for cls in classes_of(module):
            if issubclass(cls, Operation):
                self.load_op(cls)
            else:
                self.load_attr_or_type(cls)

    def get_optional_op(self, name: str, *, dialect_stack: Sequence[str] = ()) -> type[Operation] | None:
        if self.pending:  # (before xDSL's lookup: it would make an unregistered op of the name)
            self.load_pending(name)
            for dialect in dialect_stack:
                self.load_pending(f"{dialect}.{name}")
        return super().get_optional_op(name, dialect_stack=dialect_stack)

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        if self.pending:
            self.load_pending(name)
        return super().get_optional_attr(name)

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        if self.pending:
            self.load_pending(name)
        return super().get_optional_type(name)


def package_getattr(package: str) -> Callable[[str], Any]:
    """A dialect package's module `__getattr__`: a name in its `__all__` that one of its lazy
    modules defines, imported on first use (then kept on the package)."""

    def __getattr__(name: str) -> Any:
        pkg = sys.modules[package]
        if name in getattr(pkg, "__all__", ()):
            for module in LAZY_MODULES:
                if module.startswith(package + "."):
                    found = vars(importlib.import_module(module)).get(name, _MISSING)
                    if found is not _MISSING:
                        setattr(pkg, name, found)
                        return found
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


_MISSING = object()
