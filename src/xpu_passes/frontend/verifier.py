"""Verification of a parsed module, op by op, so that an error points at the op that is wrong.

What xDSL's verifier does not check and MLIR's does is checked here too: dominance across
the blocks of a region, scf.if's yields, a module's undialected attributes. Ops whose
signature verified before are not verified again, where their class declares it
(VERIFY_ONCE_PER_SIGNATURE: verify_key).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects.declared import VERIFY_ONCE_PER_SIGNATURE, declared
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.frontend.spelling import denormalize
from xpu_passes.ir.xdsl_adapt import isolation_unchecked, operand_values, value_type

if TYPE_CHECKING:
    from xpu_passes.frontend.parser import ParsedModule


# Signatures of ops verified so far (see verify_key), process-wide: `VERIFIED.put(key, objects, True)`
# pins the objects whose identities the key holds, so that no other object can take their ids.
_MAX_VERIFIED = 50_000
VERIFIED = IdTable(_MAX_VERIFIED)
_ONCE: dict[type, bool] = {}  # op class -> it declares VERIFY_ONCE_PER_SIGNATURE (dialects/declared.py)


def verifies_once(cls: type) -> bool:
    """Whether `cls` declares that its ops verify alike when their signatures are equal."""
    found = _ONCE.get(cls)
    if found is None:
        found = _ONCE[cls] = bool(declared(cls, VERIFY_ONCE_PER_SIGNATURE, False))
    return found


def verify_key(op: Operation, context: Sequence[object] = ()) -> tuple[tuple[object, ...], list[object]] | None:
    """What an op whose class declares VERIFY_ONCE_PER_SIGNATURE is verified on, by identity:
    its class, operand and result types, properties and attributes (their verifiers look at
    nothing else: no regions, no successors, no parent), and the objects named. Equal keys
    verify alike, so each is verified once. `context`: what else the verifiers read (the
    enclosing `ttg.num-warps` and the like: dialects/traits.py). None for other ops, and for
    the last op of a block (xDSL checks terminators there)."""
    if op._next_op is None:
        return None
    once = _ONCE.get(op.__class__)
    if not (once if once is not None else verifies_once(op.__class__)):
        return None
    objects = _signature(op, [type(op), *context])
    return tuple(map(id, objects)), objects


def _signature(op: Operation, head: list[object]) -> list[object]:
    """`head`, then `op`'s operand and result types, properties and attributes (verify_key's objects)."""
    # (operand_values, value_type: xDSL's `operands` and `type` are Python calls)
    objects: list[object] = [*head, *map(value_type, operand_values(op)), None, *map(value_type, op.results), None]
    if d := op.properties:
        for item in d.items():
            objects += item
    objects.append(None)
    if d := op.attributes:
        for item in d.items():
            objects += item
    return objects


def remember_verified(key: tuple[tuple[object, ...], list[object]]) -> None:
    VERIFIED.put(key[0], key[1], True)


# Block terminators whose verifiers read no more than _Walk.terminator_key holds.
_TERMINATORS = frozenset(("tt.return", "scf.yield", "tt.reduce.return", "tt.scan.return"))
# Ops with a body whose verifiers read none of it: IRDL's region check is one region of any
# entry arguments, and their verify_ and traits (dialects/tt/, traits.py) read only what
# verify_key holds. Their key is verify_key's plus the region count (body_blind_key).
_BODY_BLIND = frozenset(("tt.reduce", "tt.scan"))
_CONTEXT_VALUES: dict[Attribute, Attribute] = {}
_CONTEXT_NAMES: list[tuple[object, object]] = []


def _context_names() -> tuple[object, object]:
    """dialects/traits.py's (CONTEXT_OPS, CONTEXT_ATTRS), imported on first use; the dialects'
    verifiers get the layout algebra's placement comparison then."""
    if not _CONTEXT_NAMES:
        from xpu_passes.dialects import traits

        traits.compare_placement_with(_same_placement)
        traits.check_reshape_with(_reshape_expected)
        _CONTEXT_NAMES.append((traits.CONTEXT_OPS, traits.CONTEXT_ATTRS))
    return _CONTEXT_NAMES[0]


def _same_placement(a: Attribute, b: Attribute, shape: Sequence[int]) -> bool:
    from xpu_passes.layouts.encodings import same_placement  # (the algebra: imported when a verifier asks)

    return same_placement(a, b, shape)


