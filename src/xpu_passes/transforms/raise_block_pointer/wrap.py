"""When a wrap-around tile needs no run-time version: its wrapped rows are never stored.

A load through `(pos + arange(0, B)) % W` along dim d, raised with shape W and a
`boundaryCheck` on d, reads the original's rows wherever `pos + i < W` (and, with the
position folded into the base when its sign is unknown, wherever `-W < pos + i`: `remsi`
keeps those); elsewhere it reads 0. The differing elements ("tainted": `pos + i_d >= W`)
are followed forward: elementwise ops keep positions, `tt.dot` maps rows of A (and of the
accumulator) to rows of its result and columns of B to its columns, loops and branches
carry them through their yields. The proof holds when every store they reach masks them
off (a conjunct `pos + i_d < W` on the same position and bound), and nothing else (a
reduction, a pointer, a mask, a scalar) sees them.

Rows with `pos + i_d <= -W` differ too; they exist only if `pos < 0`, and are then stored at
rows below 0 by the original kernel as well (its `% W` keeps A's rows in `[0, W)`, the mask
only checks `< W`): taken as outside the kernel's tensors, not preserved.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue

from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Decomposer, Lin, Unsupported
from xpu_passes.dialects import tt

Tag = tuple[int, tuple, tuple]  # (axis, key of pos, key of W): elements with pos + i_axis >= W may differ

_PASS_THROUGH = ("ttg.convert_layout", "tt.fp_to_fp", "tt.bitcast", "tt.precise_sqrt", "tt.precise_divf",
                 "tt.clampf", "tt.mulhiui", "tt.extern_elementwise", "arith.select")
_ELEMENTWISE_DIALECTS = ("arith.", "math.")


def _shape(v: SSAValue) -> tuple[int, ...] | None:
    return tuple(v.type.get_shape()) if isinstance(v.type, TensorType) else None


def _top_level(x: Lin, fn: Operation) -> bool:
    """Every leaf is defined in the function's entry block: one value for the whole run."""
    entry = fn.regions[0].blocks.first
    for v in x.leaves():
        if isinstance(v, BlockArgument):
            if v.owner is not entry:
                return False
        elif not (isinstance(v.owner, Operation) and v.owner.parent_block() is entry):
            return False
    return True


def _function(op: Operation) -> Operation | None:
    o = op.parent_op()
    while o is not None and not isinstance(o, tt.FuncOp):
        o = o.parent_op()
    return o


class WrapProof:
    """Follows a load's tainted rows to the stores; `why` is None when all of them are masked off."""

    def __init__(self, dec: Decomposer, pos: Lin, wrap: Lin) -> None:
        self.dec = dec
        self.pos, self.wrap = pos, wrap
        self.tags: dict[SSAValue, set[int]] = {}  # value -> tainted axes
        self.stores: list[tt.StoreOp] = []

    def run(self, loads: list[Operation], axis: int) -> str | None:
        fn = _function(loads[0])
        if fn is None or not (_top_level(self.pos, fn) and _top_level(self.wrap, fn)):
            return "the wrapped position or bound is computed inside a loop or branch"
        work: list[SSAValue] = []
        for ld in loads:
            if not isinstance(ld, tt.LoadOp):
                return "a store through wrapped-around offsets"
            self._add(ld.result, {axis}, work)
        budget = 20000
        while work:
            budget -= 1
            if budget < 0:
                return "the wrapped rows flow too far to follow"
            v = work.pop()
            why = self._step(v, work)
            if why is not None:
                return why
        return None

    def _add(self, v: SSAValue, axes: set[int], work: list[SSAValue]) -> None:
        have = self.tags.setdefault(v, set())
        if not axes <= have:
            have |= axes
            work.append(v)

    def _step(self, v: SSAValue, work: list[SSAValue]) -> str | None:
        axes = self.tags[v]
        for use in list(v.uses):
            u, i = use.operation, use.index
            if isinstance(u, scf.YieldOp):
                parent = u.parent_op()
                if isinstance(parent, scf.ForOp):
                    self._add(parent.results[i], axes, work)
                    self._add(parent.body.block.args[i + 1], axes, work)
                elif isinstance(parent, scf.IfOp):
                    self._add(parent.results[i], axes, work)
                else:
                    return f"the wrapped rows reach '{parent.name if parent else '?'}'"
            elif isinstance(u, scf.ForOp) and i >= 3:
                self._add(u.body.block.args[i - 2], axes, work)
                self._add(u.results[i - 3], axes, work)
            elif isinstance(u, tt.DotOp):
                why = self._dot(u, i, axes, work)
                if why is not None:
                    return why
            elif isinstance(u, tt.StoreOp):
                if i != 1:
                    return "the wrapped rows reach a store's pointer or mask"
                why = self._store(u, axes)
                if why is not None:
                    return why
            elif isinstance(u, tt.ExpandDimsOp):
                ax = u.axis.value.data
                self._add(u.result, {a if a < ax else a + 1 for a in axes}, work)
            elif isinstance(u, tt.BroadcastOp):
                src, dst = _shape(u.src), _shape(u.result)
                if src is None or dst is None or any(src[a] != dst[a] for a in axes):
                    return "the wrapped rows are broadcast"
                self._add(u.result, axes, work)
            elif isinstance(u, tt.TransOp):
                order = [int(x) for x in u.order.get_values()]
                self._add(u.result, {order.index(a) for a in axes}, work)
            elif self._elementwise(u, v):
                for r in u.results:
                    self._add(r, axes, work)
            else:
                return f"the wrapped rows reach '{u.name}'"
        return None

    @staticmethod
    def _elementwise(u: Operation, v: SSAValue) -> bool:
        if u.regions or not (u.name.startswith(_ELEMENTWISE_DIALECTS) or u.name in _PASS_THROUGH):
            return False
        shape = _shape(v)
        if shape is None or u.name == "tt.bitcast" and not isinstance(u.results[0].type, TensorType):
            return False
        vals = [*u.operands, *u.results]
        return all(_shape(x) == shape for x in vals if isinstance(x.type, TensorType)) and all(
            isinstance(r.type, TensorType) for r in u.results)

    def _dot(self, u: tt.DotOp, i: int, axes: set[int], work: list[SSAValue]) -> str | None:
        # d[m, n] = sum_k a[m, k] * b[k, n] + c[m, n]
        keep = {0: 0} if i == 0 else {1: 1} if i == 1 else {0: 0, 1: 1}
        if any(a not in keep for a in axes):
            return "the wrapped rows are a tt.dot's reduction dim"
        self._add(u.d, {keep[a] for a in axes}, work)
        return None

    def _store(self, st: tt.StoreOp, axes: set[int]) -> str | None:
        if st.mask is None:
            return "the wrapped rows reach an unmasked store"
        try:
            parts = self.dec.mask(st.mask)
        except Unsupported as e:
            return e.reason
        for a in axes:
            if not any(b.dim == a and b.wrap is None and b.pos.terms == self.pos.terms
                       and b.bound.terms == self.wrap.terms for b in parts.bounds):
                return f"a store does not mask dim {a} with `{self.pos} + i < {self.wrap}`"
        self.stores.append(st)
        return None


def wrap_masked(dec: Decomposer, loads: list[Operation], axis: int, pos: Lin, wrap: Lin) -> tuple[str | None, list]:
    """(None, the stores that mask the rows) when raising `loads` with a `boundaryCheck` on `axis` changes only
    elements those stores mask off; else (why, [])."""
    p = WrapProof(dec, pos, wrap)
    why = p.run(loads, axis)
    return why, ([] if why else p.stores)


__all__ = ["WrapProof", "wrap_masked"]
