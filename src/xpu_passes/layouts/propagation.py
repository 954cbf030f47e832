"""How layouts flow through ops: the layout an operand needs for a result layout.

Used by RemoveLayoutConversions to recompute a value in another layout. Returns
None where an op cannot produce its result in the asked layout.
"""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import NoneAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from xpu_passes.analysis.block_pointers import Family
from xpu_passes.dialects import arith_compat, tt, ttg, ttig


def encoding(t: Attribute) -> Attribute | None:
    if isinstance(t, TensorType) and not isinstance(t.encoding, NoneAttr):
        return t.encoding
    return None


def with_encoding(t: Attribute, enc: Attribute) -> Attribute:
    """The same tensor type in another layout (scalars are unchanged)."""
    if isinstance(t, TensorType):
        return TensorType(t.element_type, t.get_shape(), enc)
    return t


def retyped(t: Attribute, layout: Attribute) -> Attribute:
    """`with_encoding`, also through a block pointer (`!tt.ptr<tensor<..., layout>>`)."""
    if isinstance(t, tt.PointerType) and isinstance(t.pointee, TensorType):
        return tt.PointerType(with_encoding(t.pointee, layout), t.address_space.data)
    return with_encoding(t, layout)


def retype_family(fam: Family, layout: Attribute) -> dict[SSAValue, SSAValue]:
    """Every block pointer of the family now points to a tensor in `layout`; old value -> new."""
    return {v: Rewriter.replace_value_with_new_type(v, retyped(v.type, layout)) for v in list(fam.values)}


def slice_layout(dim: int, parent: Attribute) -> ttg.SliceEncodingAttr:
    return ttg.SliceEncodingAttr.make(dim=dim, parent=parent)


def slice_away(enc: Attribute, dims: list[int]) -> Attribute:
    """The layout of `enc` with `dims` removed (highest first, so lower indices stay put)."""
    for d in sorted(dims, reverse=True):
        enc = slice_layout(d, enc)
    return enc


def numel(t: Attribute) -> int:
    """Elements of a tensor type (1 for a scalar)."""
    n = 1
    for s in t.get_shape() if isinstance(t, TensorType) else ():
        n *= s
    return n


# Ops whose tensor operands and results all share one layout.
_SAME_LAYOUT: tuple[type[Operation], ...] = (
    arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp,
    arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp,
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp, arith.MinimumfOp,
    arith.MaxnumfOp, arith.MinnumfOp, arith.MaxSIOp, arith.MinSIOp, arith.NegfOp,
    arith_compat.CmpiOp, arith_compat.CmpfOp, arith_compat.SelectOp, *arith_compat.CASTS,
    math.ExpOp, math.Exp2Op, math.LogOp, math.Log2Op, math.SqrtOp, math.RsqrtOp, math.ErfOp,
    math.AbsFOp, math.FmaOp,
    tt.AddPtrOp, tt.BroadcastOp, tt.LoadOp, tt.PreciseSqrtOp, tt.PreciseDivFOp, tt.FpToFpOp,
    tt.BitcastOp, tt.ClampFOp, tt.MulhiUIOp, tt.ExternElementwiseOp,
)  # fmt: skip


def result_layouts(op: Operation, layout: Attribute) -> list[Attribute | None] | None:
    """Per result, its layout when the result asked for is in `layout`: ops whose results
    share one layout (scans, multi-result reductions) change them together."""
    if isinstance(op, tt.ReduceOp | tt.ScanOp | tt.SplitOp):
        return [layout if isinstance(r.type, TensorType) else None for r in op.results]
    return None


# Side-effecting ops that run in their operands' layout (Intel: blocked or DPAS layouts only).
ATOMICS: tuple[type[Operation], ...] = (tt.AtomicRMWOp, tt.AtomicCASOp)


def atomic_layout_ok(layout: Attribute) -> bool:
    return isinstance(layout, ttg.BlockedEncodingAttr | ttig.DpasEncodingAttr)


