"""Whole-module figures by which RemoveLayoutConversions compares candidate rewrites.

A rewrite is judged on the module it produces, not on the conversion it removes:
every `ttg.convert_layout`, `tt.scan` and `tt.reduce` is costed with the layout
algebra (elements moved through SLM, weighted by loop depth) and the largest SLM
scratch of any op is kept apart, so a choice that adds scratch anywhere is seen.
`layout_errors` finds IR triton-xpu would reject: an op whose operands must share
one layout (its text prints one type for several values) with mixed layouts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, ErasedSSAValue, Operation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.propagation import _SAME_LAYOUT, ATOMICS, encoding
from xpu_passes.layouts.remat import pointer_to_dot
from xpu_passes.layouts.costs import LOOP_WEIGHT, conversion_cost, loop_depth
from xpu_passes.layouts.scratch import element_bytes, op_scratch_bytes


@dataclass(frozen=True)
class Figures:
    cost: int  # loop-weighted elements through conversions (no-SLM ones /8) and scan/reduce scratch
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


@functools.lru_cache(maxsize=4096)
def _cvt_cost(src: Attribute, dst: Attribute) -> int:
    return conversion_cost(src, dst)


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
    keep = (*(v.type for v in op.operands), *(r.type for r in op.results), op.properties.get("axis"))
    key = (id(type(op)), *map(id, keep))
    hit = _CONTRIBUTION.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], keep)):
        return hit[1]
    if isinstance(op, ttg.ConvertLayoutOp):
        dst = encoding(op.result.type)
        out = (_cvt_cost(op.src.type, dst) if dst is not None else 0, _scratch(op))
    else:
        bytes_ = _scratch(op)
        t = op.operands[0].type if op.operands else None
        cost = bytes_ // max(1, element_bytes(t.element_type)) if bytes_ and isinstance(t, TensorType) else 0
        out = (cost, bytes_)
    if len(_CONTRIBUTION) > 65536:
        _CONTRIBUTION.clear()
    _CONTRIBUTION[key] = (keep, out)
    return out


def figures(module: Operation) -> Figures:
    cost = slm = converts = 0
    for op in module.walk():
        if isinstance(op, ttg.ConvertLayoutOp | tt.ScanOp | tt.ReduceOp):
            converts += isinstance(op, ttg.ConvertLayoutOp)
            c, bytes_ = _contribution(op)
            slm = max(slm, bytes_)
            if c:
                cost += LOOP_WEIGHT ** loop_depth(op) * c
    return Figures(cost, slm, converts)


# Ops whose tensor operands (and results) triton requires in one layout.
_ONE_LAYOUT = tuple(c for c in _SAME_LAYOUT if c is not tt.BroadcastOp) + (tt.StoreOp, *ATOMICS, tt.ScanOp)


def layout_errors(module: Operation) -> list[tuple[Operation, str]]:
    """Ops whose operands/results disagree on their layout (triton-xpu would reject the text),
    or the module's first verifier error (e.g. a block-pointer load whose pointer was retyped
    while the load kept its result type)."""
    try:
        module.verify()
    except VerifyException as e:
        return [(module, str(e).splitlines()[0])]
    return [(op, why) for op in module.walk() if (why := _op_error(op)) is not None]


def _op_error(op: Operation) -> str | None:
    """What `layout_errors` finds wrong with `op` alone (it reads only `op`'s own types and
    attributes, its terminators' operands and, for a yield, its parent's results)."""
    if isinstance(op, _ONE_LAYOUT):
        layouts = {encoding(v.type) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
        if len(layouts) > 1:
            return "operands in different layouts"
    elif isinstance(op, tt.ReduceOp):
        srcs = {encoding(v.type) for v in op.operands}
        outs = {encoding(v.type) for v in op.results if isinstance(v.type, TensorType)}
        want = {ttg.SliceEncodingAttr.make(dim=op.axis.value.data, parent=s) for s in srcs if s is not None}
        if len(srcs) > 1 or (outs and outs != want):
            return "reduction results are not the slice of its operands' layout"
    elif isinstance(op, ttg.ConvertLayoutOp) and pointer_to_dot(op.result.type, encoding(op.result.type)):
        return "a tensor of pointers converted to a dot-operand layout"
    elif isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.ForOp | scf.IfOp):
        parent = op.parent_op()
        assert parent is not None
        if [v.type for v in op.operands] != [r.type for r in parent.results]:
            return "yielded types differ from the results"
    elif isinstance(op, scf.WhileOp):
        types = [[v.type for v in vs] for vs in (
            op.arguments, op.before_region.block.args, op.after_region.block.args, op.results,
            op.before_region.block.last_op.operands[1:], op.after_region.block.last_op.operands)]  # type: ignore
        if types[0] != types[1] or types[1] != types[5] or not types[2] == types[3] == types[4]:
            return "scf.while types differ between its regions"
    elif isinstance(op, scf.ForOp):
        args = op.body.block.args[1:]
        if [v.type for v in op.iter_args] != [a.type for a in args] or [a.type for a in args] != [
            r.type for r in op.results
        ]:
            return "loop-carried types differ"
    return None


# Tests set this: every incremental check is also done in full, and a disagreement raises.
CHECK_INCREMENTAL = False


def _signature(op: Operation) -> tuple:
    """All that verifying `op` alone (and `_op_error`) reads of it, compared by identity where shared."""
    return (
        op.name, tuple(v.type for v in op.operands), tuple(r.type for r in op.results),
        tuple(tuple(a.type for a in b.args) for r in op.regions for b in r.blocks),
        op.next_op is None, len(op.successors), any(isinstance(v, ErasedSSAValue) for v in op.operands),
    )


def _touched(old: Operation, copy: Operation, m: dict[Operation, Operation]) -> set[Operation]:
    """Ops of `copy` a rewrite may have made invalid: new ones, ones whose signature, attributes or
    parent differ from their original in `old` (`m`: old op -> its clone), parents of erased ones;
    then their ancestors and the terminators of their regions."""
    live = list(copy.walk())
    inv = {c: o for o, c in m.items()}
    dirty: set[Operation] = set()
    for c in live:
        o = inv.get(c)
        if (o is None or c.attributes != o.attributes or c.properties != o.properties
                or c.parent_op() is not m.get(o.parent_op())  # type: ignore[arg-type]
                or _signature(c) != _signature(o)):
            dirty.add(c)
    alive = set(live)
    for o, c in m.items():
        if c not in alive and (p := o.parent_op()) is not None and m.get(p) in alive:
            dirty.add(m[p])  # its region lost an op (maybe the terminator, maybe every op)
    out = set(dirty)
    for c in dirty:
        for r in c.regions:
            out.update(b.last_op for b in r.blocks if b.last_op is not None)
        p = c.parent_op()
        while p is not None and p not in out:
            out.add(p)
            p = p.parent_op()
    return out


def _errs_alone(op: Operation) -> bool:
    """`op` fails the verifier (its nested ops aside: they are checked on their own) or `_op_error`."""
    try:
        op.verify(verify_nested_ops=False)
        for r in op.regions:  # what Block.verify checks of op's blocks
            if len(r.blocks) == 1 and r.block.first_op is None and not op.has_trait(NoTerminator):
                raise VerifyException(f"Operation {op.name} contains empty block")
    except VerifyException:
        return True
    return _op_error(op) is not None


def trial_has_errors(old: Operation, copy: Operation, m: dict[Operation, Operation], old_valid: bool) -> bool:
    """Whether `layout_errors(copy)` finds anything, `copy` being `old` cloned (`m`: old op -> clone)
    and rewritten. When `old` is known free of errors only the ops the rewrite touched are checked:
    the checks are local, so the answer is the same, and costs the touched ops, not the module."""
    if not old_valid:
        return bool(layout_errors(copy))
    found = any(_errs_alone(op) for op in _touched(old, copy, m))
    if CHECK_INCREMENTAL:
        full = bool(layout_errors(copy))
        if full != found:
            raise AssertionError(f"incremental layout check says {found}, the full one {full}")
    return found
