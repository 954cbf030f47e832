"""-tritonintelgpu-reduce-variable-liveness: shorter live ranges for the loads of a loop's DPAS dot operands.

Intel main's pass of that flag (ReduceVariableLiveness.cpp), for triton-xpu 3.3's IR (a block-pointer or
tensor-of-pointers `tt.load` tagged `ttig.block_io` where main has `tt.descriptor_load`), plus one rule of ours.

Intel's rule (step 2): a 2D block load of a dot operand made before its `scf.for` is live across the whole
loop. When the loaded tensor is large (>= 32 KB, >= 128 rows along its major dim) and the loop body's
live-in values exceed 32 KB, the load is cloned into the loop right before its first user there, a
`ttig.prefetch` of it is left after the pointer's definition, and a use after the loop gets a copy of
the load after the loop. On our sets nothing passes these thresholds (docs/passes.md).

Ours (step 3): in a loop body, a dot's operand read (a `tt.load` into the dot-operand layout, or a
`ttg.local_load` from SLM into it) made before the other operand's `ttg.local_load` of a tile computed
in the loop (dequantized, scaled, stored to SLM there) sinks to right before the dot, when that lowers
the estimated register peak of the two reads: each read holds its values and what is in flight while it
runs (an access holds more than its values: layouts/pressure.py), and the values read first are live
across the reads after them, so the larger read goes first (ties stay). Only where that peak plus the
loop's carried tensors reaches `min-live-grf` registers (the default file, 128): below it the kernel
fits either way and the order only moves IGC's schedule (gemlite 16x32x64 w4 GEMMs not raised: 32 B
per lane carried, peak 320 -> 256, yet 0 -> 448 B spill at the ISA). At the ISA (IGC): gemlite A16W1
64x256x64 w8 spills 0 B instead of native's 18,752 (A's local_load after B's); ours raised 2,496 instead
of 19,520. Measured and left out (docs/passes.md): outside loops, past a read for another op, past the
other operand's read when that operand is a copy of a load (mixed at the ISA).

Ours (step 4, transforms/invariant_operands.py): a loop holding more than a hardware thread's register file
reads its loop-invariant dot operands again right before their dots, when it then fits (fla's nsa dkv kernels:
-18 to -23% spill bytes, -20% instructions); one over the file only with its per-iteration operand reads does
so for an operand two loops read (attention's Q in the two-stage causal form: 4,416 -> 0 B spill).

Ours (step 5, transforms/straight_operand_loads.py; off unless `sink-straight-loads`): outside loops, a dot's
B operand tile's load is made right before its first user, not above the dots and SLM conversions it does not
feed, where that lowers the block's estimated register peak (fla's chunk kernels, their K/V loops folded:
dqkwg simple GLA w4 32,896 -> 15,360 B spill, -11% instructions; 2 of 99 fla DPAS rows measured worse).

The pass runs last in the `xpu` pipeline, on whichever stage the whole-stage comparison kept
(integration/stages.AFTER_COMPARISON). What it leaves alone in a loop, it says why (remarks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, ModuleOp, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.dialects.traits import threads_per_warp
from xpu_passes.layouts.pressure import GRF_DEFAULT, tensor_bytes
from xpu_passes.layouts.pressure import budget as lane_budget
from xpu_passes.transforms import invariant_operands, straight_operand_loads
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register, within_budget

# Intel's constants (ReduceVariableLiveness.cpp)
TOTAL_BLOCK_SIZE_THRESHOLD_IN_BYTES = 32768
LARGE_TENSOR_MINOR_SHAPE_THRESHOLD = 128
LARGE_TENSOR_MAJOR_SHAPE_THRESHOLD = 128
LARGE_TENSOR_SIZE_THRESHOLD_IN_BYTES = LARGE_TENSOR_MAJOR_SHAPE_THRESHOLD * LARGE_TENSOR_MINOR_SHAPE_THRESHOLD * 2


def i32_attr(v: int) -> IntegerAttr:
    return IntegerAttr(v, i32)


def size_in_bytes(t: Attribute) -> int:
    """Intel's getSizeInBytes: a whole tensor's bytes (0: not of ints or floats, e.g. pointers)."""
    if not isinstance(t, TensorType):
        return 0
    el = t.element_type
    width = el.width.data if isinstance(el, IntegerType) else getattr(el, "bitwidth", 0)
    n = 1
    for d in t.get_shape():
        n *= d
    return n * (width // 8)


def _scalar_bytes(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data // 8
    return getattr(t, "bitwidth", 0) // 8 if not isinstance(t, TensorType) else 0


def live_in(body: Block) -> list[SSAValue]:
    """The values the loop body reads and does not define (MLIR Liveness' live-in of the body block)."""
    inside = {id(o) for o in body.walk()}
    seen: dict[int, SSAValue] = {}
    for o in body.walk():
        for v in o.operands:
            owner = v.owner
            defined_inside = (id(owner) in inside) if isinstance(owner, Operation) else _block_inside(owner, body)
            if not defined_inside:
                seen.setdefault(id(v), v)
    return list(seen.values())


def _block_inside(b: Block, body: Block) -> bool:
    while b is not None:
        if b is body:
            return True
        parent = b.parent_op()
        b = parent.parent_block() if parent is not None else None  # type: ignore[assignment]
    return False


def live_in_bytes(values: list[SSAValue]) -> int:
    """Intel's getBlockLiveInSizeInBytes."""
    return sum(size_in_bytes(v.type) if isinstance(v.type, TensorType) else _scalar_bytes(v.type) for v in values)


def _order(t: TensorType) -> tuple[int, ...]:
    """triton's getOrder for the layouts a rank-2 dot operand load has (fastest dim first)."""
    enc = t.encoding  # type: ignore[attr-defined]
    if isinstance(enc, ttg.DotOperandEncodingAttr):
        return (1, 0) if enc.op_idx == 0 else (0, 1)  # K fastest
    if isinstance(enc, ttg.BlockedEncodingAttr):
        return enc.order
    return tuple(reversed(range(len(t.get_shape()))))


def is_long_life_span(v: SSAValue, body_live_in: list[SSAValue], live_in_size: int) -> bool:
    """Intel's isLongLifeSpanVariable."""
    t = v.type
    if not isinstance(t, TensorType) or t.encoding is None:  # type: ignore[attr-defined]
        return False
    order = _order(t)
    return (len(order) == 2 and size_in_bytes(t) >= LARGE_TENSOR_SIZE_THRESHOLD_IN_BYTES
            and t.get_shape()[order[1]] >= LARGE_TENSOR_MINOR_SHAPE_THRESHOLD
            and live_in_size > TOTAL_BLOCK_SIZE_THRESHOLD_IN_BYTES and any(x is v for x in body_live_in))


def _load_of(v: SSAValue) -> tt.LoadOp | None:
    """The tt.load producing `v`, through layout conversions (Intel's getLoad)."""
    op = v.owner
    while isinstance(op, Operation):
        if isinstance(op, tt.LoadOp):
            return op
        if not isinstance(op, ttg.ConvertLayoutOp):
            return None
        op = op.operands[0].owner
    return None


def load_candidate(load: tt.LoadOp, element: Attribute, loop: scf.ForOp) -> str | None:
    """Intel's isLoadCandidate: None, or why `load` may not move into `loop`."""
    pt = load.ptr.type
    if not (isinstance(pt, tt.PointerType) and pt.is_block) and not isinstance(pt, TensorType):
        return "not a tensor or block pointer"
    if load.mask is not None:
        return "masked"
    t = load.result.type
    if not isinstance(t, TensorType) or t.element_type != element:
        return "element type differs from the dot operand's"
    if ttig.BLOCK_IO not in load.attributes:
        return "no ttig.block_io"
    if len(t.get_shape()) != 2:
        return "not of rank 2"
    if load.parent_op() is loop:
        return "already in the loop"
    block = loop.parent_block()
    if block is not None and any(u.operation.parent_block() is block and u.operation.is_before_in_block(loop)
                                 for u in load.result.uses):
        return "used before the loop"
    if not isinstance(load.ptr.owner, Operation):
        return "its pointer is a block argument"
    return None


def move_into_loop(dot: tt.DotOp, idx: int, load: tt.LoadOp, prefetched: set[int]) -> None:
    """Intel's moveOperand: prefetch `load` where its pointer is made, clone it before its first user
    in the dot's block, re-lay it for the dot, and copy it after the loop for later uses."""
    body = dot.parent_block()
    assert body is not None
    operand = dot.operands[idx]
    first: Operation = dot
    in_loop = []
    for use in list(load.result.uses):
        user = use.operation
        if user is not dot and user.parent_block() is body:
            in_loop.append(use)
            if user.is_before_in_block(first):
                first = user
    if id(load.ptr) not in prefetched:
        prefetched.add(id(load.ptr))
        # the load's cache/evict/volatile (3.3 requires them on a prefetch) and its other attributes
        props = {k: v for k, v in load.properties.items() if k not in ("padding", "operandSegmentSizes")}
        props = {"cache": i32_attr(1), "evict": i32_attr(1), "isVolatile": BoolAttr.from_bool(False)} | props
        pf = ttig.PrefetchOp.build(operands=[load.ptr, [], []], properties=props, attributes=dict(load.attributes))
        Rewriter.insert_op(pf, InsertPoint.after(load.ptr.owner))  # type: ignore[arg-type]
    new = load.clone()
    Rewriter.insert_op(new, InsertPoint.before(first))
    value: SSAValue = new.results[0]
    if value.type != operand.type:  # (Intel's always-made conversion, folded where the types match)
        cvt = ttg.ConvertLayoutOp.build(operands=[value], result_types=[operand.type])
        Rewriter.insert_op(cvt, InsertPoint.before(dot))
        value = cvt.results[0]
    dot.operands[idx] = value
    for use in in_loop:
        use.operation.operands[use.index] = new.results[0]
    if load.result.uses:
        loop = body.parent_op()
        assert loop is not None
        after = load.clone()
        Rewriter.insert_op(after, InsertPoint.after(loop))
        load.result.replace_all_uses_with(after.results[0])
    if not load.result.uses:
        load.detach()
        load.erase()


def _dpas_dots(body: Block) -> list[tt.DotOp] | None:
    """The dots of a loop body; None when one is not DPAS (Intel then leaves the loop alone)."""
    dots = [o for o in body.ops if isinstance(o, tt.DotOp)]
    if any(not isinstance(getattr(d.results[0].type, "encoding", None), ttig.DpasEncodingAttr) for d in dots):
        return None
    return dots


def _reads_into_operand(v: SSAValue) -> bool:
    t = v.type
    return (isinstance(v.owner, tt.LoadOp | ttg.LocalLoadOp) and isinstance(t, TensorType)
            and isinstance(t.encoding, ttg.DotOperandEncodingAttr))  # type: ignore[attr-defined]


def read_peak(reads: list[Operation]) -> int:
    """Per-lane register peak of consecutive reads whose values all live past them: at each read,
    the values read before it plus its own values twice (as they arrive and as laid out for the dot;
    the vectors in flight grow with them, layouts/pressure.access_bytes)."""
    held, peak = 0, 0
    for r in reads:
        b = sum(tensor_bytes(x.type) for x in r.results)
        peak = max(peak, held + 2 * b)
        held += b
    return peak


def computed_in_slm(read: Operation) -> bool:
    """Whether `read` is a local_load of a tile stored to SLM in its block from values computed there
    (dequantized, scaled: not a copy of a load, through layout conversions)."""
    if not isinstance(read, ttg.LocalLoadOp):
        return False
    alloc = read.operands[0].owner
    if not isinstance(alloc, ttg.LocalAllocOp) or alloc.parent_block() is not read.parent_block() or not alloc.operands:
        return False
    src = alloc.operands[0].owner
    while isinstance(src, ttg.ConvertLayoutOp):
        src = src.operands[0].owner
    return isinstance(src, Operation) and not isinstance(src, tt.LoadOp) and src.parent_block() is read.parent_block()


def sink_operand_read(dot: tt.DotOp, read: Operation, held: int = 0, min_live: int = 0) -> str | None:
    """Sink `read` (a dot operand's last read, in the dot's block) to right before `dot` past the
    reads between them when that lowers `read_peak`, and that peak plus the bytes per lane `held` across
    the reads (the loop's carried tensors) reaches `min_live`; None when moved, else why not."""
    between: list[Operation] = []
    o = read.next_op
    while o is not None and o is not dot:
        if not isinstance(o, tt.LoadOp | ttg.LocalLoadOp):
            return f"'{o.name}' between it and the dot (only reads are crossed)"
        if not any(u.operation is dot for r in o.results for u in r.uses):
            # (measured: fla prepare_wy_repr_bwd, A past a read for the next dot: +256 B spill)
            return "a read for another op between it and the dot (only the other operand's reads are crossed)"
        if not computed_in_slm(o):
            # (measured: where the other operand is a copy of a load, IGC gave mixed results: corpus
            # grouped_gemm +64 B spill, attn_bwd_dq 32x64 +27% instructions; others a few instructions less)
            return "the other operand is read as loaded (only a tile computed in the loop is read first)"
        between.append(o)
        o = o.next_op
    if o is None:
        return "not before its dot"
    if not between:
        return "already right before the dot"
    if any(u.operation is not dot and u.operation.parent_block() is read.parent_block()
           and u.operation.is_before_in_block(dot) for u in read.results[0].uses):
        return "used before the dot"
    before, after = read_peak([read, *between]), read_peak([*between, read])
    if held + before < min_live:
        return f"the loop fits the register file ({held + before} of {min_live} B per lane live at the reads)"
    if after >= before:
        return f"no lower register peak past the reads after it ({before} -> {after} B per lane)"
    read.detach()
    Rewriter.insert_op(read, InsertPoint.before(dot))
    return None


@register
@dataclass(frozen=True)
class ReduceVariableLiveness(XpuPass):
    name = "tritonintelgpu-reduce-variable-liveness"
    summary = "move loads of a loop's DPAS dot operands closer to their dot (Intel main's pass, and operand read order)"

    # Our rule (step 3); false: Intel's rule only.
    order_operand_reads: bool = True
    # Step 3 only where the reads' peak and the loop's carried tensors reach this many registers (64 B)
    # of a hardware thread: the default file; below it nothing spills whatever the order.
    min_live_grf: int = GRF_DEFAULT
    # Our rule (step 4: transforms/invariant_operands.py); false: loop-invariant dot operands stay held.
    reload_invariant_operands: bool = True
    # Our rule (step 5: transforms/straight_operand_loads.py), off: at the ISA it lowers fla dqkwg's spill by
    # 7-88% but is worse than native on 2 of 99 fla DPAS rows measured (docs/passes.md); true to use it.
    sink_straight_loads: bool = False
    # Work units (ops walked) per op of the input; 0: unbounded. Past it the input is kept.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    @property
    def needs_text(self) -> tuple[str, ...] | None:
        """With step 5, straight-line code may have work: a tt.dot is enough (else prefilters' RVL entry)."""
        return ("tt.dot",) if self.sink_straight_loads else None

    @property
    def needs_match(self) -> Callable[[str], bool] | None:
        return (lambda text: True) if self.sink_straight_loads else None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        # 1. Intel first canonicalizes layout conversions (folding chains for its getLoad); ours walks
        #    back through conversions instead (no other rewrite of the module).
        if within_budget(self, op, ops, self.max_work_per_op, self._fits) is None:
            return
        # (the module's one walk: steps 2 and 3 move and clone loads, never a loop)
        loops = [o for o in ops if isinstance(o, scf.ForOp)]
        changed = False
        prefetched: set[int] = set()
        # 2. Intel's rule, loop by loop (its liveness is recomputed after each loop it changes).
        for loop in loops:
            changed |= self._into_loop(loop, prefetched)
        # 3. Ours: each loop body's dot operand reads, larger first.
        if self.order_operand_reads:
            for loop in loops:
                changed |= self._order_reads(loop)
        # 4. Ours: a loop over the register file reads its loop-invariant dot operands at their dots.
        if self.reload_invariant_operands:
            for loop in loops:
                found = invariant_operands.find(loop, live_in(loop.body.block))
                if isinstance(found, str):
                    self.remark(loop, f"loop-invariant dot operands held across the loop: {found}")
                for r in found if isinstance(found, list) else []:
                    invariant_operands.reload(r)
                    changed = True
        # 5. Ours: outside loops, a dot operand tile's load right before its first user where that lowers the
        #    block's estimated register peak (the last first, again until none does).
        if self.sink_straight_loads:
            loads = [o for o in ops if straight_operand_loads.candidate(o)]
            changed |= straight_operand_loads.sink_all(loads, self.remark)  # type: ignore[arg-type]
        if not changed:
            self.said(UNCHANGED)

    @staticmethod
    def _fits(ops: list[Operation], budget: WorkBudget) -> bool:
        budget.spend(len(ops))
        return True

    def _into_loop(self, loop: scf.ForOp, prefetched: set[int]) -> bool:
        body = loop.body.block
        dots = _dpas_dots(body)
        if not dots:
            return False
        moved = False
        values = live_in(body)  # (changes only when a load moves in: then taken again, with its bytes)
        size = live_in_bytes(values)
        for dot in dots:
            for idx in (0, 1):
                load = _load_of(dot.operands[idx])
                if load is None:
                    continue
                if not is_long_life_span(load.result, values, size):
                    continue  # (Intel's thresholds: nothing said, as most loads are small)
                why = load_candidate(load, dot.operands[idx].type.element_type, loop)  # type: ignore[attr-defined]
                if why is not None:
                    self.remark(load, f"dot operand load not moved into the loop: {why}")
                    continue
                move_into_loop(dot, idx, load, prefetched)
                moved = True
                values = live_in(body)
                size = live_in_bytes(values)
        return moved

    def _order_reads(self, loop: scf.ForOp) -> bool:
        body = loop.body.block
        dots = _dpas_dots(body)
        if dots is None:
            self.remark(loop, "operand reads not reordered: a tt.dot of the loop is not DPAS")
            return False
        moved = False
        held = invariant_operands.carried_bytes(loop)
        min_live = lane_budget(self.min_live_grf, threads_per_warp(loop) or 16)
        for dot in dots:
            # the operand read first (the other one's reads follow it), if any
            reads = [v.owner for v in dot.operands[:2] if _reads_into_operand(v) and v.owner.parent_block() is body]
            if len(reads) < 2 or reads[0] is reads[1]:
                continue
            first = min(reads, key=lambda r: body.get_operation_index(r))  # type: ignore[arg-type]
            why = sink_operand_read(dot, first, held, min_live)  # type: ignore[arg-type]
            if why is None:
                moved = True
            elif why != "already right before the dot":
                self.remark(first, f"dot operand read not sunk to its dot: {why}")  # type: ignore[arg-type]
        return moved
