"""Which tensor-of-pointer accesses move a `tt.dot`'s data: its operands, its result, its epilogue.

triton-xpu 3.3 lowers block pointers to 2D block I/O only for those (DPAS operand and
accumulator layouts); any other block-pointer load keeps the default blocked layout that
convert-triton-to-tritongpu gives it, where its tensor of pointers would have got the
coalesced one, and a reduction over it can then need more scratch (a 2D softmax: 16 ->
32 bytes, an attention-backward preprocess: 0 -> 1,024). Raising pays only here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from xpu_passes.dialects import tt

_STOP = ("tt.load", "tt.store", "tt.addptr", "tt.atomic_rmw", "tt.atomic_cas", "tt.return", "tt.call")


def _flows(v: SSAValue) -> list[SSAValue]:
    """The values `v` flows into through one op (data ops, loop/branch yields)."""
    out: list[SSAValue] = []
    for use in v.uses:
        u = use.operation
        if isinstance(u, scf.YieldOp):
            parent = u.parent_op()
            if isinstance(parent, scf.ForOp):
                out += [parent.results[use.index], parent.body.block.args[use.index + 1]]
            elif isinstance(parent, scf.IfOp):
                out.append(parent.results[use.index])
        elif isinstance(u, scf.ForOp) and use.index >= 3:  # an init: the iter_arg and the result
            out += [u.body.block.args[use.index - 2], u.results[use.index - 3]]
        elif u.name not in _STOP and not u.regions:
            out += [r for r in u.results if isinstance(r.type, TensorType)]
    return out


def _walk(starts: list[SSAValue], budget: int, seen: set[SSAValue],
          follow: Callable[[SSAValue], bool] | None = None) -> Iterator[tuple[SSAValue, list[SSAValue]]]:
    """Each value reached from `starts` through `_flows` (those `follow` accepts), once, depth
    first, with the values it flows into; at most `budget` values are taken from the worklist.
    `seen` collects them (the caller's set)."""
    work = list(starts)
    while work and budget > 0:
        x = work.pop()
        budget -= 1
        if x in seen:
            continue
        seen.add(x)
        nxt = _flows(x)
        yield x, nxt
        work += nxt if follow is None else [y for y in nxt if follow(y)]


def _dot_operand_indices(x: SSAValue) -> set[int]:
    return {use.index for use in x.uses if isinstance(use.operation, tt.DotOp) and use.index < 2}


class DotUse:
    """The values a `tt.dot` result flows into (accumulators, epilogues) in one function."""

    def __init__(self, fn: Operation, budget: int = 20000) -> None:
        self.derived: set[SSAValue] = set()
        starts = [r for op in fn.walk() if isinstance(op, tt.DotOp) for r in op.results]
        for _ in _walk(starts, budget, self.derived):
            pass

    def load_feeds_dot(self, v: SSAValue, budget: int = 400) -> bool:
        """Whether a loaded tile reaches a dot operand, or meets a dot's result (`acc + D`)."""
        for x, nxt in _walk([v], budget, set()):
            if _dot_operand_indices(x) or any(n in self.derived for n in nxt):
                return True
        return False

    def dot_operands(self, v: SSAValue, budget: int = 400) -> set[int]:
        """Which operands of tt.dot ops (0: A, 1: B) the loaded tile `v` reaches (itself, not through a product)."""
        out: set[int] = set()
        for x, _ in _walk([v], budget, set(), follow=lambda y: not isinstance(y.owner, tt.DotOp)):
            out |= _dot_operand_indices(x)
        return out

    def transposed_reuse(self, v: SSAValue, budget: int = 400) -> bool:
        """Whether the loaded tile `v` is a tt.dot operand both as loaded and through a tt.trans (attention
        backward's K or Q^T tile: `dot(q, k_t)` and `dot(ds, trans(k_t))`)."""
        direct, transposed = False, []
        stop = (tt.DotOp, tt.TransOp)
        for x, nxt in _walk([v], budget, set(), follow=lambda y: not isinstance(y.owner, stop)):
            direct |= bool(_dot_operand_indices(x))
            transposed += [y for y in nxt if isinstance(y.owner, tt.TransOp)]
        if not direct or not transposed:
            return False
        for x, _ in _walk(transposed, budget, set(), follow=lambda y: not isinstance(y.owner, stop)):
            if _dot_operand_indices(x):
                return True
        return False

    def relevant(self, op: tt.LoadOp | tt.StoreOp) -> bool:
        if isinstance(op, tt.LoadOp):
            return self.load_feeds_dot(op.result)
        return op.value in self.derived
