"""`tt` pointer and memory ops: addptr, advance, make_tensor_ptr, load/store (with their
cache/evict clauses) and atomics.
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, TensorType, i32, i64
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    BaseAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import (
    emit,
    enum_keyword,
    i32_attr,
    parse_attr_dict,
    parse_keyword_enum,
    parse_stripped,
    print_attr_dict,
    print_stripped,
)
from xpu_passes.dialects.traits import (
    Rules,
    same_operands_and_result_encoding,
    same_operands_and_result_shape,
)
from xpu_passes.dialects.tt._checks import _check
from xpu_passes.dialects.tt.attributes import CACHE, EVICT, RMWKind, Scope, Sem
from xpu_passes.dialects.tt.types import PointerType, StrippedPtr, element_type, mask_type, pointee_type


# ----------------------------------------------------------------- pointers


@op_definition
class AddPtrOp(IRDLOperation):
    """`tt.addptr %p, %o : PtrT, OffT`."""

    name = "tt.addptr"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    T: ClassVar = VarConstraint("T", AnyAttr())
    ptr = operand_def(T)
    offset = operand_def()
    result = result_def(T)
    assembly_format = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"
    traits = traits_def(Pure(), Rules((same_operands_and_result_shape, same_operands_and_result_encoding)))

    def verify_(self) -> None:
        _check(self.result.type == self.ptr.type, "result type must match the pointer type")
        _check(isinstance(element_type(self.ptr.type), PointerType), "addptr needs a pointer operand")


@op_definition
class AdvanceOp(IRDLOperation):
    """`tt.advance %p, [%o0, %o1] : <tensor<...>>`."""

    name = "tt.advance"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    T: ClassVar = VarConstraint("T", BaseAttr(PointerType))
    ptr = operand_def(T)
    offsets = var_operand_def(i32)
    result = result_def(T)
    traits = traits_def(Pure())
    custom_directives = (StrippedPtr,)
    assembly_format = "$ptr `,` `[` $offsets `]` attr-dict `:` custom<StrippedPtr>(type($result))"

    def verify_(self) -> None:
        t = self.ptr.type
        _check(isinstance(t, PointerType) and t.is_block, "tt.advance needs a block pointer")
        rank = len(cast(TensorType, cast(PointerType, t).pointee).get_shape())
        _check(len(self.offsets) == rank, f"expected {rank} offsets, got {len(self.offsets)}")


@op_definition
class MakeTensorPtrOp(IRDLOperation):
    """`tt.make_tensor_ptr %base, [shape], [strides], [offsets] {order = ...} : <tensor<...>>`."""

    name = "tt.make_tensor_ptr"
    FAST_SYNTAX: ClassVar[str] = "make_tensor_ptr"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    base = operand_def(PointerType)
    shape = var_operand_def()
    strides = var_operand_def()
    offsets = var_operand_def()
    order = prop_def(DenseArrayBase)
    result = result_def(PointerType)
    irdl_options = (AttrSizedOperandSegments(),)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorPtrOp:
        b = parser.parse_unresolved_operand()
        lists = []
        for _ in range(3):
            parser.parse_punctuation(",")
            lists.append(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand))
        props, attrs = parse_attr_dict(parser, ("order",))
        parser.parse_punctuation(":")
        t = cast(PointerType, parse_stripped(parser, PointerType))
        block = t.pointee
        if not isinstance(block, TensorType):
            parser.raise_error("tt.make_tensor_ptr yields a pointer to a tensor")
        base_t = PointerType(block.element_type, t.address_space.data)
        return cls.build(
            operands=[
                parser.resolve_operand(b, base_t),
                [parser.resolve_operand(x, i64) for x in lists[0]],
                [parser.resolve_operand(x, i64) for x in lists[1]],
                [parser.resolve_operand(x, i32) for x in lists[2]],
            ],
            result_types=[t],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        for group in (self.shape, self.strides, self.offsets):
            printer.print_string(", [")
            printer.print_list(group, printer.print_operand)
            printer.print_string("]")
        print_attr_dict(printer, self, skip=("operandSegmentSizes",))
        printer.print_string(" : ")
        print_stripped(printer, self.result.type)

    def verify_(self) -> None:
        t = cast(PointerType, self.result.type)
        _check(isinstance(t.pointee, TensorType), "result must point to a tensor")
        rank = len(cast(TensorType, t.pointee).get_shape())
        for what, group in (("shape", self.shape), ("strides", self.strides), ("offsets", self.offsets)):
            _check(len(group) == rank, f"expected {rank} {what}, got {len(group)}")
        _check(len(self.order.get_values()) == rank, f"order must have {rank} entries")

    @property
    def order_values(self) -> tuple[int, ...]:
        return tuple(self.order.get_values())  # type: ignore[arg-type]


# -------------------------------------------------------------- loads/stores

_LOAD_DEFAULTS: dict[str, Attribute | None] = {
    "cache": i32_attr(1),
    "evict": i32_attr(1),
    "isVolatile": BoolAttr.from_bool(False),
}


def parse_cache_evict(parser: Parser) -> dict[str, Attribute]:
    """The `cacheModifier = X` / `evictionPolicy = Y` clauses, any order."""
    props: dict[str, Attribute] = {}
    while True:
        if parser.parse_optional_keyword("cacheModifier"):
            parser.parse_punctuation("=")
            props["cache"] = parse_keyword_enum(parser, CACHE, "cache modifier")
        elif parser.parse_optional_keyword("evictionPolicy"):
            parser.parse_punctuation("=")
            props["evict"] = parse_keyword_enum(parser, EVICT, "eviction policy")
        else:
            return props


def print_cache_evict(printer: Printer, op: IRDLOperation) -> None:
    cache, evict = op.properties.get("cache"), op.properties.get("evict")
    if cache is not None and cache != _LOAD_DEFAULTS["cache"]:
        printer.print_string(f" cacheModifier = {enum_keyword(cache, CACHE)}")
    if evict is not None and evict != _LOAD_DEFAULTS["evict"]:
        printer.print_string(f" evictionPolicy = {enum_keyword(evict, EVICT)}")


class _MemoryOp(IRDLOperation):
    """Shared accessors of tt.load / tt.store."""

    @property
    def boundary_check(self) -> tuple[int, ...]:
        bc = self.properties.get("boundaryCheck")
        return tuple(bc.get_values()) if isinstance(bc, DenseArrayBase) else ()  # type: ignore[arg-type]

    @property
    def is_block_pointer(self) -> bool:
        t = self.operands[0].type
        return isinstance(t, PointerType) and t.is_block


@op_definition
class LoadOp(_MemoryOp):
    """`tt.load %ptr (, %mask (, %other)?)? [cacheModifier = ..] {..} : PtrT`."""

    name = "tt.load"
    FAST_SYNTAX: ClassVar[str] = "load"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    result = result_def()
    boundaryCheck = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(IntegerAttr)
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)
    isVolatile = opt_prop_def(BoolAttr)
    irdl_options = (AttrSizedOperandSegments(),)
    INHERENT: ClassVar[tuple[str, ...]] = ("boundaryCheck", "padding", "cache", "evict", "isVolatile")

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        xs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(xs) > 3:
            parser.raise_error("tt.load takes a pointer, an optional mask and an optional other")
        props = parse_cache_evict(parser)
        more, attrs = parse_attr_dict(parser, cls.INHERENT)
        parser.parse_punctuation(":")
        pos = parser.pos
        pt = parser.parse_type()
        try:
            types = [pt, mask_type(pt), pointee_type(pt)][: len(xs)]
        except VerifyException as e:
            parser.raise_error(str(e), pos, parser.pos)
        ops = [parser.resolve_operand(x, t) for x, t in zip(xs, types)]
        return cls.build(
            operands=[ops[0], ops[1:2], ops[2:3]],
            result_types=[pointee_type(pt)],
            properties=props | more,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_cache_evict(printer, self)
        print_attr_dict(printer, self, _LOAD_DEFAULTS, skip=("cache", "evict", "operandSegmentSizes"))
        emit(printer, " : ", self.ptr.type)

    def verify_(self) -> None:
        _check(self.result.type == pointee_type(self.ptr.type), lambda: f"result must be {pointee_type(self.ptr.type)}")
        if self.mask is not None:
            _check(self.mask.type == mask_type(self.ptr.type), lambda: f"mask must be {mask_type(self.ptr.type)}")
        if self.other is not None:
            _check(self.other.type == self.result.type, lambda: f"other must be {self.result.type}")


@op_definition
class StoreOp(_MemoryOp):
    """`tt.store %ptr, %value (, %mask)? [cacheModifier = ..] {..} : PtrT`."""

    name = "tt.store"
    FAST_SYNTAX: ClassVar[str] = "store"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    boundaryCheck = opt_prop_def(DenseArrayBase)
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)
    INHERENT: ClassVar[tuple[str, ...]] = ("boundaryCheck", "cache", "evict")

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        xs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if not 2 <= len(xs) <= 3:
            parser.raise_error("tt.store takes a pointer, a value and an optional mask")
        props = parse_cache_evict(parser)
        more, attrs = parse_attr_dict(parser, cls.INHERENT)
        parser.parse_punctuation(":")
        pos = parser.pos
        pt = parser.parse_type()
        try:
            types = [pt, pointee_type(pt), mask_type(pt)][: len(xs)]
        except VerifyException as e:
            parser.raise_error(str(e), pos, parser.pos)
        ops = [parser.resolve_operand(x, t) for x, t in zip(xs, types)]
        return cls.build(operands=[ops[0], ops[1], ops[2:3]], properties=props | more, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_cache_evict(printer, self)
        print_attr_dict(printer, self, _LOAD_DEFAULTS, skip=("cache", "evict"))
        emit(printer, " : ", self.ptr.type)

    def verify_(self) -> None:
        _check(self.value.type == pointee_type(self.ptr.type), lambda: f"value must be {pointee_type(self.ptr.type)}")
        if self.mask is not None:
            _check(self.mask.type == mask_type(self.ptr.type), lambda: f"mask must be {mask_type(self.ptr.type)}")


# ------------------------------------------------------------------- atomics


class _Atomic(IRDLOperation):
    """`op <enum keywords>, %operands : (T...) -> R`."""

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (RMWKind, Sem, Scope)


@op_definition
class AtomicRMWOp(_Atomic):
    """`tt.atomic_rmw fadd, acq_rel, gpu, %p, %v (, %m)? : (T...) -> R`."""

    name = "tt.atomic_rmw"
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    result = result_def()
    atomic_rmw_op = prop_def(IntegerAttr)
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    assembly_format = (
        "custom<RMWKind>($atomic_rmw_op) `,` custom<Sem>($sem) `,` custom<Scope>($scope) `,` $ptr `,` $val "
        "(`,` $mask^)? attr-dict `:` functional-type(operands, $result)"
    )
    traits = traits_def(Rules((same_operands_and_result_shape, same_operands_and_result_encoding)))


@op_definition
class AtomicCASOp(_Atomic):
    """`tt.atomic_cas acq_rel, gpu, %p, %cmp, %v : (T...) -> R`."""

    name = "tt.atomic_cas"
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    result = result_def()
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    assembly_format = (
        "custom<Sem>($sem) `,` custom<Scope>($scope) `,` $ptr `,` $cmp `,` $val attr-dict `:` "
        "functional-type(operands, $result)"
    )
    traits = traits_def(Rules((same_operands_and_result_shape, same_operands_and_result_encoding)))

    def verify_(self) -> None:
        if not isinstance(element_type(self.ptr.type), PointerType):
            return
        want = pointee_type(self.ptr.type)
        _check(self.cmp.type == want, "failed to verify that ptr type matches cmp type")
        _check(self.val.type == want, "failed to verify that ptr type matches value type")
