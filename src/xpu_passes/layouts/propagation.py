"""How layouts flow through ops: the layout an operand needs for a result layout.

Used by RemoveLayoutConversions to recompute a value in another layout. Returns
None where an op cannot produce its result in the asked layout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import NoneAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from xpu_passes.analysis.block_pointers import Family
from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.dialects import arith as arith_compat
from xpu_passes.ir import journal
from xpu_passes.layouts.lowering import load_refused
from xpu_passes.layouts.memoize import by_identity, per_class, shape_of
from xpu_passes.layouts.shape_infer import (
    expand_dims_operand,
    inverse,
    join_operand,
    reshape_layout,
    split_operand,
    trans_layout,
)


_ISA: dict[int, dict[type, bool]] = {}  # id(classes) -> class of x -> isinstance (no tuple key to build)


def isa(x: object, classes: type | tuple[type, ...]) -> bool:
    """`isinstance(x, classes)`, remembered per class of `x` (`classes`: a module-level constant).
    Op and attribute classes check instances through ABCMeta, slowly; a tuple of them one by one."""
    known = _ISA.get(id(classes))
    if known is None:
        known = _ISA[id(classes)] = {}
    hit = known.get(type(x))
    if hit is None:
        hit = known[type(x)] = isinstance(x, classes)
    return hit


_is_tensor_type, _is_none = per_class(TensorType), per_class(NoneAttr)


def encoding(t: Attribute) -> Attribute | None:
    if _is_tensor_type(t) and not _is_none(enc := t.encoding):  # type: ignore[attr-defined]
        return enc  # type: ignore[no-any-return]
    return None


@by_identity  # one object per type asked for: checks keyed by the identity of types see them as known
def with_encoding(t: Attribute, enc: Attribute) -> Attribute:
    """The same tensor type in another layout (scalars are unchanged)."""
    if isinstance(t, TensorType):
        return TensorType(t.element_type, t.get_shape(), enc)
    return t


# (id(type), id(layout)) -> (type, layout, answer): retyped's answers by identity without the
# generic memo's key building (asked for every result of every clone); the entry keeps both alive.
_RETYPED: dict[tuple[int, int], tuple[Attribute, Attribute, Attribute]] = {}


def retyped(t: Attribute, layout: Attribute) -> Attribute:
    """`with_encoding`, also through a block pointer (`!tt.ptr<tensor<..., layout>>`)."""
    hit = _RETYPED.get((id(t), id(layout)))
    if hit is not None and hit[0] is t and hit[1] is layout:
        return hit[2]
    if isinstance(t, tt.PointerType) and isinstance(t.pointee, TensorType):
        out = _pointer_to(t, with_encoding(t.pointee, layout))
    else:
        out = with_encoding(t, layout)
    if len(_RETYPED) > 65536:
        _RETYPED.clear()
    _RETYPED[(id(t), id(layout))] = (t, layout, out)
    return out


@by_identity
def _pointer_to(t: tt.PointerType, pointee: Attribute) -> Attribute:
    return tt.PointerType(pointee, t.address_space.data)


def retype_family(fam: Family, layout: Attribute) -> dict[SSAValue, SSAValue]:
    """Every block pointer of the family now points to a tensor in `layout`; old value -> new."""
    return {v: journal.replace_value_with_new_type(v, retyped(v.type, layout)) for v in list(fam.values)}


@by_identity  # one object per answer (see with_encoding)
def slice_layout(dim: int, parent: Attribute) -> ttg.SliceEncodingAttr:
    return ttg.SliceEncodingAttr.make(dim=dim, parent=parent)


def gathered_off(enc: ttg.BlockedEncodingAttr, d: int) -> ttg.BlockedEncodingAttr:
    """`enc` with dim `d` held by one element of one lane of one warp: its lanes and warps moved to the
    most minor other dim (a tensor of extent 1 along `d` then replicates nowhere along it); of rank 1, `enc`
    (no other dim to hold them)."""
    onto = next((o for o in enc.order if o != d), None)
    if onto is None:
        return enc
    spt, tpw, wpc = (list(x) for x in (enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta))
    tpw[onto], wpc[onto] = tpw[onto] * tpw[d], wpc[onto] * wpc[d]
    spt[d] = tpw[d] = wpc[d] = 1
    values: dict[str, object] = {"sizePerThread": spt, "threadsPerWarp": tpw, "warpsPerCTA": wpc, "order": list(enc.order)}
    for key in ("CTAsPerCGA", "CTASplitNum", "CTAOrder"):
        try:
            values[key] = list(enc.get(key))  # type: ignore[call-overload]
        except (KeyError, TypeError):
            pass
    return ttg.BlockedEncodingAttr.make(**values)


def slice_away(enc: Attribute, dims: list[int]) -> Attribute:
    """The layout of `enc` with `dims` removed (highest first, so lower indices stay put)."""
    for d in sorted(dims, reverse=True):
        enc = slice_layout(d, enc)
    return enc


def shape(t: Attribute) -> tuple[int, ...]:
    return shape_of(t) if isa(t, TensorType) else ()  # type: ignore[arg-type]


def numel(t: Attribute) -> int:
    """Elements of a tensor type (1 for a scalar)."""
    n = 1
    for s in shape_of(t) if isa(t, TensorType) else ():  # type: ignore[arg-type]
        n *= s
    return n


# Ops whose tensor operands and results all share one layout.
SAME_LAYOUT: tuple[type[Operation], ...] = (
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


def trans_perm(op: tt.TransOp) -> list[int]:
    return list(op.order.get_values())  # type: ignore[no-untyped-call]


_JOIN_SPLIT = (tt.JoinOp, tt.SplitOp)
# Ops whose result takes any layout from their operands as they are (ttg.local_load reads shared memory).
_SOURCES = (tt.SplatOp, tt.MakeRangeOp, arith.ConstantOp, ttg.LocalLoadOp)


def operand_layouts(op: Operation, result_layout: Attribute) -> list[Attribute | None] | None:
    """Per operand, the layout it must have for `op` to yield `result_layout` (read-only: shared).

    None for the whole answer: `op` cannot be recomputed in that layout. None for
    one operand: a scalar, which has no layout.
    """
    key = (id(op), id(result_layout))
    hit = _ANSWERS.get(key)
    if hit is not None and hit[0] is op and hit[1] is result_layout:
        return hit[2]
    out = _fresh(op, result_layout)
    if len(_ANSWERS) > 65536:
        _ANSWERS.clear()
    _ANSWERS[key] = (op, result_layout, out)
    return out


def _fresh(op: Operation, result_layout: Attribute) -> list[Attribute | None] | None:
    rule = _RULES.get(type(op))
    if rule is None:
        rule = _RULES[type(op)] = _rule(op)
    return rule(op, result_layout)


# (id(op), id(layout)) -> (op, layout, operand_layouts' answer). The rules read what a rewrite
# never changes in an op: its class, attributes, shapes and which operands are tensors (a
# rewrite retypes layouts only); slices walked again ask again. Kept for one pass run (`forget`):
# the entries keep their ops alive.
_ANSWERS: dict[tuple[int, int], tuple[Operation, Attribute, list[Attribute | None] | None]] = {}


def forget(check: bool = False) -> None:
    """Drop the remembered answers (the end of a pass run); `check`: first compare each with
    its rule's answer now (raise on a difference)."""
    from xpu_passes.layouts import forward_rules  # (it imports this module)

    forward_rules.forget(check)
    stale = [op.name for op, layout, out in (_ANSWERS.values() if check else ()) if _fresh(op, layout) != out]
    _ANSWERS.clear()
    if stale:
        raise AssertionError(f"operand_layouts remembered a stale answer for '{stale[0]}'")


