"""The Triton GPU dialect `ttg` (old spelling `triton_gpu`): layouts, memdesc, ops."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects._struct_attr import Field, StructAttr
from xpu_passes.dialects._syntax import UnaryOp, emit, parse_attr_dict, print_attr_dict

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


@irdl_attr_definition
class MemDescType(ParametrizedAttribute, TypeAttribute):
    """`!ttg.memdesc<2x256x32xbf16, #shared, #smem, mutable(, allocShape)?>`."""

    name = "ttg.memdesc"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    encoding: Attribute
    memory_space: Attribute
    mutable: Attribute  # UnitAttr when mutable, else NoneAttr-like empty array
    alloc_shape: ArrayAttr[IntAttr]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        dims, elem = parser.parse_ranked_shape()
        parser.parse_punctuation(",")
        enc = parser.parse_attribute()
        space: Attribute = ArrayAttr(())
        mutable: Attribute = ArrayAttr(())
        alloc: list[int] = []
        if parser.parse_optional_punctuation(","):
            space = parser.parse_attribute()
            if parser.parse_optional_punctuation(","):
                if parser.parse_optional_keyword("mutable"):
                    mutable = UnitAttr()
                    if parser.parse_optional_punctuation(","):
                        alloc = parser.parse_dimension_list()
                else:
                    alloc = parser.parse_dimension_list()
        parser.parse_punctuation(">")
        params = (ArrayAttr(IntAttr(d) for d in dims), elem, enc, space, mutable, ArrayAttr(IntAttr(d) for d in alloc))
        try:
            cls(*params)  # verify here, where the text position is known (as StructAttr does)
        except VerifyException as e:
            parser.raise_error(str(e), start, parser.pos)
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string("".join(f"{d.data}x" for d in self.shape.data))
        printer.print_attribute(self.element_type)
        printer.print_string(", ")
        printer.print_attribute(self.encoding)
        if self.memory_space != ArrayAttr(()):
            printer.print_string(", ")
            printer.print_attribute(self.memory_space)
        if isinstance(self.mutable, UnitAttr):
            printer.print_string(", mutable")
        # triton-xpu 3.3 never prints the allocation shape; later Triton prints it when it
        # differs from the shape. The printer's dialect spelling tells which Triton reads the text.
        if self.alloc_shape.data and self.alloc_shape != self.shape and not _prints_for_33(printer):
            printer.print_string(", " + "x".join(str(d.data) for d in self.alloc_shape.data))
        printer.print_string(">")

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def verify(self) -> None:
        """Triton's MemDescType::verify (the checks for the layouts we model), in its words."""
        shape = self.get_shape()
        alloc = tuple(d.data for d in self.alloc_shape.data) or shape
        if not shape:
            raise VerifyException("rank 0 memdesc is not allowed")
        elem = self.element_type
        bits = 64 if getattr(elem, "name", "") == "tt.ptr" else cast(int, getattr(elem, "bitwidth", 8))
        if bits != 1 and bits < 8:
            raise VerifyException(f"element type bit width must be 1 or at least 8; got {bits}")
        if 0 in shape:
            raise VerifyException("shape has 0 dimension")
        if 0 in alloc:
            raise VerifyException("alloc shape has 0 dimension")
        if len(alloc) < len(shape):
            raise VerifyException("alloc shape must have at least as many dimensions as shape")
        keys = {f.key for f in self.encoding.FIELDS} if isinstance(self.encoding, StructAttr) else set()
        order = cast(tuple[int, ...] | None, self.encoding.get("order")) if "order" in keys else None  # type: ignore[union-attr]
        if order is None:
            return  # another backend's or an unknown layout: not modelled here
        rank = len(order)
        if rank not in (len(shape), len(shape) - 1):
            raise VerifyException(
                f"rank must be equal to or one less than the shape size. Got {rank} and {len(shape)}"
            )
        for what, dims in (("shape", shape), ("alloc shape", alloc)):
            tail = dims[len(dims) - rank :] if len(dims) > rank else dims  # drop the pipelining dim
            if any(d <= 0 or d & (d - 1) for d in tail):
                raise VerifyException(
                    f"{what} must have power-of-2 and non-zero dimensions; got {', '.join(map(str, dims))}"
                )
        if any(a > b for a, b in zip(shape, alloc[len(alloc) - len(shape) :])):
            raise VerifyException("shape must be less than or equal to allocShape.")


# ------------------------------------------------------------------------ ops


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    name = "ttg.async.token"


