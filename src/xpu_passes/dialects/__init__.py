"""The dialects xpu-passes understands, and the xDSL context that loads them.

Only the canonical names (`tt`, `ttg`, `ttig`) are defined here; the old spellings
(`triton_gpu`, `triton_intel_gpu`) are mapped by `xpu_passes.frontend.spelling`.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.cf import Cf
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.dialects.ub import UB
from xdsl.ir import Attribute, Dialect, Operation


def all_dialects() -> list[Dialect]:
    from xpu_passes.dialects.arith_compat import Arith
    from xpu_passes.dialects.mlir_compat import GPU, Scf
    from xpu_passes.dialects import tt_descriptors, ttg_newer, ttig_newer
    from xpu_passes.dialects.tt import TT
    from xpu_passes.dialects.ttg import TTG
    from xpu_passes.dialects.ttig import TTIG

    tt = _extend(TT, tt_descriptors.OPS, tt_descriptors.TYPES)
    ttg = _extend(TTG, ttg_newer.OPS, ttg_newer.ATTRS)
    ttig = _extend(TTIG, ttig_newer.OPS, [])
    return [Builtin, Arith, Scf, Math, Func, Cf, GPU, UB, tt, ttg, ttig]


def _extend(dialect: Dialect, ops: list[type[Operation]], attrs: list[type[Attribute]]) -> Dialect:
    """A dialect with the ops/attributes defined in a second module (kept apart to keep modules small)."""
    return Dialect(dialect.name, [*dialect.operations, *ops], [*dialect.attributes, *attrs])


def make_context(allow_unregistered: bool = False) -> Context:
    ctx = Context(allow_unregistered=allow_unregistered)
    for dialect in all_dialects():
        ctx.load_dialect(dialect)
    return ctx
