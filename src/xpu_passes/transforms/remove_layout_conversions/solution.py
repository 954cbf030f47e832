"""Whole-module figures by which RemoveLayoutConversions compares candidate rewrites.

A rewrite is judged on the module it produces, not on the conversion it removes:
every `ttg.convert_layout`, `tt.scan` and `tt.reduce` is costed with the layout
algebra (elements moved through SLM, weighted by loop depth) and the largest SLM
scratch of any op is kept apart, so a choice that adds scratch anywhere is seen. The cost also
holds what the worst spill a tensor-of-pointer access causes costs (costs.pressure_cost: it
depends on what is live there, so it is taken over the module's accesses, not summed per op).
`layout_errors` finds IR triton-xpu would reject: an op whose operands must share
one layout (its text prints one type for several values) with mixed layouts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.ir.xdsl_adapt import isolation_unchecked, value_type
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.ir.journal import walk_list
from xpu_passes.layouts.memoize import per_class
from xpu_passes.transforms.remove_layout_conversions.locality import (Contexts, attached_of, general_key, isolated, isolated_module, near,
                                        verify_key_of)
from xpu_passes.layouts.propagation import SAME_LAYOUT, ATOMICS, encoding
from xpu_passes.transforms.remove_layout_conversions.remat import pointer_to_dot
from xpu_passes.transforms.remove_layout_conversions.costs import (LOOP_WEIGHT, conversion_cost, facts_of, loop_depth,
                                                                  memory_cost, pressure_cost)
from xpu_passes.layouts.scratch import op_scratch_bytes


@dataclass(frozen=True)
class Figures:
    cost: int  # loop-weighted bytes through conversions (no-SLM ones /8) and scan/reduce scratch
    slm: int  # the largest scratch of one op: what triton-xpu allocates when nothing else uses SLM
    converts: int

    def better_than(self, other: Figures) -> bool:
        """Strictly cheaper (or as cheap with fewer conversions), never more SLM."""
        if self.slm > other.slm:
            return False
        return (self.cost, self.converts) < (other.cost, other.converts)

    def worse_than(self, other: Figures) -> bool:
        """More SLM or more conversions: what the final safety net refuses."""
        return self.slm > other.slm or self.converts > other.converts

    def __str__(self) -> str:
        return f"{self.converts} conversion(s), {self.slm} bytes of SLM, weighted cost {self.cost}"


def _scratch(op: Operation) -> int:
    try:
        return op_scratch_bytes(op)
    except LayoutError:
        return 0  # a layout the algebra does not know: its scratch is not comparable


# (op class, its types and axis) -> (unweighted cost, scratch bytes). Keyed by identity: types are
# shared, immutable attributes, and hashing a layout (a tree of attributes) costs more than the
# layout algebra's cached answer. The entry keeps its key's objects alive, so ids are not reused.
_CONTRIBUTION: dict[tuple[int, ...], tuple[tuple[Attribute, ...], tuple[int, int]]] = {}


def _contribution(op: Operation) -> tuple[int, int]:
    """What one conversion, scan or reduction adds to the cost (before loop weighting) and its scratch."""
    keep = (*map(value_type, op._operands), *map(value_type, op.results), op.properties.get("axis"))  # pyright: ignore
    key = (id(type(op)), *map(id, keep))
    hit = _CONTRIBUTION.get(key)
    if hit is not None and hit[0] == keep:  # (the same objects: tuple == tries identity first, in C)
        return hit[1]
    if type(op) is ttg.ConvertLayoutOp:
        dst = encoding(op.result.type)
        out = (conversion_cost(op.src.type, dst) if dst is not None else 0, _scratch(op))
    else:
        bytes_ = _scratch(op)
        out = (bytes_ if op.operands and isinstance(op.operands[0].type, TensorType) else 0, bytes_)
    if len(_CONTRIBUTION) > 65536:
        _CONTRIBUTION.clear()
    _CONTRIBUTION[key] = (keep, out)
    return out


_costed = per_class(ttg.ConvertLayoutOp | tt.ScanOp | tt.ReduceOp | tt.LoadOp | tt.StoreOp)  # (+ memory messages)
_access = per_class(tt.LoadOp | tt.StoreOp)


def _memory_part(op: Operation, module: Operation) -> tuple[int, int] | None:
    """A load/store's loop-weighted cost of the messages its layout adds (costs.memory_cost), if any."""
    c = memory_cost(op, facts_of(module))
    return (LOOP_WEIGHT ** loop_depth(op) * c, 0) if c else None


