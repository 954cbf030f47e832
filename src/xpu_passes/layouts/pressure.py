"""Register pressure at a tensor-of-pointer access, per lane, from the layout algebra.

PVC's register file is per hardware thread (one warp of 16 lanes): 128 registers of 64 bytes,
or 256 with the large GRF mode triton-xpu compiles with when a kernel spills (its `grf_mode`;
the benchmarks ask for it). What a lane holds beyond its share is spilled to scratch memory.

At a `tt.load`/`tt.store` of a tensor of pointers a lane holds, by this estimate:
- every data tensor live across the access (defined before it, used after it, or inside an
  enclosing loop): its registers in its layout (a loop's accumulator, an epilogue's operands);
  floating-point ones only: IGC recomputes addresses, offsets and masks next to each message
  (loop-invariant pointer, offset and mask tiles spill nothing on the ISA: layer_norm_bwd_dwdb,
  streamk_gemm, cross_entropy);
- the access's values: IGC issues a tensor's messages back to back (the ISA shows a
  DPAS-layout epilogue's 128 gathers in one run), so all of them, except for a load whose only
  users are conversions through SLM (each message's vector is written out as it arrives);
- per message (layouts/memory.py: one per vector of contiguous elements), MESSAGE_BYTES for its
  address and predicate in flight. Calibrated on IGC 2.40 (benchmarks/isa_model.py): the
  gemm_add_tensor_ptr 64x128 epilogue in the DPAS layout, accumulator and D at exactly the
  large GRF, spills 232 bytes per lane for 128 messages: about 2 bytes per message, not the 8 of
  every address held.
The layout choice moves all three: a DPAS layout holds more of a tile per lane than a blocked
one might, and narrow vectors take one message per element.

A layout with lanes or warps along a dim they cannot split (a 256x1 tile with its 32 lanes and
4 warps along the size-1 dim) replicates the tile: every lane holds all of it (`replicated_bytes`).
No access need hold such a tile itself, so what is live across a small access is still looked at
for them (costs.pressure_peak): in flag_gems' celoss backward our RemoveLayoutConversions put a
loop-carried 256x1 f32 sum and two loop invariants so (1 KB per lane each), to save a 4-byte
conversion, and IGC compiled 6x native's instructions.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import by_identity, linear_of
from xpu_passes.layouts.memory import Messages
from xpu_passes.layouts.scratch import element_bytes

GRF_BYTES = 64  # one register of a hardware thread
GRF_DEFAULT, GRF_LARGE = 128, 256  # registers per thread (`-cl-intel-256-GRF-per-thread` for large)
MESSAGE_BYTES = 2  # per lane and message: its address and predicate in flight (calibrated, above)


def budget(grf: int = GRF_LARGE, lanes: int = 16) -> int:
    """Register bytes per lane."""
    return grf * GRF_BYTES // lanes


@by_identity  # pure in its attribute
def tensor_bytes(t: Attribute) -> int:
    """Register bytes one lane holds of a data tensor in its layout (0: not a tensor, a tensor of
    pointers, integers (offsets) or predicates, or a layout the algebra does not know)."""
    if not isinstance(t, TensorType) or t.encoding is None:  # type: ignore[attr-defined]
        return 0
    if isinstance(t.element_type, tt.PointerType | IntegerType):
        return 0
    try:
        ll = linear_of(t.encoding, tuple(t.get_shape()))  # type: ignore[attr-defined]
        return (1 << len(ll.register)) * element_bytes(t.element_type)
    except (LayoutError, ValueError):
        return 0


@by_identity  # pure in its attribute
def replicated_bytes(t: Attribute) -> int:
    """`tensor_bytes` of a data tensor whose layout holds the same elements in two lanes or warps (a
    zero lane or warp basis) and several per lane; 0 otherwise, and for a dot operand: its replicas
    are what the tt.dot needs (every warp along N holds all of B), whatever the layouts around it."""
    size = tensor_bytes(t)
    if not size or isinstance(t.encoding, ttg.DotOperandEncodingAttr):  # type: ignore[attr-defined]
        return 0
    ll = linear_of(t.encoding, tuple(t.get_shape()))  # type: ignore[attr-defined]
    if not ll.register or not (ll.free_bases("lane") or ll.free_bases("warp")):
        return 0
    return size


def operand_slot_bytes(t: Attribute) -> int:
    """Register bytes one lane holds of a floating-point tensor in the operand layout of a DPAS with
    32-bit operands (opsPerChan 1: tf32), each element in a 32-bit slot: a 16-bit element is read
    from SLM into one (IGC's load.slm.d16u32), so the tile holds as many registers as its f32
    extension (0: not such a tensor, or a layout the algebra does not know)."""
    enc = getattr(t, "encoding", None)
    if not isinstance(enc, ttg.DotOperandEncodingAttr) or not isinstance(enc.parent, ttig.DpasEncodingAttr):
        return 0
    if enc.parent.ops_per_chan != 1:
        return 0
    width = element_bytes(t.element_type)  # type: ignore[attr-defined]
    return tensor_bytes(t) // width * max(4, width)


def access_bytes(m: Messages, streamed: bool = False) -> int:
    """What an access holds per lane itself: its values (one message's when `streamed`), and each
    message's address and predicate."""
    values = m.vector if streamed else m.per_lane
    return values * m.elem_bytes + m.messages * MESSAGE_BYTES


def _levels(op: Operation) -> Iterator[tuple[Block, Operation]]:
    """(block, the op of that block holding `op`), innermost first."""
    while (block := op.parent) is not None:
        yield block, op
        parent = block.parent_op()
        if parent is None:
            return
        op = parent


def _holder(user: Operation, block: Block) -> Operation | None:
    """The op of `block` that is or holds `user` (None: `user` is not inside `block`)."""
    while user.parent is not block:
        parent = user.parent_op()
        if parent is None:
            return None
        user = parent
    return user


def _defined_before(block: Block, at: Operation) -> Iterator[SSAValue]:
    """The values of `block` defined before `at`, nearest first (its arguments last)."""
    o = at.prev_op
    while o is not None:
        yield from o.results
        o = o.prev_op
    yield from block.args


def _size(t: Attribute, size_of: Callable[[Attribute], int], sizes: dict[int, tuple[Attribute, int]]) -> int:
    hit = sizes.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    size = size_of(t)
    sizes[id(t)] = (t, size)
    return size


class BlockIndex:
    """A block's ops by position and, by size function, its values of nonzero size in order (arguments first,
    at position -1): what `live_across` reads of the block, once for every call on one state of the IR."""

    __slots__ = ("block", "ops", "pos", "before", "_sized")

    def __init__(self, block: Block, ops: list[Operation] | None = None) -> None:
        """`ops`: the block's ops in order, if at hand."""
        self.block = block
        self.ops = list(block.ops) if ops is None else ops
        self.pos: dict[int, int] = {}  # id(op) -> its position (the block holds its ops meanwhile)
        self.before: list[int] = [0]  # position -> results of the ops before it
        n = 0
        for i, o in enumerate(self.ops):
            self.pos[id(o)] = i
            n += len(o.results)
            self.before.append(n)
        self._sized: dict[Callable[[Attribute], int], tuple[list[tuple[int, SSAValue, int, int]], list[int], int]] = {}

    def sized(self, size_of: Callable[[Attribute], int],
              sizes: dict[int, tuple[Attribute, int]]) -> list[tuple[int, SSAValue, int, int]]:
        """(position of its definition, value, size, `off`: the value is the (before[here] - off)-th the
        nearest first walk back from the op at position `here` meets; an argument is met after every result)."""
        return self.sized_at(size_of, sizes)[0]

    def sized_at(self, size_of: Callable[[Attribute], int], sizes: dict[int, tuple[Attribute, int]]
                 ) -> tuple[list[tuple[int, SSAValue, int, int]], list[int], int]:
        """`sized`, with each entry's position (for a bisection) and how many entries are arguments (the first)."""
        hit = self._sized.get(size_of)
        if hit is not None:
            return hit
        out: list[tuple[int, SSAValue, int, int]] = []
        for i, a in enumerate(self.block.args):
            if size := _size(a.type, size_of, sizes):
                out.append((-1, a, size, -(i + 1)))
        args = len(out)
        before = self.before
        for i, o in enumerate(self.ops):
            results = o.results
            for r, v in enumerate(results):
                t = v.type
                hit_t = sizes.get(id(t))
                size = hit_t[1] if hit_t is not None and hit_t[0] is t else _size(t, size_of, sizes)
                if size:
                    out.append((i, v, size, before[i + 1] - r - 1))
        got = self._sized[size_of] = (out, [e[0] for e in out], args)
        return got


def index_within(blocks: dict[int, BlockIndex], block: Block, cap: int) -> bool:
    """Whether `blocks` holds `block`'s index, made now if the block has at most `cap` ops: a limited scan
    (a few dozen values back from its access) indexes a block only when the index costs no more than the walks
    back of the accesses costed on this state would (`cap`), not a 2,000-op block for 64 values (a block found
    longer is remembered, by its negated id, and not counted again)."""
    index = blocks.get(id(block))
    if index is not None and index.block is block:
        return True
    if cap <= 0 or (long := blocks.get(-id(block))) is not None and long.block is block:
        return False
    ops: list[Operation] = []
    for o in block.ops:
        ops.append(o)
        if len(ops) > cap:
            blocks[-id(block)] = _Long(block)  # type: ignore[assignment]
            return False
    blocks[id(block)] = BlockIndex(block, ops)
    return True


class _Long:
    """`index_within`'s note that a block has more ops than a limited scan indexes (for this state)."""

    __slots__ = ("block",)

    def __init__(self, block: Block) -> None:
        self.block = block


def live_across(op: Operation, skip: Callable[[SSAValue], bool],
                size_of: Callable[[Attribute], int] = tensor_bytes, limit: int | None = None,
                sizes: dict[int, tuple[Attribute, int]] | None = None,
                blocks: dict[int, BlockIndex] | None = None, index_cap: int = 0) -> int:
    """Per-lane register bytes of the tensors live across `op`: defined before it (in its block
    or an enclosing one) and used after it or inside an op that holds it (a loop runs its body
    again). `skip`: values counted otherwise (the access's own pointer and mask); `size_of`: a
    tensor type's bytes per lane (0: not counted, its uses not looked at); `limit`: how many
    values to look at, the nearest first (innermost block first, then back from the access);
    `sizes`: the caller's answers of `size_of` by type identity (each entry pins its type), kept
    across calls (a pass run asks for the same types thousands of times; by default this call's);
    `blocks`: the caller's `BlockIndex`es by block identity, for calls on one state of the IR (nothing
    changes it between them: every access of a module costed for one trial); `index_cap`: a limited scan that
    meets a value to count indexes the blocks not indexed yet if each has at most this many ops (`index_within`)."""
    total, seen = 0, 0
    # Sizes by type identity: a block's values share a few types, and most are 0 (offsets, masks,
    # pointers, scalars); size_of itself (memoized by identity too) costs several times a dict hit.
    sizes = {} if sizes is None else sizes
    # (a limited scan looks at few values: it reads the blocks' indexes another call made; it makes them only
    # once it meets a value to count, whose uses need the ops after the access, and for blocks within `index_cap`
    # ops: sparsemax's 2,000-op block indexed per trial for its 64 nearest values doubled the pass's time)
    if blocks is not None and (limit is None or all(_indexed(blocks, block) for block, _ in _levels(op))):
        return _live_across_indexed(op, skip, size_of, limit, sizes, blocks)
    for block, at in _levels(op):
        later: set[Operation] | None = None  # ops after `at`, and `at` itself if it holds `op` (once needed)
        for v in _defined_before(block, at):
            seen += 1
            if limit is not None and seen > limit:
                return total
            size = _size(v.type, size_of, sizes)
            if not size or skip(v):
                continue
            if later is None and blocks is not None and all(index_within(blocks, b, index_cap) for b, _ in _levels(op)):
                return _live_across_indexed(op, skip, size_of, limit, sizes, blocks)  # (the same sum, from scratch)
            if later is None:
                later = set()
                o = at if at is not op else at.next_op
                while o is not None:
                    later.add(o)
                    o = o.next_op
            for use in v.uses:
                user = use.operation
                if user is at and at is not op:
                    continue  # a loop's initial value, consumed on entry (its body holds the iter_arg)
                if (user if user.parent is block else _holder(user, block)) in later:
                    total += size
                    break
    return total


def _indexed(blocks: dict[int, BlockIndex], block: Block) -> bool:
    index = blocks.get(id(block))
    return index is not None and index.block is block


def _live_across_indexed(op: Operation, skip: Callable[[SSAValue], bool], size_of: Callable[[Attribute], int],
                         limit: int | None, sizes: dict[int, tuple[Attribute, int]],
                         blocks: dict[int, BlockIndex]) -> int:
    """`live_across` from the blocks' indexes: the values of nonzero size defined before `at` are a prefix
    of the index's, those the walk back would look at within `limit` are told by their rank, and an op
    after `at` is one of a later position (no set of them)."""
    total, seen = 0, 0
    for block, at in _levels(op):
        index = blocks.get(id(block))
        if index is None or index.block is not block:
            index = blocks[id(block)] = BlockIndex(block)
        pos = index.pos
        here = pos[id(at)]
        met = index.before[here]  # (the results the walk back meets, then the arguments)
        room = None if limit is None else limit - seen  # (how many of this block's values the walk looks at)
        holds = at is not op  # (`at` holds `op`: a use inside it is a later one, a loop runs its body again)
        entries, wheres, args = index.sized_at(size_of, sizes)
        end = bisect_left(wheres, here)  # (the entries defined before `at`: arguments, then results in order)
        if room is None:
            looked: Iterable[tuple[int, SSAValue, int, int]] = entries[:end]
        else:  # the results nearest first while within the walk's reach (their rank rises), then the arguments
            looked = _within(entries, args, end, met, room)
        for _, v, size, _ in looked:
            if skip(v):
                continue
            for use in v.uses:
                user = use.operation
                if user is at and holds:
                    continue  # a loop's initial value, consumed on entry (its body holds the iter_arg)
                h = user if user.parent is block else _holder(user, block)
                if h is not None and (pos[id(h)] > here or h is at and holds):
                    total += size
                    break
        if room is not None:
            seen += met + len(block.args)
            if seen > limit:  # type: ignore[operator]
                return total
    return total


def _within(entries: list[tuple[int, SSAValue, int, int]], args: int, end: int, met: int,
            room: int) -> Iterator[tuple[int, SSAValue, int, int]]:
    """The entries of `entries[:end]` the walk back meets within `room` values (rank `met - off`): results from
    the nearest back, stopping at the first out of reach (ranks rise backwards), then the arguments in reach
    (met after every result)."""
    i = end - 1
    while i >= args:
        e = entries[i]
        if met - e[3] > room:
            break
        yield e
        i -= 1
    for i in range(min(args, end)):
        e = entries[i]
        if met - e[3] <= room:
            yield e
