"""-xpu-narrow-masked-dims: a tile dimension whose indices past K reach no memory, narrowed to K.

A kernel specialized on an extent of 1 (triton-xpu makes an `i32` argument equal to 1 a constant)
but compiled with a block of 16 along it computes 16 columns of which every store keeps one: the
mask `pid * 16 + arange(16) < 1` is false past column 0 whatever the program id. Those columns
cost registers (two loop-carried 512x16 f32 tiles on 4 warps are the whole register file) and are
never seen. Narrowing the dimension, on every value it runs through, to the least power of two
that holds the stored indices keeps every stored value as it was (each index is computed from the
same index of its operands) and drops the rest.

The dimension is followed through the function as a class of (value, dim) pairs (union-find):
elementwise ops, loads and stores, layout conversions, expand_dims and broadcasts (along equal
extents), reductions along another axis and scf.for/scf.if carried values join their dims. Left
alone, with a remark, a class that:
- an op mixes indices along it or that this pass does not model (a reduction or scan along it, a
  dot, a reshape, a non-splat constant, an atomic, a block pointer, a function argument or result);
- a store writes without a mask proven false past K along it (`x < K` where x[j] >= j: a
  non-negative base plus a range from 0, within the integer type's range);
- holds in a layout that is not blocked (or a slice of one), or where narrowing holds no fewer
  register bytes per lane, summed over its values (the dimension spread over lanes: narrowed, the
  lanes would replicate it).
At the ISA (IGC): flag_gems `celoss_indices_kernel` fp16 (D=1, BLOCK_C=512, BLOCK_D=16, 4 warps):
6,342 -> 484 instructions, 16,320 -> 0 spill bytes (native as ours before).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.pressure import tensor_bytes
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register, within_budget
from xpu_passes.transforms.narrow_masked_dims_bounds import masked_past
from xpu_passes.transforms.slice_epilogue.cut import splat

Pair = tuple[int, int]  # (id of a value, dim)

# Ops that compute each index from the same index of their tensor operands (all of one shape).
_ELEMENTWISE = frozenset({
    "tt.addptr", "tt.load", "tt.store", "tt.fp_to_fp", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int",
    "tt.precise_sqrt", "tt.precise_divf", "tt.clampf", "tt.mulhiui", "tt.extern_elementwise",
    "ttg.convert_layout", "scf.yield",
})


def _tensor(v: SSAValue) -> TensorType | None:
    return v.type if isinstance(v.type, TensorType) else None


def _elementwise(op: Operation) -> bool:
    return op.name in _ELEMENTWISE or (op.name.split(".")[0] in ("arith", "math") and op.name != "arith.constant")


class Classes:
    """Union-find over (value, dim) pairs; a class any unmodelled op touches is opaque."""

    def __init__(self) -> None:
        self.parent: dict[Pair, Pair] = {}
        self.values: dict[int, SSAValue] = {}
        self.opaque: dict[Pair, str] = {}  # pair -> why

    def add(self, v: SSAValue) -> None:
        t = _tensor(v)
        if t is not None and id(v) not in self.values:
            self.values[id(v)] = v
            for d in range(len(t.get_shape())):
                self.parent[(id(v), d)] = (id(v), d)

    def find(self, p: Pair) -> Pair:
        while self.parent[p] != p:
            self.parent[p] = self.parent[self.parent[p]]
            p = self.parent[p]
        return p

    def join(self, a: SSAValue, da: int, b: SSAValue, db: int) -> None:
        self.add(a)
        self.add(b)
        ra, rb = self.find((id(a), da)), self.find((id(b), db))
        if ra != rb:
            self.parent[ra] = rb

    def stop(self, v: SSAValue, why: str, dims: Iterator[int] | None = None) -> None:
        t = _tensor(v)
        if t is None:
            return
        self.add(v)
        for d in dims if dims is not None else range(len(t.get_shape())):
            self.opaque[(id(v), d)] = why


def _join_all(c: Classes, vals: list[SSAValue]) -> None:
    ts = [v for v in vals if _tensor(v) is not None]
    for v in ts[1:]:
        for d in range(len(_tensor(ts[0]).get_shape())):  # type: ignore[union-attr]
            c.join(ts[0], d, v, d)


def build(ops: list[Operation], budget: WorkBudget) -> Classes:
    """The classes of the module's tensor dims."""
    c = Classes()
    for op in ops:
        budget.spend(1)
        vals = [*op.operands, *op.results]
        if not any(_tensor(v) is not None for v in vals):
            continue
        for v in vals:
            c.add(v)
        name = op.name
        if name in ("tt.splat", "tt.make_range"):
            continue  # (a fresh index space: its dims join only through users)
        if name == "arith.constant":
            if splat(op.results[0]) is None:
                c.stop(op.results[0], "a constant that is not a splat")
            continue
        if any(isinstance(v.type, tt.PointerType) and isinstance(v.type.pointee, TensorType) for v in vals):
            for v in vals:
                c.stop(v, f"a block pointer ('{name}')")
            continue
        if name == "scf.yield":
            parent = op.parent_op()
            if parent is not None and parent.name in ("scf.for", "scf.if"):
                for v, r in zip(op.operands, parent.results):
                    _join_all(c, [v, r])
                continue
        elif _elementwise(op):
            _join_all(c, vals)
            continue
        elif name == "tt.expand_dims":
            axis = op.properties["axis"].value.data  # type: ignore[attr-defined]
            src, res = op.operands[0], op.results[0]
            for d in range(len(src.type.get_shape())):  # type: ignore[attr-defined]
                c.join(src, d, res, d + (d >= axis))
            continue
        elif name == "tt.broadcast":
            src, res = op.operands[0], op.results[0]
            for d, (a, b) in enumerate(zip(src.type.get_shape(), res.type.get_shape())):  # type: ignore[attr-defined]
                if a == b:
                    c.join(src, d, res, d)
            continue
        elif name == "tt.reduce":
            axis = op.properties["axis"].value.data  # type: ignore[attr-defined]
            for src in op.operands:
                c.stop(src, "a reduction along it", iter([axis]))
                for r in op.results:
                    if _tensor(r) is not None:
                        for d in range(len(src.type.get_shape())):  # type: ignore[attr-defined]
                            if d != axis:
                                c.join(src, d, r, d - (d > axis))
            continue
        elif name == "scf.for":
            n = len(op.results)
            inits, args = op.operands[3:], op.regions[0].blocks[0].args[1:]
            for i in range(n):
                _join_all(c, [inits[i], args[i], op.results[i]])
            continue
        elif name == "scf.if":
            continue  # (its results join through its yields)
        for v in vals:
            c.stop(v, f"'{name}'")
    return c


