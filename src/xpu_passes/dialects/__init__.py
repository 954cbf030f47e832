"""The dialects xpu-passes understands, and the xDSL context that loads them.

Only the canonical names (`tt`, `ttg`, `ttig`) are defined here; the old spellings
(`triton_gpu`, `triton_intel_gpu`) are mapped by `xpu_passes.frontend.spelling`.

Dialects are registered, not loaded: xDSL imports one the first time the text names
one of its ops, attributes or types, so `xpu-opt` starts without importing them all.
A dialect's rarely used constructs (Intel main's newer ops, other backends' layouts) are
not in its `Dialect`: the context imports them the first time the text names one (lazy.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from xdsl.context import Context
from xdsl.ir import Dialect

from xpu_passes.dialects.lazy import FOREIGN_LAYOUTS, LazyContext, with_lazy


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


def all_dialects() -> list[Dialect]:
    """Every dialect with every construct (the lazy ones imported)."""
    return [with_lazy(load()) for load in LOADERS.values()]


def register_dialects(ctx: Context) -> None:
    """Register every dialect with `ctx`; load only builtin (ops without a dialect prefix).
    A plain xDSL Context gets each dialect with its lazy constructs (it cannot import them later)."""
    for name, load in LOADERS.items():
        ctx.register_dialect(name, load if isinstance(ctx, LazyContext) else _full(load))
    ctx.load_registered_dialect("builtin")


def _full(load: Callable[[], Dialect]) -> Callable[[], Dialect]:
    return lambda: with_lazy(load())


def make_context(allow_unregistered: bool = False) -> Context:
    ctx = LazyContext(allow_unregistered=allow_unregistered)
    register_dialects(ctx)
    return ctx


__all__ = ["FOREIGN_LAYOUTS", "LOADERS", "LazyContext", "all_dialects", "make_context", "register_dialects"]
