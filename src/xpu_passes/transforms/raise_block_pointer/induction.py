"""Dot data read in a loop through pointers made from the loop's induction variable (`wide-positions`).

flag_gems' `mm_kernel_general` reads `a_ptr + ram[:, None] * stride_am + (k + rk)[None, :]` in its K loop:
a tile of pointers made anew every iteration from `k`. Raised as it stands, a block pointer is made in
every iteration, and triton-xpu 3.3's matmul pipeliner asserts on it (`Index < this->size()`); carried by
the loop (made before it, `tt.advance`d before the yield) it is the form the pipeliner takes (bmm's,
gemlite's). So such an access is planned as carried (`Plan.induction`, built by `carry_plans`)
when its position moves along one dim as `x0 + c * iv` (c > 0, a positive constant step) and nothing else
it needs changes in the loop; the shape of a dim no mask bounds is then the last position the loop
reaches (`reach`). Anything else is raised as without the option (a block pointer made at the access).

Whether a function takes this at all is `fits_registers`: its tt.dot operands, read as 2D blocks in the
DPAS operand layouts, stay in registers where native streams them from SLM, so (1) they must fit the large
register file beside the accumulator, and (2) without the compile's `grf_mode=large` what the loop keeps live
(accumulator, A and B per warp) must not sit at the edge of the default 128-register file, where IGC spills a
few hundred bytes, under the driver's threshold for its large-GRF rebuild (`GRF_EDGE`).
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint

from xpu_passes.dialects import tt
from xpu_passes.dialects.traits import num_warps
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.pressure import GRF_BYTES, GRF_DEFAULT
from xpu_passes.layouts.scratch import element_bits
from xpu_passes.transforms.raise_block_pointer.build import Builder, erase_dead, make_ptr, rebuild_loop, rewrite_access
from xpu_passes.transforms.raise_block_pointer.facts import defined_outside
from xpu_passes.transforms.raise_block_pointer.plan_types import Access, DimPlan, Plan
from xpu_passes.transforms.raise_block_pointer.poly import ONE, Lin
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Decomposer

# Bytes a warp may hold of one tt.dot's A and B tiles (in its best split of the warps over M and N): half the
# register file in the 256-GRF mode triton-xpu picks for DPAS kernels (256 x 64 B), the other half for the
# accumulator, the prefetches' addresses and the pipelined stages. Measured at the ISA (IGC, PVC) on
# mm_kernel_general: 64x64x64 (4 warps, 8 KB) and 256x128x32 (8 warps, 8 KB) strictly better than native;
# 64x64x128 (8 warps, 12 KB) 0 -> 6,144 spill bytes, 16x64x256 (4 warps, 16 KB) 2,560 -> 22,656.
OPERAND_BYTES_PER_WARP = 8192

# The default register file of a warp (128 GRF x 64 B). A kernel compiled without grf_mode is built with it, and
# rebuilt with 256 GRF by triton-xpu's driver only when that build spills over 1,000 bytes. IGC's spill at 128 GRF
# is the loop's live bytes per warp (accumulator + A + B, `_warp_bytes`) less the file, give or take what it keeps
# beside them: measured on flag_gems mm/bmm raised with wide-positions (IGC, PVC), live 5,120 -> 0 spill bytes,
# 8,192 -> 512 (bmm 64x64x32 and 128x32x32 bf16: kept at 128 GRF, 512 B more than native), 1,536 (fp16) or 4,096
# (mm 16x64x64 w2), 12,288 and over -> 5,632 and over (rebuilt with 256 GRF). So within a quarter of the file
# either side (GRF_EDGE) the build may stay at 128 GRF with a spill native has not: such a function is raised
# as without wide-positions, unless the compile asks for the large file (no rebuild, no edge).
DEFAULT_FILE = GRF_DEFAULT * GRF_BYTES
GRF_EDGE = (DEFAULT_FILE - DEFAULT_FILE // 4, DEFAULT_FILE + DEFAULT_FILE // 4)


def _enclosing_loop(op: Operation) -> scf.ForOp | None:
    o = op.parent_op()
    while o is not None and not isinstance(o, scf.ForOp):
        o = o.parent_op()
    return o


def _fixed_lins(plan: Plan) -> list[Lin]:
    """What a carried plan needs unchanged in the loop: its rest and each dim's stride, shape and hull."""
    return [plan.rest] + [x for dp in plan.dims for x in (dp.stride, dp.shape, dp.hull) if x is not None]