_is_dot = per_class(tt.DotOp)


def placeholder_dot(op: Operation) -> bool:
    """A tt.dot not in a DPAS layout: before AccelerateMatmul, whose blocked layouts say nothing of
    what a lane will hold (the pass never retypes a dot, so this holds for a whole run)."""
    return _is_dot(op) and not isinstance(encoding(op.results[0].type), ttig.DpasEncodingAttr)


def spill_cost(accesses: Iterable[Operation], module: Operation) -> int:
    """The loop-weighted cost of the worst spill at one of `accesses` (the module's loads/stores;
    none while a dot's layout is a placeholder)."""
    facts = None
    worst = 0
    for op in accesses:
        facts = facts or facts_of(module)
        if c := pressure_cost(op, facts):
            worst = max(worst, LOOP_WEIGHT ** loop_depth(op) * c)
    return worst


def figures(module: Operation, ops: list[Operation] | None = None) -> Figures:
    """`ops`: the module's walk, if at hand."""
    cost = slm = converts = 0
    accesses: list[Operation] = []
    placeholder = False
    for op in walk_list(module) if ops is None else ops:
        placeholder = placeholder or placeholder_dot(op)
        if _access(op):
            accesses.append(op)
            cost += (_memory_part(op, module) or (0, 0))[0]
        elif _costed(op):
            converts += type(op) is ttg.ConvertLayoutOp
            c, bytes_ = _contribution(op)
            slm = max(slm, bytes_)
            if c:
                cost += LOOP_WEIGHT ** loop_depth(op) * c
    return Figures(cost + (0 if placeholder else spill_cost(accesses, module)), slm, converts)


# Ops whose tensor operands (and results) triton requires in one layout.
_ONE_LAYOUT = tuple(c for c in SAME_LAYOUT if c is not tt.BroadcastOp) + (tt.StoreOp, *ATOMICS, tt.ScanOp)


def layout_errors(module: Operation, check: bool = False) -> list[tuple[Operation, str]]:
    """Ops whose operands/results disagree on their layout (triton-xpu would reject the text),
    or the module's first verifier error (e.g. a block-pointer load whose pointer was retyped
    while the load kept its result type). `check`: the pass's check mode (see Ledger)."""
    clean = _clean(module, check)
    if clean and not check:
        return []
    found = _all_errors(module)
    if check and clean != (not found):
        raise AssertionError(f"op-by-op layout check says {not clean}, the full one {bool(found)}")
    return found


def _clean(module: Operation, check: bool) -> bool:
    """No op fails alone (verified signatures skipped), IsolatedFromAbove judged in one walk."""
    ops, contexts = walk_list(module), Contexts()
    with isolation_unchecked():
        if any(_errs_alone(op, contexts, check) for op in ops):
            return False
    return isolated_module(ops)


def _all_errors(module: Operation) -> list[tuple[Operation, str]]:
    try:
        module.verify()
    except VerifyException as e:
        return [(module, str(e).splitlines()[0])]
    return [(op, why) for op in module.walk() if (why := _op_error(op)) is not None]


_KINDS = ((_ONE_LAYOUT, "one"), (tt.ReduceOp, "reduce"), (scf.YieldOp, "yield"), (scf.WhileOp, "while"),
          (scf.ForOp, "for"), (ttg.ConvertLayoutOp, "convert"))
_KIND: dict[type, str | None] = {}  # op class -> what _op_error checks (isinstance on op classes is slow)


def _kind(op: Operation) -> str | None:
    t = type(op)
    if t not in _KIND:
        _KIND[t] = next((k for c, k in _KINDS if issubclass(t, c)), None)
    return _KIND[t]


# (kind, ids of an op's types and axis) -> (those objects, what _typed_error says): kept alive, so ids stay theirs.
_TYPED: dict[tuple[object, ...], tuple[list[object], str | None]] = {}


def _op_error(op: Operation) -> str | None:
    """What `layout_errors` finds wrong with `op` alone (it reads only `op`'s own types and
    attributes, its terminators' operands and, for a yield, its parent's results)."""
    kind = _kind(op)
    if kind is None:
        return None
    if kind in ("one", "reduce"):  # answers that depend on the op's types (and axis) only
        keep = [*map(value_type, op._operands), None, *map(value_type, op.results), op.properties.get("axis")]  # pyright: ignore
        key = (kind, *map(id, keep))
        hit = _TYPED.get(key)
        if hit is None:
            if len(_TYPED) > 50_000:
                _TYPED.clear()
            hit = _TYPED[key] = (keep, _typed_error(op, kind))
        return hit[1]
    return _structural_error(op, kind)