_Rule = Callable[[Any, Attribute], "list[Attribute | None] | None"]
_RULES: dict[type, _Rule] = {}  # op class -> its rule (isinstance on op classes is slow: ABCMeta)


# (The rules read `_operands`, `_type` and `properties` directly, and test attribute classes with
# `isa`: xDSL's views and accessors, and isinstance on attribute classes, are slow Python paths.)


def _same(op: Operation, layout: Attribute) -> list[Attribute | None]:
    return [layout if is_tensor(o._type) else None for o in op._operands]  # pyright: ignore[reportPrivateUsage]


def _expand_dims(op: Any, layout: Attribute) -> list[Attribute | None]:
    return [expand_dims_operand(layout, op.properties["axis"].value.data)]


def _reduce(op: Any, layout: Attribute) -> list[Attribute | None] | None:
    # A reduction yields a slice of its operands' layout along its axis (all results alike).
    ok = isa(layout, ttg.SliceEncodingAttr) and layout.dim == op.properties["axis"].value.data  # type: ignore[attr-defined]
    return [layout.parent] * len(op._operands) if ok else None  # type: ignore[attr-defined]


def _scan(op: Any, layout: Attribute) -> list[Attribute | None] | None:
    # Operands and results share one layout, blocked (triton lowers no other).
    return [layout] * len(op._operands) if isa(layout, ttg.BlockedEncodingAttr) else None


