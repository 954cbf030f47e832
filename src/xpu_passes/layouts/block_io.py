"""The 2D block reads a DPAS dot operand is loaded with, and the layout that describes them.

`operand_block_read` follows the rules of Intel's LLVM lowering of a block-pointer
load in a dot-operand layout (triton-xpu 3.3 `LoadStoreOpToLLVM`, the same rules
newer Intel Triton keeps in `Subgroup2DBlockEncodingAttr::getInstrShapeForLayout`):

- one DPAS operand tile is A: repeatCount x (systolicDepth * opsPerChan),
  B: (systolicDepth * opsPerChan) x executionSize;
- rows: A stacks its repCluster tiles along M, B its K repetitions, up to the
  hardware's 32 rows per read;
- blocks: A puts its K repetitions, B its repCluster tiles along N, side by side
  as `numBlocks` of one read, up to 64 bytes per row;
- a B stored column major is read transposed (32-bit transposed reads): the read's
  rows are N, one block, and it needs the packed (VNNI) element width; an A stored
  column major has no 2D read (MaterializeBlockPointer never tags it).

`subgroup_2d_block_for` builds the `#ttig.subgroup_2d_block` layout of such a read:
instrShape [rows, cols] in the tensor's own (dim0, dim1) orientation, numBlocks,
warpsPerCTA and threadsPerWarp of the DPAS parent, order as Intel's
OptimizeBlockIOEncoding sets it (the dot operand's order with K contiguous: A
[1, 0], B [0, 1]) and kWidth of the dot operand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xpu_passes.dialects import ttg
from xpu_passes.dialects.ttig import DpasEncodingAttr, Subgroup2DBlockEncodingAttr
from xpu_passes.layouts.encodings import dpas_repetitions

MAX_ROWS = 32  # 2D block read: at most 32 rows
MAX_ROW_BYTES = 64  # and at most 64 bytes per row over all blocks


@dataclass(frozen=True)
class BlockRead:
    """One 2D block read per warp, in the tensor's orientation (dim0 x dim1)."""

    shape: tuple[int, int]  # elements read per block: (dim0, dim1)
    num_blocks: int  # blocks side by side along dim1
    transposed: bool  # column-major memory read with the transpose bit

    def builtin(self, elem_bits: int, vnni: bool) -> str:
        """The OpenCL builtin the lowering calls, e.g. `intel_sub_group_2d_block_read_16b_32r16x2c`.

        A transposed read moves 32-bit elements: its rows are the tensor's dim1 (all
        blocks), its columns dim0 in 32-bit units, one block.
        """
        if self.transposed:
            rows, cols = self.shape[1] * self.num_blocks, self.shape[0] * elem_bits // 32
            return f"intel_sub_group_2d_block_read_transpose_32b_{rows}r{cols}x1c"
        kind = "_transform" if vnni else ""
        return f"intel_sub_group_2d_block_read{kind}_{elem_bits}b_{self.shape[0]}r{self.shape[1]}x{self.num_blocks}c"


@dataclass(frozen=True)
class NoBlockRead:
    reason: str


def operand_block_read(
    dot: ttg.DotOperandEncodingAttr, shape: Sequence[int], elem_bits: int, row_major: bool
) -> BlockRead | NoBlockRead:
    """The 2D block read the lowering issues for a load in layout `dot` (a DPAS operand)."""
    dpas = dot.parent
    if not isinstance(dpas, DpasEncodingAttr):
        return NoBlockRead(f"the dot operand's parent is {dpas.name}, not #ttig.dpas")
    if len(shape) != 2 or len(dpas.warps_per_cta) != 2:
        return NoBlockRead(f"rank {len(shape)}: only 2D dot operands")
    if elem_bits not in (8, 16, 32):
        return NoBlockRead(f"{elem_bits}-bit elements are not DPAS operands")
    op_idx = dot.op_idx
    k = dpas.systolic_depth * dpas.ops_per_chan
    inst = (dpas.repeat_count, k) if op_idx == 0 else (k, dpas.execution_size)
    reps = dpas_repetitions(dpas, shape, op_idx)[1:]  # (rows, cols): 2D only here
    rep_cluster = dpas.rep_cluster[-2:]
    packed = dpas.ops_per_chan * elem_bits == 32  # the DPAS packing matches the element
    height, width = inst
    if row_major:
        rows_n, blocks_n = (rep_cluster[0], reps[1]) if op_idx == 0 else (reps[0], rep_cluster[1])
    else:
        if op_idx == 0:
            return NoBlockRead("A operand stored column major: no transposed 2D read for A")
        if not packed:
            return NoBlockRead("transposed B read needs the packed DPAS element width")
        # The read runs along N (memory rows), one block; K is the read's width.
        height, width = inst[1], inst[0]
        rows_n = rep_cluster[1] if dpas.threads_per_warp <= height else 1
        blocks_n = 1
    rows_n = max(1, min(rows_n, MAX_ROWS // height))
    height *= rows_n
    blocks_n = max(1, min(blocks_n, MAX_ROW_BYTES // (width * elem_bits // 8)))
    if row_major:
        return BlockRead((height, width), blocks_n, False)
    # In the tensor's orientation the read's rows (N) become columns, one per lane:
    # K x lanes per block, the stacked groups of rows side by side along N.
    lanes = dpas.threads_per_warp
    return BlockRead((width, min(height, lanes)), max(1, height // lanes), True)


def subgroup_2d_block_for(
    dot: ttg.DotOperandEncodingAttr, shape: Sequence[int], elem_bits: int, row_major: bool
) -> Subgroup2DBlockEncodingAttr | NoBlockRead:
    """`#ttig.subgroup_2d_block` of the reads that load a tensor in layout `dot`."""
    read = operand_block_read(dot, shape, elem_bits, row_major)
    if isinstance(read, NoBlockRead):
        return read
    dpas = dot.parent
    assert isinstance(dpas, DpasEncodingAttr)
    k_width = dot.k_width
    if k_width not in (1, 2, 4):
        return NoBlockRead(f"kWidth {k_width} of the dot operand is not 1, 2 or 4")
    return Subgroup2DBlockEncodingAttr.make(
        warpsPerCTA=list(dpas.warps_per_cta),
        instrShape=list(read.shape),
        numBlocks=read.num_blocks,
        order=[1, 0] if dot.op_idx == 0 else [0, 1],
        kWidth=k_width,
        threadsPerWarp=dpas.threads_per_warp,
    )
