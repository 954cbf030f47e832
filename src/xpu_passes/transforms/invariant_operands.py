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

A loop that holds less than the file but exceeds it with the dot operands its body reads each
iteration (the pipeliner issues them together at the top of the body) does the same for a load that
two loops read: attention's Q in the two-stage causal form, held across both loops and the code
between them (flag-gems _attn_fwd bf16 STAGE=3 HEAD 128 BM 64 BN 32 w8: 4,416 -> 0 B spill). A load
only this loop reads stays (see _ONE_LOOP).

Left alone, with a remark (for a loop over the file only): a loop whose body may write memory (a
read moved into it could then see the write), a load with a memory write between it and its last
dot, and a loop that would still exceed the file without the loads that may move (the others:
masked, not 2D block reads, of another type than their dot's operand, or read by anything but dots
in loops).
"""

from __future__ import annotations

from collections.abc import Iterable
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


def _writes_memory(ops: Iterable[Operation]) -> Operation | None:
    """An op of `ops` (any depth) that may write global memory, if any."""
    for op in (o for top in ops for o in top.walk()):
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
        if not isinstance(user, tt.DotOp) or use.index > 1 or not _in_loop(user, load):
            return "read by an op other than dots in loops"
        if user.operands[use.index].type != load.result.type:
            return "of another type than its dot's operand"
    tops = {id(_top(u.operation, load)) for u in load.result.uses}
    between: list[Operation] = []
    op = load.next_op
    while tops and op is not None:  # (the load's block, up to the last op holding one of its dots)
        between.append(op)
        tops.discard(id(op))
        op = op.next_op
    if (w := _writes_memory(between)) is not None:
        return f"{w.name} may write memory before its last dot"
    return None


def _top(op: Operation, load: tt.LoadOp) -> Operation:
    """`op`'s ancestor in the load's block."""
    while op.parent_block() is not load.parent_block():
        op = op.parent_op()  # type: ignore[assignment]
    return op


def _in_loop(op: Operation, load: tt.LoadOp) -> bool:
    """Whether `op` is in an `scf.for` of the load's block (read again there, it is read once per
    iteration, as the loop's own operand loads are)."""
    return isinstance(_top(op, load), scf.ForOp)


def find(loop: scf.ForOp, live_in: list[SSAValue]) -> list[Reload] | str | None:
    """The loop's loads to read again at their dots; why none when the loop exceeds the file; None
    when it fits (nothing to do, nothing to say)."""
    dots = [o for o in loop.body.walk() if isinstance(o, tt.DotOp)]
    if not dots or any(not isinstance(getattr(d.results[0].type, "encoding", None), ttig.DpasEncodingAttr)
                       for d in dots):  # fmt: skip
        return None
    held = held_bytes(loop, live_in)
    peak = held + read_bytes(loop)
    if peak <= budget(GRF_LARGE):
        return None
    loads: list[tt.LoadOp] = []
    for d in dots:
        for v in d.operands[:2]:
            if isinstance(v.owner, tt.LoadOp) and not loop.is_ancestor(v.owner) and v.owner not in loads:
                loads.append(v.owner)
    if not loads:  # (said only where what it holds alone is over the file)
        return f"{_holds(held, peak)}, no dot operand is loaded before it" if held > budget(GRF_LARGE) else None
    if (w := _writes_memory([loop])) is not None:
        return f"{_holds(held, peak)}, but {w.name} in it may write memory"
    why = {ld: _why_not(ld, loop) or (None if held > budget(GRF_LARGE) or _loops_reading(ld) > 1 else _ONE_LOOP)
           for ld in loads}  # fmt: skip
    ok = [Reload(ld, [u.operation for u in ld.result.uses]) for ld in loads if why[ld] is None]  # type: ignore[misc]
    rest = held - sum(tensor_bytes(r.load.result.type) for r in ok)
    said = "; ".join(f"the {_shape(ld)} load: {w}" for ld, w in why.items() if w is not None)
    if not ok:
        return f"{_holds(held, peak)}, no operand load can be read at its dots ({said})"
    if rest > budget(GRF_LARGE):  # (measured: one of two reloaded, the loop still over the file, spilled more)
        return (f"{_holds(held, peak)}, {rest} B held with its operand loads read at their dots"
                + (f" ({said})" if said else ""))
    return ok


def read_bytes(loop: scf.ForOp) -> int:
    """Per-lane register bytes of the dot operands the loop body reads each iteration straight from global
    memory (loads into a dot operand layout): triton-xpu's pipeliner issues them at the top of the body, so
    they are live together, next to what the loop holds. (A `ttg.local_load` from SLM is read at its dot:
    flag-gems flash_varlen's paged K/V, 2 KB per lane by this count, fit the file natively.)"""
    total = 0
    for op in loop.body.walk():
        if isinstance(op, tt.LoadOp) and op.result.uses and all(
                isinstance(u.operation, tt.DotOp) and u.index < 2 for u in op.result.uses):  # fmt: skip
            total += tensor_bytes(op.result.type)
    return total


# Where only the body's reads take the loop over the file, a load read in this one loop stays: at the ISA
# (flag-gems _attn_fwd STAGE=1, no grf_mode) reading Q again took one such kernel under IGC's 1,000 B retry
# threshold at 128 GRF (0 -> 512 B spill), and gained on another (3,136 -> 0). Read in two loops (STAGE=3:
# held across both and the code between them), it gained on every kernel measured (4,416 -> 0 B spill).
_ONE_LOOP = "read in this loop only, which holds it within the file"


def _loops_reading(load: tt.LoadOp) -> int:
    """How many loops of the load's block read it."""
    return len({id(_top(u.operation, load)) for u in load.result.uses})


def _holds(held: int, peak: int) -> str:
    return f"holds {held} B per lane, {peak} B with its operand reads (> {budget(GRF_LARGE)})"


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
