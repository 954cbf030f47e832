"""The rewrite: an scf.for over the rows of the reduced axis, each iteration computing one row of
the tile and combining its reduction into the accumulator."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import to_linear
from xpu_passes.layouts.linear import LinearLayout
from xpu_passes.transforms.slice_epilogue.cut import Builder, Cut, splat, tensor_of
from xpu_passes.transforms.slice_reduction.find import Sliced


def part_type(t: Attribute, e: int, n: int = 1) -> TensorType:
    """Tensor type `t` with `n` elements along dim `e`."""
    assert isinstance(t, TensorType)
    shape = list(t.get_shape())
    shape[e] = n
    return TensorType(t.element_type, shape, t.encoding)


def constant(t: Attribute, value: float | int) -> arith.ConstantOp:
    """`value` as a scalar of type `t`, or splat over tensor type `t`."""
    if isinstance(t, TensorType):
        n = 1
        for s in t.get_shape():
            n *= s
        return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [value] * n), t)
    if isinstance(value, float):
        return arith.ConstantOp(FloatAttr(value, t))  # type: ignore[arg-type]
    return arith.ConstantOp(IntegerAttr(value, t))  # type: ignore[arg-type]


Body = Builder  # appends ops to a block at a location (slice_epilogue's)


def part_op(b: Body, op: Operation, row: SSAValue, out: dict[SSAValue, SSAValue], t: TensorType) -> SSAValue:
    """`op` computed on a part of its rows (`row`: the first one's index along the sliced dim), result type `t`."""
    if isinstance(op, tt.MakeRangeOp):  # rows [row, row + n) of [start, end): start + row + [0, n)
        start = op.start.value.data
        at = row if start == 0 else b.add(arith.AddiOp(row, b.add(constant(i32, start))), op.location)
        first = b.add(tt.SplatOp.build(operands=[at], result_types=[t]), op.location)
        n = t.get_shape()[0]
        if n == 1:
            return first
        prop = {"start": IntegerAttr(0, i32), "end": IntegerAttr(n, i32)}
        rng = b.add(tt.MakeRangeOp.create(result_types=[t], properties=prop), op.location)
        return b.add(arith.AddiOp(first, rng), op.location)
    if op.name == "arith.constant":
        value = splat(op.results[0])
        assert value is not None
        return b.add(constant(t, value.get_values()[0]), op.location)
    if isinstance(op, tt.BroadcastOp) and out.get(op.operands[0], op.operands[0]).type == t:
        return out.get(op.operands[0], op.operands[0])  # (a broadcast along the sliced axis only)
    new = type(op).create(operands=[out.get(v, v) for v in op.operands], result_types=[t],
                          properties=dict(op.properties), attributes=dict(op.attributes))  # fmt: skip
    return b.add(new, op.location)


def _rows(b: Body, v: SSAValue, d: int) -> list[SSAValue]:
    """The rows of `v` along dim `d` (held in registers), in order: cuts on its register bits (no data moved)."""
    t = v.type
    assert isinstance(t, TensorType)
    if t.get_shape()[d] == 1:
        return [v]
    ll = to_linear(t.encoding, t.get_shape())
    v = b.add(ttg.ConvertLayoutOp.build(operands=[v], result_types=[tensor_of(t.element_type, ll)]))

    def split(v: SSAValue, ll: LinearLayout) -> list[SSAValue]:
        top = max((x for x in ll.register if x[d]), default=None, key=lambda x: x[d])
        if top is None:
            return [v]
        cut = Cut.on(ll, ll.register.index(top))
        lo, hi = cut.split(b, v)  # type: ignore[arg-type]
        return split(lo, cut.half) + split(hi, cut.half)

    return split(v, ll)


def rewrite(s: Sliced) -> None:
    red = s.reduce
    loc = red.location
    at = InsertPoint.before(red)
    rt = red.results[0].type
    bounds = []
    for v in (0, s.rows, s.per_iter):
        c = constant(i32, v)
        c.location = loc
        Rewriter.insert_op(c, at)
        bounds.append(c.results[0])
    init = constant(rt, s.identity)
    init.location = loc
    Rewriter.insert_op(init, at)
    body = Block(arg_types=[i32, rt])
    row, acc = body.args
    b = Body(body, loc)
    out: dict[SSAValue, SSAValue] = {}
    for op in s.ops:
        r = op.results[0]
        out[r] = part_op(b, op, row, out, part_type(r.type, s.dims[r], s.per_iter))
    src = red.srcs[0]
    one_row = part_type(src.type, s.dims[src])
    for part in _rows(b, out[src], s.dims[src]):  # the iteration's rows, in order
        if part.type != one_row:
            part = b.add(ttg.ConvertLayoutOp.build(operands=[part], result_types=[one_row]), loc)
        red1 = red.clone()
        red1.operands[0] = part
        part = b.add(red1, loc)
        pair = [part, acc] if s.swapped else [acc, part]
        c = s.combine
        acc = b.add(type(c).create(operands=pair, result_types=[rt], properties=dict(c.properties),
                                   attributes=dict(c.attributes)), c.location)  # fmt: skip
    body.add_op(scf.YieldOp(body.last_op.results[0]))  # type: ignore[union-attr]
    body.last_op.location = loc  # type: ignore[union-attr]
    loop = scf.ForOp(bounds[0], bounds[1], bounds[2], [init.results[0]], [body])
    loop.location = loc
    Rewriter.insert_op(loop, at)
    red.results[0].replace_all_uses_with(loop.results[0])
    Rewriter.erase_op(red)
    for op in reversed(s.ops):  # (an index tensor also used elsewhere stays for that use)
        if not op.results[0].uses:
            Rewriter.erase_op(op)
