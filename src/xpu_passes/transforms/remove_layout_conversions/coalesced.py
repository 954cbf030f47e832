"""Coalesced loads as layout anchors (RemoveLayoutConversions' backward slices).

In triton's pass an expensive tensor-of-pointer load (isExpensiveLoadOrStore: more elements than
threads, not one splat address, no 2D block IO yet) keeps the layout coalesce gave it. Ours may
re-lay one that can become a 2D block read (`work.block_loads`): into a layout that a 2D block
read produces (DPAS, a dot operand: layouts/memory.block_2d_layout) or a tt.dot's result layout
(DPAS after accelerate-matmul), or into one that the memory model (`costs.messages_of`) gives
strictly fewer messages. Into any other layout it stays a gather, and on a tie nothing says the
move is better: the choice would fall to the order in which the walk met the conversions around
the load (rms_norm 16x512: the load left coalesce's [1, 4] x [2, 4] warps for the default [1, 8]
warps, and its row reduction then crossed 8 warps instead of 4).

A block-pointer load before MaterializeBlockPointer follows the same rule (`block_pointer_keeps_layout`,
its messages as IGC makes them: `memory.block_pointer_messages`): chunk_dplr_bwd_kernel_dAu's 16x16 load
left its row-major lanes for the transposed ones that make its tt.trans free; the SLM copy ReduceDataDuplication
then made for the dot operand took the transposed order and 9 SLM messages instead of 2 (+13% instructions).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.analysis.axis_info import AxisInfo, AxisInfoAnalysis
from xpu_passes.analysis.values import constant_int, known_divisibility, make_tensor_ptr_of
from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects.ttig import BLOCK_IO
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.lowering import load_constancy
from xpu_passes.layouts.memoize import per_class
from xpu_passes.layouts.memory import Messages, block_2d_layout, block_pointer_messages, messages
from xpu_passes.layouts.propagation import encoding
from xpu_passes.layouts.scratch import element_bits
from xpu_passes.transforms.remove_layout_conversions import costs


def keeps_layout(op: tt.LoadOp, layout: Attribute, cheap: bool) -> bool:
    """Whether the tensor-of-pointer load `op` (`cheap`: Intel lets it be duplicated) keeps its
    layout rather than be recomputed in `layout`: it is expensive, and `layout` does not give it
    strictly fewer messages and is no layout a 2D block read may produce (unknown: kept)."""
    t = op.operands[0].type
    if cheap or op.is_block_pointer or BLOCK_IO in op.attributes or not isinstance(t, TensorType):
        return False
    if not isinstance(t.element_type, tt.PointerType) or encoding(t) is None or len(t.get_shape()) < 2:
        return False  # (a 1D one is no 2D block read: `work.block_loads` already decides it)
    facts = _facts(op)
    now = costs.messages_of(op, facts)
    moved: Messages | None
    try:
        bits = element_bits(t.element_type.pointee)
        moved = messages(layout, t.get_shape(), bits, costs.access_limits(facts, op), load_constancy(facts, op))
    except (LayoutError, ValueError):
        moved = None
    fewer = now is not None and moved is not None and moved.sends < now.sends
    return not fewer and not _toward_2d_block(op, layout)


def _facts(op: tt.LoadOp) -> AxisInfoAnalysis:
    """The axis facts `keeps_layout` judges `op` by: its module's, as the run keeps them (costs.facts_of:
    analysed once, values made later on demand), not an analysis of the whole module per load asked about.
    They do not depend on layouts, all the pass changes, so they are the facts of the IR as it is now (the
    load's memory cost and `remat_loads._constancy` read the same); check mode analyses the IR as it is and
    raises if the load's pointer or mask has other facts."""
    facts = costs.facts_of(op)
    scope = _DOT_LAYOUTS.get()
    if scope is not None and scope[1]:
        own = AxisInfoAnalysis(costs.module_of(op))  # type: ignore[arg-type]
        for v in (op.operands[0], op.mask):
            if v is not None and _axes(facts.of(v)) != _axes(own.of(v)):
                raise AssertionError("RLC: a load's axis facts kept for the run are not those of the IR as it is")
    return facts


def _axes(info: AxisInfo) -> tuple[tuple[int, ...], ...]:
    """What an access's messages read of a value's facts (costs.access_limits, load_constancy)."""
    return info.contiguity, info.divisibility, info.constancy


def block_pointer_keeps_layout(op: tt.LoadOp, layout: Attribute) -> bool:
    """Whether the block-pointer load `op` (not yet marked for 2D block IO) keeps its layout rather
    than be recomputed in `layout`: `layout` is no layout a 2D block read may produce, and does not
    give it strictly fewer messages (unknown: not kept, as before)."""
    t = op.ptr.type
    pointee = t.pointee if isinstance(t, tt.PointerType) else None
    if BLOCK_IO in op.attributes or not isinstance(pointee, TensorType) or len(pointee.get_shape()) < 2:
        return False
    now = encoding(pointee)
    if now is None or block_2d_layout(now) or _toward_2d_block(op, layout):
        return False
    if isinstance(layout, ttg.DotOperandEncodingAttr) and _toward_2d_block(op, layout.parent):
        return False  # (a dot's operand before AccelerateMatmul: DPAS's after it)
    dim, aligned = None, 1
    if (mtp := make_tensor_ptr_of(op.ptr)) is not None:
        dim = next((i for i, s in enumerate(mtp.strides) if constant_int(s) == 1), None)
        aligned = min([known_divisibility(s) for i, s in enumerate(mtp.strides) if i != dim] or [1])
    checked = op.boundaryCheck is not None and len(op.boundaryCheck.get_values()) > 0
    try:
        bits = element_bits(pointee.element_type)
        before, after = (block_pointer_messages(x, pointee.get_shape(), bits, dim, aligned, False, checked)
                         for x in (now, layout))
    except (LayoutError, ValueError):
        return False
    return after.sends >= before.sends


_is_dot = per_class(tt.DotOp | tt.DotScaledOp)

# One pass run's result layouts of the tt.dots of each module it works on (the input, its copies):
# module id -> (module, check, the distinct layouts). The pass never creates, erases or retypes a dot
# (no layout rule recomputes or forwards through one, solution.placeholder_dot), so a module's list
# holds for the whole run; per run (`dots_scope`), never across runs: a dot retyped between two
# runs (AccelerateMatmul) is seen by the next.
_DOT_LAYOUTS: ContextVar[tuple[dict[int, tuple[Operation, tuple[Attribute, ...]]], bool] | None] = ContextVar(
    "rlc_dot_layouts", default=None)


@contextmanager
def dots_scope(check: bool = False) -> Iterator[None]:
    """Keep each module's dot layouts (`_toward_2d_block`) for one pass run (this thread/context only);
    `check` (the pass's check mode): every answer is also walked for, and a difference raises."""
    token = _DOT_LAYOUTS.set(({}, check))
    try:
        yield
    finally:
        _DOT_LAYOUTS.reset(token)


def _dot_layouts(top: Operation) -> tuple[Attribute, ...]:
    """The distinct result layouts of `top`'s tt.dots, in walk order (remembered in a `dots_scope`)."""
    scope = _DOT_LAYOUTS.get()
    hit = None if scope is None else scope[0].get(id(top))
    if hit is not None and hit[0] is top and not scope[1]:  # type: ignore[index]
        return hit[1]
    found: list[Attribute] = []
    for o in top.walk():
        if _is_dot(o) and (enc := encoding(o.results[0].type)) not in found:
            found.append(enc)  # type: ignore[arg-type]
    layouts = tuple(found)
    if scope is not None:
        if hit is not None and hit[0] is top and hit[1] != layouts:
            raise AssertionError("RLC: a module's tt.dot layouts changed within a run")
        scope[0][id(top)] = (top, layouts)  # (the entry pins the module: its id stays its own)
    return layouts


def _toward_2d_block(op: Operation, layout: Attribute) -> bool:
    """Whether `layout` is one a 2D block read produces, or the result layout of a tt.dot of
    `op`'s module (accelerate-matmul makes it DPAS; the epilogue's loads follow it there)."""
    if block_2d_layout(layout):
        return True
    return any(d == layout for d in _dot_layouts(costs.module_of(op)))
