"""The layout an op's results take when one operand changes layout (forward slices, `remat_forward.forward`).

A rule per op class, found once per class (isinstance on op classes is slow). A reduction's
result layout is remembered per (axis, layout object): a fresh `#ttg.slice` each time would
miss every identity-keyed memo downstream (operand layouts, equality, retyped types).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.propagation import SAME_LAYOUT, ATOMICS, atomic_layout_ok, shape, slice_layout, trans_perm
from xpu_passes.layouts.shape_infer import expand_dims_result, join_layout, reshape_layout, split_layout, trans_layout

Rule = Callable[[Any, Attribute, int], "Attribute | None"]


def forward_rule(user: Operation) -> Rule:
    """How the layout of `user`'s results follows an operand's (`rule(user, layout, index)`; None: it cannot)."""
    rule = _FORWARD.get(type(user))
    if rule is None:
        rule = _FORWARD[type(user)] = next((r for c, r in _FORWARD_RULES if isinstance(user, c)), _no_layout)
    return rule


def keep_layout(user: Any, layout: Attribute, index: int) -> Attribute:
    """Elementwise ops and the like (callers test for this rule and skip the call)."""
    return layout


def _no_layout(user: Any, layout: Attribute, index: int) -> None:
    return None


def _gather_layout(user: Any, layout: Attribute, index: int) -> Attribute | None:
    # Through the indices (Intel: unless the gather has its efficient layout).
    return layout if user.efficient_layout is None and index == 1 else None


# (axis, id(layout)) -> (layout, its slice along axis): the entry pins the layout (its id stays its own).
_SLICED: dict[tuple[int, int], tuple[Attribute, Attribute]] = {}


def sliced(axis: int, layout: Attribute) -> Attribute:
    """`slice_layout(axis, layout)`, one object per (axis, layout object)."""
    hit = _SLICED.get((axis, id(layout)))
    if hit is not None and hit[0] is layout:
        return hit[1]
    if len(_SLICED) > 65536:
        _SLICED.clear()
    out = slice_layout(axis, layout)
    _SLICED[(axis, id(layout))] = (layout, out)
    return out


def forget(check: bool = False) -> None:
    """Drop the remembered slices; `check`: first compare each with a fresh one (raise on a difference)."""
    stale = [k for k, (layout, out) in (_SLICED.items() if check else ()) if slice_layout(k[0], layout) != out]
    _SLICED.clear()
    if stale:
        raise AssertionError("forward_rules remembered a wrong slice layout")


_FORWARD_RULES: tuple[tuple[Any, Rule], ...] = (
    (tt.ReduceOp, lambda user, layout, _: sliced(user.properties["axis"].value.data, layout)),  # (its axis)
    (tt.TransOp, lambda user, layout, _: trans_layout(layout, trans_perm(user))),
    (tt.JoinOp, lambda user, layout, _: join_layout(layout)),
    (tt.SplitOp, lambda user, layout, _: split_layout(layout)),
    (tt.GatherOp, _gather_layout),
    # triton-xpu lowers scans in blocked layouts only
    (tt.ScanOp, lambda user, layout, _: layout if isinstance(layout, ttg.BlockedEncodingAttr) else None),
    # runs where its operands are, like a store; Intel: blocked or DPAS only
    (ATOMICS, lambda user, layout, _: layout if atomic_layout_ok(layout) else None),
    (tt.ExpandDimsOp, lambda user, layout, _: expand_dims_result(layout, user.properties["axis"].value.data)),
    (tt.ReshapeOp, lambda user, layout, _: reshape_layout(  # (xDSL's accessors are slow)
        layout, shape(user._operands[0]._type), shape(user.results[0]._type),
        user.properties.get("allow_reorder") is not None)),
    (tt.LoadOp, _no_layout),
    (SAME_LAYOUT, keep_layout),
)
_FORWARD: dict[type, Rule] = {}  # op class -> its rule
