"""The Triton dialect `tt` in xDSL, with Triton 3.3's printed syntax (and Intel main's newer ops).

Inherent attributes are properties (Triton uses MLIR properties), so generic
printing gives `<{...}>` exactly as Triton does for `tt.reduce`/`tt.scan`.

Modules: attributes (enum cases and keywords), types (`!tt.ptr`, `!tt.tensordesc`), ops_func,
ops_tensor (shapes), ops_elementwise (casts, math), ops_program (program ids, ranges), ops_memory,
ops_dot, ops_reduce, descriptors, ops_main (Intel main's ops 3.3 lacks). The ops of descriptors
and ops_main are not in `TT`: imported when a text first names one, or one of their names here is
first used (dialects/lazy.py).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from xpu_passes.dialects.lazy import package_getattr

from xpu_passes.dialects.tt.attributes import (
    CACHE, EVICT, INPUT_PRECISION, PADDING, PROGRAM_DIM, PROPAGATE_NAN, ProgramDim, PropagateNan,
    REDUCE_KIND, RMW, RMWKind, ROUNDING, ReduceKind, SCALE_DOT_ELEM, SCOPE, SEM, ScaleDotElem, Scope, Sem,
)
from xpu_passes.dialects.tt.types import (
    PointerType, StrippedDesc, StrippedPtr, TensorDescType, element_type, mask_type, pointee_type,
    with_element,
)
from xpu_passes.dialects.tt.ops_func import (
    AssertOp, CallOp, ElementwiseInlineAsmOp, ExternElementwiseOp, FuncOp, PrintOp, ReturnOp,
)
from xpu_passes.dialects.tt.ops_tensor import (
    BroadcastOp, CatOp, ExpandDimsOp, GatherOp, HistogramOp, JoinOp, ReshapeOp, SplatOp, SplitOp, TransOp,
)
from xpu_passes.dialects.tt.ops_elementwise import (
    BitcastOp, ClampFOp, FpToFpOp, IntToPtrOp, MulhiUIOp, PreciseDivFOp, PreciseSqrtOp, PtrToIntOp,
)
from xpu_passes.dialects.tt.ops_program import GetNumProgramsOp, GetProgramIdOp, MakeRangeOp
from xpu_passes.dialects.tt.ops_memory import (
    AddPtrOp, AdvanceOp, AtomicCASOp, AtomicRMWOp, LoadOp, MakeTensorPtrOp, StoreOp, parse_cache_evict,
    print_cache_evict,
)
from xpu_passes.dialects.tt.ops_dot import DotOp, DotScaledOp
from xpu_passes.dialects.tt.ops_reduce import ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp

TT = Dialect(
    "tt",
    [
        FuncOp, ReturnOp, CallOp,
        SplatOp, BroadcastOp, ExpandDimsOp, TransOp, BitcastOp, IntToPtrOp, PtrToIntOp, HistogramOp,
        FpToFpOp, PreciseSqrtOp, PreciseDivFOp, MulhiUIOp, ClampFOp, JoinOp, CatOp, SplitOp, ReshapeOp,
        GetProgramIdOp, GetNumProgramsOp, MakeRangeOp,
        AddPtrOp, AdvanceOp, MakeTensorPtrOp, LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp,
        DotOp, ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp,
        ExternElementwiseOp, ElementwiseInlineAsmOp, GatherOp, PrintOp, AssertOp,
        DotScaledOp,
    ],
    [PointerType, TensorDescType],
)  # fmt: skip

__all__ = [
    "CACHE", "EVICT", "INPUT_PRECISION", "PADDING", "PROGRAM_DIM", "PROPAGATE_NAN", "ProgramDim",
    "PropagateNan", "REDUCE_KIND", "RMW", "RMWKind", "ROUNDING", "ReduceKind", "SCALE_DOT_ELEM", "SCOPE",
    "SEM", "ScaleDotElem", "Scope", "Sem", "PointerType", "StrippedDesc", "StrippedPtr", "TensorDescType",
    "element_type", "mask_type", "pointee_type", "with_element", "AssertOp", "CallOp",
    "ElementwiseInlineAsmOp", "ExternElementwiseOp", "FuncOp", "PrintOp", "ReturnOp", "BitcastOp",
    "BroadcastOp", "CatOp", "ClampFOp", "ExpandDimsOp", "FpToFpOp", "GatherOp", "GetNumProgramsOp",
    "GetProgramIdOp", "HistogramOp", "IntToPtrOp", "JoinOp", "MakeRangeOp", "MulhiUIOp", "PreciseDivFOp",
    "PreciseSqrtOp", "PtrToIntOp", "ReshapeOp", "SplatOp", "SplitOp", "TransOp", "AddPtrOp", "AdvanceOp",
    "AtomicCASOp", "AtomicRMWOp", "LoadOp", "MakeTensorPtrOp", "StoreOp", "parse_cache_evict",
    "print_cache_evict", "DotOp", "DotScaledOp", "ReduceOp", "ReduceReturnOp", "ScanOp", "ScanReturnOp",
    "CacheEvict", "DescriptorGatherOp", "DescriptorLoadOp", "DescriptorReduceOp", "DescriptorScatterOp",
    "DescriptorStoreOp", "ExperimentalDescriptorGatherOp", "ExperimentalDescriptorLoadOp",
    "ExperimentalDescriptorScatterOp", "ExperimentalDescriptorStoreOp", "MakeTensorDescOp",
    "ReinterpretTensorDescOp", "AtomicPollOp", "GridDependencyLaunchDependentsOp", "GridDependencyWaitOp",
    "MapElementwiseOp", "MapElementwiseReturnOp", "UnsplatOp", "TT",
]

__getattr__ = package_getattr(__name__)  # (the names of descriptors and ops_main)
