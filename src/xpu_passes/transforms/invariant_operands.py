"""ReduceVariableLiveness's rule for a loop over the register file: its loop-invariant dot operands
read again right before their dots (ours; step 4 of transforms/reduce_variable_liveness.py).

A dot operand loaded before an `scf.for` (a 2D block read) is held in registers across the whole
loop. When what the loop holds across its iterations (its carried tensors and the tensors its body
reads from outside, per lane in their layouts: layouts/pressure.tensor_bytes) exceeds a hardware
thread's register file (256 registers of 64 bytes, 1 KB per lane), IGC spills; each such load is
then cloned right before each dot that reads it, where it is read again every iteration (from
cache) instead of held, when the loop then fits the file (else none is: reading one of two again,
the loop still over the file, spilled more). Intel's step 2 does this above fixed sizes (a 32 KB
tensor, 32 KB live-in per work-group) for dots in the body block itself; this rule asks the file
per lane instead and reaches dots nested in an `scf.if` of the body. At the ISA (IGC): fla's parallel_nsa_bwd_kernel_dkv
(1 warp, two 32x64 f32 accumulators and the 32x64 bf16 K and V operands: 1.5 KB per lane) 5,725 ->
4,599 instructions, 20,416 -> 16,768 spill bytes, every other figure equal; moving only one of the
two loads spilled more (docs/passes.md).

Left alone, with a remark (for a loop over the file only): a loop whose body may write memory (a
read moved into it could then see the write), and a loop that would still exceed the file without
the loads that may move (the others: masked, not 2D block reads, of another type than their dot's
operand, or read by anything but dots inside the loop).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, is_side_effect_free

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.layouts.pressure import GRF_LARGE, budget, tensor_bytes

# Ops a body may hold around a moved read: they write no global memory (SLM is the work-group's own).
_NO_GLOBAL_WRITE = (ttg.LocalAllocOp, ttg.LocalLoadOp, ttg.LocalDeallocOp, ttig.PrefetchOp)


@dataclass(frozen=True)
class Reload:
    load: tt.LoadOp
    dots: list[tt.DotOp]  # its users, each in the loop (any depth)


def carried_bytes(loop: scf.ForOp) -> int:
    """Per-lane register bytes of the data tensors a loop carries (its accumulators)."""
    return sum(tensor_bytes(a.type) for a in loop.body.block.args[1:])


def held_bytes(loop: scf.ForOp, live_in: list[SSAValue]) -> int:
    """Per-lane register bytes the loop holds across its iterations: its carried tensors and the
    tensors its body reads from outside, but constants and splats of a scalar (IGC reads their one
    value where they are used: no register holds their elements across the loop)."""
    return carried_bytes(loop) + sum(tensor_bytes(v.type) for v in live_in if not _one_value(v))


def _one_value(v: SSAValue) -> bool:
    return isinstance(v.owner, tt.SplatOp) or isinstance(v.owner, Operation) and v.owner.name == "arith.constant"


def _writes_memory(loop: scf.ForOp) -> Operation | None:
    """An op of the loop (any depth) that may write global memory, if any."""
    for op in loop.body.walk():
        if isinstance(op, tt.LoadOp):
            if op.isVolatile is not None and op.isVolatile.value.data:
                return op
            continue
        if isinstance(op, _NO_GLOBAL_WRITE) or op.regions or op.has_trait(IsTerminator) or is_side_effect_free(op):
            continue  # (an op with regions: its ops are walked too; a terminator passes values on)
        return op
    return None


def _why_not(load: tt.LoadOp, loop: scf.ForOp) -> str | None:
    """Why `load` (made before `loop`, a dot operand in it) is not read again at its dots, if not."""
    pt = load.ptr.type
    if not (isinstance(pt, tt.PointerType) and pt.is_block) or ttig.BLOCK_IO not in load.attributes:
        return "not a 2D block read"
    if load.mask is not None:
        return "masked"
    if load.parent_block() is not loop.parent_block():
        return "not in the loop's block"
    for use in load.result.uses:
        user = use.operation
        if not isinstance(user, tt.DotOp) or use.index > 1 or not loop.is_ancestor(user):
            return "read by an op other than the loop's dots"
        if user.operands[use.index].type != load.result.type:
            return "of another type than its dot's operand"
    return None


def find(loop: scf.ForOp, live_in: list[SSAValue]) -> list[Reload] | str | None:
    """The loop's loads to read again at their dots; why none when the loop exceeds the file; None
    when it fits (nothing to do, nothing to say)."""
    dots = [o for o in loop.body.walk() if isinstance(o, tt.DotOp)]
    if not dots or any(not isinstance(getattr(d.results[0].type, "encoding", None), ttig.DpasEncodingAttr)
                       for d in dots):  # fmt: skip
        return None
    held = held_bytes(loop, live_in)
    if held <= budget(GRF_LARGE):
        return None
    loads: list[tt.LoadOp] = []
    for d in dots:
        for v in d.operands[:2]:
            if isinstance(v.owner, tt.LoadOp) and not loop.is_ancestor(v.owner) and v.owner not in loads:
                loads.append(v.owner)
    if not loads:
        return f"holds {held} B per lane (> {budget(GRF_LARGE)}), no dot operand is loaded before it"
    if (w := _writes_memory(loop)) is not None:
        return f"holds {held} B per lane (> {budget(GRF_LARGE)}), but {w.name} in it may write memory"
    why = {ld: _why_not(ld, loop) for ld in loads}
    ok = [Reload(ld, [u.operation for u in ld.result.uses]) for ld in loads if why[ld] is None]  # type: ignore[misc]
    rest = held - sum(tensor_bytes(r.load.result.type) for r in ok)
    if rest > budget(GRF_LARGE):  # (measured: one of two reloaded, the loop still over the file, spilled more)
        said = "; ".join(f"the {_shape(ld)} load: {w}" for ld, w in why.items() if w is not None)
        return (f"holds {held} B per lane (> {budget(GRF_LARGE)}), {rest} B with its operand loads read at their "
                f"dots" + (f" ({said})" if said else ""))
    return ok


def _shape(load: tt.LoadOp) -> str:
    t = load.result.type
    return "x".join(str(n) for n in t.get_shape()) if isinstance(t, TensorType) else str(t)


def reload(r: Reload) -> None:
    """A copy of the load right before each of its dots; the load before the loop goes."""
    for dot in r.dots:
        new = r.load.clone()
        Rewriter.insert_op(new, InsertPoint.before(dot))
        for i in (0, 1):
            if dot.operands[i] is r.load.result:
                dot.operands[i] = new.results[0]
    assert not r.load.result.uses
    r.load.detach()
    r.load.erase()
