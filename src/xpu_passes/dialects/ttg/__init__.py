"""The Triton GPU dialect `ttg` (old spelling `triton_gpu`): layouts, memdesc, ops.

Modules: attributes (layouts), foreign_layouts (other backends' layouts, kept verbatim), types
(`!ttg.memdesc`, `!ttg.async.token`), ops (3.3's), ops_async, ops_warp (warp specialization),
ops_main (Intel main's ops 3.3 lacks).

Other backends' layouts and the ops of ops_async, ops_warp and ops_main are not in `TTG`:
imported when a text first names one, or one of their names here is first used (dialects/lazy.py).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from xpu_passes.dialects.lazy import FOREIGN_LAYOUTS, package_getattr
from xpu_passes.dialects.ttg.attributes import (
    BlockedEncodingAttr, DotOperandEncodingAttr, LinearEncodingAttr, SharedEncodingAttr,
    SharedMemorySpaceAttr, SliceEncodingAttr, SwizzledSharedEncodingAttr, foreign_int,
)
from xpu_passes.dialects.ttg.types import AsyncTokenType, MemDescType
from xpu_passes.dialects.ttg.ops import (
    ConvertLayoutOp, Fp4ToFpOp, GlobalScratchAllocOp, LocalAllocOp, LocalDeallocOp, LocalLoadOp,
    LocalStoreOp, MemDescSubviewOp, MemDescTransOp,
)

TTG = Dialect(
    "ttg",
    [
        ConvertLayoutOp, LocalAllocOp, LocalLoadOp, LocalStoreOp, LocalDeallocOp, MemDescSubviewOp, MemDescTransOp,
        Fp4ToFpOp, GlobalScratchAllocOp,
    ],
    [
        BlockedEncodingAttr,
        SliceEncodingAttr,
        DotOperandEncodingAttr,
        LinearEncodingAttr,
        SwizzledSharedEncodingAttr,
        SharedEncodingAttr,
        SharedMemorySpaceAttr,
        MemDescType,
        AsyncTokenType,
    ],
)  # fmt: skip

__all__ = [
    "BlockedEncodingAttr", "DotOperandEncodingAttr", "LinearEncodingAttr", "SharedEncodingAttr",
    "SharedMemorySpaceAttr", "SliceEncodingAttr", "SwizzledSharedEncodingAttr", "foreign_int", "FOREIGN",
    "FOREIGN_LAYOUTS", "ForeignLayoutAttr", "AsyncTokenType", "MemDescType", "ConvertLayoutOp", "Fp4ToFpOp",
    "GlobalScratchAllocOp", "LocalAllocOp", "LocalDeallocOp", "LocalLoadOp", "LocalStoreOp",
    "MemDescSubviewOp", "MemDescTransOp", "AsyncCommitGroupOp", "AsyncCopyGlobalToLocalOp", "AsyncWaitOp",
    "WarpIdOp", "WarpReturnOp", "WarpSpecializeOp", "WarpSpecializePartitionsOp", "WarpYieldOp", "ADDR_SPACE",
    "BarrierOp", "LocalAtomicScatterRMWOp", "LocalGatherOp", "LocalScatterOp", "MaskOp", "MaskReturnOp",
    "MemDescIndexOp", "MemDescReinterpretOp", "MemDescReshapeOp", "MemDescSubsliceOp", "PredicateStageOp",
    "TTG",
]

__getattr__ = package_getattr(__name__)  # (the names of ops_async, ops_warp, ops_main, foreign_layouts)
