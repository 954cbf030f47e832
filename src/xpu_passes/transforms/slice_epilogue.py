"""-xpu-slice-epilogue: a GEMM epilogue computed in slices of the accumulator, under a bounds guard.

Triton lowers each elementwise op of a tensor for all of a thread's registers at once. An
epilogue with an op that lowers to control flow (`math.erf`: IGC's erf is a few branches per
element) then keeps the whole accumulator and every intermediate tensor live across the
branches; LLVM also sinks the cheap tail of each element (the sign of erf, `0.5 * x`, the
product) into the function's last block, past every branch, since the store is there. On a
256x256 f32 DPAS tile (128 registers per thread, large GRF), GEMM + GELU spills 15 KB.

This pass rewrites such an epilogue, `tt.store %p, f(%acc, ...)` at the end of a function:
- it splits each tensor the epilogue reads into slices of a few registers per thread
  (`tt.reshape`/`tt.trans`/`ttg.convert_layout`/`tt.split` on register bits of its layout,
  which move no data), computes the epilogue on each slice in turn and joins the results back;
- it puts the epilogue and its store under `scf.if (offset < shape)` on a boundary-checked
  dimension of the store: when false, no element is in bounds and the store writes nothing,
  so skipping is exact; the store is then no longer in the function's last block, and LLVM
  keeps each slice's tail next to it.
Every element is computed by the same ops as before (bit-identical). What it leaves alone, it
says why (remarks).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, ModuleOp, TensorType, i1, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import arith as arith_compat
from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError, from_linear, to_linear
from xpu_passes.layouts.linear import IN_DIMS, LinearLayout
from xpu_passes.layouts.shape_infer import reshape_linear
from xpu_passes.transforms.base import UNCHANGED, XpuPass, register

# Ops whose lowering branches per element (measured at the ISA: docs/slice-epilogue.md).
BRANCHY = frozenset({"math.erf"})


@dataclass(frozen=True)
class Epilogue:
    store: tt.StoreOp
    ops: list[Operation]  # elementwise ops computing the stored value, in block order
    roots: list[SSAValue]  # tensors they read that are computed before (the accumulator, constants)
    cond_from: tuple[SSAValue, SSAValue]  # (offset, shape) of a boundary-checked dim


def _is_elementwise(op: Operation) -> bool:
    return (op.name.startswith(("arith.", "math.")) and op.name != "arith.constant"
            and len(op.results) == 1 and not op.regions)  # fmt: skip


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
        if (isinstance(op, Operation) and op.parent_block() is block and _is_elementwise(op)
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
    return Epilogue(store, ops, roots, (mtp.offsets[d], mtp.shape[d]))


def _same_tensor(t: Attribute, shape: tuple[int, ...], enc: Attribute) -> bool:
    return isinstance(t, TensorType) and tuple(t.get_shape()) == tuple(shape) and t.encoding == enc


# ------------------------------------------------------------------ register slices


def _permute(ll: LinearLayout, perm: list[int]) -> LinearLayout:
    return LinearLayout(tuple(ll.shape[p] for p in perm),
                        **{d: tuple(tuple(b[p] for p in perm) for b in ll.bases(d)) for d in IN_DIMS})  # fmt: skip


def _tensor(elem: Attribute, ll: LinearLayout) -> TensorType:
    return TensorType(elem, list(ll.shape), from_linear(ll))


@dataclass(frozen=True)
class Cut:
    """How a tensor in layout `whole` is cut in two on one register bit, and the layouts on the way."""

    whole: LinearLayout
    reshaped: LinearLayout  # the bit's dim split as [hi, 2, lo]
    perm: list[int]  # the 2 moved last
    moved: LinearLayout  # the 2 last, its register basis first (tt.split's rule)
    half: LinearLayout  # each half

    @staticmethod
    def on(ll: LinearLayout, reg: int) -> Cut:
        basis = ll.register[reg]
        d = next(i for i, c in enumerate(basis) if c)
        p = basis[d].bit_length() - 1
        hi, lo = ll.shape[d] >> (p + 1), 1 << p
        shape = [*ll.shape[:d], *([hi] if hi > 1 else []), 2, lo, *ll.shape[d + 1:]]
        two = d + (1 if hi > 1 else 0)
        reshaped = reshape_linear(ll, shape)
        perm = [i for i in range(len(shape)) if i != two] + [two]
        t = _permute(reshaped, perm)
        unit = tuple([0] * (len(shape) - 1) + [1])
        i = t.register.index(unit)
        regs = (t.register[i], *t.register[:i], *t.register[i + 1:])
        moved = LinearLayout(t.shape, register=regs, lane=t.lane, warp=t.warp, block=t.block)
        half = LinearLayout(t.shape[:-1], **{k: tuple(b[:-1] for b in moved.bases(k)) for k in IN_DIMS
                                             if k != "register"}, register=tuple(b[:-1] for b in regs[1:]))  # fmt: skip
        return Cut(ll, reshaped, perm, moved, half)

    def split(self, b: _Builder, v: SSAValue) -> tuple[SSAValue, SSAValue]:
        elem = v.type.element_type  # type: ignore[attr-defined]
        r = b.add(tt.ReshapeOp.build(operands=[v], result_types=[_tensor(elem, self.reshaped)]))
        t = b.add(tt.TransOp.build(operands=[r], result_types=[_tensor(elem, _permute(self.reshaped, self.perm))],
                                   properties={"order": DenseArrayBase.from_list(i32, self.perm)}))  # fmt: skip
        c = t if self.moved == _permute(self.reshaped, self.perm) else \
            b.add(ttg.ConvertLayoutOp.build(operands=[t], result_types=[_tensor(elem, self.moved)]))
        s = tt.SplitOp.build(operands=[c], result_types=[_tensor(elem, self.half)] * 2)
        b.add(s)
        return s.results[0], s.results[1]

    def join(self, b: _Builder, lo: SSAValue, hi: SSAValue) -> SSAValue:
        elem = lo.type.element_type  # type: ignore[attr-defined]
        j = b.add(tt.JoinOp.build(operands=[lo, hi], result_types=[_tensor(elem, self.moved)]))
        c = j if self.moved == _permute(self.reshaped, self.perm) else \
            b.add(ttg.ConvertLayoutOp.build(operands=[j], result_types=[_tensor(elem, _permute(self.reshaped, self.perm))]))
        inv = [self.perm.index(i) for i in range(len(self.perm))]
        t = b.add(tt.TransOp.build(operands=[c], result_types=[_tensor(elem, self.reshaped)],
                                   properties={"order": DenseArrayBase.from_list(i32, inv)}))  # fmt: skip
        return b.add(tt.ReshapeOp.build(operands=[t], result_types=[_tensor(elem, self.whole)]))


class _Builder:
    """Appends to `block`; an op made here takes `loc` (the store's) unless given its own."""

    def __init__(self, block: Block, loc: Attribute) -> None:
        self.block, self.loc = block, loc

    def add(self, op: Operation, loc: Attribute | None = None) -> SSAValue:
        op.location = loc or self.loc
        self.block.add_op(op)
        return op.results[0]


def cut_bits(ll: LinearLayout, slice_registers: int) -> list[tuple[int, ...]]:
    """The register bases to cut on (highest first) so each slice holds at most `slice_registers`."""
    live = [b for b in ll.register if any(b)]  # (a zero basis repeats values: nothing to cut)
    keep = max(slice_registers, 1).bit_length() - 1
    return list(reversed(live))[: max(len(ll.register) - keep, 0)]


def _splat(v: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The value of a splat constant tensor (re-made in each slice's layout: nothing to split)."""
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr) and op.value.is_splat():
        return op.value
    return None


def _splat_in(value: DenseIntOrFPElementsAttr, ll: LinearLayout) -> arith.ConstantOp:
    t = _tensor(value.type.element_type, ll)
    size = value.type.element_type.compile_time_size  # type: ignore[attr-defined]
    n = 1
    for d in ll.shape:
        n *= d
    data = type(value.data)(value.data.data[:size] * n)
    return arith.ConstantOp(DenseIntOrFPElementsAttr(t, data), t)


def _sliced(b: _Builder, ep: Epilogue, ll: LinearLayout, values: dict[SSAValue, SSAValue],
            bits: list[tuple[int, ...]]) -> SSAValue:  # fmt: skip
    """The stored value computed on `values` (roots -> tensors in layout `ll`), slice by slice."""
    if not bits:
        out = dict(values)
        for r in ep.roots:
            if (splat := _splat(r)) is not None:
                out[r] = b.add(_splat_in(splat, ll), r.owner.location)  # type: ignore[union-attr]
        for op in ep.ops:
            new = type(op).create(operands=[out.get(v, v) for v in op.operands],
                                  result_types=[_tensor(r.type.element_type, ll) for r in op.results],  # type: ignore[attr-defined]
                                  properties=dict(op.properties), attributes=dict(op.attributes))  # fmt: skip
            b.add(new, op.location)
            out.update(zip(op.results, new.results))
        return out[ep.store.value]
    cut = Cut.on(ll, ll.register.index(bits[0]))
    kept = [i for i in range(len(ll.register)) if ll.register[i] != bits[0]]
    rest = [cut.half.register[kept.index(ll.register.index(x))] for x in bits[1:]]
    parts = {v: cut.split(b, w) for v, w in values.items() if _splat(v) is None}
    lo = _sliced(b, ep, cut.half, {v: p[0] for v, p in parts.items()}, rest)
    hi = _sliced(b, ep, cut.half, {v: p[1] for v, p in parts.items()}, rest)
    return cut.join(b, lo, hi)


def rewrite(ep: Epilogue, bits: list[tuple[int, ...]], ll: LinearLayout) -> None:
    store = ep.store
    vt = store.value.type
    assert isinstance(vt, TensorType)
    off, bound = ep.cond_from
    at = InsertPoint.before(store)
    ext = arith_compat.cast("arith.extsi", off, i64) if off.type != i64 else None
    if ext is not None:
        ext.location = store.location
        Rewriter.insert_op(ext, at)
    cond = arith_compat.CmpiOp.build(operands=[ext.results[0] if ext else off, bound], result_types=[i1],
                                     properties={"predicate": IntegerAttr(arith_compat.CMPI["slt"], i64)})  # fmt: skip
    cond.location = store.location
    Rewriter.insert_op(cond, at)
    then = Block()
    b = _Builder(then, store.location)
    # registers renumbered once, the cut bits first (tt.split takes register 0), then as they were
    ordered = LinearLayout(ll.shape, register=(*bits, *(x for x in ll.register if x not in bits)),
                           lane=ll.lane, warp=ll.warp, block=ll.block)  # fmt: skip
    values = {r: b.add(ttg.ConvertLayoutOp.build(operands=[r], result_types=[_tensor(r.type.element_type, ordered)]))  # type: ignore[attr-defined]
              for r in ep.roots if _splat(r) is None}  # fmt: skip
    out = _sliced(b, ep, ordered, values, [ordered.register[i] for i in range(len(bits))])
    back = b.add(ttg.ConvertLayoutOp.build(operands=[out], result_types=[vt]))
    if_op = scf.IfOp(cond.results[0], [], Region([then]))
    if_op.location = store.location
    Rewriter.insert_op(if_op, at)
    store.detach()
    store.operands[1] = back
    yield_op = scf.YieldOp()
    yield_op.location = store.location
    then.add_ops([store, yield_op])
    for op in reversed(ep.ops):
        Rewriter.erase_op(op)
    for r in ep.roots:  # constants only the epilogue read
        if _splat(r) is not None and not r.uses:
            Rewriter.erase_op(r.owner)


@register
@dataclass(frozen=True)
class SliceEpilogue(XpuPass):
    name = "xpu-slice-epilogue"
    summary = "compute a GEMM epilogue with per-element branches in register slices, under a bounds guard"

    slice_registers: int = 64  # registers per thread in one slice (best of 8-128 at the ISA, docs/slice-epilogue.md)
    min_registers: int = 64  # smaller tensors are left alone (little to gain, measured)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = False
        for store in [s for s in op.walk() if isinstance(s, tt.StoreOp)]:
            found = find_epilogue(store)
            if isinstance(found, str):
                self.remark(store, f"epilogue left alone: {found}")
                continue
            if not any(o.name in BRANCHY for o in found.ops):
                self.remark(store, "epilogue left alone: no op in it branches per element (nothing to slice for)")
                continue
            vt = store.value.type
            assert isinstance(vt, TensorType)
            try:
                ll = to_linear(vt.encoding, vt.get_shape())
            except LayoutError as e:
                self.remark(store, f"epilogue left alone: layout not modelled ({e})")
                continue
            if ll.num("register") < self.min_registers:
                self.remark(store, f"epilogue left alone: {ll.num('register')} registers per thread "
                                   f"(< min-registers={self.min_registers})")  # fmt: skip
                continue
            rewrite(found, cut_bits(ll, self.slice_registers), ll)
            changed = True
        if not changed:
            self.said(UNCHANGED)