def trans_layout(layout: Attribute, perm: list[int]) -> Attribute | None:
    """The layout of `tt.trans {order = perm}`'s result for an operand in `layout` (triton's
    inferTransOpEncoding for blocked layouts of one CTA; None for others)."""
    if not isinstance(layout, ttg.BlockedEncodingAttr) or layout.get("CTAsPerCGA") is not None:
        return None
    spt, tpw, wpc = layout.size_per_thread, layout.threads_per_warp, layout.warps_per_cta
    if sorted(perm) != list(range(len(spt))):
        return None
    inv = [perm.index(i) for i in range(len(perm))]
    return ttg.BlockedEncodingAttr.make(
        sizePerThread=[spt[p] for p in perm], threadsPerWarp=[tpw[p] for p in perm],
        warpsPerCTA=[wpc[p] for p in perm], order=[inv[o] for o in layout.order],
    )


def join_layout(layout: Attribute) -> Attribute | None:
    """`tt.join`'s result layout (triton's inferJoinOpEncoding for blocked layouts): a new,
    most-minor dim of 2 elements per thread."""
    if not isinstance(layout, ttg.BlockedEncodingAttr) or layout.get("CTAsPerCGA") is not None:
        return None
    return ttg.BlockedEncodingAttr.make(
        sizePerThread=[*layout.size_per_thread, 2], threadsPerWarp=[*layout.threads_per_warp, 1],
        warpsPerCTA=[*layout.warps_per_cta, 1], order=[len(layout.order), *layout.order],
    )


def split_layout(layout: Attribute) -> Attribute | None:
    """`tt.split`'s result layout (inferSplitOpEncoding): the last dim, 2 elements in each thread, dropped."""
    if not isinstance(layout, ttg.BlockedEncodingAttr) or layout.get("CTAsPerCGA") is not None:
        return None
    last = len(layout.order) - 1
    if (layout.size_per_thread[-1], layout.threads_per_warp[-1], layout.warps_per_cta[-1]) != (2, 1, 1):
        return None
    return ttg.BlockedEncodingAttr.make(
        sizePerThread=list(layout.size_per_thread[:-1]), threadsPerWarp=list(layout.threads_per_warp[:-1]),
        warpsPerCTA=list(layout.warps_per_cta[:-1]), order=[o for o in layout.order if o != last],
    )


def trans_perm(op: tt.TransOp) -> list[int]:
    return list(op.order.get_values())  # type: ignore[no-untyped-call]


def operand_layouts(op: Operation, result_layout: Attribute) -> list[Attribute | None] | None:
    """Per operand, the layout it must have for `op` to yield `result_layout`.

    None for the whole answer: `op` cannot be recomputed in that layout. None for
    one operand: a scalar, which has no layout.
    """
    if isinstance(op, _SAME_LAYOUT):
        return [result_layout if isinstance(o.type, TensorType) else None for o in op.operands]
    if isinstance(op, tt.ExpandDimsOp):
        return [slice_layout(op.axis.value.data, result_layout)]
    if isinstance(op, tt.ReduceOp):
        # A reduction yields a slice of its operands' layout along its axis (all results alike).
        axis = op.axis.value.data
        ok = isinstance(result_layout, ttg.SliceEncodingAttr) and result_layout.dim == axis
        return [result_layout.parent for _ in op.operands] if ok else None  # type: ignore[union-attr]
    if isinstance(op, tt.ScanOp):  # operands and results share one layout, blocked (triton lowers no other)
        return [result_layout for _ in op.operands] if isinstance(result_layout, ttg.BlockedEncodingAttr) else None
    if isinstance(op, tt.TransOp):
        perm = trans_perm(op)
        src = trans_layout(result_layout, [perm.index(i) for i in range(len(perm))])
        return [src] if src is not None else None
    if isinstance(op, tt.JoinOp | tt.SplitOp):  # each is the other's inverse when the layouts qualify
        src = split_layout(result_layout) if isinstance(op, tt.JoinOp) else join_layout(result_layout)
        back = src and (join_layout(src) if isinstance(op, tt.JoinOp) else split_layout(src))
        return [src for _ in op.operands] if src is not None and back == result_layout else None
    if isinstance(op, tt.GatherOp) and op.efficient_layout is None:
        return [None, result_layout]  # the indices and the result share a layout; the source keeps its own
    if isinstance(op, tt.SplatOp | tt.MakeRangeOp | arith.ConstantOp):
        return [None for _ in op.operands]
    return None
