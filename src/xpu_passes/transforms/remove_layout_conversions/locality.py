"""What RemoveLayoutConversions' validity checks (transforms/remove_layout_conversions/validity.py) read around an op.

Helpers of the checks, written so that a check costs the ops it looks at: the enclosing
layout context remembered per parent op for the duration of one check (`Contexts`), the
key under which a region-less op's verification is remembered (`verify_key_of`) and the
key of all an op's check reads (`general_key`: validity._PASSED's), what a
local check must look at again after a change (`near`), and IsolatedFromAbove judged in
one walk of a module (`isolated_module`) or on the changed ops only (`isolated`).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, OpResult
from xdsl.traits import IsolatedFromAbove

from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects import scf_gpu as mlir_compat
from xpu_passes.dialects.traits import CONTEXT_ATTRS, CONTEXT_OPS
from xpu_passes.frontend.verifier import VERIFIED, remember_verified, verify_key
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.ir.xdsl_adapt import value_type
from xpu_passes.layouts.memoize import per_class
from xpu_passes.transforms.remove_layout_conversions.opaque import OPAQUE_NAMES, convert_key, opaque_key


def attached_of(module: Operation, ops: set[Operation]) -> set[Operation]:
    """Those of `ops` still inside `module` (the blocks above them looked at once for all)."""
    seen: dict[int, bool] = {}  # id(block) -> inside `module` (by id: IRDL's __hash__ is Python code)
    get = seen.get
    out: set[Operation] = set()
    for op in ops:
        b = op.parent
        if op is module or b is None:
            if op is module:
                out.add(op)
            continue
        hit = get(id(b))
        if hit is None:
            path: list[int] = []
            while hit is None:  # up through block -> region -> op -> block (op.parent_op(), inline)
                path.append(id(b))
                r = b.parent
                p = r.parent if r is not None else None
                if p is None or p is module:
                    hit = p is module
                elif (b := p.parent) is None:
                    hit = False
                else:
                    hit = get(id(b))
            for i in path:
                seen[i] = hit
        if hit:
            out.add(op)
    return out


def near(module: Operation, touched: set[Operation], reshaped: set[Operation],
         attached: set[Operation] | None = None) -> tuple[set[Operation], set[Operation]]:
    """What a local check must look at again after a change, and the changed ops still in `module`.

    An op's verifier (and `_op_error`) reads the op, its blocks' arguments, whether they are
    empty and their last ops (terminators, which read their parent in turn), and, for
    IsolatedFromAbove, the operands of every nested op (`isolated`). So: the changed ops,
    the terminators of their regions, the parents of changed terminators, and the ops whose
    blocks got another last op (`reshaped`). `attached`: attached_of(module, touched), if at hand."""
    dirty = attached_of(module, touched) if attached is None else attached
    out = dirty | attached_of(module, reshaped) if reshaped else set(dirty)
    for c in dirty:
        for r in c.regions:
            b = r._first_block  # pyright: ignore[reportPrivateUsage]  # (the blocks' links: no Python calls)
            while b is not None:
                if b._last_op is not None:  # pyright: ignore[reportPrivateUsage]
                    out.add(b._last_op)  # pyright: ignore[reportPrivateUsage]
                b = b._next_block  # pyright: ignore[reportPrivateUsage]
        if c._next_op is None and (p := c.parent_op()) is not None:  # pyright: ignore[reportPrivateUsage]
            out.add(p)
    return out, dirty


class Contexts:
    """The enclosing attributes layout verifiers read (dialects/traits.py), outermost first,
    per parent op; valid while no such attribute changes (one check)."""

    def __init__(self) -> None:
        self._inside: dict[int, list[object]] = {id(None): []}  # by id: IRDL's __hash__ is Python code

    def of(self, op: Operation) -> list[object]:
        b = op.parent  # op.parent_op(), without its two calls
        r = b.parent if b is not None else None
        hit = self._inside.get(id(r.parent if r is not None else None))
        return hit if hit is not None else self._within(op.parent_op())

    def _within(self, p: Operation | None) -> list[object]:
        hit = self._inside.get(id(p))
        if hit is None:
            assert p is not None
            hit = self._within(p.parent_op())
            if p.name in CONTEXT_OPS:
                hit = [*hit, *(p.attributes.get(k) for k in CONTEXT_ATTRS)]
            self._inside[id(p)] = hit
        return hit


# Signatures of other ops without regions that verified (see verify_key_of), like fastops.VERIFIED.
_VERIFIED = IdTable(50_000)


# Ops with regions whose verifier (nested ops aside) reads their signature and, of the regions,
# only the blocks' count, entry arguments and last op (its class and operand types: scf.for's
# yield check, SingleBlockImplicitTerminator); the terminators of such regions, whose verifiers
# read their signature, their parent's class and being last (given).
_REGION_OPS = (tt.ReduceOp, tt.ScanOp, scf.ForOp, mlir_compat.ForOp)  # (the latter parses MLIR's forms only)
_REGION_TERMINATORS = (tt.ReduceReturnOp, tt.ScanReturnOp, scf.YieldOp)
_REGION, _TERMINATOR = object(), object()  # key marks: the same signature read another way is another key


def verify_key_of(op: Operation, context: list[object]) -> tuple[tuple[int, ...], list[object], dict] | None:
    """What verifying an op without regions or successors, not last in its block, reads: its
    signature (fastops.verify_key), the enclosing layout context and its parent's class (a
    HasParent trait). Ops whose class declares VERIFY_ONCE_PER_SIGNATURE use the front end's table (filled while parsing);
    conversions and ops of opaque.OPAQUE_NAMES are keyed without their layouts (opaque.py).
    Also reductions, scans and scf.for (with their regions' shape) and their regions' terminators."""
    if type(op) is ttg.ConvertLayoutOp:
        blind = _blind_key(op, context)
        if blind is not None and blind[0] in blind[2]:
            return blind
    key = verify_key(op, context)
    if type(op) is not ttg.ConvertLayoutOp:
        if key is not None and key[0] in VERIFIED:
            return key[0], key[1], VERIFIED
        blind = _blind_key(op, context)  # (costs more than the signature's key: only on a miss)
        if blind is not None and blind[0] in blind[2]:
            if key is not None:
                remember_verified(key)  # verifies as its twin did: next time the signature hits
            return blind
    if blind is not None:
        if key is not None and key[0] in VERIFIED:  # (the parser verified this very signature)
            blind[2].put(blind[0], blind[1], True)
        return blind
    if key is not None:
        return key[0], key[1], VERIFIED
    general = general_key(op, context)
    return None if general is None else (*general, _VERIFIED)


def general_key(op: Operation, context: list[object]) -> tuple[tuple[int, ...], list[object]] | None:
    """All that verifying an op reads, by identity, for an op without successors that is either
    not last in its block and without regions, or one of _REGION_OPS (not last) or of
    _REGION_TERMINATORS (last): verify_key_of's general key (its other keys read less)."""
    if op._successors:  # pyright: ignore[reportPrivateUsage]
        return None
    cls = type(op)
    last = op._next_op is None  # pyright: ignore[reportPrivateUsage]
    if op.regions:
        if last or cls not in _REGION_OPS:
            return None
        mark: object = _REGION
    elif last:
        if cls not in _REGION_TERMINATORS:
            return None
        mark = _TERMINATOR
    else:
        mark = None
    # (`_operands`, `_type`, the blocks' links: xDSL's views and properties are Python calls)
    b = op.parent  # op.parent_op(), without its two calls
    r = b.parent if b is not None else None
    objects: list[object] = [cls, type(r.parent if r is not None else None), *context, None,
                             *map(value_type, op._operands), None, *map(value_type, op.results)]  # pyright: ignore
    if mark is not None:
        objects.append(mark)
    for r in op.regions:
        blocks, b = [], r._first_block  # pyright: ignore[reportPrivateUsage]
        while b is not None:
            blocks.append(b)
            b = b._next_block  # pyright: ignore[reportPrivateUsage]
        objects += (None, len(blocks))
        for b in blocks:
            objects += (None, *map(value_type, b._args), None, type(end := b._last_op))  # pyright: ignore
            objects += map(value_type, end._operands) if end is not None else ()  # pyright: ignore
    for d in (op.properties, op.attributes):
        objects.append(None)
        for item in d.items():
            objects += item
    return tuple(map(id, objects)), objects


# Keys that leave layouts out (transforms/remove_layout_conversions/opaque.py): a layout change of a verified signature is not
# verified again.
_CONVERTS = IdTable(50_000)
_OPAQUE = IdTable(50_000)


def _blind_key(op: Operation, context: list[object]) -> tuple[tuple[object, ...], list[object], dict] | None:
    if type(op) is ttg.ConvertLayoutOp:
        key = convert_key(op, context)
        return None if key is None else (*key, _CONVERTS)
    if op.name not in OPAQUE_NAMES or op.next_op is None or op.regions or op.successors:
        return None
    key = opaque_key(op, context)
    return None if key is None else (*key, _OPAQUE)


_is_block = per_class(Block)
_ISOLATED: dict[type, bool] = {}  # op class -> has IsolatedFromAbove (has_trait per call is slow)


def _is_isolated(op: Operation) -> bool:
    t = type(op)
    hit = _ISOLATED.get(t)
    if hit is None:
        hit = _ISOLATED[t] = op.has_trait(IsolatedFromAbove)
    return hit


def isolated(dirty: set[Operation]) -> bool:
    """IsolatedFromAbove for every ancestor that has it, once it held before and only the
    `dirty` ops (all whose operands changed, all new ones) may use other values now. Inside
    the innermost such ancestor is inside all of them."""
    inner: dict[int, Operation | None] = {}  # id(block) -> its innermost isolated ancestor (by id: no Python hash)
    inside: set[tuple[int, int]] = set()  # (id(q), id(block)): the block is inside q
    for t in dirty:
        block = t.parent
        q = inner.get(id(block), False)
        if q is False:
            q = t.parent_op()
            while q is not None and not _is_isolated(q):
                q = q.parent_op()
            inner[id(block)] = q
        if q is None:
            continue
        for v in t._operands:  # pyright: ignore[reportPrivateUsage]
            # The block defining v: inside q, v is (a result's op is then strictly inside q).
            if type(v) is OpResult:
                where = v.op.parent
            elif not _is_block(where := v.owner):  # (`owner`: a property) not a block's: by ancestry
                if not q.is_ancestor(where) or where is q:
                    return False
                continue
            if where is block or (id(q), id(where)) in inside:
                continue  # (t's block is inside q: q is its op or above it)
            if where is None or not q.is_ancestor(where):
                return False
            inside.add((id(q), id(where)))
    return True


def isolated_module(ops: list[Operation]) -> bool:
    """What IsolatedFromAbove's verifier says of every op of a module (`ops`: its walk, the
    module first), in one walk: every operand of an op is defined inside each IsolatedFromAbove
    ancestor of the op (within the module). An ancestor chain is a prefix of the chains of the
    ops below, so being inside the innermost one is enough."""
    if not ops:
        return True
    root = ops[0]
    # id(block) -> the isolated ops among its op and that op's ancestors (by id: no Python hash)
    inside: dict[int, tuple[Operation, ...]] = {}
    for r in root.regions:
        for b in r.blocks:
            inside[id(b)] = (root,) if _is_isolated(root) else ()
    for op in ops:  # (a walk: an op's block is known before the op's own blocks)
        if op.regions and op is not root:
            outer = inside[id(op.parent)]
            mine = (*outer, op) if _is_isolated(op) else outer
            for r in op.regions:
                for b in r.blocks:
                    inside[id(b)] = mine
    get = inside.get
    for op in ops:  # a value may be defined after its use in the walk (the verifier does not mind)
        outer = inside[id(op.parent)] if op is not root else ()
        need = len(outer)
        for v in op._operands if need else ():  # pyright: ignore[reportPrivateUsage]
            # the isolated ops v is defined inside (strictly: not its defining op; a block
            # argument is inside its block's op); None: not inside the module, as far as seen
            scope = get(id(v.op.parent)) if type(v) is OpResult else (
                get(id(v.owner)) if isinstance(v.owner, Block) else None)
            if scope is None or len(scope) < need or scope[need - 1] is not outer[-1]:
                return False
    return True
