"""Block-pointer families: a `tt.make_tensor_ptr` and every value and access derived from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue

from xpu_passes.dialects import tt
from xpu_passes.dialects.ttig import PrefetchOp


@dataclass
class Family:
    """A make_tensor_ptr and every value and access derived from it."""

    root: tt.MakeTensorPtrOp
    values: set[SSAValue] = field(default_factory=set)
    accesses: list[Operation] = field(default_factory=list)
    unsupported: Operation | None = None


def collect_family(root: tt.MakeTensorPtrOp) -> Family:
    fam = Family(root)
    work: list[SSAValue] = [root.result]
    while work:
        v = work.pop()
        if v in fam.values:
            continue
        fam.values.add(v)
        for use in list(v.uses):
            user = use.operation
            if isinstance(user, tt.AdvanceOp):
                work.append(user.result)
            elif isinstance(user, tt.LoadOp | tt.StoreOp | PrefetchOp) and use.index == 0:
                fam.accesses.append(user)
            elif isinstance(user, scf.ForOp) and use.index >= 3:
                k = use.index - 3
                work += [user.body.block.args[k + 1], user.results[k]]
            elif isinstance(user, scf.YieldOp) and isinstance(user.parent_op(), scf.ForOp):
                loop = user.parent_op()
                assert isinstance(loop, scf.ForOp)
                work += [loop.results[use.index], loop.body.block.args[use.index + 1]]
            else:
                fam.unsupported = user
    return fam