def _step(pos: Lin, iv: SSAValue) -> int | None:
    """c where `pos` moves with `iv` as `x0 + c * iv` (one term holding iv, iv alone, c > 0); else None."""
    moving = [(m, c) for m, c in pos.terms if iv in m]
    if len(moving) != 1 or moving[0][0] != (iv,) or moving[0][1] <= 0:
        return None
    return moving[0][1]


def _at(pos: Lin, iv: SSAValue, c: int, x: Lin) -> Lin:
    """`pos` (`x0 + c * iv`) where iv is `x`: `x0 + c * x`."""
    return pos - Lin.leaf(iv).scale(c) + x.scale(c)


def _positive_step(dec: Decomposer, loop: scf.ForOp) -> bool:
    stp = dec.scalar(loop.step).constant
    return bool(stp) and stp > 0


def reach(dec: Decomposer, op: Access, pos: Lin) -> Lin:
    """The last position of an access whose position moves with its loop's induction variable (`x0 + c * iv`):
    `x0 + c * (ub - 1)`, loop-invariant, so a dim no mask bounds has one shape in every iteration. Else `pos`."""
    loop = _enclosing_loop(op)
    if loop is None:
        return pos
    iv = loop.body.block.args[0]
    c = _step(pos, iv)
    if c is None or not _positive_step(dec, loop):
        return pos
    return _at(pos, iv, c, dec.scalar(loop.ub) - ONE)


def carry_induction(dec: Decomposer, op: Access, plan: Plan) -> None:
    """Sets `plan.induction` where the access's loop can carry its block pointer; else leaves the plan as it is
    (made at the access, as without wide-positions)."""
    loop = op.parent_op()
    if not isinstance(loop, scf.ForOp):
        return
    fixed = {v for x in _fixed_lins(plan) for v in x.leaves()}
    moving = [d for d, dp in enumerate(plan.dims) if not defined_outside(dp.pos.leaves(), loop)]
    if len(moving) != 1 or plan.preds or not _positive_step(dec, loop) or loop.lb.type != i32:
        return
    d = moving[0]
    iv = loop.body.block.args[0]
    c = _step(plan.dims[d].pos, iv)
    if c is None:
        return
    x0 = _at(plan.dims[d].pos, iv, c, Lin.const(0))
    if defined_outside(x0.leaves() | fixed, loop):
        plan.induction = (loop, d, c)


