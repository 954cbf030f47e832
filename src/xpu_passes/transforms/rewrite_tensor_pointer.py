"""`--tritonintelgpu-rewrite-tensor-pointer`: block pointers -> tensors of pointers, guarded.

A block pointer (`tt.make_tensor_ptr`, moved by `tt.advance`, carried through
`scf.for`) becomes scalar offsets; each load/store through it becomes a
tensor-of-pointer access with a mask from `boundaryCheck` and `other` from
`padding`. The DPAS guard keeps a block pointer when every load/store through it
can be a 2D block access (tagged `block_io`, or in a DPAS/dot-operand layout with
the pitch rules met): rewriting those turned 256x256 GEMM epilogues into gathers
whose layout conversion needed 256 KB of SLM. Pointers used in ways we do not
rewrite (scf.if/while results, calls) are left alone with a remark.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects import arith as arith_compat
from xpu_passes.analysis.block_pointers import collect_family
from xpu_passes.dialects.ttig import BLOCK_IO, DpasEncodingAttr, PrefetchOp
from xpu_passes.layouts.propagation import numel, slice_away
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, WorkBudget, XpuPass, register, within_budget
from xpu_passes.transforms.materialize_block_pointer import classify

# ------------------------------------------------------------------ the guard


def _is_dpas_like(enc: Attribute | None) -> bool:
    if isinstance(enc, ttg.DotOperandEncodingAttr):
        return isinstance(enc.parent, DpasEncodingAttr)
    return isinstance(enc, DpasEncodingAttr)


def block_io_capable(op: tt.LoadOp | tt.StoreOp) -> bool:
    """Whether the access would be a 2D block read/write if kept as a block pointer.

    A value converted to or from a DPAS layout counts as DPAS: RemoveLayoutConversions
    moves the block pointer into that layout and drops the conversion.
    """
    if BLOCK_IO in op.attributes:
        return True
    if isinstance(op, tt.LoadOp):
        near = [op.result] + [u.operation.results[0] for u in op.result.uses if isinstance(u.operation, ttg.ConvertLayoutOp)]
    else:
        src = op.value.owner
        near = [op.value] + ([src.src] if isinstance(src, ttg.ConvertLayoutOp) else [])
    encs = [v.type.encoding for v in near if isinstance(v.type, TensorType)]
    return any(_is_dpas_like(e) for e in encs) and classify(op).tag is not None


# ------------------------------------------------------------------ rewriting


@dataclass
class PtrInfo:
    """What a rewritten block pointer is: base, shape, strides and current offsets."""

    base: SSAValue
    shape: list[SSAValue]  # i64
    strides: list[SSAValue]  # i64
    offsets: list[SSAValue]  # i32
    block: TensorType


class _Builder:
    """Inserts new ops before an anchor op."""

    def __init__(self, anchor: Operation) -> None:
        self.anchor = anchor

    def add(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def const(self, value: int, type: Attribute) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, type)))

    def splat(self, x: SSAValue, t: TensorType) -> SSAValue:
        return self.add(tt.SplatOp.build(operands=[x], result_types=[t]))


def _dim_encoding(enc: Attribute | None, rank: int, dim: int) -> Attribute | None:
    """The 1D layout of dim `dim` of a rank-`rank` layout: slice away the other dims."""
    return None if enc is None else slice_away(enc, [d for d in range(rank) if d != dim])


def _tensor(shape: list[int], elem: Attribute, enc: Attribute | None) -> TensorType:
    return TensorType(elem, shape, enc) if enc is not None else TensorType(elem, shape)


def _expand(b: _Builder, x: SSAValue, rank: int, dim: int, enc: Attribute | None, full: list[int]) -> SSAValue:
    """A 1D tensor along `dim` made rank-`rank` (size 1 elsewhere), in the layout chain."""
    others = sorted(d for d in range(rank) if d != dim)
    shape = [full[dim]]
    cur_dims = [dim]
    for d in others:
        cur_dims = sorted(cur_dims + [d])
        pos = cur_dims.index(d)
        shape.insert(pos, 1)
        remaining = [o for o in others if o not in cur_dims]
        layer = None if enc is None else slice_away(enc, remaining)
        elem = x.type.element_type  # type: ignore[attr-defined]
        x = b.add(
            tt.ExpandDimsOp.build(
                operands=[x], result_types=[_tensor(shape, elem, layer)], properties={"axis": IntegerAttr(pos, i32)}
            )
        )
    return x


def _broadcast(b: _Builder, x: SSAValue, full: list[int], enc: Attribute | None) -> SSAValue:
    t = x.type
    assert isinstance(t, TensorType)
    if list(t.get_shape()) == full:
        return x
    return b.add(tt.BroadcastOp.build(operands=[x], result_types=[_tensor(full, t.element_type, enc)]))


def build_access(b: _Builder, info: PtrInfo, boundary: tuple[int, ...]) -> tuple[SSAValue, SSAValue | None]:
    """The tensor of pointers of the block and, for checked dims, its in-bounds mask."""
    block = info.block
    full = list(block.get_shape())
    rank = len(full)
    enc = None if isinstance(block.encoding, NoneAttr) else block.encoding
    offs_sum: SSAValue | None = None
    mask: SSAValue | None = None
    for d in range(rank):
        denc = _dim_encoding(enc, rank, d)
        rng = b.add(
            tt.MakeRangeOp.build(
                result_types=[_tensor([full[d]], i32, denc)],
                properties={"start": IntegerAttr(0, i32), "end": IntegerAttr(full[d], i32)},
            )
        )
        rng64 = b.add(arith_compat.cast("arith.extsi", rng, _tensor([full[d]], i64, denc)))
        off64 = b.add(arith_compat.cast("arith.extsi", info.offsets[d], i64))
        pos = b.add(arith.AddiOp(b.splat(off64, _tensor([full[d]], i64, denc)), rng64))
        term = b.add(arith.MuliOp(pos, b.splat(info.strides[d], _tensor([full[d]], i64, denc))))
        term = _broadcast(b, _expand(b, term, rank, d, enc, full), full, enc)
        offs_sum = term if offs_sum is None else b.add(arith.AddiOp(offs_sum, term))
        if d in boundary:
            t1 = _tensor([full[d]], i64, denc)
            lo = b.add(_cmp("sge", pos, b.splat(b.const(0, i64), t1)))
            hi = b.add(_cmp("slt", pos, b.splat(info.shape[d], t1)))
            ok = b.add(arith.AndIOp(lo, hi))
            ok = _broadcast(b, _expand(b, ok, rank, d, enc, full), full, enc)
            mask = ok if mask is None else b.add(arith.AndIOp(mask, ok))
    assert offs_sum is not None
    ptr_t = _tensor(full, tt.PointerType(block.element_type), enc)
    ptrs = b.add(tt.AddPtrOp.build(operands=[b.splat(info.base, ptr_t), offs_sum], result_types=[ptr_t]))
    return ptrs, mask


def _cmp(pred: str, a: SSAValue, c: SSAValue) -> Operation:
    return arith_compat.CmpiOp.build(
        operands=[a, c],
        result_types=[tt.with_element(a.type, i1)],
        properties={"predicate": IntegerAttr(arith_compat.CMPI[pred], i64)},
    )


def _other(b: _Builder, load: tt.LoadOp) -> SSAValue | None:
    pad = load.padding
    if pad is None:
        return None
    t = load.result.type
    assert isinstance(t, TensorType)
    if isinstance(t.element_type, IntegerType):
        values: list[int | float] = [0] * numel(t)
    else:
        values = [0.0 if pad.value.data == 1 else float("nan")] * numel(t)
    return b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, values), t))  # type: ignore[arg-type]


class _Rewrite:
    """Rewrites the chosen families, walking blocks in program order."""

    def __init__(self, roots: set[tt.MakeTensorPtrOp]) -> None:
        self.roots = roots
        self.info: dict[SSAValue, PtrInfo] = {}
        self.dead: list[Operation] = []
        self.dead_loops: list[scf.ForOp] = []

    def block(self, block: Block) -> None:
        for op in list(block.ops):
            self.op(op)

    def op(self, op: Operation) -> None:
        if isinstance(op, tt.MakeTensorPtrOp) and op in self.roots:
            block_t = op.result.type.pointee  # type: ignore[union-attr]
            self.info[op.result] = PtrInfo(op.base, list(op.shape), list(op.strides), list(op.offsets), block_t)
            self.dead.append(op)
        elif isinstance(op, tt.AdvanceOp) and op.ptr in self.info:
            src = self.info[op.ptr]
            b = _Builder(op)
            offs = [b.add(arith.AddiOp(o, a)) for o, a in zip(src.offsets, op.offsets)]
            self.info[op.result] = replace(src, offsets=offs)
            self.dead.append(op)
        elif isinstance(op, tt.LoadOp) and op.ptr in self.info:
            self.load(op)
        elif isinstance(op, tt.StoreOp) and op.ptr in self.info:
            self.store(op)
        elif isinstance(op, PrefetchOp) and op.ptr in self.info:
            self.dead.append(op)  # a hint; the gather it would prefetch is not a block
        elif isinstance(op, scf.ForOp) and any(a in self.info for a in op.iter_args):
            self.loop(op)
            return
        for region in op.regions:
            for blk in region.blocks:
                self.block(blk)

    def load(self, op: tt.LoadOp) -> None:
        b = _Builder(op)
        ptrs, mask = build_access(b, self.info[op.ptr], op.boundary_check)
        other = _other(b, op) if mask is not None else None
        props = {k: v for k, v in op.properties.items() if k in ("cache", "evict", "isVolatile")}
        operands: list = [ptrs, [mask] if mask is not None else [], [other] if other is not None else []]
        new = tt.LoadOp.build(operands=operands, result_types=[op.result.type], properties=props,
                              attributes=dict(op.attributes))
        new.attributes.pop(BLOCK_IO, None)
        Rewriter.replace_op(op, new)

    def store(self, op: tt.StoreOp) -> None:
        b = _Builder(op)
        ptrs, mask = build_access(b, self.info[op.ptr], op.boundary_check)
        props = {k: v for k, v in op.properties.items() if k in ("cache", "evict")}
        new = tt.StoreOp.build(operands=[ptrs, op.value, [mask] if mask is not None else []], properties=props,
                               attributes={k: v for k, v in op.attributes.items() if k != BLOCK_IO})
        Rewriter.replace_op(op, new)

    def loop(self, loop: scf.ForOp) -> None:
        """Carry each rewritten pointer as its offsets instead."""
        old_args = list(loop.iter_args)
        new_inits: list[SSAValue] = []
        layout: list[int | PtrInfo] = []  # per old iter_arg: count of new args or ptr info
        for a in old_args:
            if a in self.info:
                pi = self.info[a]
                new_inits += pi.offsets
                layout.append(pi)
            else:
                new_inits.append(a)
                layout.append(1)
        body = loop.body.block
        new_block = Block(arg_types=[body.args[0].type] + [v.type for v in new_inits])
        body.args[0].replace_all_uses_with(new_block.args[0])
        k = 1
        for i, entry in enumerate(layout):
            old = body.args[i + 1]
            if isinstance(entry, PtrInfo):
                n = len(entry.offsets)
                self.info[old] = replace(entry, offsets=list(new_block.args[k : k + n]))
                k += n
            else:
                old.replace_all_uses_with(new_block.args[k])
                k += 1
        for op in list(body.ops):
            op.detach()
            new_block.add_op(op)
        new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, new_inits, [new_block])
        Rewriter.insert_op(new_loop, InsertPoint.before(loop))
        self.block(new_block)
        yield_op = new_block.last_op
        assert isinstance(yield_op, scf.YieldOp)
        new_vals: list[SSAValue] = []
        for i, v in enumerate(yield_op.operands):
            if isinstance(layout[i], PtrInfo):
                new_vals += self.info[v].offsets
            else:
                new_vals.append(v)
        Rewriter.replace_op(yield_op, scf.YieldOp(*new_vals))
        k = 0
        for i, entry in enumerate(layout):
            res = loop.results[i]
            if isinstance(entry, PtrInfo):
                n = len(entry.offsets)
                self.info[res] = replace(entry, offsets=list(new_loop.results[k : k + n]))
                k += n
            else:
                res.replace_all_uses_with(new_loop.results[k])
                k += 1
        self.dead_loops.append(loop)

    def finish(self) -> None:
        for loop in self.dead_loops:
            for r in loop.results:
                assert not r.uses or all(u.operation in self.dead for u in r.uses)
            loop.detach()
            loop.erase(safe_erase=False)
        for op in reversed(self.dead):
            op.detach()
            op.erase(safe_erase=False)


@register
@dataclass(frozen=True)
class RewriteTensorPointer(XpuPass):
    name = "tritonintelgpu-rewrite-tensor-pointer"

    guard: bool = True  # keep block pointers whose every access can be a 2D block access
    # Work units (ops walked, values and accesses of the families judged) per op of the input;
    # 0: unbounded. Past it the input is kept (OVER_BUDGET): the round trip runs native's pass.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        roots = within_budget(self, op, ops, self.max_work_per_op, self._roots)
        if not roots:  # (None: over budget, nothing rewritten yet: the families are all judged first)
            return
        rw = _Rewrite(roots)
        for region in op.regions:
            for blk in region.blocks:
                rw.block(blk)
        rw.finish()

    def _roots(self, ops: list[Operation], budget: WorkBudget) -> set[tt.MakeTensorPtrOp]:
        """The block pointers to rewrite (the others get a remark)."""
        budget.spend(len(ops))
        roots: set[tt.MakeTensorPtrOp] = set()
        for mtp in [o for o in ops if isinstance(o, tt.MakeTensorPtrOp)]:
            fam = collect_family(mtp)
            budget.spend(len(fam.values) + len(fam.accesses))
            if fam.unsupported is not None:
                self.remark(mtp, f"kept: the block pointer reaches '{fam.unsupported.name}', which is not rewritten")
                continue
            io = [a for a in fam.accesses if isinstance(a, tt.LoadOp | tt.StoreOp)]
            if self.guard and io and all(block_io_capable(a) for a in io):
                self.remark(mtp, "kept: every load/store through it can be a 2D block access")
                continue
            roots.add(mtp)
        return roots
