"""The dims of a function's tensors that are one index space: (value, dim) pairs joined through the ops that
carry an index from operand to result unchanged; a pair any other op touches is opaque (the op mixes or
hides its indices)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from xpu_passes.dialects import tt, ttig
from xpu_passes.transforms.base import WorkBudget
from xpu_passes.transforms.slice_epilogue.cut import splat

Pair = tuple[int, int]  # (id of a value, dim)

# Ops that compute each index from the same index of their tensor operands (all of one shape).
_ELEMENTWISE = frozenset({
    "tt.addptr", "tt.load", "tt.store", "tt.fp_to_fp", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int",
    "tt.precise_sqrt", "tt.precise_divf", "tt.clampf", "tt.mulhiui", "tt.extern_elementwise",
    "ttg.convert_layout", "scf.yield",
})


def tensor_of_value(v: SSAValue) -> TensorType | None:
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
        t = tensor_of_value(v)
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
        t = tensor_of_value(v)
        if t is None:
            return
        self.add(v)
        for d in dims if dims is not None else range(len(t.get_shape())):
            self.opaque[(id(v), d)] = why


def _join_all(c: Classes, vals: list[SSAValue]) -> None:
    ts = [v for v in vals if tensor_of_value(v) is not None]
    for v in ts[1:]:
        for d in range(len(tensor_of_value(ts[0]).get_shape())):  # type: ignore[union-attr]
            c.join(ts[0], d, v, d)


def build(ops: list[Operation], budget: WorkBudget) -> Classes:
    """The classes of the module's tensor dims."""
    c = Classes()
    for op in ops:
        budget.spend(1)
        vals = [*op.operands, *op.results]
        if not any(tensor_of_value(v) is not None for v in vals):
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
        if ttig.BLOCK_IO in op.attributes:  # (a 2D block message's width is the tile's)
            for v in vals:
                c.stop(v, f"a 2D block access ('{name}')")
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
                    if tensor_of_value(r) is not None:
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
