"""-xpu-narrow-masked-dims: a tile dimension whose indices past K reach no memory, narrowed to K.

A kernel specialized on an extent of 1 (triton-xpu makes an `i32` argument equal to 1 a constant)
but compiled with a block of 16 along it computes 16 columns of which every store keeps one: the
mask `pid * 16 + arange(16) < 1` is false past column 0 whatever the program id. Those columns
cost registers (two loop-carried 512x16 f32 tiles on 4 warps are the whole register file) and are
never seen. Narrowing the dimension, on every value it runs through, to the least power of two
that holds the stored indices keeps every stored value as it was (each index is computed from the
same index of its operands) and drops the rest.

The dimension is followed through the function as a class of (value, dim) pairs (union-find):
elementwise ops, loads and stores, layout conversions, expand_dims and broadcasts (along equal
extents), reductions along another axis and scf.for/scf.if carried values join their dims. Left
alone, with a remark, a class that:
- an op mixes indices along it or that this pass does not model (a reduction or scan along it, a
  dot, a reshape, a non-splat constant, an atomic, a block pointer, a function argument or result);
- a store writes without a mask proven false past K along it (`x < K` where x[j] >= j: a
  non-negative base plus a range from 0, within the integer type's range);
- holds in a layout that is not blocked (or a slice of one), or where narrowing holds no fewer
  register bytes per lane, summed over its values (the dimension spread over lanes: narrowed, the
  lanes would replicate it).
A layout of the narrowed values that spread the dimension over lanes or warps, in which every tensor
now has extent 1 along it, then holds it in one lane: its lanes and warps go to another dim (else the
lanes would hold the same values; a layout is the same computation distributed otherwise).
At the ISA (IGC): flag_gems `celoss_indices_kernel` fp16 (D=1, BLOCK_C=512, BLOCK_D=16, 4 warps):
6,342 -> 484 instructions, 16,320 -> 0 spill bytes (native as ours before).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.pressure import tensor_bytes
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register, within_budget
from xpu_passes.transforms.narrow_masked_dims.bounds import masked_past
from xpu_passes.transforms.narrow_masked_dims.classes import Classes, Pair, build, tensor_of_value
from xpu_passes.transforms.narrow_masked_dims.rewrite import Narrowing, narrow, narrowed_type, respread, slice_chain


def _layout_ok(t: TensorType) -> bool:
    return isinstance(slice_chain(t.encoding)[0], ttg.BlockedEncodingAttr)


def choose(c: Classes, stores: list[tt.StoreOp], budget: WorkBudget) -> tuple[list[Narrowing], list[tuple[Operation, str]]]:
    """The classes to narrow, and why others are not (op, message)."""
    members: dict[Pair, list[Pair]] = {}
    for p in c.parent:
        members.setdefault(c.find(p), []).append(p)
    keeps: dict[Pair, int] = {}
    unbounded: set[Pair] = set()
    for st in stores:
        v = st.operands[1]
        t = tensor_of_value(v)
        if t is None:
            continue
        for d in range(len(t.get_shape())):
            root = c.find((id(v), d))
            k = None if len(st.operands) < 3 else masked_past(st.operands[2], d, budget)
            if k is None:
                unbounded.add(root)
            else:
                keeps[root] = max(keeps.get(root, 0), k)
    chosen, why = [], []
    for root, k in keeps.items():
        pairs = members[root]
        extent = max(c.values[i].type.get_shape()[d] for i, d in pairs)  # type: ignore[attr-defined]
        keep = 1 << max(k - 1, 0).bit_length()
        if root in unbounded or keep >= extent:
            continue
        anchor = c.values[pairs[0][0]].owner
        anchor = anchor if isinstance(anchor, Operation) else anchor.parent_op()  # type: ignore[assignment]
        stopped = next((c.opaque[p] for p in pairs if p in c.opaque), None)
        if stopped is not None:
            why.append((anchor, f"a dim of {extent} stored only below {k} kept: {stopped} mixes or hides its indices"))
            continue
        vals = [(c.values[i], d) for i, d in pairs if c.values[i].type.get_shape()[d] == extent]  # type: ignore[attr-defined]
        if not all(_layout_ok(v.type) for v, _ in vals):  # type: ignore[arg-type]
            why.append((anchor, f"a dim of {extent} stored only below {k} kept: a layout that is not blocked"))
            continue
        dims: dict[int, set[int]] = {}
        for v, d in vals:
            dims.setdefault(id(v), set()).add(d)
        before = sum(tensor_bytes(v.type) for v in {id(v): v for v, _ in vals}.values())
        after = sum(tensor_bytes(narrowed_type(v.type, dims[id(v)], keep, gathered=keep == 1))  # type: ignore[arg-type]
                    for v in {id(v): v for v, _ in vals}.values())
        if after >= before:  # (never more: a layout holds no more of fewer elements; step 3 may not gather)
            why.append((anchor, f"a dim of {extent} stored only below {k} kept: narrowed, its values would hold as "
                                f"many register bytes per lane ({before}; the dim is spread over lanes)"))
            continue
        chosen.append(Narrowing(vals, extent, keep, anchor))
    return chosen, why


@register
@dataclass(frozen=True)
class NarrowMaskedDims(XpuPass):
    name = "xpu-narrow-masked-dims"
    summary = "narrow a tile dimension whose indices past K every store masks off to K"

    # Work units (ops and values walked) per op of the input; 0: unbounded. Past it the input is kept.
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        # 1. The classes of tensor dims, the stores' mask bounds, and the classes to narrow.
        found = within_budget(self, op, ops, self.max_work_per_op, self._choose)
        if found is None:
            return
        chosen, why = found
        for at, message in why:
            self.remark(at, message)
        # 2. Each chosen class narrowed, on every value it runs through.
        for n in chosen:
            self.remark(n.anchor, f"narrowed: a dim of {n.extent} stored only below {n.keep}, on {len(n.pairs)} values")
            narrow(n)
        # 3. A layout of the narrowed values that spread the dim over lanes or warps, where every tensor in it now
        #    has extent 1 along the dim: its lanes and warps moved to another dim (they would replicate the values).
        for root, d in respread(op, [v.type.encoding for n in chosen for v, _ in n.pairs]):  # type: ignore[attr-defined]
            self.remark(chosen[0].anchor, f"gathered: {root} holds its dim {d} in one lane")
        if not chosen:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> tuple[list[Narrowing], list[tuple[Operation, str]]]:
        classes = build(ops, budget)
        stores = [o for o in ops if isinstance(o, tt.StoreOp)]
        return choose(classes, stores, budget)
