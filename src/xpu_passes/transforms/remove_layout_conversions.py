"""`--tritonintelgpu-remove-layout-conversions`: remove `ttg.convert_layout` by rematerialization.

For each conversion X -> Y, the values it converts are recomputed directly in Y
when every op on the way back can produce Y (elementwise ops, splat, broadcast,
expand_dims, make_range, constants, and loads: the Intel rule that a load of a
tensor of pointers or of a block pointer may take the DPAS layout, so in
`acc + load(d)` the epilogue keeps DPAS and needs no SLM). The slice stops at
scalars, at values already in the wanted layout, and at other conversions, which
it replaces by conversions of their sources; it is taken only when those move
fewer elements than the conversion removed. Conversions to the same layout and
chains of conversions are folded. Loop-carried values and reductions are not
rematerialized yet (see the project notes); those conversions stay, with a remark.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.analysis.block_pointers import Family, collect_family
from xpu_passes.analysis.values import make_tensor_ptr_of
from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.propagation import encoding, numel, operand_layouts, with_encoding
from xpu_passes.transforms.base import XpuPass, register


@dataclass
class Slice:
    """The values to recompute in new layouts, in an order where operands come first."""

    layout: dict[SSAValue, Attribute] = field(default_factory=dict)
    ops: list[Operation] = field(default_factory=list)
    boundary: dict[SSAValue, Attribute] = field(default_factory=dict)  # convert sources -> layout
    families: list[tuple[Family, Attribute]] = field(default_factory=list)  # retyped whole
    why: str = ""

    def fail(self, why: str) -> bool:
        self.why = self.why or why
        return False


def _collect(v: SSAValue, layout: Attribute, s: Slice) -> bool:
    if v in s.layout:
        return s.layout[v] == layout or s.fail("a value is needed in two layouts")
    t = v.type
    if isinstance(t, tt.PointerType) and t.is_block:
        return _collect_block_ptr(v, layout, s)
    if not isinstance(t, TensorType) or encoding(t) == layout:
        return True
    op = v.owner
    if isinstance(v, BlockArgument) or not isinstance(op, Operation):
        return s.fail("reaches a block argument (loop-carried values are not rematerialized)")
    if isinstance(op, ttg.ConvertLayoutOp):
        s.layout[v] = layout
        s.boundary[op.src] = layout
        return True
    needed = operand_layouts(op, layout)
    if needed is None:
        return s.fail(f"'{op.name}' cannot produce the target layout")
    if isinstance(op, tt.LoadOp) and len(list(op.result.uses)) > 1:
        return s.fail("a load with several users would be duplicated")
    s.layout[v] = layout
    for operand, l in zip(op.operands, needed):
        if l is not None and not _collect(operand, l, s):
            return False
        if l is None and isinstance(operand.type, tt.PointerType) and operand.type.is_block:
            if not _collect(operand, layout, s):
                return False
    s.ops.append(op)
    return True


def _collect_block_ptr(v: SSAValue, layout: Attribute, s: Slice) -> bool:
    """A block pointer follows its load into the new layout.

    Its whole family (through advances and loops) is retyped, which is safe when
    the load is the family's only load/store.
    """
    root = make_tensor_ptr_of(v)
    if root is None:
        return s.fail("cannot trace the block pointer to its tt.make_tensor_ptr")
    fam = collect_family(root)
    io = [a for a in fam.accesses if isinstance(a, tt.LoadOp | tt.StoreOp)]
    if fam.unsupported is not None or len(io) != 1:
        return s.fail("the block pointer has other loads/stores")
    if all(f.root is not root for f, _ in s.families):
        s.families.append((fam, layout))
    return True


def _retyped(t: Attribute, layout: Attribute) -> Attribute:
    if isinstance(t, tt.PointerType) and isinstance(t.pointee, TensorType):
        return tt.PointerType(with_encoding(t.pointee, layout), t.address_space.data)
    return with_encoding(t, layout)


def _boundary_cost(s: Slice) -> int:
    return sum(numel(src.type) for src, l in s.boundary.items() if encoding(src.type) != l)


def _retype_family(fam: Family, layout: Attribute) -> None:
    for v in list(fam.values):
        Rewriter.replace_value_with_new_type(v, _retyped(v.type, layout))


def _materialize(cvt: ttg.ConvertLayoutOp, s: Slice) -> None:
    for fam, layout in s.families:
        _retype_family(fam, layout)
    new: dict[SSAValue, SSAValue] = {}
    for src, layout in s.boundary.items():
        if encoding(src.type) == layout:
            new_v = src
        else:
            c = ttg.ConvertLayoutOp.build(operands=[src], result_types=[with_encoding(src.type, layout)])
            Rewriter.insert_op(c, InsertPoint.before(cvt))
            new_v = c.result
        for use in list(src.uses):
            owner = use.operation
            if isinstance(owner, ttg.ConvertLayoutOp) and owner.result in s.layout:
                new[owner.result] = new_v
    for op in s.ops:
        results = [_retyped(r.type, s.layout[r]) for r in op.results]
        props = dict(op.properties)
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr):
            props["value"] = DenseIntOrFPElementsAttr(results[0], op.value.data)  # type: ignore[arg-type]
        clone = type(op).create(
            operands=[new.get(o, o) for o in op.operands],
            result_types=results,
            properties=props,
            attributes=dict(op.attributes),
        )
        Rewriter.insert_op(clone, InsertPoint.before(op))
        for old, r in zip(op.results, clone.results):
            new[old] = r
    cvt.result.replace_all_uses_with(new[cvt.src])
    Rewriter.erase_op(cvt)
    for op in reversed(s.ops):
        if all(not r.uses for r in op.results) and op.parent is not None:
            Rewriter.erase_op(op)


def fold(cvt: ttg.ConvertLayoutOp) -> bool:
    """convert(x: L -> L) -> x; convert(convert(x)) -> convert(x) or x."""
    src = cvt.src
    if src.type == cvt.result.type:
        cvt.result.replace_all_uses_with(src)
        Rewriter.erase_op(cvt)
        return True
    inner = src.owner
    if isinstance(inner, ttg.ConvertLayoutOp):
        base = inner.src
        if base.type == cvt.result.type:
            cvt.result.replace_all_uses_with(base)
        else:
            c = ttg.ConvertLayoutOp.build(operands=[base], result_types=[cvt.result.type])
            Rewriter.insert_op(c, InsertPoint.before(cvt))
            cvt.result.replace_all_uses_with(c.result)
        Rewriter.erase_op(cvt)
        if not inner.result.uses:
            Rewriter.erase_op(inner)
        return True
    return False


def _wanted_layout(access: Operation) -> Attribute | None:
    """The layout an access's neighbours want: what all its conversions go to / come from."""
    if isinstance(access, tt.LoadOp):
        users = [u.operation for u in access.result.uses]
        targets = {encoding(u.result.type) for u in users if isinstance(u, ttg.ConvertLayoutOp)}
        if users and len(targets) == 1 and all(isinstance(u, ttg.ConvertLayoutOp) for u in users):
            return targets.pop()
        return encoding(access.result.type)
    if isinstance(access, tt.StoreOp):
        src = access.value.owner
        if isinstance(src, ttg.ConvertLayoutOp):
            return encoding(src.src.type)
        return encoding(access.value.type)
    return None  # prefetch follows the pointer