def _warp_bytes(dot: tt.DotOp, warps: int) -> tuple[int, int] | None:
    """(A and B, accumulator) bytes a warp holds in the best split of `warps` over M and N (powers of two) for
    A and B; None: not a 2D dot of known element types."""
    a, b, c = dot.a.type, dot.b.type, dot.c.type
    if not all(isinstance(t, TensorType) for t in (a, b, c)) or len(a.get_shape()) != 2:
        return None
    (m, k), n = a.get_shape(), b.get_shape()[1]
    try:
        width, acc_width = element_bits(a.element_type), element_bits(c.element_type)
    except LayoutError:
        return None
    best: tuple[int, int] | None = None
    wm = 1
    while wm <= warps:
        rows, cols = max(m // wm, 1), max(n // (warps // wm), 1)
        per = ((rows + cols) * k * width // 8, rows * cols * acc_width // 8)
        best = per if best is None or per[0] < best[0] else best
        wm *= 2
    return best


def fits_registers(fn: tt.FuncOp, warps: int = 0, grf_mode: str = "") -> str | None:
    """None when every tt.dot of `fn` keeps its A and B tiles within OPERAND_BYTES_PER_WARP per warp and, unless
    `grf_mode` is "large" (the compile's; "" or "default": none, the driver's rebuild), what its loop keeps live
    clear of GRF_EDGE ("small", "auto": under it); else why not (the function is then raised as without
    wide-positions). `warps`: the compile's, 0: the module's ttg.num-warps."""
    warps = warps or num_warps(fn) or 0
    if not warps:
        return "the number of warps is unknown (no num-warps option, no ttg.num-warps)"
    low, high = GRF_EDGE
    for dot in (o for o in fn.walk() if isinstance(o, tt.DotOp)):
        per = _warp_bytes(dot, warps)
        if per is None or per[0] > OPERAND_BYTES_PER_WARP:
            return (f"a tt.dot's A and B tiles take {per and per[0]} bytes per warp in the DPAS operand layouts (over "
                    f"{OPERAND_BYTES_PER_WARP}): read as 2D blocks they stay in registers and spill")
        live = sum(per)
        if grf_mode == "large" or live <= low:
            continue
        if grf_mode in ("", "default") and live < high:
            return (f"a tt.dot's accumulator, A and B take {live} bytes per warp, at the edge of the "
                    f"{DEFAULT_FILE}-byte register file a kernel without grf_mode is built with ({low} to {high}): "
                    "IGC may spill there under the driver's threshold for its large-GRF rebuild")
        if grf_mode not in ("", "default"):
            return (f"a tt.dot's accumulator, A and B take {live} bytes per warp, over the {low} of the "
                    f"{DEFAULT_FILE}-byte register file that fit with grf_mode={grf_mode} "
                    "(the driver does not rebuild it)")
    return None


def carry_plans(plans: list[Plan]) -> None:
    """Builds the plans with an `induction` (the others: build.apply_plans)."""
    loops: dict[scf.ForOp, list[Plan]] = {}
    for p in plans:  # (by the access's loop now: apply_plans may have rebuilt the planned one)
        loop = p.accesses[0].op.parent_op()
        if p.induction is not None and isinstance(loop, scf.ForOp):
            loops.setdefault(loop, []).append(p)
    dead: list[Operation] = []
    for loop, ps in loops.items():
        dead += _carry(loop, ps)
    erase_dead(dead)


def _carry(loop: scf.ForOp, ps: list[Plan]) -> list[Operation]:
    """Direct accesses whose position moves with the loop's induction variable (Plan.induction): a block pointer
    made before the loop at its first position (iv = lb), carried as a new iter_arg and advanced by `c * step`
    before the yield; the accesses read the carried one. Returns the ops whose operands may now be dead."""
    b = Builder(InsertPoint.before(loop))
    dec = Decomposer()
    lb, step = dec.scalar(loop.lb), dec.scalar(loop.step)
    inits = []
    for p in ps:
        assert p.induction is not None
        planned, d, c = p.induction
        iv = planned.body.block.args[0]  # the value the plan's positions hold (the planned loop's)
        first = [DimPlan(_at(dp.pos, iv, c, lb), dp.stride, dp.adv, dp.extent, dp.shape, dp.hull)
                 if i == d else dp for i, dp in enumerate(p.dims)]
        inits.append(make_ptr(b, replace(p, dims=first)))
    n = len(loop.iter_args)
    new_loop = rebuild_loop(loop, {n + i: v for i, v in enumerate(inits)}, append=True)
    body = new_loop.body.block
    yld = body.last_op
    assert isinstance(yld, scf.YieldOp)
    here = Builder(InsertPoint.before(yld))
    dead: list[Operation] = []
    advs = []
    for i, p in enumerate(ps):
        assert p.induction is not None
        _, d, c = p.induction
        arg = body.args[n + i + 1]
        offs = [here.lin(step.scale(c), i32) if j == d else here.const(0, i32) for j in range(len(p.dims))]
        advs.append(here.add(tt.AdvanceOp.build(operands=[arg, offs], result_types=[arg.type])))
        dead += rewrite_access(p.accesses[0], arg)
    yld.operands = [*yld.operands, *advs]
    return dead
