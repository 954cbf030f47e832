"""The rewrite: an scf.for over the rows of the reduced axis, each iteration computing one row of
the tile and combining its reduction into the accumulator."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import tt
from xpu_passes.transforms.slice_epilogue.cut import splat
from xpu_passes.transforms.slice_reduction.find import Sliced


def _row_type(t: Attribute, e: int) -> TensorType:
    assert isinstance(t, TensorType)
    shape = list(t.get_shape())
    shape[e] = 1
    return TensorType(t.element_type, shape, t.encoding)


def _constant(t: Attribute, value: float | int) -> arith.ConstantOp:
    """`value` as a scalar of type `t`, or splat over tensor type `t`."""
    if isinstance(t, TensorType):
        n = 1
        for s in t.get_shape():
            n *= s
        return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [value] * n), t)
    if isinstance(value, float):
        return arith.ConstantOp(FloatAttr(value, t))  # type: ignore[arg-type]
    return arith.ConstantOp(IntegerAttr(value, t))  # type: ignore[arg-type]


class _Body:
    def __init__(self, block: Block, loc: Attribute) -> None:
        self.block, self.loc = block, loc

    def add(self, op: Operation, loc: Attribute | None = None) -> SSAValue:
        op.location = loc or self.loc
        self.block.add_op(op)
        return op.results[0]


def _row_op(b: _Body, op: Operation, row: SSAValue, out: dict[SSAValue, SSAValue], t: TensorType) -> SSAValue:
    """`op` computed on one row (`row`: its index along the reduced axis), result type `t`."""
    if isinstance(op, tt.MakeRangeOp):  # row `row` of [start, end): the one value start + row
        start = op.start.value.data
        at = row if start == 0 else b.add(arith.AddiOp(row, b.add(_constant(i32, start))), op.location)
        return b.add(tt.SplatOp.build(operands=[at], result_types=[t]), op.location)
    if op.name == "arith.constant":
        value = splat(op.results[0])
        assert value is not None
        return b.add(_constant(t, value.get_values()[0]), op.location)
    if isinstance(op, tt.BroadcastOp) and out.get(op.operands[0], op.operands[0]).type == t:
        return out.get(op.operands[0], op.operands[0])  # (a broadcast along the sliced axis only)
    new = type(op).create(operands=[out.get(v, v) for v in op.operands], result_types=[t],
                          properties=dict(op.properties), attributes=dict(op.attributes))  # fmt: skip
    return b.add(new, op.location)


def rewrite(s: Sliced) -> None:
    red = s.reduce
    loc = red.location
    at = InsertPoint.before(red)
    rt = red.results[0].type
    bounds = []
    for v in (0, s.rows, 1):
        c = _constant(i32, v)
        c.location = loc
        Rewriter.insert_op(c, at)
        bounds.append(c.results[0])
    init = _constant(rt, s.identity)
    init.location = loc
    Rewriter.insert_op(init, at)
    body = Block(arg_types=[i32, rt])
    row, acc = body.args
    b = _Body(body, loc)
    out: dict[SSAValue, SSAValue] = {}
    for op in s.ops:
        r = op.results[0]
        out[r] = _row_op(b, op, row, out, _row_type(r.type, s.dims[r]))
    one = red.clone()
    one.operands[0] = out[red.srcs[0]]
    part = b.add(one, loc)
    pair = [part, acc] if s.swapped else [acc, part]
    c = s.combine
    b.add(type(c).create(operands=pair, result_types=[rt], properties=dict(c.properties),
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
