"""The dialects xpu-passes understands, and the xDSL context that loads them.

Only the canonical names (`tt`, `ttg`, `ttig`) are defined here; the old spellings
(`triton_gpu`, `triton_intel_gpu`) are mapped by `xpu_passes.frontend.spelling`.

Dialects are registered, not loaded: xDSL imports one the first time the text names
one of its ops, attributes or types, so `xpu-opt` starts without importing them all.
A dialect's rarely used constructs (other backends' layouts) are not in its `Dialect`:
`LazyContext` imports them the first time the text names one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from xdsl.context import Context
from xdsl.ir import Attribute, Dialect, Operation, TypeAttribute


def _arith() -> Dialect:
    from xpu_passes.dialects.arith import Arith

    return Arith


def _scf() -> Dialect:
    from xpu_passes.dialects.scf_gpu import Scf

    return Scf


def _math() -> Dialect:
    from xdsl.dialects.math import Math

    return Math


def _func() -> Dialect:
    from xdsl.dialects.func import Func

    return Func


def _cf() -> Dialect:
    from xdsl.dialects.cf import Cf

    return Cf


def _gpu() -> Dialect:
    from xpu_passes.dialects.gpu_forms import GPU

    return GPU


def _ub() -> Dialect:
    from xdsl.dialects.ub import UB

    return UB


@cache  # one Dialect per process: a new context loads it without rebuilding it
def _tt() -> Dialect:
    from xpu_passes.dialects import traits, tt

    traits.attach((op for op in tt.TT.operations if op.name not in traits.NOT_TT_OP), traits.TT_OP)
    return tt.TT


@cache  # one Dialect per process: a new context loads it without rebuilding it
def _ttg() -> Dialect:
    from xpu_passes.dialects import traits, ttg

    traits.attach(ttg.TTG.operations, traits.TTG_OP)
    return ttg.TTG


def _ttig() -> Dialect:
    from xpu_passes.dialects import ttig

    return ttig.TTIG


def _builtin() -> Dialect:
    from xdsl.dialects.builtin import Builtin

    return Builtin


# Dialect name -> loader, in the order all_dialects() gives them.
LOADERS: dict[str, Callable[[], Dialect]] = {
    "builtin": _builtin,
    "arith": _arith,
    "scf": _scf,
    "math": _math,
    "func": _func,
    "cf": _cf,
    "gpu": _gpu,
    "ub": _ub,
    "tt": _tt,
    "ttg": _ttg,
    "ttig": _ttig,
}


# Layout mnemonics of Triton's other backends (TritonGPUAttrDefs.td, Intel main): ttg's, kept verbatim.
FOREIGN_LAYOUTS = (
    "nvidia_mma", "amd_mfma", "amd_wmma", "nvmma_shared", "padded_shared", "partitioned_shared",
    "shared_linear", "amd_rotating_shared", "generic_linear",
)  # fmt: skip


def _foreign() -> Sequence[type]:
    from xpu_passes.dialects.ttg.foreign_layouts import FOREIGN

    return FOREIGN


# A dialect's constructs outside its Dialect, by name -> the loader of the classes defined with
# them (a module's): imported when a text first names one (names here, so nothing is imported).
LAZY: dict[str, Callable[[], Sequence[type]]] = {f"ttg.{m}": _foreign for m in FOREIGN_LAYOUTS}


def _with_lazy(dialect: Dialect) -> Dialect:
    """`dialect` with its lazily imported constructs (one Dialect listing every class)."""
    loads = {load for name, load in LAZY.items() if name.split(".", 1)[0] == dialect.name}
    classes = [cls for load in loads for cls in load()]
    if not classes:
        return dialect
    ops = [c for c in classes if issubclass(c, Operation)]
    attrs = [c for c in classes if not issubclass(c, Operation)]
    return Dialect(dialect.name, [*dialect.operations, *ops], [*dialect.attributes, *attrs])


def all_dialects() -> list[Dialect]:
    """Every dialect with every construct (the lazy ones imported)."""
    return [_with_lazy(load()) for load in LOADERS.values()]


class LazyContext(Context):
    """xDSL's Context that also imports a dialect's lazy constructs (`LAZY`) when first named."""

    def __init__(self, allow_unregistered: bool = False) -> None:
        super().__init__(allow_unregistered=allow_unregistered)
        self.pending: dict[str, Callable[[], Sequence[type]]] = dict(LAZY)

    def clone(self) -> LazyContext:
        new = super().clone()  # (a plain Context: made ours, the constructs not yet named still pending)
        new.__class__ = LazyContext
        assert isinstance(new, LazyContext)
        new.pending = dict(self.pending)
        return new

    def load_pending(self, name: str) -> None:
        """If `name` is a lazy construct not loaded yet, load it and those defined with it."""
        load = self.pending.get(name)
        if load is None:
            return
        for other in [n for n, loader in self.pending.items() if loader is load]:
            del self.pending[other]
        for cls in load():
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


def register_dialects(ctx: Context) -> None:
    """Register every dialect with `ctx`; load only builtin (ops without a dialect prefix).
    A plain xDSL Context gets each dialect with its lazy constructs (it cannot import them later)."""
    for name, load in LOADERS.items():
        ctx.register_dialect(name, load if isinstance(ctx, LazyContext) else _full(load))
    ctx.load_registered_dialect("builtin")


def _full(load: Callable[[], Dialect]) -> Callable[[], Dialect]:
    return lambda: _with_lazy(load())


def make_context(allow_unregistered: bool = False) -> Context:
    ctx = LazyContext(allow_unregistered=allow_unregistered)
    register_dialects(ctx)
    return ctx
