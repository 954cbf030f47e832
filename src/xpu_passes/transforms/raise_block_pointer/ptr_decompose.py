"""Decompose tensors of pointers into block-pointer terms (base, positions, strides).

A 2D pointer tensor `base + offs_m[:, None] * s_m + offs_n[None, :] * s_n` is read as

    ptr(i_0, .., i_r-1) = base + rest + sum_d stride_d * wrap_d(pos_d + i_d)

where `rest`, `stride_d` and `pos_d` are polynomials over scalar SSA values (`Lin`)
and `wrap_d(x)` is `x % W_d` for wrap-around offsets (`(pid * BM + arange) % M`) or
`x`. Masks are read as conjunctions of per-dimension bounds (`pos_d + i_d < X`) and
anything else. i32 offsets are followed, and i64 ones back to i32 values through
`arith.extsi`; a scalar computed in i64 (`pid.to(tl.int64) * BLOCK_M`) is a 64-bit leaf
(`wide`), which planning keeps out of the i32 block-pointer offsets. Loaded (indirect)
offsets and products of two varying tensors raise `Unsupported` with the reason.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xpu_passes.analysis.values import splat_int
from xpu_passes.dialects import tt
from xpu_passes.transforms.base import WorkBudget
from xpu_passes.transforms.raise_block_pointer.facts import _loads_from_memory, _reaches, defined_outside
from xpu_passes.transforms.raise_block_pointer.forms import (
    Bound,
    DimTerm,
    Form,
    MaskParts,
    PtrForm,
    Unsupported,
)
from xpu_passes.transforms.raise_block_pointer.masks import read_mask
from xpu_passes.transforms.raise_block_pointer.poly import ONE, ZERO, Lin, remember, reset_order, values_of
from xpu_passes.transforms.raise_block_pointer.reshape_form import reshape_form
from xpu_passes.transforms.raise_block_pointer.signs import nonneg, nonneg_value


_CONVERT = "ttg.convert_layout"  # moves values between layouts; does not change them


def _shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(v.type.get_shape()) if isinstance(v.type, TensorType) else ()


def _is_i32(t: object) -> bool:
    e = t.element_type if isinstance(t, TensorType) else t
    return isinstance(e, IntegerType) and e.width.data == 32


def _is_int(t: object) -> bool:
    """i32, or i64 (followed only back to i32 values through `arith.extsi`)."""
    e = t.element_type if isinstance(t, TensorType) else t
    return isinstance(e, IntegerType) and e.width.data in (32, 64)


def _int_leaves(x: Lin, op: Operation | None, wide_positions: bool) -> Lin:
    if any(not _is_int(v.type) for v in x.leaves()):
        raise Unsupported("offsets over scalars that are not i32 or i64", op)
    if not wide_positions and wide(x):
        raise Unsupported("64-bit offsets not sign-extended from i32 (wide-positions=false)", op)
    return x


def wide(x: Lin) -> bool:
    """Whether a polynomial has an i64 leaf: exact only in i64 (a shape, a stride, the base's offset), never
    as an i32 block-pointer offset or advance (truncating it could wrap)."""
    return any(not _is_i32(v.type) for v in x.leaves())


class Decomposer:
    """Reads integer and pointer values as Forms, memoized."""

    def __init__(self, budget: WorkBudget | None = None, wide_positions: bool = False) -> None:
        self.memo: dict[SSAValue, Form] = {}
        self.wide_positions = wide_positions  # read i64 scalars as leaves (`wide`), else refuse them
        # the run's work budget (max-work-per-op): a unit per value read, terms of the polynomials made
        self.budget = budget if budget is not None else WorkBudget(None)

    # ------------------------------------------------------------ scalars

    def scalar(self, v: SSAValue) -> Lin:
        """A scalar i32 as a polynomial: through constants, addi/subi/muli; else a leaf."""
        x = self._scalar(v)
        self.budget.spend(1 + len(x.terms))  # (not memoized: a DAG of sums is read once per path)
        if len(x.terms) > 1 or (x.terms and x.terms[0] != ((v,), 1) and x.constant is None):
            remember(x, v)  # the kernel's own value for x, for reuse
        return x

    def _scalar(self, v: SSAValue) -> Lin:
        op = v.owner
        if isinstance(op, arith.ConstantOp):
            c = splat_int(op)
            if c is not None:
                return Lin.const(c)
        if isinstance(op, arith.AddiOp):
            return self.scalar(op.lhs) + self.scalar(op.rhs)
        if isinstance(op, arith.SubiOp):
            return self.scalar(op.lhs) - self.scalar(op.rhs)
        if isinstance(op, arith.MuliOp):
            return self.scalar(op.lhs) * self.scalar(op.rhs)
        if isinstance(op, Operation) and op.name == "arith.extsi" and _is_i32(op.operands[0].type):
            return self.scalar(op.operands[0])  # i32 -> i64: the same integer
        if isinstance(op, Operation) and op.name == "arith.index_cast":
            c = self.scalar(op.operands[0]).constant  # an index constant (in i32 range) cast to i32
            if c is not None and -(2**31) <= c < 2**31:
                return Lin.const(c)
        return Lin.leaf(v)

    # ------------------------------------------------------------ tensors

    def index(self, v: SSAValue) -> Form:
        if v in self.memo:
            return self.memo[v]
        f = self._index(v).normalized()
        self.budget.spend(1)
        self.memo[v] = f
        return f

    def _index(self, v: SSAValue) -> Form:
        where = v.owner if isinstance(v.owner, Operation) else None
        if not isinstance(v.type, TensorType):
            if not _is_int(v.type):
                raise Unsupported("non-integer scalar offset", where)
            return Form(_int_leaves(self.scalar(v), where, self.wide_positions), ())
        rank = len(_shape(v))
        if not _is_int(v.type):
            raise Unsupported("offsets are not i32 or i64", where)
        if isinstance(v, BlockArgument):
            closed = self._closed_index(v)
            if closed is None:
                raise Unsupported("offsets carried through a loop or branch", None)
            return closed
        op = v.owner
        if isinstance(op, Operation) and op.name == _CONVERT:
            return self.index(op.operands[0])
        none: tuple[DimTerm | None, ...] = (None,) * rank
        if isinstance(op, arith.ConstantOp):
            c = splat_int(op)
            if c is None:
                raise Unsupported("non-uniform constant offsets", op)
            return Form(Lin.const(c), none)
        if isinstance(op, tt.MakeRangeOp):
            return Form(ZERO, (DimTerm(ONE, Lin.const(op.start.value.data)),))
        if isinstance(op, tt.SplatOp):
            return Form(_int_leaves(self.scalar(op.src), op, self.wide_positions), none)
        if op.name == "arith.extsi" and _is_i32(op.operands[0].type):
            return self.index(op.operands[0])
        if isinstance(op, tt.ExpandDimsOp):
            s = self.index(op.src)
            ax = op.axis.value.data
            return Form(s.base, s.dims[:ax] + (None,) + s.dims[ax:])
        if isinstance(op, tt.ReshapeOp):
            return reshape_form(self.index(op.src), _shape(op.src), _shape(v), op)
        if isinstance(op, tt.BroadcastOp):
            s = self.index(op.src)
            base, dims = s.base, list(s.dims)
            for d, (a, b) in enumerate(zip(_shape(op.src), _shape(v))):
                t = dims[d]
                if a == 1 and b != 1 and t is not None:  # a size-1 dim: i_d is always 0 there
                    if t.wrap is not None:
                        raise Unsupported("wrap-around on a broadcast dimension", op)
                    base, dims[d] = base + t.stride * t.pos, None
            return Form(base, tuple(dims))
        if isinstance(op, arith.AddiOp):
            return self._add(self.index(op.lhs), self.index(op.rhs), op)
        if isinstance(op, arith.SubiOp):
            return self._add(self.index(op.lhs), self._scale(self.index(op.rhs), Lin.const(-1)), op)
        if isinstance(op, arith.MuliOp):
            a, b = self.index(op.lhs), self.index(op.rhs)
            if b.uniform:
                return self._scale(a, b.base)
            if a.uniform:
                return self._scale(b, a.base)
            raise Unsupported("product of two varying offsets (not affine)", op)
        if isinstance(op, arith.RemSIOp | arith.RemUIOp):
            a, w = self.index(op.lhs), self.index(op.rhs)
            live = [d for d, t in enumerate(a.dims) if t is not None]
            if not w.uniform or len(live) != 1:
                raise Unsupported("remainder that is not a wrap-around of one index", op)
            t = a.dims[live[0]]
            assert t is not None
            if t.wrap is not None or t.stride != ONE or a.base.terms:
                raise Unsupported("remainder that is not a wrap-around of one index", op)
            dims = list(a.dims)
            dims[live[0]] = DimTerm(ONE, t.pos, w.base, op)
            return Form(ZERO, tuple(dims))
        if isinstance(op, Operation) and _loads_from_memory(op):
            raise Unsupported("gather: offsets loaded from memory (indirect)", op)
        name = op.name if isinstance(op, Operation) else "?"
        raise Unsupported(f"offsets computed by '{name}' (not affine)", op if isinstance(op, Operation) else None)

    @staticmethod
    def _scale(a: Form, k: Lin) -> Form:
        return Form(a.base * k, tuple(None if t is None else DimTerm(t.stride * k, t.pos, t.wrap, t.wrap_op)
                                      for t in a.dims))

    @staticmethod
    def _add(a: Form, b: Form, op: Operation) -> Form:
        base = a.base + b.base
        dims: list[DimTerm | None] = []
        for x, y in zip(a.dims, b.dims):
            if x is None or y is None:
                dims.append(x if y is None else y)
            elif x.wrap is not None or y.wrap is not None:
                raise Unsupported("sum of a wrapped index and another index on one dimension", op)
            else:  # sx*(px+i) + sy*(py+i) = (sx+sy)*i + sx*px + sy*py
                base = base + x.stride * x.pos + y.stride * y.pos
                dims.append(DimTerm(x.stride + y.stride, ZERO))
        return Form(base, tuple(dims))

    # ------------------------------------------------------------ pointers

    def pointer(self, v: SSAValue) -> PtrForm:
        self.budget.spend(1)
        op = v.owner
        if isinstance(v, BlockArgument):
            closed = self._closed_form(v)
            if closed is None:
                raise Unsupported("pointer carried through a loop or branch that is not a simple increment", None)
            return closed
        if isinstance(op, Operation) and op.name == _CONVERT:
            return self.pointer(op.operands[0])
        if isinstance(op, tt.SplatOp):
            base, off = self.scalar_pointer(op.src)
            return PtrForm(base, Form(off, (None,) * len(_shape(v))))
        if isinstance(op, tt.AddPtrOp):
            p = self.pointer(op.ptr)
            off = self.index(op.offset)
            return PtrForm(p.base, self._add(p.offset, off, op).normalized())
        if isinstance(op, tt.BroadcastOp):
            p = self.pointer(op.src)
            f = self._broadcast_form(p.offset, _shape(op.src), _shape(v), op)
            return PtrForm(p.base, f)
        if isinstance(op, tt.ExpandDimsOp):
            p = self.pointer(op.src)
            ax = op.axis.value.data
            return PtrForm(p.base, Form(p.offset.base, p.offset.dims[:ax] + (None,) + p.offset.dims[ax:]))
        if isinstance(op, tt.ReshapeOp):
            p = self.pointer(op.src)
            return PtrForm(p.base, reshape_form(p.offset, _shape(op.src), _shape(v), op))
        if isinstance(op, tt.LoadOp):
            raise Unsupported("gather: pointers loaded from memory (indirect)", op)
        name = op.name if isinstance(op, Operation) else "?"
        raise Unsupported(f"pointers computed by '{name}'", op if isinstance(op, Operation) else None)

    def _closed_index(self, arg: BlockArgument) -> Form | None:
        """Offsets carried as an iter_arg and advanced by loop-invariant uniform `arith.addi`s: at induction
        value iv, `init + (iv - lb) * inc / step` (as `_closed_form` for pointers)."""
        loop = arg.owner.parent_op() if isinstance(arg.owner, Block) else None
        if not isinstance(loop, scf.ForOp) or arg.index == 0 or not _is_i32(loop.lb.type):
            return None
        x = loop.body.block.last_op.operands[arg.index - 1]  # type: ignore[union-attr]
        inc = ZERO
        while x is not arg:
            op = x.owner
            if not isinstance(op, arith.AddiOp):
                return None
            nxt, other = (op.lhs, op.rhs) if _reaches(op.lhs, arg) else (op.rhs, op.lhs)
            try:
                f = self.index(other)
            except Unsupported:
                return None
            if not f.uniform or not defined_outside(f.base.leaves(), loop):
                return None
            inc, x = inc + f.base, nxt
        per = self._per_iteration(loop, inc)
        if per is None:
            return None
        init = self.index(loop.iter_args[arg.index - 1])
        off = (Lin.leaf(loop.body.block.args[0]) - self.scalar(loop.lb)) * per
        return Form(init.base + off, init.dims)

    def _per_iteration(self, loop: scf.ForOp, inc: Lin) -> Lin | None:
        step = self.scalar(loop.step).constant
        return inc.divide(Lin.const(step)) if step and step > 0 else None

    def _closed_form(self, arg: BlockArgument) -> PtrForm | None:
        """A pointer iter_arg advanced by loop-invariant uniform `tt.addptr`s each iteration, at induction
        value iv: `init + (iv - lb) * inc / step` (step a positive constant dividing inc); so a loop nested in
        its loop can start from it."""
        loop = arg.owner.parent_op() if isinstance(arg.owner, Block) else None
        if not isinstance(loop, scf.ForOp) or arg.index == 0 or not isinstance(arg.type, TensorType):
            return None
        if not _is_i32(loop.lb.type):  # the induction value becomes an i32 offset term
            return None
        step = self.scalar(loop.step).constant
        x = loop.body.block.last_op.operands[arg.index - 1]  # type: ignore[union-attr]
        inc = ZERO
        while x is not arg:
            op = x.owner
            if not isinstance(op, tt.AddPtrOp):
                return None
            try:
                f = self.index(op.offset)
            except Unsupported:
                return None
            if not f.uniform or not defined_outside(f.base.leaves(), loop):
                return None
            inc, x = inc + f.base, op.ptr
        per = self._per_iteration(loop, inc)
        if per is None:
            return None
        init = self.pointer(loop.iter_args[arg.index - 1])
        off = (Lin.leaf(loop.body.block.args[0]) - self.scalar(loop.lb)) * per
        return PtrForm(init.base, Form(init.offset.base + off, init.offset.dims))

    def scalar_pointer(self, v: SSAValue) -> tuple[SSAValue, Lin]:
        """A scalar pointer as (base, element offset): through `tt.addptr` by i32 scalars, so the kernel's
        argument stays the base and the offset can become a block position."""
        op = v.owner
        if isinstance(op, tt.AddPtrOp) and not isinstance(v.type, TensorType) and _is_i32(op.offset.type):
            base, off = self.scalar_pointer(op.ptr)
            return base, off + self.scalar(op.offset)
        return v, ZERO

    @staticmethod
    def _broadcast_form(s: Form, src: tuple[int, ...], dst: tuple[int, ...], op: Operation) -> Form:
        base, dims = s.base, list(s.dims)
        for d, (a, b) in enumerate(zip(src, dst)):
            t = dims[d]
            if a == 1 and b != 1 and t is not None:
                if t.wrap is not None:
                    raise Unsupported("wrap-around on a broadcast dimension", op)
                base, dims[d] = base + t.stride * t.pos, None
        return Form(base, tuple(dims))

    # ------------------------------------------------------------ masks

    def mask(self, v: SSAValue) -> MaskParts:
        """A mask as conjunction: per-dim bounds `pos + i < bound`, and the rest (masks.py)."""
        return read_mask(self, v)


__all__ = [
    "Bound", "Decomposer", "DimTerm", "Form", "Lin", "MaskParts", "PtrForm", "Unsupported",
    "defined_outside", "nonneg", "nonneg_value", "reset_order", "values_of", "ONE", "ZERO",
]
