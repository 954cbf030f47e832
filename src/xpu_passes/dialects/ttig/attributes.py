"""`ttig`'s layout attributes (dpas, warp, subgroup 2D block encodings) and the unit attributes
MaterializeBlockPointer sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import NoneAttr
from xdsl.ir import Attribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects.struct_attr import Field, StructAttr, _print_value


# The unit attribute on loads/stores that MaterializeBlockPointer sets.
BLOCK_IO = "ttig.block_io"


SUPPORT_2D_BLOCK = "ttig.support_sg_2d_block"


@irdl_attr_definition
class DpasEncodingAttr(StructAttr):
    """The DPAS (XMX) accumulator layout; 3.3 also prints the operand shapes A/B/C."""

    name = "ttig.dpas"
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("repeatCount", "int"),
        Field("systolicDepth", "int"),
        Field("executionSize", "int"),
        Field("opsPerChan", "int"),
        Field("threadsPerWarp", "int"),
        Field("warpsPerCTA", "ints"),
        Field("repCluster", "ints"),
        Field("A", "ints", True),
        Field("B", "ints", True),
        Field("C", "ints", True),
    )
    repeat_count_: Attribute
    systolic_depth_: Attribute
    execution_size_: Attribute
    ops_per_chan_: Attribute
    threads_per_warp_: Attribute
    warps_per_cta_: Attribute
    rep_cluster_: Attribute
    a_: Attribute
    b_: Attribute
    c_: Attribute

    def _int(self, key: str) -> int:
        return cast(int, self.get(key))

    @property
    def repeat_count(self) -> int:
        return self._int("repeatCount")

    @property
    def systolic_depth(self) -> int:
        return self._int("systolicDepth")

    @property
    def execution_size(self) -> int:
        return self._int("executionSize")

    @property
    def ops_per_chan(self) -> int:
        return self._int("opsPerChan")

    @property
    def threads_per_warp(self) -> int:
        return self._int("threadsPerWarp")

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("warpsPerCTA"))

    @property
    def rep_cluster(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("repCluster"))

    def operand_shapes(self) -> tuple[list[int], list[int], list[int]]:
        """A, B, C as triton prints them: one DPAS instruction's shapes times repCluster."""
        rc = self.rep_cluster
        k = self.systolic_depth * self.ops_per_chan
        m, n = self.repeat_count * rc[-2], self.execution_size * rc[-1]
        lead = [1] * (len(rc) - 2)
        return lead + [m, k], lead + [k, n], lead + [m, n]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        # A/B/C are derived (operand_shapes; triton prints them computed): not kept, so a
        # layout read from text equals the same layout built in a pass.
        params = list(super().parse_parameters(parser))
        return params[: len(cls.FIELDS) - 3] + [NoneAttr()] * 3

    def print_parameters(self, printer: Printer) -> None:
        # Triton prints A/B/C computed from the other fields, whatever the text said.
        printer.print_string("<{")
        for f, p in zip(self.FIELDS[:-3], self.parameters):
            printer.print_string(f"{f.key} = ")
            _print_value(printer, p, f.kind)
            printer.print_string(", ")
        a, b, c = (", ".join(map(str, shape)) for shape in self.operand_shapes())
        printer.print_string(f"A = [{a}], B = [{b}], C = [{c}]}}>")

    def verify(self) -> None:
        # Intel's DpasEncodingAttr::verify, in its order and words.
        if not 1 <= self.repeat_count <= 8:
            raise VerifyException(f"repeatCount must be in the range [1, 8], but was:{self.repeat_count}")
        if self.ops_per_chan not in (1, 2, 4):
            raise VerifyException(f"opsPerChannel must be 1, 2 or 4, but was:{self.ops_per_chan}")
        if self.systolic_depth != 8:
            raise VerifyException(f"systolicDepth must be 8, but was:{self.systolic_depth}")
        if len(self.rep_cluster) not in (2, 3):
            raise VerifyException(f"expected rank 2 or 3 of repCluster, but the rank is:{len(self.rep_cluster)}")
        if self.threads_per_warp < self.execution_size:
            raise VerifyException(
                f"threadsPerWarp could not be smaller than the execution size. got threadsPerWarp:"
                f"{self.threads_per_warp}, executionSize:{self.execution_size}"
            )
        if len(self.warps_per_cta) != len(self.rep_cluster):
            raise VerifyException("#ttig.dpas: warpsPerCTA and repCluster must have the same rank")


@irdl_attr_definition
class WarpEncodingAttr(StructAttr):
    name = "ttig.warp"
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("sizePerThread", "ints"),
        Field("threadsPerWarp", "ints"),
        Field("order", "ints"),
    )
    size_per_thread_: Attribute
    threads_per_warp_: Attribute
    order_: Attribute


@irdl_attr_definition
class Subgroup2DBlockEncodingAttr(StructAttr):
    """Layout of a tensor read by 2D block loads (newer Intel Triton; not in 3.3)."""

    name = "ttig.subgroup_2d_block"
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("warpsPerCTA", "ints"),
        Field("instrShape", "ints"),
        Field("numBlocks", "int"),
        Field("order", "ints"),
        Field("kWidth", "int"),
        Field("threadsPerWarp", "int"),
        *(Field(k, "ints", True) for k in ("CTAsPerCGA", "CTASplitNum", "CTAOrder")),
    )
    warps_per_cta_: Attribute
    instr_shape_: Attribute
    num_blocks_: Attribute
    order_: Attribute
    k_width_: Attribute
    threads_per_warp_: Attribute
    ctas_per_cga_: Attribute
    cta_split_num_: Attribute
    cta_order_: Attribute

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("warpsPerCTA"))

    @property
    def instr_shape(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("instrShape"))

    @property
    def num_blocks(self) -> int:
        return cast(int, self.get("numBlocks"))

    @property
    def order(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.get("order"))

    @property
    def k_width(self) -> int:
        return cast(int, self.get("kWidth"))

    @property
    def threads_per_warp(self) -> int:
        return cast(int, self.get("threadsPerWarp"))