def _typed_error(op: Operation, kind: str) -> str | None:
    if kind == "one":
        layouts = {encoding(v.type) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
        if len(layouts) > 1:
            return "operands in different layouts"
    elif kind == "reduce":
        srcs = {encoding(v.type) for v in op.operands}
        outs = {encoding(v.type) for v in op.results if isinstance(v.type, TensorType)}
        want = {ttg.SliceEncodingAttr.make(dim=op.axis.value.data, parent=s) for s in srcs if s is not None}
        if len(srcs) > 1 or (outs and outs != want):
            return "reduction results are not the slice of its operands' layout"
    return None


def _structural_error(op: Operation, kind: str) -> str | None:
    if kind == "convert":
        (r,) = op.results  # (`result`: an accessor)
        if pointer_to_dot(r.type, encoding(r.type)):
            return "a tensor of pointers converted to a dot-operand layout"
    elif kind == "yield" and isinstance(op.parent_op(), scf.ForOp | scf.IfOp):
        parent = op.parent_op()
        assert parent is not None
        if [v.type for v in op.operands] != [r.type for r in parent.results]:
            return "yielded types differ from the results"
    elif kind == "while":
        types = [[v.type for v in vs] for vs in (
            op.arguments, op.before_region.block.args, op.after_region.block.args, op.results,
            op.before_region.block.last_op.operands[1:], op.after_region.block.last_op.operands)]  # type: ignore
        if types[0] != types[1] or types[1] != types[5] or not types[2] == types[3] == types[4]:
            return "scf.while types differ between its regions"
    elif kind == "for":
        args = op.body.block.args[1:]
        if [v.type for v in op.iter_args] != [a.type for a in args] or [a.type for a in args] != [
            r.type for r in op.results
        ]:
            return "loop-carried types differ"
    return None


class Ledger:
    """A module's figures as per-op contributions, updated from the ops a change touched
    (`update`), with an undo for a rejected trial (`rollback`)."""

    def __init__(self, module: Operation, ops: list[Operation] | None = None, check: bool = False) -> None:
        """`ops`: the module's ops in walk order, if at hand; `check`: the pass's check mode (its
        option `check-incremental`): every incremental answer (figures, validity) is also computed
        in full, and a disagreement raises."""
        self.module = module
        self.check = check
        self.parts: dict[Operation, tuple[int, int]] = {}  # op -> (loop-weighted cost, scratch bytes)
        self.cost = self.converts = 0
        self.scratch: Counter[int] = Counter()
        self._log: list[tuple[Operation, tuple[int, int] | None]] = []
        self.attached: set[Operation] = set()
        self.accesses: dict[Operation, None] = {}  # the module's loads/stores (spill_cost)
        self._alog: list[tuple[Operation, bool]] = []  # (access, whether it was in `accesses`)
        self.placeholder = False  # a dot before AccelerateMatmul: no spill cost (placeholder_dot)
        for op in ops or walk_list(module):
            self._set(op, self._part(op), log=False)
            self.placeholder = self.placeholder or placeholder_dot(op)
            if _access(op):
                self.accesses[op] = None

    def _part(self, op: Operation) -> tuple[int, int] | None:
        if not _costed(op):
            return None
        if _access(op):
            return _memory_part(op, self.module)
        c, bytes_ = _contribution(op)
        return (LOOP_WEIGHT ** loop_depth(op) * c if c else 0, bytes_)

    def _set(self, op: Operation, new: tuple[int, int] | None, log: bool = True) -> None:
        old = self.parts.get(op)
        if old == new:
            return
        if log:
            self._log.append((op, old))
        is_cvt = type(op) is ttg.ConvertLayoutOp
        if old is not None:
            self.cost -= old[0]
            self.converts -= is_cvt
            self.scratch[old[1]] -= 1
            if not self.scratch[old[1]]:
                del self.scratch[old[1]]
            del self.parts[op]
        if new is not None:
            self.cost += new[0]
            self.converts += is_cvt
            self.scratch[new[1]] += 1
            self.parts[op] = new

    def update(self, ops: set[Operation]) -> Figures:
        """`attached`: those of `ops` still in the module, kept for the validity check that
        follows (has_errors' `attached`: the same change)."""
        inside = self.attached = attached_of(self.module, ops)
        get, part, put = self.parts.get, self._part, self._set
        for op in filter(_costed, ops):  # (only these have parts: an op's class does not change)
            if _access(op) and (op in inside) != (op in self.accesses):
                self._alog.append((op, op in self.accesses))
                if op in inside:
                    self.accesses[op] = None
                else:
                    del self.accesses[op]
            new = part(op) if op in inside else None
            if get(op) != new:  # (else _set would find no change)
                put(op, new)
        fig = self.figures()
        if self.check:
            _CONTRIBUTION.clear()
            if (full := figures(self.module)) != fig:
                raise AssertionError(f"incremental figures {fig}, full {full}")
        return fig

    def figures(self) -> Figures:
        spill = 0 if self.placeholder else spill_cost(self.accesses, self.module)
        return Figures(self.cost + spill, max(self.scratch, default=0), self.converts)

    def commit(self) -> None:
        self._log.clear()
        self._alog.clear()

    def rollback(self) -> None:
        while self._alog:
            op, was = self._alog.pop()
            if was:
                self.accesses[op] = None
            else:
                self.accesses.pop(op, None)
        while self._log:
            op, old = self._log.pop()
            self._set(op, old, log=False)


# locality.general_key's of ops that passed _errs_alone: all the verifier reads of such an op,
# and all _op_error does (its types, axis, loop-carried types) unless it is a yield (its parent's
# results), so an equal key passes too: one lookup where verify_key_of's keys cost more to build
# (a conversion's twice as much) and _op_error another.
_PASSED = IdTable(50_000)


def _errs_alone(op: Operation, contexts: Contexts, check: bool = False) -> bool:
    """`op` fails the verifier (its nested ops aside: they are checked on their own) or `_op_error`.
    An op whose signature the front end (or an earlier check) verified is not verified again."""
    context = contexts.of(op)
    exact = general_key(op, context) if _kind(op) != "yield" else None
    if exact is not None and exact[0] in _PASSED:
        if check and _errs_checked(op, context):
            raise AssertionError(f"{op.name}: a signature that passed fails now")
        return False
    if _errs_checked(op, context):
        return True
    if exact is not None:
        _PASSED.put(exact[0], exact[1], True)
    return False


def _errs_checked(op: Operation, context: list[object]) -> bool:
    key = verify_key_of(op, context)
    try:
        if key is None or key[0] not in key[2]:
            op.verify(verify_nested_ops=False)
            if key is not None:
                key[2].put(key[0], key[1], True)  # an IdTable: bounded, pins the key's objects
        for r in op.regions:  # what Block.verify checks of op's blocks: one block, empty (read by its links)
            b = r._first_block  # pyright: ignore[reportPrivateUsage]
            if b is not None and b is r._last_block and b._first_op is None and not op.has_trait(NoTerminator):  # pyright: ignore
                raise VerifyException(f"Operation {op.name} contains empty block")
    except VerifyException:
        return True
    return _op_error(op) is not None


def has_errors(module: Operation, touched: set[Operation], was_valid: bool,
               reshaped: set[Operation] | None = None, attached: set[Operation] | None = None,
               check: bool = False) -> bool:
    """Whether `layout_errors(module)` finds anything after a change that touched `touched` and
    added or removed ops in the regions of `reshaped` (journal.Journal). When the module was
    known free of errors before, only what the change can affect is checked (`locality.near`): the
    checks are local, so the answer is the same, and costs the change, not the module.
    `attached`: those of `touched` still in `module`, if at hand (Ledger.update's); `check`: check mode."""
    if not was_valid:
        return bool(layout_errors(module, check))
    if check and attached is not None and attached != attached_of(module, touched):
        raise AssertionError("the ops said attached are not those of the change still in the module")
    near_ops, dirty = near(module, touched, reshaped or set(), attached)
    contexts = Contexts()
    with isolation_unchecked():
        found = any(_errs_alone(op, contexts, check) for op in near_ops)
    found = found or not isolated(dirty)
    if check:
        full = bool(layout_errors(module, check))
        if full != found:
            raise AssertionError(f"incremental layout check says {found}, the full one {full}")
    return found
