"""What -xpu-slice-reduction rewrites: a reduction along an axis each thread holds in registers,
and the tile it reduces, recomputed one row at a time (or why not)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError, to_linear
from xpu_passes.layouts.linear import LinearLayout
from xpu_passes.transforms.slice_epilogue.cut import splat
from xpu_passes.transforms.slice_epilogue.find import moves_past, reads_only

# Combine ops with an identity e (combine(e, x) == x bit for bit, NaNs and signed zeros included):
# the loop starts from it, so the first row is combined exactly as the fold's first element.
# (maxnumf/minnumf have none: their only candidate, NaN, changes an all-NaN result's payload.)
_FLOAT_IDENTITY = {"arith.addf": -0.0, "arith.mulf": 1.0, "arith.maximumf": -math.inf, "arith.minimumf": math.inf}
_INT_IDENTITY = {"arith.addi": lambda w: 0, "arith.muli": lambda w: 1, "arith.ori": lambda w: 0,
                 "arith.xori": lambda w: 0, "arith.andi": lambda w: -1, "arith.maxsi": lambda w: -(1 << (w - 1)),
                 "arith.minsi": lambda w: (1 << (w - 1)) - 1, "arith.maxui": lambda w: 0,
                 "arith.minui": lambda w: -1}  # fmt: skip

# Ops that compute each element from the same element of their operands (same shape).
_ELEMENTWISE_TT = frozenset({"tt.addptr", "tt.fp_to_fp", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int",
                             "tt.clampf", "tt.precise_sqrt", "tt.precise_divf", "tt.mulhiui",
                             "ttg.convert_layout"})  # fmt: skip
_LAYOUTS = (ttg.BlockedEncodingAttr, ttg.SliceEncodingAttr)


@dataclass(frozen=True)
class Sliced:
    """A reduction to compute row by row."""

    reduce: tt.ReduceOp
    combine: Operation  # the single op of its combine region
    swapped: bool  # the region combines (new, acc) rather than (acc, new)
    identity: float | int
    ops: list[Operation]  # the ops computing the reduced tile, in block order (each result sliced)
    dims: dict[SSAValue, int]  # a sliced value -> its dim that runs along the reduced axis
    rows: int  # the reduced axis' length
    per_iter: int = 1  # rows computed per iteration (then folded one by one)


def identity_of(op: Operation, elem: Attribute) -> float | int | None:
    if isinstance(elem, (Float16Type, Float32Type, Float64Type)):
        return _FLOAT_IDENTITY.get(op.name)
    if isinstance(elem, IntegerType) and op.name in _INT_IDENTITY:
        return _INT_IDENTITY[op.name](elem.width.data)
    return None


def per_thread(shape: tuple[int, ...], ll: LinearLayout) -> int:
    """The tile's elements over the threads: its registers per thread when no register repeats one
    (what `large_reduction` reads from the text to skip a module without such a tile)."""
    return math.prod(shape) // (ll.num("lane") * ll.num("warp") * ll.num("block"))


# A region op's type list (tt.reduce / tt.scan print `}) : (tensor<AxBx...>) -> ...`): its first operand's shape.
_REGION_OPERAND = re.compile(r"^\s*\}\) : \(tensor<((?:\d+x)+)", re.M)
_WARPS = re.compile(r'"ttg\.num-warps" = (\d+)')
_LANES = re.compile(r'"ttg\.threads-per-warp" = (\d+)')


def large_reduction(text: str, min_per_thread: int) -> bool:
    """Whether a module's print has a tt.reduce (or scan) of a tensor with at least `min_per_thread`
    elements per thread (`per_thread`, read from the text: a pipeline skips the round trip without one)."""
    warps, lanes = _WARPS.search(text), _LANES.search(text)
    threads = int(warps.group(1)) * int(lanes.group(1)) if warps and lanes else 1
    return any(math.prod(int(n) for n in m.group(1)[:-1].split("x")) // threads >= min_per_thread
               for m in _REGION_OPERAND.finditer(text))  # fmt: skip


def _combine(red: tt.ReduceOp) -> tuple[Operation, bool] | str:
    block = red.combineOp.blocks.first
    assert block is not None
    ops = list(block.ops)
    if len(ops) != 2 or not isinstance(ops[1], tt.ReduceReturnOp):
        return "its combine region is not a single op"
    op, args = ops[0], list(block.args)
    if list(ops[1].operands) != [op.results[0]] or len(op.operands) != 2 or set(op.operands) != set(args):
        return "its combine region is not a single op of its two arguments"
    return op, op.operands[0] is args[1]


def _axis_in_registers(ll: LinearLayout, d: int) -> str | None:
    """Why the lowering's fold along `d` is not one thread's sequential fold in row order, if it is not."""
    if any(b[d] for b in (*ll.lane, *ll.warp, *ll.block)):
        return "lanes or warps share the reduced axis (their fold is a tree, not a row order)"
    along = [b[d] for b in ll.register if b[d]]
    if any(not any(b) for b in ll.register) or any(b[d] and any(b[:d] + b[d + 1:]) for b in ll.register) \
            or along != sorted(along):  # fmt: skip
        return "the registers do not hold the reduced axis in row order"
    return None


def _sliced_operands(op: Operation, e: int) -> list[tuple[SSAValue, int | None]] | str:
    """The operands of `op` (its result sliced on dim `e`) with the dim each is sliced on (None: used whole)."""
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    if isinstance(op, tt.BroadcastOp):
        src = op.operands[0]
        return [(src, e if src.type.get_shape()[e] == shape[e] else None)]  # type: ignore[attr-defined]
    if isinstance(op, tt.ExpandDimsOp):
        a = op.axis.value.data
        return [(op.operands[0], e if e < a else e - 1)]
    if isinstance(op, tt.TransOp):
        return [(op.operands[0], list(op.order.get_values())[e])]
    if isinstance(op, tt.ReshapeOp):
        src = op.operands[0].type.get_shape()  # type: ignore[attr-defined]
        big = [i for i, n in enumerate(src) if n > 1]
        if [src[i] for i in big] != [n for n in shape if n > 1]:
            return "a tt.reshape that does more than add or drop unit dims"
        return [(op.operands[0], big[[i for i, n in enumerate(shape) if n > 1].index(e)])]
    if isinstance(op, (tt.SplatOp, tt.MakeRangeOp)):
        return []
    if op.name == "arith.constant":
        if splat(op.results[0]) is None:
            return "a constant tile that is not a splat"
        return []
    if isinstance(op, tt.LoadOp):
        if not isinstance(op.ptr.type, TensorType) or op.boundaryCheck is not None:
            return "a load through a block pointer"
        if not reads_only(op):
            return "a volatile load"
    elif not ((op.name.startswith(("arith.", "math.")) and not op.regions) or op.name in _ELEMENTWISE_TT):
        return f"{op.name} computes the reduced tile (not an elementwise or placing op)"
    return [(v, e if isinstance(v.type, TensorType) else None) for v in op.operands]


def too_small(red: tt.ReduceOp, min_registers: int) -> str | None:
    """Why a reduction is too small for either rule (`find`, `find_chunks`): its tile's elements per
    thread below `min_registers` (None for a layout not modelled: each rule says so itself)."""
    t = red.srcs[0].type
    assert isinstance(t, TensorType)
    try:
        per = per_thread(t.get_shape(), to_linear(t.encoding, t.get_shape()))
    except LayoutError:
        return None
    return f"{per} elements per thread (< min-registers={min_registers})" if per < min_registers else None


def find(red: tt.ReduceOp, chunk_registers: int = 1) -> Sliced | str:
    """The reduction's slicing plan, or why it is left alone (`too_small` is asked first)."""
    if len(red.srcs) != 1:
        return "a reduction of several tensors"
    src = red.srcs[0]
    t = src.type
    assert isinstance(t, TensorType)
    d = red.axis.value.data
    rows = t.get_shape()[d]
    if rows < 2:
        return "nothing to slice (one row)"
    got = _combine(red)
    if isinstance(got, str):
        return got
    combine, swapped = got
    identity = identity_of(combine, t.element_type)
    if identity is None:
        return f"{combine.name} on {t.element_type} has no exact identity to start the fold from"
    try:
        ll = to_linear(t.encoding, t.get_shape())
    except LayoutError as e:
        return f"layout not modelled ({e})"
    if (why := _axis_in_registers(ll, d)) is not None:
        return why
    regs = ll.num("register")
    got3 = tile(red, d)
    if isinstance(got3, str):
        return got3
    ops, dims = got3
    per_iter = 1  # (a power of two: the reduced axis' rows are the registers' bits 1, 2, 4, ...)
    while per_iter < rows and regs // rows * per_iter * 2 <= chunk_registers:
        per_iter *= 2
    return Sliced(red, combine, swapped, identity, ops, dims, rows, per_iter)


