"""The Triton GPU dialect `ttg` (old spelling `triton_gpu`): layouts, memdesc, ops.

Modules: attributes (layouts), foreign_layouts (other backends' layouts, kept verbatim), types
(`!ttg.memdesc`, `!ttg.async.token`), ops (3.3's), ops_async, ops_warp (warp specialization),
ops_main (Intel main's ops 3.3 lacks).

Other backends' layouts are not in `TTG`: `xpu_passes.dialects.LAZY` names them, and a context
made by `xpu_passes.dialects.make_context` imports their module when a text first names one.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Dialect

from xpu_passes.dialects import FOREIGN_LAYOUTS
from xpu_passes.dialects.ttg.attributes import (
    BlockedEncodingAttr, DotOperandEncodingAttr, LinearEncodingAttr, SharedEncodingAttr,
    SharedMemorySpaceAttr, SliceEncodingAttr, SwizzledSharedEncodingAttr, foreign_int,
)
from xpu_passes.dialects.ttg.types import AsyncTokenType, MemDescType
from xpu_passes.dialects.ttg.ops import (
    ConvertLayoutOp, Fp4ToFpOp, GlobalScratchAllocOp, LocalAllocOp, LocalDeallocOp, LocalLoadOp,
    LocalStoreOp, MemDescSubviewOp, MemDescTransOp,
)
from xpu_passes.dialects.ttg.ops_async import AsyncCommitGroupOp, AsyncCopyGlobalToLocalOp, AsyncWaitOp
from xpu_passes.dialects.ttg.ops_warp import (
    WarpIdOp, WarpReturnOp, WarpSpecializeOp, WarpSpecializePartitionsOp, WarpYieldOp,
)
from xpu_passes.dialects.ttg.ops_main import (
    ADDR_SPACE, BarrierOp, LocalAtomicScatterRMWOp, LocalGatherOp, LocalScatterOp, MaskOp, MaskReturnOp,
    MemDescIndexOp, MemDescReinterpretOp, MemDescReshapeOp, MemDescSubsliceOp, PredicateStageOp,
)

TTG = Dialect(
    "ttg",
    [
        ConvertLayoutOp, LocalAllocOp, LocalLoadOp, LocalStoreOp, LocalDeallocOp, MemDescSubviewOp, MemDescTransOp,
        AsyncWaitOp, AsyncCommitGroupOp, AsyncCopyGlobalToLocalOp, Fp4ToFpOp, GlobalScratchAllocOp,
        WarpYieldOp, WarpReturnOp, WarpIdOp, BarrierOp,
        MemDescReshapeOp, MemDescReinterpretOp, MemDescIndexOp, MemDescSubsliceOp, LocalGatherOp, LocalScatterOp,
        WarpSpecializeOp, WarpSpecializePartitionsOp, PredicateStageOp, MaskOp, MaskReturnOp, LocalAtomicScatterRMWOp,
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

def __getattr__(name: str) -> Any:  # (the foreign layouts' names, imported on first use)
    if name in ("FOREIGN", "ForeignLayoutAttr"):
        from xpu_passes.dialects.ttg import foreign_layouts

        return getattr(foreign_layouts, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
