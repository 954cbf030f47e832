"""What a layout conversion costs, for RemoveLayoutConversions' choices.

Costs are in bytes moved through SLM (element width x elements: converting a bf16
value costs half its f32 extension; a conversion the layout algebra shows needs no
SLM counts 1/8: register renames and sub-group shuffles), weighted by how often the
op runs: x8 per enclosing loop. A tensor-of-pointer load or store adds what its layout
costs in memory messages beyond the best layout for its addresses (`memory_cost`, below),
so the whole-module cost (solution.Figures.cost, which the never-worse guard compares too)
sees a conversion removed at the price of narrow gathers or scatters, and at the price of the
registers it adds where they run over PVC's register file (`pressure_cost`, below).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.analysis.axis_transfer import transferred
from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.lowering import load_constancy
from xpu_passes.layouts.memory import Messages, best_vector, messages
from xpu_passes.layouts.pressure import (GRF_LARGE, BlockIndex, access_bytes, budget, live_across, replicated_bytes,
                                         tensor_bytes)
from xpu_passes.layouts.memoize import by_identity, per_class
from xpu_passes.layouts.propagation import encoding, numel, with_encoding
from xpu_passes.layouts.scratch import (convert_scratch_bytes, element_bits, element_bytes, needs_slm,
                                         scan_reduce_scratch_bytes)

LOOP_WEIGHT = 8  # a conversion inside a loop is counted as running this many times

_is_loop = per_class(scf.ForOp | scf.WhileOp)


def loop_depth(op: Operation | None) -> int:
    depth = 0
    while op is not None:  # parent_op() without its property calls (asked per costed value)
        block = op.parent
        region = block.parent if block is not None else None
        op = region.parent if region is not None else None
        depth += _is_loop(op)
    return depth


def weight(v: SSAValue) -> int:
    """How often a conversion placed right after `v`'s definition runs."""
    if type(v) is BlockArgument:
        where = v.owner.parent_op()
        return LOOP_WEIGHT ** (loop_depth(where) + _is_loop(where))
    where = v.owner if isinstance(v.owner, Operation) else v.owner.parent_op()  # type: ignore[union-attr]
    inside = isinstance(v, BlockArgument) and _is_loop(where)
    return LOOP_WEIGHT ** (loop_depth(where) + inside)


SHUFFLE_DISCOUNT = 8  # a conversion without SLM (register renaming, sub-group shuffle) counts 1/8


