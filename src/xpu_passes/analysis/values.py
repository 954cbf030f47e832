"""Facts about scalar values that passes need: constants, divisibility, block-pointer origins."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xpu_passes.dialects import tt


# Casts that keep an integer's value (for the values we ask about); matched by
# name because `arith` casts are defined in xpu_passes.dialects.arith.
_INT_CASTS = ("arith.extsi", "arith.extui", "arith.trunci")


def constant_int(v: SSAValue) -> int | None:
    """The value of an integer constant (through ext/trunc casts), else None."""
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    if isinstance(op, Operation) and op.name in _INT_CASTS:
        return constant_int(op.operands[0])
    return None


def splat_int(op: arith.ConstantOp) -> int | None:
    """The value of an integer constant, scalar or dense splat tensor, else None."""
    v = op.value
    if isinstance(v, IntegerAttr):
        return v.value.data
    if isinstance(v, DenseIntOrFPElementsAttr) and isinstance(v.get_element_type(), IntegerType):
        vals = v.get_values()
        if vals and all(x == vals[0] for x in vals):
            return int(vals[0])
    return None


def _func_arg_attr(arg: BlockArgument, name: str) -> int | None:
    block = arg.owner
    fn = block.parent_op() if isinstance(block, Block) else None
    if not isinstance(fn, tt.FuncOp) or fn.body.blocks.first is not block or fn.arg_attrs is None:
        return None
    attr = fn.arg_attrs.data[arg.index].data.get(name)  # type: ignore[attr-defined]
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def known_divisibility(v: SSAValue) -> int:
    """The largest power of two known to divide `v` (1 when nothing is known).

    From constants, `tt.divisibility` of kernel arguments, and through ext casts
    and multiplications, as Triton's own divisibility reasoning does.
    """
    c = constant_int(v)
    if c is not None:
        return (c & -c) if c else 1 << 30
    if isinstance(v, BlockArgument):
        return _func_arg_attr(v, "tt.divisibility") or 1
    op = v.owner
    if isinstance(op, Operation) and op.name in ("arith.extsi", "arith.extui"):
        return known_divisibility(op.operands[0])
    if isinstance(op, arith.MuliOp):
        return min(known_divisibility(op.lhs) * known_divisibility(op.rhs), 1 << 30)
    return 1


def is_divisible(v: SSAValue, divisor: int) -> bool:
    return known_divisibility(v) % divisor == 0


def make_tensor_ptr_of(ptr: SSAValue) -> tt.MakeTensorPtrOp | None:
    """The `tt.make_tensor_ptr` a block pointer comes from, through advances and loops.

    Loop-carried pointers are traced to their initial value; `tt.advance` keeps
    shape, strides and order, which is all callers ask about.
    """
    seen: set[SSAValue] = set()
    while ptr not in seen:
        seen.add(ptr)
        op = ptr.owner
        if isinstance(op, tt.MakeTensorPtrOp):
            return op
        if isinstance(op, tt.AdvanceOp):
            ptr = op.ptr
            continue
        if isinstance(op, scf.ForOp) and isinstance(ptr, SSAValue) and not isinstance(ptr, BlockArgument):
            ptr = op.iter_args[op.results.index(ptr)]
            continue
        if isinstance(ptr, BlockArgument):
            parent = ptr.owner.parent_op() if isinstance(ptr.owner, Block) else None
            if isinstance(parent, scf.ForOp) and ptr.index > 0:
                ptr = parent.iter_args[ptr.index - 1]
                continue
        return None
    return None

