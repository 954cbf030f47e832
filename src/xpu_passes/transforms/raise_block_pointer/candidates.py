"""Which accesses of a function raising considers, grouped as it plans them (`plan_function`).

Direct accesses are planned one by one; the accesses through one loop-carried pointer (the
iter_arg, or its increment) are planned together, as one family.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xpu_passes.transforms.raise_block_pointer.block_io import refusal
from xpu_passes.transforms.raise_block_pointer.dot_use import DotUse
from xpu_passes.transforms.raise_block_pointer.plan import Planner
from xpu_passes.transforms.raise_block_pointer.plan_types import Access, LeftAlone, Plan, tile_shape
from xpu_passes.dialects import tt
from xpu_passes.transforms.base import WorkBudget


def candidates(fn: tt.FuncOp) -> list[Access]:
    """The tensor-of-pointer loads and stores of `fn`, in walk order."""
    out: list[Access] = []
    for op in fn.walk():
        if isinstance(op, tt.LoadOp | tt.StoreOp):
            t = op.ptr.type
            if isinstance(t, TensorType) and isinstance(t.element_type, tt.PointerType):
                out.append(op)
    return out


def _carrier(op: Access) -> tuple[scf.ForOp, int] | None:
    """The loop and iter_arg index of the pointer `op` goes through: the carried one, or its increment."""
    p = op.ptr
    inc = p.owner
    if isinstance(inc, tt.AddPtrOp) and isinstance(inc.ptr, BlockArgument):
        c = _carrier_arg(inc.ptr)
        if c is not None and c[0].body.block.last_op.operands[c[1]] is p:  # type: ignore[union-attr]
            return c
    return _carrier_arg(p)


def _carrier_arg(p: SSAValue) -> tuple[scf.ForOp, int] | None:
    if isinstance(p, BlockArgument) and isinstance(p.owner, Block):
        loop = p.owner.parent_op()
        if isinstance(loop, scf.ForOp) and p.index > 0:
            return loop, p.index - 1
    return None


def _kept(plan: Plan, hw: bool, block_io_only: bool, uses: DotUse) -> Plan:
    why = refusal(plan, uses) if hw and block_io_only else None
    if why is not None:
        raise LeftAlone(why)
    return plan


NOT_DOT = "the tile neither feeds nor comes from a tt.dot (the coalesced gather is kept; dot-only)"


def transposed_reuse(fn: tt.FuncOp) -> tt.LoadOp | None:
    """A load of `fn` whose tile feeds tt.dot both as loaded and through tt.trans, if any (`skip-transposed-reuse`).

    Raised, such a tile is one 2D block read in one operand layout and a transposed copy for the other,
    and RemoveLayoutConversions then gives the loop's other loads the DPAS layout: at the ISA (IGC, PVC)
    attention backward's dK/dV went from 24 to 72 gathers, its dQ (fp16, 64x64, 8 warps) from 1,280 to
    8,064 spill bytes; raising only the other tiles, or only this one, spilled more (up to 52,416)."""
    uses = DotUse(fn)
    for op in candidates(fn):
        if isinstance(op, tt.LoadOp) and len(tile_shape(op)) == 2 and uses.transposed_reuse(op.result):
            return op
    return None


def plan_function(fn: tt.FuncOp, assumed_for: Callable[[Operation], set[tuple]] = lambda op: set(),
                  dot_only: bool = False, direct: Collection[Operation] = (),
                  block_io_only: bool = False, budget: WorkBudget | None = None,
                  wide_positions: bool = False) -> tuple[list[Plan], dict[Access, str]]:
    """Plans for every raisable access of `fn` (with the run-time conditions each still needs), and why the
    others are left alone. `dot_only`: only accesses moving a tt.dot's data (`transforms/raise_block_pointer/dot_use.py`);
    `block_io_only`: loads of a tt.dot's data only where they will be 2D block reads (`block_io.py`);
    `direct`: accesses through a loop-carried pointer planned on their own (a block pointer made at the
    access from the pointer's closed form), not as its family. `budget`: the run's (spent reading values;
    past it, OverBudget). `wide_positions`: positions computed in i64 too, and dot data read through pointers
    made from a loop's induction variable carried by the loop (the pass's option; induction.carry_induction)."""
    planner = Planner(assumed_for, budget, wide_positions)
    plans: list[Plan] = []
    failed: dict[Access, str] = {}
    families: dict[tuple[scf.ForOp, int], list[Access]] = {}
    uses = DotUse(fn)
    for op in candidates(fn):
        rank = len(tile_shape(op))
        if rank == 1 and dot_only:
            failed[op] = "1D access (2D block I/O needs a 2D tile)"
            continue
        if rank > 2:
            failed[op] = f"rank-{rank} access"
            continue
        c = _carrier(op) if op not in direct else None
        if c is not None:
            families.setdefault(c, []).append(op)
            continue
        if dot_only and not uses.relevant(op):
            failed[op] = NOT_DOT
            continue
        try:
            hw = uses.relevant(op)
            plans.append(_kept(planner.direct(op, hw), hw, block_io_only, uses))
        except LeftAlone as e:
            failed[op] = e.reason
    for (loop, index), ops in families.items():
        hw = any(uses.relevant(op) for op in ops)
        if dot_only and not hw:
            failed.update((op, NOT_DOT) for op in ops)
            continue
        try:
            plans.append(_kept(planner.carried(loop, index, hw), hw, block_io_only, uses))
        except LeftAlone as e:
            for op in ops:
                failed[op] = e.reason
    return plans, failed