@dataclass(frozen=True)
class Narrowing:
    pairs: list[tuple[SSAValue, int]]  # every (value, dim) of the class
    extent: int  # from
    keep: int  # to


def _layout_ok(t: TensorType) -> bool:
    enc = t.encoding
    while isinstance(enc, ttg.SliceEncodingAttr):
        enc = enc.parent
    return isinstance(enc, ttg.BlockedEncodingAttr)


def narrowed_type(t: TensorType, dims: set[int], keep: int) -> TensorType:
    shape = [keep if d in dims else s for d, s in enumerate(t.get_shape())]
    return TensorType(t.element_type, shape, t.encoding)


def choose(c: Classes, stores: list[tt.StoreOp], budget: WorkBudget) -> tuple[list[Narrowing], list[tuple[Operation, str]]]:
    """The classes to narrow, and why others are not (op, message)."""
    members: dict[Pair, list[Pair]] = {}
    for p in c.parent:
        members.setdefault(c.find(p), []).append(p)
    keeps: dict[Pair, int] = {}
    unbounded: set[Pair] = set()
    for st in stores:
        v = st.operands[1]
        t = _tensor(v)
        if t is None:
            continue
        for d in range(len(t.get_shape())):
            root = c.find((id(v), d))
            k = None if len(st.operands) < 3 else masked_past(st.operands[2], d, budget)
            if k is None:
                unbounded.add(root)
            else:
                keeps[root] = max(keeps.get(root, 0), k)
    chosen, why = [], []
    for root, k in keeps.items():
        pairs = members[root]
        extent = max(c.values[i].type.get_shape()[d] for i, d in pairs)  # type: ignore[attr-defined]
        keep = 1 << max(k - 1, 0).bit_length()
        if root in unbounded or keep >= extent:
            continue
        anchor = c.values[pairs[0][0]].owner
        anchor = anchor if isinstance(anchor, Operation) else anchor.parent_op()  # type: ignore[assignment]
        stopped = next((c.opaque[p] for p in pairs if p in c.opaque), None)
        if stopped is not None:
            why.append((anchor, f"a dim of {extent} stored only below {k} kept: {stopped} mixes or hides its indices"))
            continue
        vals = [(c.values[i], d) for i, d in pairs if c.values[i].type.get_shape()[d] == extent]  # type: ignore[attr-defined]
        if not all(_layout_ok(v.type) for v, _ in vals):  # type: ignore[arg-type]
            why.append((anchor, f"a dim of {extent} stored only below {k} kept: a layout that is not blocked"))
            continue
        dims: dict[int, set[int]] = {}
        for v, d in vals:
            dims.setdefault(id(v), set()).add(d)
        before = sum(tensor_bytes(v.type) for v in {id(v): v for v, _ in vals}.values())
        after = sum(tensor_bytes(narrowed_type(v.type, dims[id(v)], keep))  # type: ignore[arg-type]
                    for v in {id(v): v for v, _ in vals}.values())
        if after >= before:  # (never more: a layout holds no more of fewer elements)
            why.append((anchor, f"a dim of {extent} stored only below {k} kept: narrowed, its values would hold as "
                                f"many register bytes per lane ({before}; the dim is spread over lanes)"))
            continue
        chosen.append(Narrowing(vals, extent, keep))
    return chosen, why


