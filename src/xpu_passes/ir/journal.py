"""Trial rewrites in place, with an undo log (RemoveLayoutConversions' trials): the mutation
helpers (the Journal itself, its sessions and bookkeeping: ir/journal_log.py).

While a `Journal` is open (`begin()` .. `commit()`/`rollback()`), the mutation helpers
below record what they do, so `rollback()` leaves the IR exactly as it was: erased ops
are detached and kept, then re-inserted where they were; operands, use lists (in their
order), replaced result/argument values (an op retyped in place: `retype_op`), properties
and name hints are put back (check mode, `Journal(check=True)`, verifies it). With no journal
open they are the plain xDSL calls. The journal also keeps what the pass would
otherwise walk the module for: walk-order keys of the ops (`walk_order.Order`), the live
conversions, and the ops a change may have touched (`touched`, `reshaped`).

The open session is the current context's (a `ContextVar`: each thread, and each pass run in
`scope()`, has its own), never the process's: passes rewriting different modules in different
threads do not see each other's sessions, and a run interrupted mid-session leaves none behind.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.core import SSAValues, Use
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.ir import xdsl_adapt
from xpu_passes.ir.clone import valid_hint
from xpu_passes.ir.journal_log import Journal, active, current as _current, scope  # Journal, active, scope: re-exported
from xpu_passes.ir.walk_order import subtree, walk_list  # walk_list: re-exported

__all__ = ["Journal", "active", "scope", "walk_list", "created", "insert_op", "insert_before", "insert_after",
           "erase_op", "set_operand", "set_operands", "replace_all_uses_with", "retype_op",
           "replace_value_with_new_type", "append_result", "append_block_arg", "append_operand"]


def _insert_use(value: Any, use: Use, prev: Use | None) -> None:
    """Put `use` back into `value`'s use list right after `prev` (first when None)."""
    if prev is None:
        value.add_use(use)
        return
    nxt = prev._next_use  # pyright: ignore[reportPrivateUsage]
    use._prev_use, use._next_use = prev, nxt  # pyright: ignore[reportPrivateUsage]
    prev._next_use = use  # pyright: ignore[reportPrivateUsage]
    if nxt is not None:
        nxt._prev_use = use  # pyright: ignore[reportPrivateUsage]


def created(op: Operation) -> Operation:
    """Register an op just built (its operands' use lists already name it): dropped on rollback."""
    j = _current()
    if j is not None:
        j._created.append(op)
        j._undo.append(lambda: _drop_uses(op))
    return op


def _drop_uses(op: Operation) -> None:
    for o in subtree(op):
        for v, use in zip(o._operands, o._operand_uses):  # pyright: ignore[reportPrivateUsage]
            v.remove_use(use)
        o._operand_uses = ()  # pyright: ignore[reportPrivateUsage]


def insert_op(op: Operation, point: InsertPoint) -> None:
    Rewriter.insert_op(op, point)
    _inserted(op)


def insert_before(op: Operation, existing: Operation) -> None:
    """`insert_op(op, InsertPoint.before(existing))`, without the insert point."""
    block = existing.parent
    assert block is not None
    if op.regions or op.parent is not None:
        block.insert_op_before(op, existing)  # (with xDSL's checks: attached, or an ancestor of the block)
    else:  # what insert_op_before does (an op without regions is no block's ancestor)
        prev = existing._prev_op  # pyright: ignore[reportPrivateUsage]
        op.parent = block
        if prev is not None:
            prev._next_op = op  # pyright: ignore[reportPrivateUsage]
        else:
            block._first_op = op  # pyright: ignore[reportPrivateUsage]
        op._prev_op, op._next_op = prev, existing  # pyright: ignore[reportPrivateUsage]
        existing._prev_op = op  # pyright: ignore[reportPrivateUsage]
    _inserted(op)


def insert_after(op: Operation, existing: Operation) -> None:
    """`insert_op(op, InsertPoint.after(existing))`, without the insert point."""
    block = existing.parent
    assert block is not None
    block.insert_op_after(op, existing)
    _inserted(op)


def _inserted(op: Operation) -> None:
    j = _current()
    if j is None:
        return
    j._subtree_in(op)
    j._neighbours(op)

    def undo() -> None:
        j._neighbours(op)
        op.detach()
        j._subtree_out(op)

    j._undo.append(undo)


