"""-xpu-split-fma-dots: a `tt.dot` lowered to FMAs computed over K in chunks that fit the registers.

A dot whose result is in a blocked layout (fp32 operands without tf32 on PVC: no DPAS) is lowered by
triton-xpu to FMAs, each lane holding all of its rows of A and all of its columns of B over the whole
K at once; 3.3 has already staged both operands in SLM (`ttg.local_alloc` + `ttg.local_load`, from
reduce-data-duplication). fla's `chunk_local_cumsum_vector_kernel` (A 64x64, B 64x32, 2 warps of 32
lanes) holds 8x64 + 64x4 + the 8x4 accumulator floats per lane: 26,624 spill bytes. Loading K chunks
of the staged operands (`ttg.memdesc_subview`) and chaining one dot per chunk, the next one
accumulating on the previous result, keeps one chunk live. The FMA lowering
(`parametricConvertFMADot`) accumulates each output element over k in order, one FMA per k, so the
chain, in K order, computes the same FMAs in the same order: the same values.

The chunk is the largest power of two dividing K whose A and B chunks and accumulator take at most
`max-live-bytes` per lane (Intel's per-thread estimate, `estimatePerThreadBytes`); measured at the ISA
on the cumsum kernel (K 64), chunk -> instructions / spill bytes: w2 native 5,576 / 26,624, 32 (Intel
main's StageLargeFMADotsViaSLM tile) 7,075 / 32,384, 16 6,214 / 14,336, 8 4,013 / 5,504, **4** (320 B
per lane) 3,473 / 0, 2 3,760 / 0; w8 native 1,935 / 19,456, 16 1,411 / 2,048, **8** (224 B) 1,522 / 0,
4 1,259 / 0. Left alone, with a remark: an operand that is not the only use of a whole rank-2 staged
immutable buffer's load (the chunks are read at the dot, not where the whole was).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, ModuleOp, TensorType, UnitAttr, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects.ttg.types import MemDescType
from xpu_passes.layouts.scratch import element_bytes
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register, within_budget


def estimate_per_thread_bytes(dot: tt.DotOp, k: int) -> int:
    """Intel's estimatePerThreadBytes with K = `k`: bytes a lane holds of A (its rows x k), B (k x its
    columns) and the accumulator, for a result in a blocked layout."""
    a, r = dot.a.type, dot.d.type
    enc = r.encoding  # type: ignore[attr-defined]
    m, n = r.get_shape()[-2:]  # type: ignore[attr-defined]
    spt, tpw, wpc = enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta
    m_reps = max(1, m // (spt[-2] * tpw[-2] * wpc[-2]))
    n_reps = max(1, n // (spt[-1] * tpw[-1] * wpc[-1]))
    rows, cols = m_reps * spt[-2], n_reps * spt[-1]
    return (rows * k + k * cols) * element_bytes(a.element_type) + rows * cols * element_bytes(r.element_type)  # type: ignore[arg-type]


def k_chunk(dot: tt.DotOp, budget: int) -> int:
    """The largest power of two dividing K whose chunk fits `budget` bytes per lane (1 at least)."""
    k = dot.a.type.get_shape()[-1]  # type: ignore[attr-defined]
    chunk = 1 << (k.bit_length() - 1)
    while chunk > 1 and (k % chunk or estimate_per_thread_bytes(dot, chunk) > budget):
        chunk >>= 1
    return chunk


def staged(v: SSAValue) -> tuple[ttg.LocalLoadOp, MemDescType] | str:
    """The local_load `v` comes from and its whole rank-2 buffer's type, or why not."""
    load = v.owner
    if not isinstance(load, ttg.LocalLoadOp) or load.token is not None:
        return "an operand not loaded from SLM"
    mt = load.src.type
    assert isinstance(mt, MemDescType)
    if isinstance(mt.mutable, UnitAttr):  # (a write between the load and the dot would change what the chunks read)
        return "an operand loaded from a mutable buffer"
    if len(mt.get_shape()) != 2 or (mt.alloc_shape.data and mt.alloc_shape != mt.shape):
        return "an operand loaded from a part of a buffer or one of rank > 2"
    if not v.has_one_use():
        return "an operand load with another use"
    return load, mt