def _reshape_expected(src: Attribute, src_shape: Sequence[int], dst: Attribute, dst_shape: Sequence[int]) -> Attribute | None:
    from xpu_passes.layouts.shape_infer import reshape_expected  # (the algebra, as above)

    return reshape_expected(src, src_shape, dst, dst_shape)


def verify_module(parsed: ParsedModule, dominance: bool = True, isolated: Collection[Operation] = (),
                  body_blind: bool = True) -> None:
    """Verify op by op, so an error points at the op that is wrong.

    Also checks that every use is dominated by its definition, across the blocks of a
    region too, which xDSL's verifier does not (MLIR's does); `dominance=False` where the
    caller knows they are (the parser, for text with no forward reference). `isolated`:
    IsolatedFromAbove ops the caller proved isolated (the parser: a function read with no
    value in scope), whose verifier's walk over their body is skipped. `body_blind=False`:
    ops with a body (_BODY_BLIND) are verified each time, not once per signature (tests
    compare the two).
    """
    _Walk(parsed, dominance, isolated, _BODY_BLIND if body_blind else frozenset()).op(parsed.module, [])


class _Walk:
    """The ops in walk order (each op, then its regions' ops), each with the layout
    context its verifiers read (the enclosing context ops' attributes, dialects/traits.py)."""

    def __init__(self, parsed: ParsedModule, dominance: bool, isolated: Collection[Operation],
                 body_blind: frozenset[str] = _BODY_BLIND) -> None:
        self.parsed = parsed
        self.body_blind = body_blind
        self.dominance = dominance
        self.isolated = isolated
        self.position: dict[Operation, int] = {}
        self.doms = _Dominators()
        self.once = _ONCE
        self.context_ops, self.context_attrs = _context_names()

    def op(self, op: Operation, context: list[object]) -> None:
        self.check(op, context)
        if not op.regions:
            return
        if op.name in self.context_ops:  # type: ignore[operator]
            values = [op.attributes.get(k) for k in self.context_attrs]  # type: ignore[attr-defined]
            # Equal values as one object, so that verify_key's identities repeat across modules.
            context = context + [v if v is None else _CONTEXT_VALUES.setdefault(v, v) for v in values]
        check = self.check
        for region in op.regions:
            block = region.first_block
            while block is not None:  # (xDSL's `blocks` and `next_op` are Python calls)
                child = block.first_op
                while child is not None:
                    if child.regions:
                        self.op(child, context)
                    else:  # (what self.op does for an op without regions, one call less)
                        check(child, context)
                    child = child._next_op
                block = block._next_block

    @staticmethod
    def body_blind_key(op: Operation, context: list[object]) -> tuple[tuple[object, ...], list[object]]:
        """What an op of _BODY_BLIND (not last in its block) is verified on: verify_key's objects and
        its region count."""
        objects = _signature(op, [_BODY_BLIND, type(op), len(op.regions), *context, None])
        return tuple(map(id, objects)), objects

    @staticmethod
    def terminator_key(op: Operation, context: list[object]) -> tuple[tuple[object, ...], list[object]]:
        """What a block's last op of _TERMINATORS is verified on: verify_key's signature, its
        parent's class (HasParent) and, for tt.return, its function's type (its verify_).
        Being last in its block (IsTerminator) is given: the op is."""
        parent = op.parent_op()
        objects: list[object] = [_TERMINATORS, type(op), type(parent), *context, *map(value_type, operand_values(op)), None]
        objects += [r.type for r in op.results]
        for d in (op.properties, op.attributes):
            objects.append(None)
            for item in d.items():
                objects += item
        if op.name == "tt.return":
            objects.append(None if parent is None else parent.properties.get("function_type"))
        return tuple(map(id, objects)), objects

    def check(self, op: Operation, context: list[object]) -> None:
        name = op.name
        key = None
        once = self.once.get(op.__class__)
        if once is None:
            once = verifies_once(op.__class__)
        if once and op._next_op is not None:
            # verify_key's key, built inline (the hottest loop of a verification)
            objects: list[object] = [op.__class__, *context, *map(value_type, operand_values(op)), None, *map(value_type, op.results), None]
            if d := op.properties:
                for item in d.items():
                    objects += item
            objects.append(None)
            if d := op.attributes:
                for item in d.items():
                    objects += item
            key = (tuple(map(id, objects)), objects)
        elif name in _TERMINATORS and op._next_op is None and not op._successors:
            key = self.terminator_key(op, context)
        elif name in self.body_blind and op._next_op is not None:
            key = self.body_blind_key(op, context)
        if key is None or key[0] not in VERIFIED:
            try:
                if op in self.isolated:
                    with isolation_unchecked():
                        op.verify(verify_nested_ops=False)
                else:
                    op.verify(verify_nested_ops=False)
            except (VerifyException, ValueError) as e:
                parsed = self.parsed
                prefix = f"'{name}' op " if getattr(e, "op_prefix", True) else ""  # (traits.EmitError: none)
                err = parsed.error_at(op, f"{prefix}{e}")
                err.more = [denormalize(f"{prefix}{m}", parsed.spelling) for m in getattr(e, "more", ())]
                raise err from None
            if key is not None:
                remember_verified(key)
        if self.dominance:
            position = self.position
            if op.parent is not None and op not in position:
                for i, sibling in enumerate(op.parent.ops):
                    position[sibling] = i
            for index, operand in enumerate(operand_values(op)):
                if not _dominates(operand, op, position, self.doms):
                    raise self.parsed.error_at(op, f"'{name}' op operand #{index} does not dominate this use")
        if name == "scf.if" and (why := _if_yields_mismatch(op)):  # by name: scf loads lazily
            raise self.parsed.error_at(op, f"'scf.if' op {why}")
        if name == "builtin.module" and isinstance(op, ModuleOp) and (bad := _undialected_attrs(op)):
            raise self.parsed.error_at(op, f"'builtin.module' op can only contain attributes with dialect-prefixed "
                                           f"names, found: '{bad}'")