def _trans(op: Any, layout: Attribute) -> list[Attribute | None] | None:
    src = trans_layout(layout, inverse(trans_perm(op)))
    return [src] if src is not None else None


def _join_split(op: Any, layout: Attribute) -> list[Attribute | None] | None:
    # Each is the other's inverse when the layouts qualify.
    src = join_operand(layout) if isinstance(op, tt.JoinOp) else split_operand(layout)
    if src is None and isinstance(op, tt.SplitOp):
        src = _split_operand_linear(layout, shape(op.results[0].type))
    return [src for _ in op.operands] if src is not None else None


def _split_operand_linear(layout: Attribute, result_shape: tuple[int, ...]) -> Attribute | None:
    """A `#ttg.linear` operand for a split into a layout no blocked one joins (a slice, DPAS):
    the halves in each thread's first register, the rest placed as the results (triton's
    inference builds the same)."""
    from xpu_passes.layouts.encodings import LayoutError, from_linear
    from xpu_passes.layouts.linear import LinearLayout
    from xpu_passes.layouts.memoize import linear_of

    try:
        ll = linear_of(layout, result_shape)
        grow = lambda bases: tuple((*b, 0) for b in bases)  # noqa: E731
        joined = LinearLayout((*result_shape, 2), register=((0,) * len(result_shape) + (1,), *grow(ll.register)),
                              lane=grow(ll.lane), warp=grow(ll.warp), block=grow(ll.block))
    except (LayoutError, ValueError):
        return None
    return from_linear(joined)


def _reshape(op: Any, layout: Attribute) -> list[Attribute | None] | None:
    (src_v,), (res,) = op._operands, op.results  # (`src`, `result`, `allow_reorder`: accessors)
    src = reshape_layout(layout, shape(res._type), shape(src_v._type), op.properties.get("allow_reorder") is not None,
                         forward=False)
    return [src] if src is not None else None


def _gather(op: Any, layout: Attribute) -> list[Attribute | None] | None:
    # The indices and the result share a layout; the source keeps its own.
    return [None, layout] if op.efficient_layout is None else None


def _load(op: Any, layout: Attribute) -> list[Attribute | None] | None:
    # Any layout its lowering takes (layouts/lowering.py); the pointer (and mask, other) follow.
    return None if load_refused(op.results[0]._type, layout) is not None else _same(op, layout)


def _source(op: Operation, layout: Attribute) -> list[Attribute | None]:
    return [None] * len(op._operands)  # pyright: ignore[reportPrivateUsage]


def _none(op: Operation, layout: Attribute) -> None:
    return None


def _rule(op: Operation) -> _Rule:
    for classes, rule in ((tt.LoadOp, _load), (SAME_LAYOUT, _same), (tt.ExpandDimsOp, _expand_dims), (tt.ReduceOp, _reduce),
                          (tt.ScanOp, _scan), (tt.TransOp, _trans), (_JOIN_SPLIT, _join_split),
                          (tt.ReshapeOp, _reshape), (tt.GatherOp, _gather), (_SOURCES, _source)):
        if isinstance(op, classes):
            return rule
    return _none


is_tensor = per_class(TensorType)