_ASYNC_TOKEN = AsyncTokenType()


@irdl_op_definition
class ConvertLayoutOp(UnaryOp):
    """`%y = ttg.convert_layout %x : tensor<..., #a> -> tensor<..., #b>`."""

    name = "ttg.convert_layout"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        s, r = cast(TensorType, self.src.type), cast(TensorType, self.result.type)
        if s.get_shape() != r.get_shape() or s.element_type != r.element_type:
            raise VerifyException("convert_layout changes only the layout, not shape or element type")


@irdl_op_definition
class LocalAllocOp(IRDLOperation):
    """`ttg.local_alloc %x : (T) -> !ttg.memdesc<...>` or `ttg.local_alloc : () -> ...`."""

    name = "ttg.local_alloc"
    src = opt_operand_def()
    result = result_def(MemDescType)
    alignment = opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> LocalAllocOp:
        x = parser.parse_optional_unresolved_operand()
        props, attrs = parse_attr_dict(parser, ("alignment",))
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        ops = [parser.resolve_operand(x, ft.inputs.data[0])] if x is not None else []
        return cls.build(operands=[ops], result_types=list(ft.outputs.data), properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        # Triton's declarative format emits the space before `($src^)?` even when there is
        # no src: `ttg.local_alloc  : () -> ...`.
        printer.print_string(" ")
        if self.src is not None:
            printer.print_operand(self.src)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)



def _prints_for_33(printer: Printer) -> bool:
    """Printing for triton-xpu 3.3 (which spells `ttig` `triton_intel_gpu`)."""
    return "ttig" in getattr(printer, "renames", {})


@irdl_op_definition
class LocalLoadOp(IRDLOperation):
    """`ttg.local_load %m (token %t)? : !ttg.memdesc<...> -> tensor<...>`."""

    name = "ttg.local_load"
    src = operand_def(MemDescType)
    token = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)
    assembly_format = "$src (`token` $token^)? attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
class LocalStoreOp(IRDLOperation):
    """`ttg.local_store %v, %m : tensor<...> -> !ttg.memdesc<...>`."""

    name = "ttg.local_store"
    src = operand_def(TensorType)
    dst = operand_def(MemDescType)
    assembly_format = "$src `,` $dst attr-dict `:` type($src) `->` type($dst)"


@irdl_op_definition
class LocalDeallocOp(IRDLOperation):
    """`ttg.local_dealloc %m : !ttg.memdesc<...>`."""

    name = "ttg.local_dealloc"
    src = operand_def(MemDescType)
    assembly_format = "$src attr-dict `:` type($src)"


@irdl_op_definition
class MemDescSubviewOp(IRDLOperation):
    """`ttg.memdesc_subview %m[%i, %c0, %c0] : !ttg.memdesc<..> -> !ttg.memdesc<..>`."""

    name = "ttg.memdesc_subview"
    src = operand_def(MemDescType)
    offsets = var_operand_def(i32)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    assembly_format = "$src `[` $offsets `]` attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        src, dst = cast(MemDescType, self.src.type), cast(MemDescType, self.result.type)
        ss, ds = [d.data for d in src.shape.data], [d.data for d in dst.shape.data]
        if src.element_type != dst.element_type:
            raise VerifyException("result element type must match desc element type")
        if len(self.offsets) != len(ss):
            raise VerifyException("offsets must have the same rank as input")
        if len(ss) < len(ds):
            raise VerifyException("result rank must be less than or equal to input rank")
        for i, d in enumerate(ds):
            if d > ss[i + len(ss) - len(ds)]:
                raise VerifyException(f"result shape cannot be larger than input shape at dimension {i}")


@irdl_op_definition
class MemDescTransOp(UnaryOp):
    """`ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<..> -> !ttg.memdesc<..>`."""

    name = "ttg.memdesc_trans"
    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    order = prop_def(DenseArrayBase)
    traits = traits_def(Pure())



TTG = Dialect(
    "ttg",
    [ConvertLayoutOp, LocalAllocOp, LocalLoadOp, LocalStoreOp, LocalDeallocOp, MemDescSubviewOp, MemDescTransOp],
    [
        BlockedEncodingAttr,
        SliceEncodingAttr,
        DotOperandEncodingAttr,
        LinearEncodingAttr,
        SwizzledSharedEncodingAttr,
        SharedEncodingAttr,
        SharedMemorySpaceAttr,
        MemDescType,
        AsyncTokenType,
    ],
)
