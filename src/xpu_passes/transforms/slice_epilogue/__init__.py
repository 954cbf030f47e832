"""-xpu-slice-epilogue: a GEMM epilogue computed in slices of the accumulator, under a bounds guard.

Triton lowers each elementwise op of a tensor for all of a thread's registers at once. An
epilogue with an op that lowers to control flow (`math.erf`: IGC's erf is a few branches per
element) then keeps the whole accumulator and every intermediate tensor live across the
branches; LLVM also sinks the cheap tail of each element (the sign of erf, `0.5 * x`, the
product) into the function's last block, past every branch, since the store is there. On a
256x256 f32 DPAS tile (128 registers per thread, large GRF), GEMM + GELU spills 15 KB. An
epilogue that gathers (a bias or residual read through a masked tensor of pointers) has every
gather of the tile in flight beside the accumulator: GEMM + residual spills 3.6 KB.

This pass rewrites such an epilogue, `tt.store %p, f(%acc, ...)` at the end of a function:
- it splits each tensor the epilogue reads into slices of a few registers per thread
  (`tt.reshape`/`tt.trans`/`ttg.convert_layout`/`tt.split` on register bits of its layout,
  which move no data), computes the epilogue on each slice in turn and joins the results back;
- it puts the epilogue and its store under `scf.if (offset < shape)` on a boundary-checked
  dimension of the store: when false, no element is in bounds and the store writes nothing,
  so skipping is exact; the store is then no longer in the function's last block, and LLVM
  keeps each slice's tail next to it.
Gathers move down with the epilogue only past ops free of memory effects; a gather read through
a layout conversion is first re-made in the accumulator's layout when that provably gives the
same values (relayout.py). Every element is computed by the same ops as before
(bit-identical). What it leaves alone, it says why (remarks).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from xpu_passes.dialects import tt
from xpu_passes.layouts.encodings import LayoutError, to_linear
from xpu_passes.layouts.linear import LinearLayout
from xpu_passes.transforms.base import (LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register,
                                        within_budget)
from xpu_passes.transforms.slice_epilogue.cut import Cut, cut_bits
from xpu_passes.transforms.slice_epilogue.find import BRANCHY, Epilogue, find_epilogue
from xpu_passes.transforms.slice_epilogue import relayout
from xpu_passes.transforms.slice_epilogue.rewrite import rewrite

__all__ = ["BRANCHY", "Cut", "Epilogue", "SliceEpilogue", "cut_bits", "find_epilogue", "rewrite"]


# An epilogue to slice: its store, the epilogue, its gathers' relayouts, whether it gathers, the stored layout.
_Chosen = tuple[tt.StoreOp, Epilogue, "list[relayout.Relayout]", bool, LinearLayout]


@register
@dataclass(frozen=True)
class SliceEpilogue(XpuPass):
    name = "xpu-slice-epilogue"
    summary = "compute a GEMM epilogue that branches per element or gathers in register slices, under a bounds guard"

    slice_registers: int = 64  # registers per thread in one slice (best of 8-128 at the ISA, docs/slice-epilogue.md)
    gather_slice_registers: int = 16  # the same for an epilogue that gathers (best of 8-64, same page)
    min_registers: int = 64  # smaller tensors are left alone (little to gain, measured)

    # Work units (ops walked, epilogue ops and roots judged) per op of the input; 0: unbounded.
    # Past it the input is kept (OVER_BUDGET), as native's pipeline leaves it (it has no such pass).
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        chosen = within_budget(self, op, ops, self.max_work_per_op, self._choose)
        if chosen is None:  # (nothing rewritten yet: every store is judged first)
            return
        # (each is its function's last store: no rewrite touches another's epilogue)
        for store, found, moves, gathers, ll in chosen:
            for move in moves:
                relayout.apply(move)
            if moves:
                found = find_epilogue(store)  # now with the gathers
                if isinstance(found, str):  # (the relayout alone stands: it changes no value)
                    self.remark(store, f"epilogue not sliced after its gathers' relayout: {found}")
                    continue
            per_slice = self.gather_slice_registers if gathers else self.slice_registers
            rewrite(found, cut_bits(ll, per_slice), ll)
        if not chosen:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> list[_Chosen]:
        """The epilogues to slice (the others get a remark)."""
        budget.spend(len(ops))
        chosen: list[_Chosen] = []
        for store in [s for s in ops if isinstance(s, tt.StoreOp)]:
            budget.spend(1)
            found = find_epilogue(store)
            if isinstance(found, str):
                self.remark(store, f"epilogue left alone: {found}")
                continue
            budget.spend(len(found.ops) + len(found.roots))
            plans = [p for p in (relayout.plan(r, found) for r in found.roots) if p is not None]
            for why in (p for p in plans if isinstance(p, str)):
                self.remark(store, f"a converted gather stays as it is: {why}")
            moves = [p for p in plans if isinstance(p, relayout.Relayout)]
            gathers = bool(moves) or any(isinstance(o, tt.LoadOp) for o in found.ops)
            if not gathers and not any(o.name in BRANCHY for o in found.ops):
                self.remark(store, "epilogue left alone: no op in it branches per element or gathers "
                                   "(nothing to slice for)")  # fmt: skip
                continue
            vt = store.value.type
            assert isinstance(vt, TensorType)
            try:
                ll = to_linear(vt.encoding, vt.get_shape())
            except LayoutError as e:
                self.remark(store, f"epilogue left alone: layout not modelled ({e})")
                continue
            if ll.num("register") < self.min_registers:
                self.remark(store, f"epilogue left alone: {ll.num('register')} registers per thread "
                                   f"(< min-registers={self.min_registers})")  # fmt: skip
                continue
            chosen.append((store, found, moves, gathers, ll))
        return chosen