def erase_op(op: Operation) -> None:
    """Erase `op` (no result may be used); kept aside while a journal is open."""
    j = _current()
    if j is None:
        Rewriter.erase_op(op)
        return
    for r in op.results:
        if r.first_use is not None:  # xDSL's safe erasure, before anything is changed
            raise ValueError(f"Attempting to delete SSA value that still has uses of result of operation:\n{op}")
    block, nxt = op.parent, op._next_op  # pyright: ignore[reportPrivateUsage]
    assert block is not None
    j._neighbours(op)
    dropped: list[tuple[Any, Use, Use | None]] = []
    lost, tracked = j._lost, j.tracked
    sub = subtree(op) if op.regions else (op,)
    for o in sub:
        # (SSAValue.remove_use, inline: the hottest loop of an erasure)
        for v, use in zip(o._operands, o._operand_uses):  # pyright: ignore[reportPrivateUsage]
            prev, nu = use._prev_use, use._next_use  # pyright: ignore[reportPrivateUsage]
            dropped.append((v, use, prev))
            if prev is not None:
                prev._next_use = nu  # pyright: ignore[reportPrivateUsage]
            else:
                v.first_use = nu
            if nu is not None:
                nu._prev_use = prev  # pyright: ignore[reportPrivateUsage]
            if type(v) is OpResult and type(v.op).name == tracked:
                lost.add(v.op)
        for v, use in zip(o._successors, o._successor_uses):  # pyright: ignore[reportPrivateUsage]
            dropped.append((v, use, use._prev_use))  # pyright: ignore[reportPrivateUsage]
            v.remove_use(use)
    block.detach_op(op)
    touched, converts = j.touched, j.converts
    for o in sub:  # j._subtree_out(op), on the walk made above
        touched.add(o)
        converts.discard(o)
    j._erased.append(op)

    def undo() -> None:
        if nxt is not None:
            block.insert_op_before(op, nxt)
        else:
            block.add_op(op)
        for v, use, prev in reversed(dropped):
            _insert_use(v, use, prev)
        j._subtree_in(op)
        j._neighbours(op)

    j._undo.append(undo)


def set_operand(op: Operation, index: int, value: SSAValue) -> None:
    j = _current()
    if j is None:
        op.operands[index] = value
        return
    old = op._operands[index]  # pyright: ignore[reportPrivateUsage]
    use = op._operand_uses[index]  # pyright: ignore[reportPrivateUsage]
    prev = use._prev_use  # pyright: ignore[reportPrivateUsage]
    op.operands[index] = value
    j.touched.add(op)
    if type(old) is OpResult and type(old.op).name == j.tracked:
        j._lost.add(old.op)

    def undo() -> None:
        value.remove_use(use)
        _insert_use(old, use, prev)
        ops = op._operands  # pyright: ignore[reportPrivateUsage]
        op._operands = SSAValues((*ops[:index], old, *ops[index + 1:]))  # pyright: ignore[reportPrivateUsage]
        j.touched.add(op)

    j._undo.append(undo)


def set_operands(op: Operation, values: list[SSAValue]) -> None:
    """`set_operand(op, i, v)` for each `v` of `values` in order (each use put first in its new
    value's list), recorded once."""
    j = _current()
    uses = op._operand_uses  # pyright: ignore[reportPrivateUsage]
    olds = op._operands  # pyright: ignore[reportPrivateUsage]
    prevs: list[Use | None] = []
    for old, use, value in zip(olds, uses, values):
        prev, nu = use._prev_use, use._next_use  # pyright: ignore[reportPrivateUsage]
        prevs.append(prev)
        if prev is not None:  # (SSAValue.remove_use, inline)
            prev._next_use = nu  # pyright: ignore[reportPrivateUsage]
        else:
            old.first_use = nu
        if nu is not None:
            nu._prev_use = prev  # pyright: ignore[reportPrivateUsage]
        first = value.first_use  # (SSAValue.add_use, inline)
        use._next_use, use._prev_use = first, None  # pyright: ignore[reportPrivateUsage]
        if first is not None:
            first._prev_use = use  # pyright: ignore[reportPrivateUsage]
        value.first_use = use
        if j is not None and type(old) is OpResult and type(old.op).name == j.tracked:
            j._lost.add(old.op)
    op._operands = SSAValues(values)  # pyright: ignore[reportPrivateUsage]
    if j is None:
        return
    j.touched.add(op)

    def undo() -> None:
        for old, use, value, prev in reversed(list(zip(olds, uses, values, prevs))):
            value.remove_use(use)
            _insert_use(old, use, prev)
        op._operands = olds  # pyright: ignore[reportPrivateUsage]
        j.touched.add(op)

    j._undo.append(undo)


