"""What -xpu-slice-epilogue slices: the epilogue of a store, and why it is safe to move (or why not)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import is_side_effect_free

from xpu_passes.dialects import tt

# Ops whose lowering branches per element (measured at the ISA: docs/slice-epilogue.md).
BRANCHY = frozenset({"math.erf"})


@dataclass(frozen=True)
class Epilogue:
    store: tt.StoreOp
    ops: list[Operation]  # elementwise ops, tt.addptr and gathers computing the stored value, in block order
    roots: list[SSAValue]  # tensors they read that are computed before (the accumulator, constants, pointers, masks)
    cond_from: tuple[SSAValue, SSAValue]  # (offset, shape) of a boundary-checked dim


def _is_elementwise(op: Operation) -> bool:
    return (op.name.startswith(("arith.", "math.")) and op.name != "arith.constant"
            and len(op.results) == 1 and not op.regions)  # fmt: skip


def is_gather(op: Operation) -> bool:
    """A load through a tensor of pointers (each element its own address): sliceable like an elementwise op."""
    return (isinstance(op, tt.LoadOp) and isinstance(op.ptr.type, TensorType) and op.boundaryCheck is None
            and not (op.isVolatile is not None and op.isVolatile.value.data))  # fmt: skip


def _is_epilogue_op(op: Operation) -> bool:
    return _is_elementwise(op) or isinstance(op, tt.AddPtrOp) or is_gather(op)


def find_epilogue(store: tt.StoreOp) -> Epilogue | str:
    """The epilogue of `store`, or why there is none to slice."""
    block = store.parent_block()
    func = store.parent_op()
    if block is None or not isinstance(func, tt.FuncOp):
        return "the store is not at the top level of a function"
    if not isinstance(store.next_op, tt.ReturnOp):
        return "the store is not the function's last op"
    if store.mask is not None:
        return "a masked store (no bounds guard is known to be exact)"
    vt = store.value.type
    if not isinstance(vt, TensorType) or vt.encoding is None:
        return "the stored value is not a tensor with a layout"
    mtp = store.ptr.owner
    if not isinstance(mtp, tt.MakeTensorPtrOp):
        return "the pointer is not a tt.make_tensor_ptr (the bounds guard needs its offsets)"
    checked = list(store.boundaryCheck.get_values()) if store.boundaryCheck is not None else []
    if not checked:
        return "the store has no boundary check (no bounds guard is exact)"
    d = checked[0]
    shape, enc = vt.get_shape(), vt.encoding
    inside: set[Operation] = set()
    work = [store.value]
    roots: list[SSAValue] = []
    while work:
        v = work.pop()
        op = v.owner
        if (isinstance(op, Operation) and op.parent_block() is block and _is_epilogue_op(op)
                and all(_same_tensor(r.type, shape, enc) for r in op.results)):  # fmt: skip
            if op not in inside:
                inside.add(op)
                work.extend(op.operands)
        elif isinstance(v.type, TensorType):
            if not _same_tensor(v.type, shape, enc):
                return f"the epilogue reads a tensor of another shape or layout ({v.type})"
            if v not in roots:
                roots.append(v)
    for op in inside:
        for r in op.results:
            for use in r.uses:
                if use.operation is not store and use.operation not in inside:
                    return f"a value of the epilogue ({op.name}) is used elsewhere"
    ops = [op for op in block.ops if op in inside]
    if (why := _loads_movable(ops, block, store)) is not None:
        return why
    return Epilogue(store, ops, roots, (mtp.offsets[d], mtp.shape[d]))


def _loads_movable(ops: list[Operation], block: Block, store: tt.StoreOp) -> str | None:
    """Why the epilogue's loads cannot move down to the store, if they cannot. Skipped by the
    guard, a load changes nothing: its value only reaches the store, which then writes nothing."""
    first = next((op for op in ops if isinstance(op, tt.LoadOp)), None)
    return None if first is None else moves_past(first, store, set(ops))


def moves_past(first: Operation, store: Operation, inside: set[Operation], what: str = "the epilogue",
               past_reads: bool = False) -> str | None:
    """Why `first` cannot move down to `store`: an op in between that stays (not in `inside`) may
    write memory (with `past_reads`, a non-volatile tt.load in between is no obstacle: it only reads)."""
    op = first.next_op
    while op is not None and op is not store:
        if op not in inside and not is_side_effect_free(op) and not (past_reads and reads_only(op)):
            return f"a load of {what} would move past {op.name}, which may write memory"
        op = op.next_op
    return None


def reads_only(op: Operation) -> bool:
    """A tt.load that is not volatile: it reads memory and writes none."""
    return isinstance(op, tt.LoadOp) and not (op.isVolatile is not None and op.isVolatile.value.data)


def _same_tensor(t: Attribute, shape: tuple[int, ...], enc: Attribute) -> bool:
    """Same shape and layout (any element type: masks, pointers, offsets are sliced alike)."""
    return isinstance(t, TensorType) and tuple(t.get_shape()) == tuple(shape) and t.encoding == enc
