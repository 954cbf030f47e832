"""Which tensor-of-pointer accesses move a `tt.dot`'s data: its operands, its result, its epilogue.

triton-xpu 3.3 lowers block pointers to 2D block I/O only for those (DPAS operand and
accumulator layouts); any other block-pointer load keeps the default blocked layout that
convert-triton-to-tritongpu gives it, where its tensor of pointers would have got the
coalesced one, and a reduction over it can then need more scratch (a 2D softmax: 16 ->
32 bytes, an attention-backward preprocess: 0 -> 1,024). Raising pays only here.
"""

from __future__ import annotations

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


class DotUse:
    """The values a `tt.dot` result flows into (accumulators, epilogues) in one function."""

    def __init__(self, fn: Operation, budget: int = 20000) -> None:
        self.derived: set[SSAValue] = set()
        work = [r for op in fn.walk() if isinstance(op, tt.DotOp) for r in op.results]
        while work and budget > 0:
            v = work.pop()
            budget -= 1
            if v in self.derived:
                continue
            self.derived.add(v)
            work += _flows(v)

    def load_feeds_dot(self, v: SSAValue, budget: int = 400) -> bool:
        """Whether a loaded tile reaches a dot operand, or meets a dot's result (`acc + D`)."""
        seen: set[SSAValue] = set()
        work = [v]
        while work and budget > 0:
            x = work.pop()
            budget -= 1
            if x in seen:
                continue
            seen.add(x)
            for use in x.uses:
                if isinstance(use.operation, tt.DotOp) and use.index < 2:
                    return True
            nxt = _flows(x)
            if any(n in self.derived for n in nxt):
                return True
            work += nxt
        return False

    def dot_operands(self, v: SSAValue, budget: int = 400) -> set[int]:
        """Which operands of tt.dot ops (0: A, 1: B) the loaded tile `v` reaches (itself, not through a product)."""
        seen: set[SSAValue] = set()
        out: set[int] = set()
        work = [v]
        while work and budget > 0:
            x = work.pop()
            budget -= 1
            if x in seen:
                continue
            seen.add(x)
            out |= {use.index for use in x.uses if isinstance(use.operation, tt.DotOp) and use.index < 2}
            work += [y for y in _flows(x) if not isinstance(y.owner, tt.DotOp)]  # not on through a product
        return out

    def relevant(self, op: tt.LoadOp | tt.StoreOp) -> bool:
        if isinstance(op, tt.LoadOp):
            return self.load_feeds_dot(op.result)
        return op.value in self.derived