def tile(red: tt.ReduceOp, e: int) -> tuple[list[Operation], dict[SSAValue, int]] | str:
    """The ops computing the reduced tile (block order), each result's dim along the tile's dim `e`,
    when every one of them can be computed on a part of that dim alone (or why not)."""
    src = red.srcs[0]
    rows = src.type.get_shape()[e]  # type: ignore[attr-defined]
    block = red.parent_block()
    dims: dict[SSAValue, int] = {src: e}
    inside: set[Operation] = set()
    work = [src]
    while work:
        v = work.pop()
        op, f0 = v.owner, dims[v]
        if not isinstance(op, Operation) or op.parent_block() is not block:
            return "the reduced tile comes from outside the reduction's block"
        if not isinstance(v.type.encoding, _LAYOUTS):  # type: ignore[attr-defined]
            return f"a tensor of the tile has a layout other than blocked ({v.type})"
        if op in inside:
            continue
        if len(op.results) != 1:
            return f"{op.name} has several results"
        got2 = _sliced_operands(op, f0)
        if isinstance(got2, str):
            return got2
        inside.add(op)
        for w, f in got2:
            if f is None:
                continue
            if w.type.get_shape()[f] != rows:  # type: ignore[attr-defined]
                return "a tensor of the tile has another length along the sliced axis"
            if dims.setdefault(w, f) != f:
                return "a tensor of the tile is sliced along two of its dims"
            work.append(w)
    # Ops used elsewhere stay for those uses (the loop recomputes its rows); none may need a load.
    stay = [op for op in inside if any(u.operation is not red and u.operation not in inside
                                       for u in op.results[0].uses)]  # fmt: skip
    seen: set[Operation] = set()
    while stay:
        op = stay.pop()
        if op in seen:
            continue
        seen.add(op)
        if isinstance(op, tt.LoadOp):
            return "a loaded tensor of the tile is used elsewhere: it would be loaded twice and stay whole"
        stay += [v.owner for v in op.operands if v.owner in inside]
    ops = [op for op in block.ops if op in inside]
    # the tile's loads move down to the reduction: past reads, not past an op that may write memory
    first = next((op for op in ops if isinstance(op, tt.LoadOp)), None)
    if first is not None and (why := moves_past(first, red, inside, "the tile", past_reads=True)) is not None:
        return why
    if not any(isinstance(op, tt.LoadOp) for op in ops):
        return "the tile loads nothing (nothing to gain)"
    return ops, dims