def _sub_type(mt: MemDescType, shape: list[int]) -> MemDescType:
    return MemDescType(ArrayAttr(IntAttr(d) for d in shape), mt.element_type, mt.encoding, mt.memory_space,
                       mt.mutable, mt.shape)


def split(dot: tt.DotOp, chunk: int) -> None:
    """`dot` as a chain of dots over K chunks of its staged operands, in K order."""
    (la, ma), (lb, mb) = staged(dot.a), staged(dot.b)  # type: ignore[misc]
    at, bt = dot.a.type, dot.b.type
    m, k = at.get_shape()  # type: ignore[attr-defined]
    n = bt.get_shape()[1]  # type: ignore[attr-defined]
    loc = dot.location
    here = InsertPoint.before(dot)

    def add(op: Operation) -> SSAValue:
        op.location = loc
        Rewriter.insert_op(op, here)
        return op.results[0]

    zero = add(arith.ConstantOp(IntegerAttr(0, i32)))
    acc = dot.c
    for i in range(k // chunk):
        at_k = zero if i == 0 else add(arith.ConstantOp(IntegerAttr(i * chunk, i32)))
        sa = add(ttg.MemDescSubviewOp.create(operands=[la.src, zero, at_k], result_types=[_sub_type(ma, [m, chunk])]))
        sb = add(ttg.MemDescSubviewOp.create(operands=[lb.src, at_k, zero], result_types=[_sub_type(mb, [chunk, n])]))
        a = add(ttg.LocalLoadOp.create(operands=[sa], result_types=[TensorType(at.element_type, [m, chunk], at.encoding)],  # type: ignore[attr-defined]
                                       attributes=dict(la.attributes)))
        b = add(ttg.LocalLoadOp.create(operands=[sb], result_types=[TensorType(bt.element_type, [chunk, n], bt.encoding)],  # type: ignore[attr-defined]
                                       attributes=dict(lb.attributes)))
        acc = add(tt.DotOp.create(operands=[a, b, acc], result_types=[dot.d.type], properties=dict(dot.properties),
                                  attributes=dict(dot.attributes)))
    dot.d.replace_all_uses_with(acc)
    Rewriter.erase_op(dot)
    Rewriter.erase_op(la)
    Rewriter.erase_op(lb)


@register
@dataclass(frozen=True)
class SplitFmaDots(XpuPass):
    name = "xpu-split-fma-dots"
    summary = "a dot lowered to FMAs computed over K chunks of its SLM-staged operands that fit the registers"

    # Bytes per lane a K chunk's A and B parts and the accumulator may take (measured: docstring).
    max_live_bytes: int = 320
    # Work units (ops walked) per op of the input; 0: unbounded. Past it the input is kept.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        # 1. The FMA dots (a blocked result) over more than the budget, with their K chunk.
        chosen = within_budget(self, op, ops, self.max_work_per_op, self._choose)
        if chosen is None:
            return
        # 2. Each as a chain of dots over its K chunks, in K order.
        for dot, chunk in chosen:
            split(dot, chunk)
        if not chosen:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> list[tuple[tt.DotOp, int]]:
        budget.spend(len(ops))
        chosen = []
        for o in ops:
            if not isinstance(o, tt.DotOp) or not isinstance(o.d.type.encoding, ttg.BlockedEncodingAttr):  # type: ignore[attr-defined]
                continue
            budget.spend(1)  # (a dot: its operands looked at)
            k = o.a.type.get_shape()[-1]  # type: ignore[attr-defined]
            if estimate_per_thread_bytes(o, k) <= self.max_live_bytes:
                continue
            why = next((s for s in (staged(o.a), staged(o.b)) if isinstance(s, str)), None)
            if why is not None:
                self.remark(o, f"FMA dot over {k} kept whole: {why}")
                continue
            chunk = k_chunk(o, self.max_live_bytes)
            if chunk < k:
                self.remark(o, f"split: K {k} in chunks of {chunk} "
                               f"({estimate_per_thread_bytes(o, chunk)} bytes per lane, not {estimate_per_thread_bytes(o, k)})")
                chosen.append((o, chunk))
        return chosen
