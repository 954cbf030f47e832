"""`--tritonintelgpu-materialize-block-pointer`: tag loads that can use 2D block reads.

A load of a block pointer gets `ttig.block_io = "row_major" | "column_major"` when
the hardware's 2D block read can serve it: rank >= 2, a unit stride on one of the
two innermost dims, a pitch that is a multiple of 16 bytes, and (for the A operand
of a dot) a memory order that agrees with the register order. Runs only on modules
marked `ttig.support_sg_2d_block`. Every load left untagged gets a remark saying why.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute

from xpu_passes.analysis.values import constant_int, is_divisible, make_tensor_ptr_of
from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects.ttig import BLOCK_IO, SUPPORT_2D_BLOCK
from xpu_passes.transforms.base import XpuPass, register

# The strictest pitch rule across Intel GPUs: a multiple of an OWord (16 bytes).
PITCH_ALIGN_BITS = 128


def _bit_width(t: Attribute) -> int:
    return int(getattr(t, "bitwidth", 0))


def dot_operand_layout(load: tt.LoadOp) -> ttg.DotOperandEncodingAttr | None:
    """The dot-operand layout the load produces, directly or via its only conversions."""
    enc = load.result.type.encoding if isinstance(load.result.type, TensorType) else None
    if isinstance(enc, ttg.DotOperandEncodingAttr):
        return enc
    users = [u.operation for u in load.result.uses]
    if users and all(isinstance(u, ttg.ConvertLayoutOp) for u in users):
        target = users[0].results[0].type
        if isinstance(target, TensorType) and isinstance(target.encoding, ttg.DotOperandEncodingAttr):
            return target.encoding
    return None


@dataclass(frozen=True)
class Verdict:
    tag: str | None  # "row_major" | "column_major" | None
    reason: str = ""


def classify(load: tt.LoadOp | tt.StoreOp) -> Verdict:
    """Whether a block-pointer load (or store) can be a 2D block access, and which kind."""
    mtp = make_tensor_ptr_of(load.ptr)
    if mtp is None:
        return Verdict(None, "cannot trace the block pointer to its tt.make_tensor_ptr")
    rank = len(mtp.strides)
    if rank < 2:
        return Verdict(None, "1D access: 2D block reads need rank >= 2")
    unit = next((i for i, s in enumerate(mtp.strides) if constant_int(s) == 1), None)
    if unit is None:
        return Verdict(None, "no dimension has a constant unit stride")
    data = load.result.type if isinstance(load, tt.LoadOp) else load.value.type
    elem = data.element_type if isinstance(data, TensorType) else data
    bits = _bit_width(elem)
    if unit == rank - 2 and bits == 8:
        return Verdict(None, "8-bit elements with the unit stride on dim rank-2 (column major) are slower")
    if unit < rank - 2:
        return Verdict(None, f"unit stride on dim {unit}, not one of the two innermost dims")
    if bits == 0:
        return Verdict(None, f"unknown element width of {elem}")
    pitch = mtp.strides[rank - 2 if unit == rank - 1 else rank - 1]
    if not is_divisible(pitch, PITCH_ALIGN_BITS // bits):
        return Verdict(None, f"pitch not provably a multiple of 16 bytes ({PITCH_ALIGN_BITS // bits} elements)")
    row_major = unit == rank - 1
    dot = dot_operand_layout(load) if isinstance(load, tt.LoadOp) else None
    if dot is not None and dot.op_idx == 0 and not row_major:
        # A's registers run along K (row major); a column-major A read is slower
        # than a gather, as Intel measured.
        return Verdict(None, "A operand of a dot stored column major")
    return Verdict("row_major" if row_major else "column_major")


@register
@dataclass(frozen=True)
class MaterializeBlockPointer(XpuPass):
    name = "tritonintelgpu-materialize-block-pointer"
    summary = "tag block-pointer loads that can be 2D block reads with ttig.block_io"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if SUPPORT_2D_BLOCK not in op.attributes:
            return
        for load in op.walk():
            if not isinstance(load, tt.LoadOp) or not load.is_block_pointer:
                continue
            verdict = classify(load)
            if verdict.tag is not None:
                load.attributes[BLOCK_IO] = StringAttr(verdict.tag)
            else:
                self.remark(load, f"not a 2D block read: {verdict.reason}")
