"""The Intel GPU dialect `ttig` (old spelling `triton_intel_gpu`): layouts and ops.

Modules: attributes (dpas, warp, 2D block layouts; the block-I/O unit attributes), ops (3.3's),
ops_main (Intel main's ops 3.3 lacks; not in `TTIG`: imported when a text first names one, or
one of its names here is first used, dialects/lazy.py).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from xpu_passes.dialects.lazy import package_getattr

from xpu_passes.dialects.ttig.attributes import (
    BLOCK_IO, DpasEncodingAttr, SUPPORT_2D_BLOCK, Subgroup2DBlockEncodingAttr, WarpEncodingAttr,
)
from xpu_passes.dialects.ttig.ops import (
    AllocOp, BroadcastOp, ExtractOp, GlueOp, PrefetchOp, SubGroupTransposeOp, UpcastMXFPOp,
)

TTIG = Dialect(
    "ttig",
    [
        PrefetchOp,
        UpcastMXFPOp,
        AllocOp, GlueOp, ExtractOp, BroadcastOp, SubGroupTransposeOp,
    ],
    [DpasEncodingAttr, WarpEncodingAttr, Subgroup2DBlockEncodingAttr],
)  # fmt: skip

__all__ = [
    "BLOCK_IO", "DpasEncodingAttr", "SUPPORT_2D_BLOCK", "Subgroup2DBlockEncodingAttr", "WarpEncodingAttr",
    "AllocOp", "BroadcastOp", "ExtractOp", "GlueOp", "PrefetchOp", "SubGroupTransposeOp", "UpcastMXFPOp",
    "BLOCK_IO_MODE", "DescriptorGatherOp", "DescriptorPrefetchOp", "DescriptorScatterOp", "ExtractDescOp",
    "Subgroup2DBlockLoadFromPtrOp", "Subgroup2DBlockLoadOp", "TTIG",
]

__getattr__ = package_getattr(__name__)  # (the names of ops_main)
