"""The Intel GPU dialect `ttig` (old spelling `triton_intel_gpu`): layouts and ops.

Modules: attributes (dpas, warp, 2D block layouts; the block-I/O unit attributes), ops (3.3's),
ops_main (Intel main's ops 3.3 lacks).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from xpu_passes.dialects.ttig.attributes import (
    BLOCK_IO, DpasEncodingAttr, SUPPORT_2D_BLOCK, Subgroup2DBlockEncodingAttr, WarpEncodingAttr,
)
from xpu_passes.dialects.ttig.ops import (
    AllocOp, BroadcastOp, ExtractOp, GlueOp, PrefetchOp, SubGroupTransposeOp, UpcastMXFPOp,
)
from xpu_passes.dialects.ttig.ops_main import (
    BLOCK_IO_MODE, DescriptorGatherOp, DescriptorPrefetchOp, DescriptorScatterOp, ExtractDescOp,
    Subgroup2DBlockLoadFromPtrOp, Subgroup2DBlockLoadOp,
)

TTIG = Dialect(
    "ttig",
    [
        PrefetchOp,
        UpcastMXFPOp,
        AllocOp, GlueOp, ExtractOp, BroadcastOp, SubGroupTransposeOp, DescriptorPrefetchOp, ExtractDescOp,
        Subgroup2DBlockLoadOp, Subgroup2DBlockLoadFromPtrOp, DescriptorGatherOp, DescriptorScatterOp,
    ],
    [DpasEncodingAttr, WarpEncodingAttr, Subgroup2DBlockEncodingAttr],
)  # fmt: skip

__all__ = [
    "BLOCK_IO", "DpasEncodingAttr", "SUPPORT_2D_BLOCK", "Subgroup2DBlockEncodingAttr", "WarpEncodingAttr",
    "AllocOp", "BroadcastOp", "ExtractOp", "GlueOp", "PrefetchOp", "SubGroupTransposeOp", "UpcastMXFPOp",
    "BLOCK_IO_MODE", "DescriptorGatherOp", "DescriptorPrefetchOp", "DescriptorScatterOp", "ExtractDescOp",
    "Subgroup2DBlockLoadFromPtrOp", "Subgroup2DBlockLoadOp", "TTIG",
]
