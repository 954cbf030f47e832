"""The second rule: a reduction whose fold lanes share, computed in chunks of another (kept) dim.

Each element of the result folds the elements of its own row along the reduced axis, and how the
lowering folds them (registers in order, then lanes, then warps) depends only on how the layout
lays out the reduced axis, which a chunk of rows of a blocked layout lays out alike. So the tile
and its reduction are computed chunk by chunk (straight-line code, each chunk from the ops that
make the tile, as the loop of the first rule does per row) and the reduced chunks joined back
on the result's register bits (`slice_epilogue.cut`: tt.join / tt.trans / tt.reshape, which move
no data). Everything after the reduction is unchanged, so no store moves: the tile's loads still
come before every write they came before.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType, i32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError, to_linear
from xpu_passes.layouts.linear import IN_DIMS, LinearLayout
from xpu_passes.transforms.slice_epilogue.cut import Cut, tensor_of
from xpu_passes.transforms.slice_reduction.find import tile
from xpu_passes.transforms.slice_reduction.rewrite import Body, constant, part_op, part_type


@dataclass(frozen=True)
class Chunked:
    reduce: tt.ReduceOp
    ops: list[Operation]  # the tile's ops, block order
    dims: dict[SSAValue, int]  # a tile value -> its dim along the chunked one
    rows: int  # rows of a chunk
    result_dim: int  # the chunked dim in the result
    bits: list[tuple[int, ...]]  # the result's register bases cut (highest first): one chunk per combination
    whole: LinearLayout  # the result's layout


def _cuttable(ll: LinearLayout, e: int, rows: int) -> list[tuple[int, ...]] | None:
    """The result's register bases holding rows >= `rows` of dim `e` (highest first), when chunks of
    `rows` rows are exactly the combinations of those bits (no other basis reaches that far)."""
    n = ll.shape[e]
    want = []
    r = n // 2
    while r >= rows:
        want.append(tuple(r if i == e else 0 for i in range(len(ll.shape))))
        r //= 2
    if any(w not in ll.register for w in want):
        return None
    others = [b for d in IN_DIMS for b in ll.bases(d) if b not in want]
    return None if any(b[e] >= rows for b in others) else want


def find_chunks(red: tt.ReduceOp, chunk_registers: int) -> Chunked | str:
    """The reduction's chunks along the kept dim that makes them smallest (down to `chunk_registers`
    per thread), or why there are none (`find.too_small` is asked first)."""
    t = red.srcs[0].type
    rt = red.results[0].type
    if not isinstance(rt, TensorType):
        return "in chunks: the result is a scalar (no other dim to chunk)"
    assert isinstance(t, TensorType)
    d = red.axis.value.data
    shape = t.get_shape()
    try:
        ll = to_linear(t.encoding, shape)
        whole = to_linear(rt.encoding, rt.get_shape())
    except LayoutError as e:
        return f"in chunks: layout not modelled ({e})"
    regs = ll.num("register")
    best: tuple[int, int, list[tuple[int, ...]], int] | None = None  # (registers, -rows, bits, dim)
    for e in (i for i in range(len(shape)) if i != d and shape[i] > 1):
        er = e if e < d else e - 1
        rows = shape[e] // 2
        while rows >= 1:
            bits = _cuttable(whole, er, rows)
            if bits is None:
                break
            part = to_linear(t.encoding, part_type(t, e, rows).get_shape()).num("register")
            if best is None or (part, -rows) < best[:2]:
                best = (part, -rows, bits, e)
            if part <= chunk_registers:
                break
            rows //= 2
    if best is None:
        return "in chunks: no kept dim of the result is split on register bits alone"
    part, rows, bits, e = best[0], -best[1], best[2], best[3]
    if part >= regs:
        return "in chunks: a chunk would hold as many registers as the tile"
    er = e if e < d else e - 1
    small = to_linear(rt.encoding, part_type(rt, er, rows).get_shape())
    if (small.lane, small.warp, small.block) != (whole.lane, whole.warp, whole.block):
        return "in chunks: a reduced chunk's threads would hold other rows than the whole's (a join would move data)"
    got = tile(red, e)
    if isinstance(got, str):
        return f"in chunks: {got}"
    ops, dims = got
    return Chunked(red, ops, dims, rows, er, bits, whole)


def rewrite_chunks(c: Chunked) -> None:
    """Each chunk computed and reduced before the reduction, the reduced chunks joined in its place."""
    red = c.reduce
    loc = red.location
    rt = red.results[0].type
    assert isinstance(rt, TensorType)

    class _At(Body):
        """Adds each op right before the reduction."""

        def add(self, op: Operation, loc2: object = None) -> SSAValue:  # type: ignore[override]
            op.location = loc2 or loc
            Rewriter.insert_op(op, InsertPoint.before(red))
            return op.results[0]

    b = _At(Block(), loc)

    def chunk(start: int) -> SSAValue:
        row = b.add(constant(i32, start))
        out: dict[SSAValue, SSAValue] = {}
        for op in c.ops:
            r = op.results[0]
            out[r] = part_op(b, op, row, out, part_type(r.type, c.dims[r], c.rows))
        src = out[red.srcs[0]]
        part = part_type(rt, c.result_dim, c.rows)
        return b.add(tt.ReduceOp.create(operands=[src], result_types=[part], properties=dict(red.properties),
                                        attributes=dict(red.attributes), regions=[red.regions[0].clone()]))

    def build(ll: LinearLayout, bits: list[tuple[int, ...]], start: int) -> SSAValue:
        if not bits:
            v = chunk(start)
            want = tensor_of(rt.element_type, ll)
            return v if v.type == want else b.add(ttg.ConvertLayoutOp.build(operands=[v], result_types=[want]))
        cut = Cut.on(ll, ll.register.index(bits[0]))
        kept = [i for i in range(len(ll.register)) if ll.register[i] != bits[0]]
        rest = [cut.half.register[kept.index(ll.register.index(x))] for x in bits[1:]]
        step = max(bits[0])
        lo, hi = build(cut.half, rest, start), build(cut.half, rest, start + step)
        return cut.join(b, lo, hi)  # type: ignore[arg-type]

    joined = build(c.whole, list(c.bits), 0)
    back = b.add(ttg.ConvertLayoutOp.build(operands=[joined], result_types=[rt]))
    red.results[0].replace_all_uses_with(back)
    Rewriter.erase_op(red)
    for op in reversed(c.ops):
        if not op.results[0].uses:
            Rewriter.erase_op(op)