def _undialected_attrs(op: ModuleOp) -> str:
    """MLIR's ModuleOp verifier: discardable attributes must be dialect-prefixed (xDSL does not check)."""
    return ", ".join(n for n in op.attributes if "." not in n and n not in ("sym_name", "sym_visibility"))


def _if_yields_mismatch(op: Operation) -> str:
    """MLIR requires both branches of an scf.if with results to yield them; xDSL does not check."""
    want = list(op.result_types)
    if not want:
        return ""
    for region, branch in zip(op.regions, ("then", "else")):
        block = region.blocks.first
        if block is None:
            return f"has results but no {branch} branch"
        last = block.last_op
        got = list(last.operand_types) if last is not None and last.name == "scf.yield" else []
        if got != want:
            return f"{branch} branch yields {len(got)} values of the wrong types for its {len(want)} results"
    return ""


def _dominates(value: SSAValue, user: Operation, position: dict[Operation, int], doms: _Dominators) -> bool:
    """MLIR's dominance: in the same block the definition comes first; across blocks of
    one region (a body joined by `cf` branches) the defining block dominates the block
    holding the user (or the op enclosing it)."""
    definer: Operation | None = None
    if isinstance(value, BlockArgument):
        def_block = value.owner
    elif isinstance(value.owner, Operation):
        definer = value.owner
        def_block = definer.parent
    else:
        return True
    if not isinstance(def_block, Block):
        return False
    op: Operation | None = user
    while op is not None:
        block = op.parent
        if block is None:
            return False
        if block is def_block:
            return definer is None or (definer in position and op in position and position[definer] < position[op])
        if block.parent is not None and block.parent is def_block.parent:
            return doms.dominates(def_block, block)
        op = op.parent_op()
    return False


class _Dominators:
    """Dominator sets of the blocks of each multi-block region, computed on demand."""

    def __init__(self) -> None:
        self._sets: dict[Block, set[Block]] = {}

    def dominates(self, a: Block, b: Block) -> bool:
        if b not in self._sets:
            self._compute(b)
        return a in self._sets[b]

    def _compute(self, some: Block) -> None:
        region = some.parent
        assert region is not None
        blocks = list(region.blocks)
        preds: dict[Block, list[Block]] = {b: [] for b in blocks}
        for b in blocks:
            term = b.last_op
            for succ in term.successors if term is not None else ():
                if succ in preds:
                    preds[succ].append(b)
        entry, everything = blocks[0], set(blocks)
        sets = {b: ({b} if b is entry else set(everything)) for b in blocks}
        changed = True
        while changed:  # the classic iterative data-flow solution; bodies are small
            changed = False
            for b in blocks[1:]:
                ps = [sets[p] for p in preds[b]]
                new = (set.intersection(*ps) if ps else set(everything)) | {b}
                if not ps:
                    new = set(everything)  # unreachable: MLIR lets anything dominate it
                if new != sets[b]:
                    sets[b], changed = new, True
        self._sets.update(sets)
