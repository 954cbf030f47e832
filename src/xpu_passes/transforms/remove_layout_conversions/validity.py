"""Whether a module RemoveLayoutConversions rewrote is IR triton-xpu takes (`layout_errors`,
`has_errors`: the same answer, from the ops a change touched): an op whose operands must share one
layout (its text prints one type for several values) with mixed layouts, a verifier error, or a
conversion triton-xpu 3.3 cannot lower (to pointers in a dot-operand layout, from a dot operand
of a non-DPAS parent to another layout).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects import tt, ttg
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.ir.journal import walk_list
from xpu_passes.ir.xdsl_adapt import isolation_unchecked, value_type
from xpu_passes.layouts.lowering import convert_refused
from xpu_passes.layouts.propagation import ATOMICS, SAME_LAYOUT, encoding
from xpu_passes.transforms.remove_layout_conversions.locality import (Contexts, attached_of, general_key, isolated,
                                                                     isolated_module, near, verify_key_of)
from xpu_passes.transforms.remove_layout_conversions.remat_loads import pointer_to_dot


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
        if convert_refused(encoding(op.operands[0].type), encoding(r.type)):
            return "a conversion from the dot-operand layout of a non-DPAS dot (triton-xpu 3.3 cannot lower it)"
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
