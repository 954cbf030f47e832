"""Forward slices of RemoveLayoutConversions: the users of a `ttg.convert_layout` consume its source
layout instead (`forward`), so the conversion disappears. The layout flows through the users by
`layouts/forward_rules.py`; the other operands they need in it are recomputed backward
(`remat.backward`), loop-carried values are retyped where they are (`remat.carried`). Whether a
conversion's source holds more replicas than its result (`more_replicas`: its users would repeat
their work) decides whether a forward walk is worth making at all (`forward_refused`)."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Operation

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.forward_rules import forward_rule, keep_layout
from xpu_passes.layouts.memoize import same
from xpu_passes.layouts.propagation import encoding, is_tensor, isa, numel, operand_layouts
from xpu_passes.transforms.remove_layout_conversions.remat import Slice, backward, block_ptr, carried, free_reorder
from xpu_passes.transforms.remove_layout_conversions.remat_loads import module_int, replicas

_MISSING = object()


_CARRIERS = (scf.YieldOp, scf.ConditionOp, scf.ForOp, scf.WhileOp)
_CHECKS = (tt.AssertOp, tt.PrintOp)


def _carried_slot(user: Operation, index: int) -> tuple[Operation, int] | None:
    """(loop or if, carried index) when operand `index` of `user` feeds a carried value."""
    if not isa(user, _CARRIERS):
        return None
    parent = user.parent_op()
    if isinstance(user, scf.YieldOp) and isinstance(parent, scf.ForOp | scf.IfOp | scf.WhileOp):
        return parent, index
    if isinstance(user, scf.ConditionOp) and isinstance(parent, scf.WhileOp) and index >= 1:
        return parent, ~(index - 1)
    if isinstance(user, scf.ForOp) and index >= 3:
        return user, index - 3
    if isinstance(user, scf.WhileOp):
        return user, index
    return None


def forward(cvt: ttg.ConvertLayoutOp, s: Slice, admitted: bool = False, frontier: bool = False) -> bool:
    """Add to `s` what lets the users of `cvt` consume its source layout instead (`admitted`: the
    caller found `forward_refused(cvt)` false, on the module as it is; `frontier`: stores keep their
    layout and get a conversion instead, as triton's pass converts before its store anchors, and a
    source holding more replicas is then not refused: the caller weighs the conversions it merges).

    The layout flows through elementwise ops, broadcasts, reductions (into a slice
    of it) and expand_dims (back to the parent); other operands of those ops are
    recomputed backward in the layout they then need; stores take it too.
    """
    (src,), (res,) = cvt._operands, cvt.results  # pyright: ignore[reportPrivateUsage]  # (`src`, `result`: accessors)
    layout = encoding(src.type)
    if layout is None:
        return s.fail("no source layout")
    s.replace[res] = src
    s.layout[res] = layout
    work, members, layouts = [res], s.members, s.layout
    seen = {id(res)}  # (ids: values hash in Python)
    # A user's class -> its role: 1 a carrier, 2 a store, 3 assert/print, 4 tt.return (its types are the
    # function's: its operand is converted back there, as triton's pass sinks a conversion to it), 0 other
    # (this walk's: isinstance on op classes goes through ABCMeta, and a walk meets a few classes many times).
    roles: dict[type, int] = {}
    while work:
        v = work.pop()
        lv = layouts[v]
        use = v.first_use  # the use list read directly (nothing changes it during the walk)
        while use is not None:
            user, index = use._operation, use._index  # pyright: ignore[reportPrivateUsage]
            use = use._next_use  # pyright: ignore[reportPrivateUsage]
            if user in members:
                for r in user.results:
                    if id(r) not in seen:
                        seen.add(id(r))
                        work.append(r)
                continue
            kind = type(user)
            if kind is ttg.ConvertLayoutOp:  # (a final class)
                s.add(user)  # now converts from `lv`; folds if it goes back to it
                continue
            role = roles.get(kind)
            if role is None:
                role = roles[kind] = (1 if isinstance(user, _CARRIERS) else 2 if isinstance(user, tt.StoreOp)
                                      else 3 if isinstance(user, _CHECKS) else 4 if kind is tt.ReturnOp else 0)
            if role == 3:  # takes each operand in any layout, like a store's value (triton's lowering)
                s.sinks.append(user)
                s.add(user)
                continue
            loop = _carried_slot(user, index) if role == 1 else None
            if loop is not None:
                if not carried(*loop, lv, s):
                    return False
                continue
            if role == 2 and frontier or role == 4:
                s.frontier.append((user, index))
                continue
            stored = len(s.boundary) if role == 2 and index != 1 else -1
            if role == 2 and (index == 1 or not user.is_block_pointer):
                # A store runs in any layout its operands share: the value's (its block pointer
                # follows), or its tensor of pointers' or mask's when the value is recomputed in
                # it without a conversion (triton's anchor is the value: moving it costs a conversion).
                if index == 1 and user.is_block_pointer and not block_ptr(user.ptr, lv, s):
                    return False
                s.sinks.append(user)
                out = None
            elif (kind is tt.ReshapeOp and free_reorder(user, lv)
                  or kind is ttg.LocalAllocOp and not isa(lv, ttg.DotOperandEncodingAttr)):
                s.add(user)  # reads `lv` and keeps its result type: its users take the clone's result
                s.scalars.append(user.results[0])
                continue
            else:
                rule = forward_rule(user)
                out = lv if rule is keep_layout else rule(user, lv, index)
                if out is None:
                    return s.fail(f"a user '{user.name}' cannot take the source layout")
            operands = user._operands  # pyright: ignore[reportPrivateUsage]
            wants = (operand_layouts(user, out) if out is not None else None) or [lv] * len(operands)
            for o, want in zip(operands, wants):  # the other operands follow (a gather's source stays)
                if o is v or want is None or not (is_tensor(t := o._type) or isa(t, tt.PointerType)):  # pyright: ignore
                    continue
                if not backward(o, want, s, user):
                    return False
            if len(s.boundary) > stored >= 0:
                return s.fail("a stored value would be converted to follow its pointers")
            s.add(user)
            for r in user.results:
                had = layouts.get(r, _MISSING)
                if had is not _MISSING and not same(had, out):
                    return s.fail("a value is needed in two layouts")
                if is_tensor(r._type):  # pyright: ignore[reportPrivateUsage]
                    layouts[r] = out  # type: ignore[assignment]
                    seen.add(id(r))
                    work.append(r)
                else:  # a full reduction's scalar carries no layout: its users take the clone's
                    s.scalars.append(r)
    if not admitted and not frontier and _more_replicas(cvt):
        return s.fail("the source layout holds more replicas (its users would repeat their work)")
    return True


def _more_replicas(cvt: ttg.ConvertLayoutOp) -> bool:
    src, res = cvt._operands[0]._type, cvt.results[0]._type  # pyright: ignore  # (xDSL's accessors are slow)
    threads = module_int(cvt, "ttg.num-warps", 4) * module_int(cvt, "ttg.threads-per-warp", 16)
    return numel(src) >= threads and replicas(src) > replicas(res)


def more_replicas(cvt: ttg.ConvertLayoutOp) -> bool:
    """Whether `cvt`'s source layout holds more replicas than its result (what `forward` refuses
    unless it stops at stores: `frontier`)."""
    return _more_replicas(cvt)


def forward_refused(cvt: ttg.ConvertLayoutOp) -> bool:
    """Whether `forward` fails on `cvt` whatever its users are (its reason, `Slice.why`, may
    still come from the walk: only `forward` itself gives it)."""
    return encoding(cvt._operands[0]._type) is None or _more_replicas(cvt)  # pyright: ignore[reportPrivateUsage]