def replace_all_uses_with(old: SSAValue, new: SSAValue) -> None:
    """`old.replace_all_uses_with(new)`, recorded (the name hint it may pass on too)."""
    if old is new:
        return
    for use in tuple(old.uses):
        set_operand(use.operation, use.index, new)
    if new.name_hint is None and old.name_hint is not None:
        new.name_hint = old.name_hint
        j = _current()
        if j is not None:
            j._undo.append(lambda: setattr(new, "name_hint", None))


def retype_op(op: Operation, types: list[Attribute], properties: dict[str, Attribute] | None = None) -> None:
    """Give `op` new result values of `types` (and `properties`, if given), recorded: what a clone of
    `op` in its place would be (its old results keep their uses: the caller moves them)."""
    results, props = op.results, op.properties
    fresh = SSAValues([OpResult(t, op, i) for i, t in enumerate(types)])
    for old, r in zip(results, fresh):
        r._name = valid_hint(old._name)  # pyright: ignore[reportPrivateUsage]  # (as a clone's, remembered)
    op.results = fresh
    if properties is not None:
        op.properties = properties
    j = _current()
    if j is None:
        return
    j.touched.add(op)

    def undo() -> None:
        op.results, op.properties = results, props
        j.touched.add(op)

    j._undo.append(undo)


def _holder(v: SSAValue) -> Operation | None:
    if isinstance(v, OpResult):
        return v.op
    block = v.block if isinstance(v, BlockArgument) else None
    return block.parent_op() if block is not None else None


def replace_value_with_new_type(val: SSAValue, new_type: Attribute) -> SSAValue:
    """`Rewriter.replace_value_with_new_type`, recorded."""
    j = _current()
    if j is None:
        return Rewriter.replace_value_with_new_type(val, new_type)
    index = val.index  # type: ignore[attr-defined]
    if isinstance(val, OpResult):
        owner: Operation | Block = val.op
        new_value: SSAValue = OpResult(new_type, val.op, index)
        val.op.results = SSAValues((*val.op.results[:index], new_value, *val.op.results[index + 1:]))
    elif isinstance(val, BlockArgument):
        owner = val.block
        new_value = BlockArgument(new_type, val.block, index)
        args = val.block.args
        val.block._args = (*args[:index], new_value, *args[index + 1:])  # pyright: ignore[reportPrivateUsage]
    else:
        raise ValueError(f"Expected OpResult or BlockArgument, got {type(val).__name__}")
    new_value._name = valid_hint(val._name)  # pyright: ignore[reportPrivateUsage]  # (the setter, remembered)
    holder = _holder(val)
    if holder is not None:
        j.touched.add(holder)

    def undo() -> None:
        if isinstance(owner, Operation):
            rs = owner.results
            owner.results = SSAValues((*rs[:index], val, *rs[index + 1:]))
        else:
            a = owner.args
            owner._args = (*a[:index], val, *a[index + 1:])  # pyright: ignore[reportPrivateUsage]
        if holder is not None:
            j.touched.add(holder)

    j._undo.append(undo)
    replace_all_uses_with(val, new_value)
    return new_value


def append_result(op: Operation, t: Attribute) -> OpResult:
    """A new last result of `op` (a loop carrying one more value), recorded."""
    results = op.results
    r = OpResult(t, op, len(results))
    op.results = SSAValues((*results, r))
    j = _current()
    if j is not None:
        j.touched.add(op)

        def undo() -> None:
            op.results = results
            j.touched.add(op)

        j._undo.append(undo)
    return r


def append_block_arg(block: Block, t: Attribute) -> BlockArgument:
    """A new last argument of `block`, recorded (unused by then when undone)."""
    a = block.insert_arg(t, len(block.args))
    j = _current()
    if j is not None:
        holder = block.parent_op()
        if holder is not None:
            j.touched.add(holder)
        j._undo.append(lambda: block.erase_arg(a))
    return a


def append_operand(op: Operation, value: SSAValue) -> None:
    """`value` as a new last operand of `op` (a loop's initial value, a yield's), recorded; the
    other operands' uses stay where they are in their lists."""
    undo_append = xdsl_adapt.append_operand(op, value)
    j = _current()
    if j is None:
        return
    j.touched.add(op)

    def undo() -> None:
        undo_append()
        j.touched.add(op)

    j._undo.append(undo)
