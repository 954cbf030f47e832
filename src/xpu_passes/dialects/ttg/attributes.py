"""`ttg`'s layout attributes (blocked, slice, dot operand, linear, shared encodings) and the
shared memory space.
"""

from __future__ import annotations

import re
from typing import ClassVar, cast

from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects.struct_attr import Field, StructAttr


_CTA = (Field("CTAsPerCGA", "ints", True), Field("CTASplitNum", "ints", True), Field("CTAOrder", "ints", True))


@irdl_attr_definition
class BlockedEncodingAttr(StructAttr):
    name = "ttg.blocked"
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("sizePerThread", "ints"),
        Field("threadsPerWarp", "ints"),
        Field("warpsPerCTA", "ints"),
        Field("order", "ints"),
        *_CTA,
    )
    size_per_thread_: Attribute
    threads_per_warp_: Attribute
    warps_per_cta_: Attribute
    order_: Attribute
    ctas_per_cga_: Attribute
    cta_split_num_: Attribute
    cta_order_: Attribute

    @property
    def size_per_thread(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("sizePerThread"))

    @property
    def threads_per_warp(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("threadsPerWarp"))

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("warpsPerCTA"))

    @property
    def order(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("order"))

    def verify(self) -> None:
        n = len(self.order)
        for key in ("sizePerThread", "threadsPerWarp", "warpsPerCTA"):
            if len(cast(tuple[int, ...], self.get(key))) != n:
                raise VerifyException(f"#ttg.blocked: {key} must have rank {n} like order")
        if sorted(self.order) != list(range(n)):
            raise VerifyException("#ttg.blocked: order must be a permutation")


@irdl_attr_definition
class SliceEncodingAttr(StructAttr):
    name = "ttg.slice"
    FIELDS: ClassVar[tuple[Field, ...]] = (Field("dim", "int"), Field("parent", "attr"))
    dim_: Attribute
    parent: Attribute

    @property
    def dim(self) -> int:
        return cast(int, self.get("dim"))


    # Intel main's SliceEncodingAttr::verify (parent rank >= 2, dim < rank) is not applied: the
    # layout engine builds slices of 1D layouts as candidates (solution.layout_errors).


@irdl_attr_definition
class DotOperandEncodingAttr(StructAttr):
    name = "ttg.dot_op"
    FIELDS: ClassVar[tuple[Field, ...]] = (Field("opIdx", "int"), Field("parent", "attr"), Field("kWidth", "int", True))
    op_idx_: Attribute
    parent: Attribute
    k_width_: Attribute

    @property
    def op_idx(self) -> int:
        return cast(int, self.get("opIdx"))

    @property
    def k_width(self) -> int:
        return cast(int | None, self.get("kWidth")) or 0

    def verify(self) -> None:
        parent = self.parent
        if self.op_idx not in (0, 1):
            raise VerifyException(f"ttg.dot_op opIdx parameter can be 0 or 1, got: {self.op_idx}")
        if why := _dot_op_parent_error(self.op_idx, parent, self.k_width):
            raise VerifyException(why)
        if getattr(parent, "name", "") == "ttig.dpas":
            # Triton's DotOperandEncodingAttr::verify for a DPAS parent.
            ops = cast(int, parent.ops_per_chan)  # type: ignore[attr-defined]
            want = (ops if ops == 1 else ops // 2) if self.op_idx == 0 else ops
            if self.k_width != want:
                raise VerifyException("ttg.dot_op kWidth parameter must match the parent's opsPerChannel")
            rc, depth, tpw = (cast(int, getattr(parent, k)) for k in ("repeat_count", "systolic_depth", "threads_per_warp"))
            per_row = depth if ops == 1 else depth * 2  # packed elements per row of A
            if self.op_idx == 0 and rc * per_row < tpw:
                raise VerifyException(
                    "The DPAS encoding implies an invalid layout for A operand. The non-uniform matrix A could "
                    f"not be referred in kernel with threadsPerWarp: {tpw}. numPackedElemPerRowForA:{per_row}. "
                    f"RC:{rc}, systolicDepth:{depth}, opsPerChan:{ops}"
                )


def foreign_int(layout: Attribute, key: str) -> int | None:
    """An integer field of another backend's layout, kept as text (`versionMajor = 3`)."""
    body = getattr(getattr(layout, "body", None), "data", "")
    m = re.search(rf"\b{key}\s*=\s*(\d+)", body)
    return int(m.group(1)) if m else None


def _dot_op_parent_error(op_idx: int, parent: Attribute, k_width: int) -> str:
    """DotOperandEncodingAttr::verify's rules for parents other than DPAS ('' if fine)."""
    name = getattr(parent, "name", "")
    if name == "ttg.nvidia_mma":
        major = foreign_int(parent, "versionMajor")
        ampere_or_hopper = major in (2, 3)
        if k_width != 0 and not ampere_or_hopper:
            return "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent"
        if k_width == 0 and ampere_or_hopper:
            return "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent"
        if op_idx != 0 and major == 3:
            return ("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows "
                    "first operand to be in registers")
    elif name == "ttg.amd_wmma":
        version = foreign_int(parent, "version")
        if (version == 1 and k_width != 16) or (version == 2 and k_width not in (8, 16)):
            return "ttg.dot_op kWidth parameter must be 16 for gfx11 and 8/16 for gfx12"
    elif name == "ttg.amd_mfma":
        if k_width == 0:
            return "ttg.dot_op kWidth parameter is mandatory for MFMA parent"
    elif name == "ttig.warp":
        if k_width != 0:
            return "ttg.dot_op kWidth parameter is not supported when the parent is a warp layout"
    elif name == "ttg.blocked" and k_width != 0:
        return "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout"
    return ""


@irdl_attr_definition
class LinearEncodingAttr(StructAttr):
    name = "ttg.linear"
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("register", "ints2d"),
        Field("lane", "ints2d"),
        Field("warp", "ints2d"),
        Field("block", "ints2d"),
    )
    register_: Attribute
    lane_: Attribute
    warp_: Attribute
    block_: Attribute

    def bases(self, dim: str) -> tuple[tuple[int, ...], ...]:
        return cast(tuple[tuple[int, ...], ...], self.get(dim))


@irdl_attr_definition
class SwizzledSharedEncodingAttr(StructAttr):
    name = "ttg.swizzled_shared"
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("vec", "int"),
        Field("perPhase", "int"),
        Field("maxPhase", "int"),
        Field("order", "ints"),
        *_CTA,
    )
    vec_: Attribute
    per_phase_: Attribute
    max_phase_: Attribute
    order_: Attribute
    ctas_per_cga_: Attribute
    cta_split_num_: Attribute
    cta_order_: Attribute


@irdl_attr_definition
class SharedEncodingAttr(StructAttr):
    """The 3.2-era spelling of the shared layout."""

    name = "ttg.shared"
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("vec", "int"),
        Field("perPhase", "int"),
        Field("maxPhase", "int"),
        Field("order", "ints"),
        *_CTA,
        Field("hasLeadingOffset", "bool", True),
    )
    vec_: Attribute
    per_phase_: Attribute
    max_phase_: Attribute
    order_: Attribute
    ctas_per_cga_: Attribute
    cta_split_num_: Attribute
    cta_order_: Attribute
    has_leading_offset_: Attribute


@irdl_attr_definition
class SharedMemorySpaceAttr(ParametrizedAttribute):
    """`#ttg.shared_memory`."""

    name = "ttg.shared_memory"
