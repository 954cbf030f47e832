"""The padding a raised load takes from its masked `other` (`tt.load`'s `padding` attribute)."""

from __future__ import annotations

import math
import struct

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import SSAValue


def padding_of(other: SSAValue) -> int | None:
    """1 (zero) for a +0 / 0 splat, 2 (nan) for a NaN splat, else None (keep a select)."""
    op = other.owner
    if not isinstance(op, arith.ConstantOp) or not isinstance(op.value, DenseIntOrFPElementsAttr):
        return None
    vals = op.value.get_values()
    if not vals or any(v != vals[0] and not (math.isnan(v) and math.isnan(vals[0])) for v in vals):
        return None
    v = vals[0]
    if isinstance(v, float):
        if math.isnan(v):  # only the canonical quiet NaN is what `padding = nan` loads, bit for bit
            return 2 if struct.pack("<d", v) == struct.pack("<d", math.nan) else None
        return 1 if v == 0.0 and math.copysign(1.0, v) > 0 else None
    return 1 if v == 0 else None
