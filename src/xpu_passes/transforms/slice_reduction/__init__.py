"""-xpu-slice-reduction: a reduction along an axis held in each thread's registers, computed row by row.

Triton lowers each op of a tensor for all of a thread's registers at once: a GEMV that unpacks a
64x512 tile of packed weights with 2 warps (gemlite's, 512 elements per thread) loads, unpacks,
scales and multiplies the whole tile before its `tt.reduce` over the 64 rows adds them up, and IGC
spills 57 KB per thread (native and ours alike). When the reduced axis lies in the registers of
each thread (no lane or warp shares it), the lowering's reduction is one sequential fold per
thread, row after row (`acc = combine(acc, row_i)`, i = 0, 1, ...). This pass computes the same
fold in an `scf.for` over the rows: each iteration recomputes a few rows of the tile
(`chunk-registers` per thread) from the ops that make it (elementwise ops, loads through tensors of
pointers, broadcasts, splats, ranges, layout conversions, unit-dim reshapes), cuts them apart on
their register bits and combines each, in order, into the accumulator, which starts from the
combine op's exact identity (-0.0 for addf): every element is combined in the same order from the
same values (bit-identical). When lanes share the reduced axis, the second rule (chunks.py)
computes the tile and its reduction in chunks of a kept dim, joined back. Values the rows share (a row vector broadcast along the axis) are
computed once, before the loop. What it leaves alone, it says why (remarks): a fold lanes share,
a tile used elsewhere, a load that would move past a write, an op it cannot compute row by row,
a combine op without an exact identity, a small tile.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xpu_passes.dialects import tt
from xpu_passes.transforms.base import LINEAR_WORK_PER_OP, UNCHANGED, WorkBudget, XpuPass, register, within_budget
from xpu_passes.transforms.slice_reduction.chunks import Chunked, find_chunks, rewrite_chunks
from xpu_passes.transforms.slice_reduction.find import Sliced, find, large_reduction, too_small
from xpu_passes.transforms.slice_reduction.rewrite import rewrite

__all__ = ["Chunked", "SliceReduction", "Sliced", "find", "find_chunks", "rewrite", "rewrite_chunks"]


@register
@dataclass(frozen=True)
class SliceReduction(XpuPass):
    name = "xpu-slice-reduction"
    summary = "compute a reduction along an axis held in registers row by row (an scf.for), not on the whole tile"

    min_registers: int = 64  # smaller tiles are left alone (measured: docs/slice-epilogue.md)
    chunk_registers: int = 64  # registers per thread of a chunk of the tile (the second rule; same page)
    max_work_per_op: int = LINEAR_WORK_PER_OP

    def needs_match(self, text: str) -> bool:
        """Whether a module printed as `text` may have work (prefilters.idle): a reduction of a tile of at least
        min-registers per thread (smaller ones are left alone)."""
        return large_reduction(text, self.min_registers)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        chosen = within_budget(self, op, ops, self.max_work_per_op, self._choose)
        if chosen is None:
            return
        for s in chosen:  # (the tiles are disjoint: each is used by its reduction only)
            rewrite(s) if isinstance(s, Sliced) else rewrite_chunks(s)
        if not chosen:
            self.said(UNCHANGED)

    def _choose(self, ops: list[Operation], budget: WorkBudget) -> list[Sliced | Chunked]:
        budget.spend(len(ops))
        chosen: list[Sliced | Chunked] = []
        for red in [r for r in ops if isinstance(r, tt.ReduceOp)]:
            found: Sliced | Chunked | str
            if len(red.srcs) == 1 and (small := too_small(red, self.min_registers)) is not None:
                found = small  # (too small for both rules: said once)
            else:
                found = find(red, self.chunk_registers)
                if isinstance(found, str) and len(red.srcs) == 1:
                    chunks = find_chunks(red, self.chunk_registers)
                    found = chunks if not isinstance(chunks, str) else f"{found}; {chunks}"
            if isinstance(found, str):
                self.remark(red, f"reduction left whole: {found}")
                continue
            budget.spend(len(found.ops))
            chosen.append(found)
        return chosen