@by_identity  # pure in its attributes
def conversion_cost(t: Attribute, layout: Attribute) -> int:
    """Bytes a conversion of a value of type `t` to `layout` moves, discounted when the layout
    algebra shows it needs no SLM (unknown layouts are taken to need it)."""
    src = encoding(t)
    n = numel(t) * element_bytes(t.element_type) if src is not None else 0  # type: ignore[attr-defined]
    if src is None or src == layout:
        return 0
    try:
        free = not needs_slm(src, layout, t.get_shape())  # type: ignore[attr-defined]
    except LayoutError:
        free = False
    if free:
        return max(1, n // SHUFFLE_DISCOUNT)
    try:  # a kernel whose conversion needs more SLM than PVC has cannot launch: no messages outweigh it
        over = convert_scratch_bytes(t, with_encoding(t, layout)) > SLM_CAPACITY  # type: ignore[arg-type]
    except LayoutError:
        over = False
    return n + OVER_CAPACITY if over else n


SLM_CAPACITY = 128 * 1024  # PVC's shared local memory per work-group
OVER_CAPACITY = 1 << 40  # what a conversion beyond it costs more: more than any memory messages


def scratch_change(op: tt.ScanOp | tt.ReduceOp, layout: Attribute) -> int:
    """Scratch bytes a scan/reduction needs more (or fewer) with its results in `layout`."""
    try:
        return scan_reduce_scratch_bytes(op, layout) - scan_reduce_scratch_bytes(op)
    except LayoutError:
        return 0


# ------------------------------------------------------------------ memory messages
#
# A tt.load/tt.store of a tensor of pointers costs what its layout adds to its messages
# (layouts/memory.py): each lane-message beyond what the best layout for the same addresses
# would issue counts MESSAGE_BYTES, in the conversions' byte units and loop weights. So a choice
# that moves an access into a layout with narrower messages (a DPAS or dot-operand layout with
# one element per lane along the contiguous dim) pays for them, and keeps the conversion
# when they cost more than it. Calibrated on IGC's figures (benchmarks/isa_model.py).

MESSAGE_BYTES = 64  # one lane's gather/scatter message (its 8-byte address, a send), as bytes through a conversion


def _pointee_bits(t: Attribute) -> int | None:
    elem = getattr(t, "element_type", None)
    pointee = getattr(elem, "pointee", None)
    try:
        return element_bits(pointee) if pointee is not None else None
    except LayoutError:
        return None


def access_limits(facts: AxisInfoAnalysis, op: tt.LoadOp | tt.StoreOp) -> tuple[int, ...]:
    """Per dim, the widest vector the access's addresses and mask allow (triton's getVectorSize:
    contiguity, alignment in elements, mask constancy)."""
    ptr = op.operands[0]
    bytes_ = max(1, (_pointee_bits(ptr.type) or 8) // 8)
    info = facts.of(ptr)
    limits = [max(1, min(c, max(1, d // bytes_))) for c, d in zip(info.contiguity, info.divisibility)]
    mask = op.mask
    if mask is not None:
        limits = [min(x, max(1, c)) for x, c in zip(limits, facts.of(mask).constancy)]
    return tuple(limits)


def _access_messages(op: Operation, facts: AxisInfoAnalysis) -> Messages | None:
    """The messages of a tensor-of-pointer load/store in its layout (None: not one, or a layout
    the algebra does not know). Memoized in a run (`_memo`)."""
    if not _is_access(op):
        return None
    e = _memo(op, facts)
    return messages_of(op, facts) if e is None else e.messages  # type: ignore[arg-type]


@dataclass(eq=False, slots=True)
class _Access:
    """An access's entry in the run's memo: what its key's ids are of (pinned: no id is reused meanwhile; the
    pointer and mask values, whose facts the run keeps once taken; the pointer's type, its layout, by identity:
    hashing a type walks its tree, and an equal type made afresh only costs a miss), its messages, its
    memory_excess (None: not asked yet)."""

    op: Operation
    ptr: SSAValue
    type: Attribute
    mask: SSAValue | None
    facts: AxisInfoAnalysis
    messages: Messages | None
    excess: int | None = None


def _memo(op: Operation, facts: AxisInfoAnalysis) -> _Access | None:
    """An access's entry in the run's memo (`facts_scope`; None: no run)."""
    memo = _MESSAGES.get()
    if memo is None:
        return None
    ptr, mask = op.operands[0], op.mask  # type: ignore[attr-defined]
    t = ptr.type
    key = (id(op), id(ptr), id(t), id(mask), id(facts))
    hit = memo.get(key)
    if hit is not None and hit.op is op and hit.ptr is ptr and hit.type is t and hit.mask is mask and hit.facts is facts:
        return hit
    e = memo[key] = _Access(op, ptr, t, mask, facts, messages_of(op, facts))  # type: ignore[arg-type]
    return e


_is_access = per_class(tt.LoadOp | tt.StoreOp)


def messages_of(op: tt.LoadOp | tt.StoreOp, facts: AxisInfoAnalysis) -> Messages | None:
    """`_access_messages` unmemoized (also the stage guard's estimate: isa_estimate)."""
    t = op.operands[0].type
    layout, bits = encoding(t), _pointee_bits(t)
    if layout is None or bits is None or not isinstance(t, TensorType):
        return None
    try:
        return messages(layout, t.get_shape(), bits, access_limits(facts, op),
                        load_constancy(facts, op) if isinstance(op, tt.LoadOp) else None)
    except (LayoutError, ValueError):
        return None


def memory_excess(op: Operation, facts: AxisInfoAnalysis) -> int:
    """Lane-messages a tensor-of-pointer load/store issues in its layout beyond the fewest any
    layout gives it (0: not such an access, or a layout the algebra does not know). Each warp
    sends its own messages, one per vector of its lanes' registers: lanes holding the same
    elements (a dot operand's or a slice's replicas) still send one message per register vector."""
    if not _is_access(op):
        return 0
    e = _memo(op, facts)
    if e is not None and e.excess is not None:
        return e.excess
    m, excess = messages_of(op, facts) if e is None else e.messages, 0  # type: ignore[arg-type]
    if m is not None:
        t = op.operands[0].type
        best = best_vector(_pointee_bits(t) or 8, access_limits(facts, op))  # type: ignore[arg-type]
        excess = max(0, m.sends - m.fewest_sends(numel(t), best)) * m.lanes
    if e is not None:
        e.excess = excess
    return excess


def memory_cost(op: Operation, facts: AxisInfoAnalysis) -> int:
    """What `op`'s layout adds to its memory messages, in conversion bytes (before loop weighting)."""
    return memory_excess(op, facts) * MESSAGE_BYTES


# ------------------------------------------------------------------ register pressure
#
# Where a tensor-of-pointer access holds more than a lane's registers (layouts/pressure.py:
# the tensors live across it, its values, its addresses and predicates), IGC spills the excess
# to scratch memory: each byte over is written and read back by every lane of the CTA, through
# global-memory messages (scratch) where a conversion's byte goes through SLM once: SPILL_WEIGHT x
# a conversion's byte (2 for the write and the read, 2 for memory over SLM).
# A choice that moves a tile into a layout that must hold it alongside a live accumulator pays
# for it; one that stays within the register file pays nothing.

SPILL_WEIGHT = 4
# An access holding at most this share of the register file is not where a layout choice spills
# (what is live across it is not looked for: a scan of its blocks, per trial), unless with the
# tensors replicated across lanes or warps live there it holds more: no access holds those, so
# nothing else would see them (pressure.replicated_bytes). That scan asks no value's uses but
# theirs, and looks at the REPLICATED_SCAN values defined nearest the access (a loop's carried
# values, its invariants): scanned whole, per trial, the 2,000-op block before sparsemax_fwd's
# store tripled its time in the pass (within ~5% so).
SMALL_SHARE = 8
REPLICATED_SCAN = 64
# The estimate's resolution, bytes per lane: on IGC's figures it is off by up to ~60 (gemm_add_tensor_ptr
# 64x128: DPAS form 256 over, IGC 232; blocked form within, IGC 56 over; 256x256: 256, IGC 228), so
# only what is over the register file by more than this is priced (no guard flips on noise).
SLACK = 64


def _streamed(op: Operation) -> bool:
    """A load whose every user is a conversion through SLM: its values go out as they arrive."""
    users = [u.operation for r in op.results for u in r.uses]
    if not users or not all(type(u) is ttg.ConvertLayoutOp for u in users):
        return False
    for u in users:
        src, dst = encoding(u.operands[0].type), encoding(u.results[0].type)
        try:
            if src is None or dst is None or not needs_slm(src, dst, u.operands[0].type.get_shape()):  # type: ignore
                return False
        except LayoutError:
            continue
    return True


def pressure_peak(op: Operation, facts: AxisInfoAnalysis) -> tuple[int, int] | None:
    """(Register bytes per lane at a tensor-of-pointer access, its lanes per warp); None: not one."""
    m = _access_messages(op, facts)
    if m is None:
        return None
    held = access_bytes(m, isinstance(op, tt.LoadOp) and _streamed(op))
    own = {id(v) for v in op.operands}
    room = budget(GRF_LARGE, m.lanes)
    sizes = _SIZES.get()  # (the run's answers of each size function, by type: live_across's `sizes`)
    if held * SMALL_SHARE <= room:
        held_too = live_across(op, lambda v: id(v) in own, replicated_bytes, REPLICATED_SCAN,
                               None if sizes is None else sizes[0], _BLOCKS.get(), _INDEX_CAP.get())
        if (held + held_too) * SMALL_SHARE <= room:
            return held, m.lanes
    spilled = live_across(op, lambda v: id(v) in own, tensor_bytes, None, None if sizes is None else sizes[1],
                          _BLOCKS.get())
    return spilled + held, m.lanes


def pressure_excess(op: Operation, facts: AxisInfoAnalysis, grf: int = GRF_LARGE) -> int:
    """Bytes per lane a tensor-of-pointer access holds beyond the register file (0: within it,
    or not such an access)."""
    peak = pressure_peak(op, facts)
    return max(0, peak[0] - budget(grf, peak[1])) if peak is not None else 0


def priced_excess(op: Operation, facts: AxisInfoAnalysis) -> int:
    """What of `pressure_excess` the cost prices: beyond the estimate's resolution (SLACK)."""
    return max(0, pressure_excess(op, facts) - SLACK)


def pressure_cost(op: Operation, facts: AxisInfoAnalysis) -> int:
    """What the spill at `op` costs, in conversion bytes (before loop weighting)."""
    m = _access_messages(op, facts)
    return priced_excess(op, facts) * m.threads * SPILL_WEIGHT if m is not None else 0


# One pass run's axis facts, module id -> (module, its facts): the figures of one module are asked for
# again and again (each trial). Per run (`facts_scope`), never across runs: facts computed before a
# module's rewrites would make one compile's cost depend on what the process compiled before.
_FACTS: ContextVar[dict[int, tuple[Operation, AxisInfoAnalysis]] | None] = ContextVar("rlc_facts", default=None)


# ... and the accesses' messages (`_access_messages`), computed from those facts: both go with the run.
_MESSAGES: ContextVar[dict[tuple[int, ...], _Access] | None] = ContextVar("rlc_messages", default=None)
# ... and the per-lane bytes of the types `pressure_peak` meets (replicated_bytes', tensor_bytes'), by type
# identity, each entry pinning its type (live_across's `sizes`): every trial asks again for the same values' types.
_SIZES: ContextVar[tuple[dict[int, tuple[Attribute, int]], dict[int, tuple[Attribute, int]]] | None] = ContextVar(
    "rlc_sizes", default=None)


# The blocks' indexes of `live_across`, while the caller costs every access of one state of the IR (`one_state`).
_BLOCKS: ContextVar[dict[int, BlockIndex] | None] = ContextVar("rlc_blocks", default=None)
# ... and how many ops a block may have for a limited scan to index it (live_across's `index_cap`): as many as the
# values the limited scans of that state's accesses would walk back over (REPLICATED_SCAN each), so that an index
# costs no more than the walks it replaces (a 130-op rope kernel with ten accesses: indexed; sparsemax's 2,000-op
# block with a few: walked back).
_INDEX_CAP: ContextVar[int] = ContextVar("rlc_index_cap", default=0)


@contextmanager
def one_state(accesses: int = 0) -> Iterator[None]:
    """The caller costs several accesses of the IR as it is (`pressure_cost`; `accesses`: how many), changing
    nothing meanwhile: the blocks' indexes live_across reads are made once for all of them."""
    token, cap_token = _BLOCKS.set({}), _INDEX_CAP.set(accesses * REPLICATED_SCAN)
    try:
        yield
    finally:
        _BLOCKS.reset(token)
        _INDEX_CAP.reset(cap_token)


@contextmanager
def facts_scope() -> Iterator[None]:
    """Cache `facts_of` (and the messages of accesses, the sizes of types) for the duration of one pass run
    (this thread/context only)."""
    token, messages_token, sizes_token = _FACTS.set({}), _MESSAGES.set({}), _SIZES.set(({}, {}))
    try:
        yield
    finally:
        _FACTS.reset(token)
        _MESSAGES.reset(messages_token)
        _SIZES.reset(sizes_token)


def inherit_facts(old: SSAValue, new: SSAValue) -> None:
    """`new` replaces `old` in another layout (a loop-carried value retyped in place): it has its facts
    (they do not depend on layouts; a block argument or loop result made after the analysis has none,
    and a tensor of pointers without them would be priced as if it could not be vectorized)."""
    for _, facts in (_FACTS.get() or {}).values():
        info = facts.info.get(old)
        if info is not None:
            facts.info[new] = info


def copy_facts(module: Operation, ops: list[Operation], copy: Operation, copy_ops: list[Operation],
               check: bool = False) -> None:
    """The facts of `module` taken in this run, if any, moved to `copy` (the same IR but for
    layouts; `ops`, `copy_ops`: their walks) instead of computed again (analysis/axis_transfer.py);
    `check` (the pass's check mode) computes them too and compares."""
    cache = _FACTS.get()
    hit = None if cache is None else cache.get(id(module))
    if cache is None or hit is None or hit[0] is not module:
        return
    moved = transferred(hit[1], ops, copy_ops)
    if moved is None:
        return
    if check and moved.info != AxisInfoAnalysis(copy).info:  # type: ignore[arg-type]
        raise AssertionError("RLC: the facts moved to a copy are not the copy's")
    cache[id(copy)] = (copy, moved)


def module_of(op: Operation) -> Operation:
    """The top-level op holding `op` (itself when it has no parent): what axis facts are analysed on."""
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


def facts_of(op: Operation) -> AxisInfoAnalysis:
    """The axis facts of the values of `op`'s module (`module_of`; computed on demand for values made later);
    cached in a run by that module, so every op of it asks the same analysis."""
    module = module_of(op)
    cache = _FACTS.get()
    hit = None if cache is None else cache.get(id(module))
    if hit is not None and hit[0] is module:
        return hit[1]
    facts = AxisInfoAnalysis(module)  # type: ignore[arg-type]
    if cache is not None:
        cache[id(module)] = (module, facts)
    return facts
