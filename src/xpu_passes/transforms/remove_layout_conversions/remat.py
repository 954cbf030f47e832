"""Recomputing values in another layout: the slice engine of RemoveLayoutConversions.

A `Slice` holds what must change for one `ttg.convert_layout` to disappear:
values recomputed in a new layout (cloned ops), values retyped in place (loop
iter_args and results, `scf.if` results), and boundary values that get an
explicit conversion (placed right after their definition, so conversions of
loop-invariant values land outside the loop). `backward()` collects the slice
that produces the conversion's source in its target layout; `remat_forward.forward()` the one
that lets the conversion's users consume its source layout. `transforms/remove_layout_conversions/slice_cost.py`
weighs a slice; `transforms/remove_layout_conversions/materialize.py` rewrites the IR as it says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import scf
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xpu_passes.analysis.block_pointers import Family, collect_family
from xpu_passes.analysis.values import make_tensor_ptr_of
from xpu_passes.dialects import tt, ttg, ttig
from xpu_passes.layouts.propagation import encoding, is_tensor, isa, operand_layouts, result_layouts, shape
from xpu_passes.layouts.encodings import LayoutError, elems_per_thread
from xpu_passes.layouts.lowering import load_refused, store_refused
from xpu_passes.layouts.memoize import per_class, same
from xpu_passes.transforms.remove_layout_conversions import remat_loads
from xpu_passes.transforms.remove_layout_conversions.remat_loads import cheap_load, pointer_to_dot

Reuse = Callable[[SSAValue, Attribute, Operation], "SSAValue | None"]  # (value, layout, user) -> a copy


@dataclass
class Slice:
    layout: dict[SSAValue, Attribute] = field(default_factory=dict)  # value -> its new layout
    ops: list[Operation] = field(default_factory=list)  # cloned with new result layouts
    members: set[Operation] = field(default_factory=set)  # `ops` as a set (membership tests)
    boundary: dict[SSAValue, Attribute] = field(default_factory=dict)  # explicitly converted
    direct: set[SSAValue] = field(default_factory=set)  # boundaries used directly (not a convert's source)
    inplace: list[SSAValue] = field(default_factory=list)  # retyped where they are
    carried: list[tuple[Operation, int]] = field(default_factory=list)  # (scf.for | scf.if, result index)
    # Backward: an scf.for's carried values get a new iter_arg in the layout, the old ones stay for
    # their other users (triton's rematerialization of loop arguments), instead of being retyped.
    dup_loops: bool = False
    dups: list[tuple[Operation, int]] = field(default_factory=list)  # (scf.for, carried index) so copied
    families: list[tuple[Family, Attribute]] = field(default_factory=list)
    sinks: list[Operation] = field(default_factory=list)  # forward: stores replaced by their clones
    replace: dict[SSAValue, SSAValue] = field(default_factory=dict)  # forward: value -> existing value
    scalars: list[SSAValue] = field(default_factory=list)  # forward: scalar results whose users move to the clone
    # forward: (store, operand index) whose operand gets a conversion back to its layout (the store stays)
    frontier: list[tuple[Operation, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why boundaries were needed
    # Whether a tensor-of-pointer load may be recomputed in another layout (Intel: when it can be a 2D block read).
    load_ok: Callable[[Operation], bool] = lambda op: True
    # A copy of a value in a layout that dominates a user (`transforms/remove_layout_conversions/remat_cache.py`), read instead of cloning.
    reuse: Reuse | None = None
    reused: dict[SSAValue, Attribute] = field(default_factory=dict)  # read from `replace` (its copy)
    # Reductions reached backward (not as the conversion's own source): recomputed through (listed
    # in `crossed`), or, those in `cut`, their results converted instead (candidates._cut_variants).
    cut: frozenset[Operation] = frozenset()
    crossed: list[Operation] = field(default_factory=list)
    why: str = ""

    def add(self, op: Operation) -> None:
        self.ops.append(op)
        self.members.add(op)

    def fail(self, why: str) -> bool:
        self.why = self.why or why
        return False


# ------------------------------------------------------------------ collecting


_REGIONED = (scf.ForOp, scf.IfOp, scf.WhileOp)


def backward(v: SSAValue, layout: Attribute, s: Slice, user: Operation | None = None) -> bool:
    """Add to `s` what recomputes `v` in `layout` (for `user`: a copy dominating it may be read)."""
    had = s.layout.get(v, _MISSING)
    if had is not _MISSING:
        return had is layout or same(had, layout) or s.fail("a value is needed in two layouts")
    reuse = s.reuse if user is not None else None
    if s.reused and v in s.reused:
        if not same(s.reused[v], layout):
            return s.fail("a value is needed in two layouts")
        if reuse is not None and reuse(v, layout, user) is s.replace[v]:  # type: ignore[arg-type]
            return True
        del s.reused[v], s.replace[v]  # a user the copy does not dominate: recomputed for all
        reuse = None
    t = v._type  # pyright: ignore[reportPrivateUsage]  # (`type` is a property)
    if not is_tensor(t):
        if isa(t, tt.PointerType) and t.is_block:  # type: ignore[attr-defined]
            return block_ptr(v, layout, s)
        return True
    enc = t.encoding  # type: ignore[attr-defined]
    if enc is layout or same(enc, layout):
        return True
    if _is_arg(v):
        return _block_arg(v, layout, s)  # type: ignore[arg-type]
    op = v.owner
    kind = _KIND.get(type(op))
    if kind is None:
        kind = _KIND[type(op)] = next((k for c, k in _KINDS if isinstance(op, c)), 0)
    # (a loop's or if's result is retyped where it is, not read from a copy, but a copy it carries)
    if reuse is not None and (copy := reuse(v, layout, user)) is not None and (  # type: ignore[arg-type]
            kind != _REGION or copy.owner is op):
        s.reused[v], s.replace[v] = layout, copy
        return True
    if kind == _CVT:
        s.layout[v] = layout
        return _boundary(op.operands[0], layout, s)  # type: ignore[union-attr]
    if kind == _REGION:  # (an scf.while's result: its after group)
        return carried(op, ~v.index if isa(op, scf.WhileOp) else v.index, layout, s)  # type: ignore[arg-type, attr-defined]
    # (the conversion's own source is never cut: its cut would be the conversion itself)
    if kind == _MULTI_KIND and type(op) is tt.ReduceOp and not (type(user) is ttg.ConvertLayoutOp and user.src is v):
        if op in s.cut:
            s.notes.append("a reduction's result is converted")
            s.direct.add(v)
            return _boundary(v, layout, s)
        s.crossed.append(op)
    # A reshape that may reorder produces the layout from its operand as it is, when free.
    needed = [None] if free_reorder(op, res=layout) else operand_layouts(op, layout)  # type: ignore[arg-type]
    load = kind == _LOAD
    keeps = remat_loads.kept(op, layout, needed is not None, s.load_ok) if load else None  # type: ignore[arg-type]
    if keeps is not None:
        needed = None
        s.notes.append(keeps)
    elif needed is None:
        why = load_refused(v._type, layout) if load else None  # pyright: ignore[reportPrivateUsage]
        s.notes.append(why or f"'{op.name}' cannot produce the target layout")
    if needed is None:
        s.direct.add(v)
        return _boundary(v, layout, s)
    if load and len(list(op.results[0].uses)) > 1 and not cheap_load(op):  # type: ignore[arg-type]
        return s.fail("a load with several users would be duplicated")
    if kind == _MULTI_KIND:
        for r, lr in zip(op.results, result_layouts(op, layout) or [None] * len(op.results)):
            if r is not v and lr is not None and s.layout.setdefault(r, lr) != lr:
                return s.fail("a value is needed in two layouts")
    s.layout[v] = layout
    for operand, want in zip(op._operands, needed):  # pyright: ignore[reportPrivateUsage]
        if want is not None:
            if not backward(operand, want, s, op):
                return False
        elif isa(operand.type, tt.PointerType) and operand.type.is_block:  # type: ignore[attr-defined]
            if not backward(operand, layout, s):
                return False
    s.add(op)
    return True


_MULTI = (tt.ReduceOp, tt.ScanOp, tt.SplitOp)  # result_layouts' ops
_MISSING = object()
# What backward does with a value's defining op, per op class (isinstance on op classes is slow).
_CVT, _REGION, _LOAD, _MULTI_KIND = 1, 2, 3, 4
_KINDS: tuple[tuple[Any, int], ...] = ((ttg.ConvertLayoutOp, _CVT), (_REGIONED, _REGION), (tt.LoadOp, _LOAD),
                                       (_MULTI, _MULTI_KIND))
_KIND: dict[type, int] = {}
_is_arg = per_class(BlockArgument)


def _boundary(v: SSAValue, layout: Attribute, s: Slice) -> bool:
    if pointer_to_dot(v.type, layout):
        return s.fail("a tensor of pointers would be converted to a dot-operand layout")
    if not same(s.boundary.setdefault(v, layout), layout):
        return s.fail("a value would be converted to two layouts")
    return True


def _block_arg(v: BlockArgument, layout: Attribute, s: Slice) -> bool:
    parent = v.block.parent_op()
    if isinstance(parent, scf.ForOp) and v.index >= 1:
        return carried(parent, v.index - 1, layout, s)
    if isinstance(parent, scf.WhileOp):
        return carried(parent, v.index if v.block is parent.before_region.block else ~v.index, layout, s)
    s.notes.append("a function argument is converted")
    s.direct.add(v)
    return _boundary(v, layout, s)


def slots(op: Operation, k: int) -> list[tuple[Operation, int]]:
    """(op, operand index) of what feeds carried value k: each region's terminator, then the
    loop's initial value. An scf.while carries two groups, linked only by what its regions
    compute: k >= 0, its before arguments (fed by the yield and the initial values); k < 0,
    ~k of its after arguments and results (fed by scf.condition's operand ~k + 1)."""
    if isinstance(op, scf.WhileOp):
        if k < 0:
            return [(op.before_region.block.last_op, ~k + 1)]  # type: ignore[list-item]
        return [(op.after_region.block.last_op, k), (op, k)]  # type: ignore[list-item]
    out = []
    for r in op.regions:
        term = r.block.last_op if r.blocks else None
        if term is not None:
            out.append((term, k))
    if isinstance(op, scf.ForOp):
        out.append((op, k + 3))
    return out


def carried_values(op: Operation, k: int) -> list[SSAValue]:
    """The values that are carried value k of an scf.for/while/if: result, iter_args, region args."""
    if isinstance(op, scf.ForOp):
        return [op.results[k], op.body.block.args[k + 1]]
    if isinstance(op, scf.WhileOp):
        return [op.results[~k], op.after_region.block.args[~k]] if k < 0 else [op.before_region.block.args[k]]
    return [op.results[k]]


def carried(op: Operation, k: int, layout: Attribute, s: Slice) -> bool:
    """A loop-carried value (iter_args, yields, results; either group of an scf.while, see
    `slots`) or an `scf.if` result, retyped where it is."""
    vals = carried_values(op, k)
    dup = s.dup_loops and isinstance(op, scf.ForOp)
    for v in vals:
        if v in s.layout:
            return s.layout[v] == layout or s.fail("a value is needed in two layouts")
        s.layout[v] = layout
        if not dup:
            s.inplace.append(v)
    (s.dups if dup else s.carried).append((op, k))
    return all(backward(user.operands[i], layout, s, user) for user, i in slots(op, k))


def block_ptr(v: SSAValue, layout: Attribute, s: Slice) -> bool:
    """A block pointer follows its load into the new layout: its whole family is retyped
    (through advances and loops), which is safe when the load is its only access."""
    root = make_tensor_ptr_of(v)
    if root is None:
        return s.fail("cannot trace the block pointer to its tt.make_tensor_ptr")
    if isinstance(encoding(root.result.type.pointee), ttig.Subgroup2DBlockEncodingAttr):  # type: ignore[union-attr]
        return s.fail("a load in the layout of its 2D block reads is an anchor")
    fam = collect_family(root)
    io = [a for a in fam.accesses if isinstance(a, tt.LoadOp | tt.StoreOp)]
    if fam.unsupported is not None or len(io) != 1:
        return s.fail("the block pointer has other loads/stores")
    if isinstance(io[0], tt.StoreOp) and (why := store_refused(io[0], layout)):
        return s.fail(why)
    if all(f.root is not root for f, _ in s.families):
        s.families.append((fam, layout))
    return True


def free_reorder(op: Operation, src: Attribute | None = None, res: Attribute | None = None) -> bool:
    """Whether `op` is a `tt.reshape {allow_reorder}` (no efficient_layout) that can read its
    operand in `src` and produce its result in `res` (each by default its own): the elements
    may land anywhere, so the lowering renames registers when each thread holds as many
    before as after (triton's folds of reshape(convert(x)) and convert(reshape(x)), with
    their isExpensiveView test; never with a dot operand layout, packed by the lowering)."""
    if type(op) is not tt.ReshapeOp:
        return False
    props = op.properties
    if "allow_reorder" not in props or "efficient_layout" in props:
        return False
    (v,), (r,) = op._operands, op.results  # pyright: ignore[reportPrivateUsage]
    src = src or encoding(v._type)  # pyright: ignore[reportPrivateUsage]
    res = res or encoding(r._type)  # pyright: ignore[reportPrivateUsage]
    if src is None or res is None or isa(src, ttg.DotOperandEncodingAttr) or isa(res, ttg.DotOperandEncodingAttr):
        return False
    try:
        return elems_per_thread(src, shape(v._type)) == elems_per_thread(res, shape(r._type))  # pyright: ignore
    except (LayoutError, ValueError):
        return False