def narrow(n: Narrowing) -> None:
    """Every value of the class with its dims narrowed; ranges and splat constants remade, broadcasts
    that no longer broadcast dropped."""
    dims: dict[int, set[int]] = {}
    vals: dict[int, SSAValue] = {}
    for v, d in n.pairs:
        dims.setdefault(id(v), set()).add(d)
        vals[id(v)] = v
    broadcasts = [v.owner for v in vals.values() if isinstance(v.owner, tt.BroadcastOp)]
    for i, v in vals.items():
        new_t = narrowed_type(v.type, dims[i], n.keep)  # type: ignore[arg-type]
        op = v.owner
        if isinstance(op, Operation) and op.name == "arith.constant":
            Rewriter.replace_op(op, _splat_constant(op, v, new_t))
            continue
        if isinstance(op, tt.MakeRangeOp):
            start = op.start.value.data
            op.properties["end"] = IntegerAttr(start + n.keep, op.properties["end"].type)  # type: ignore[attr-defined]
        Rewriter.replace_value_with_new_type(v, new_t)
    for b in broadcasts:  # (along the narrowed dims only: now the identity)
        if b.operands[0].type == b.results[0].type:
            b.results[0].replace_all_uses_with(b.operands[0])
            Rewriter.erase_op(b)


def _splat_constant(op: Operation, v: SSAValue, t: TensorType) -> Operation:
    """Splat constant `v` (of `op`) remade with type `t`."""
    value = splat(v)
    assert value is not None
    size = value.type.element_type.compile_time_size  # type: ignore[attr-defined]
    count = 1
    for s in t.get_shape():
        count *= s
    data = type(value.data)(value.data.data[:size] * count)
    return op.__class__.create(result_types=[t], properties={"value": DenseIntOrFPElementsAttr(t, data)},
                               attributes=dict(op.attributes))


@register
@dataclass(frozen=True)
class NarrowMaskedDims(XpuPass):
    name = "xpu-narrow-masked-dims"
    summary = "narrow a tile dimension whose indices past K every store masks off to K"

    # Work units (ops and values walked) per op of the input; 0: unbounded. Past it the input is kept.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        # 1. The classes of tensor dims, the stores' mask bounds, and the classes to narrow.
        found = within_budget(self, op, ops, self.max_work_per_op, self._choose)
        if found is None:
            return
        chosen, why = found
        for at, message in why:
            self.remark(at, message)
        # 2. Each chosen class narrowed, on every value it runs through.
        for n in chosen:
            narrow(n)
        if not chosen:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> tuple[list[Narrowing], list[tuple[Operation, str]]]:
        classes = build(ops, budget)
        stores = [o for o in ops if isinstance(o, tt.StoreOp)]
        return choose(classes, stores, budget)