def anchor_block_pointers(module: ModuleOp) -> int:
    """Retype block-pointer families to the layout their loads/stores are converted to.

    Intel's rule: a 2D block access can produce (or consume) any layout, so the
    pointer takes the layout its users want and the conversions become no-ops.
    """
    changed = 0
    for root in [o for o in module.walk() if isinstance(o, tt.MakeTensorPtrOp)]:
        fam = collect_family(root)
        wanted = {_wanted_layout(a) for a in fam.accesses} - {None}
        block = root.result.type.pointee  # type: ignore[union-attr]
        if fam.unsupported is not None or len(wanted) != 1 or not isinstance(block, TensorType):
            continue
        layout = wanted.pop()
        if layout == encoding(block) or layout is None:
            continue
        _retype_family(fam, layout)
        for access in fam.accesses:
            if isinstance(access, tt.LoadOp):
                Rewriter.replace_value_with_new_type(access.result, with_encoding(access.result.type, layout))
            elif isinstance(access, tt.StoreOp) and isinstance(access.value.owner, ttg.ConvertLayoutOp):
                cvt = access.value.owner
                access.operands[1] = cvt.src
                if not cvt.result.uses:
                    Rewriter.erase_op(cvt)
        changed += 1
    return changed


@register
@dataclass(frozen=True)
class RemoveLayoutConversions(XpuPass):
    name = "tritonintelgpu-remove-layout-conversions"
    summary = "remove ttg.convert_layout by recomputing values in the target layout (DPAS epilogues)"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        anchor_block_pointers(op)
        tried: set[Operation] = set()
        while True:
            pending = [c for c in op.walk() if isinstance(c, ttg.ConvertLayoutOp) and c not in tried]
            if not pending:
                break
            for cvt in pending:
                tried.add(cvt)
                if cvt.parent is None:
                    continue
                if fold(cvt):
                    continue
                self._rematerialize(cvt)
        for cvt in [c for c in op.walk() if isinstance(c, ttg.ConvertLayoutOp)]:
            if not cvt.result.uses:  # left dead by the rewrites above
                Rewriter.erase_op(cvt)

    def _rematerialize(self, cvt: ttg.ConvertLayoutOp) -> bool:
        target = encoding(cvt.result.type)
        s = Slice()
        if target is None or not _collect(cvt.src, target, s):
            self.remark(cvt, f"kept: {s.why or 'no target layout'}")
            return False
        cost = _boundary_cost(s)
        if cost >= numel(cvt.result.type):
            self.remark(cvt, f"kept: recomputing would convert {cost} elements to save {numel(cvt.result.type)}")
            return False
        _materialize(cvt, s)
        return True
