"""`tt` tensor ops that move or reshape elements: splat, broadcast, expand_dims, trans,
join/cat/split, reshape, gather, histogram.
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, UnitAttr
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import UnaryOp
from xpu_passes.dialects.traits import (
    Rules,
    check_inferred,
    encoding,
    infer_failed,
    reshape_expected,
    same_operands_and_result_encoding,
)
from xpu_passes.dialects.tt._checks import _check, _inferred, _numel
from xpu_passes.dialects.tt.types import element_type


# --------------------------------------------------------------- simple ops


@op_definition
class SplatOp(UnaryOp):
    name = "tt.splat"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    traits = traits_def(Pure(), Rules((same_operands_and_result_encoding,)))

    def verify_(self) -> None:
        _check(isinstance(self.result.type, TensorType), "result must be a tensor")
        _check(element_type(self.result.type) == self.src.type, "element type must match the operand")


@op_definition
class BroadcastOp(UnaryOp):
    name = "tt.broadcast"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    traits = traits_def(Pure(), Rules((same_operands_and_result_encoding,)))

    def verify_(self) -> None:
        s, r = self.src.type, self.result.type
        _check(isinstance(s, TensorType) and isinstance(r, TensorType), "operand and result must be tensors")
        assert isinstance(s, TensorType) and isinstance(r, TensorType)
        _check(s.element_type == r.element_type, "requires the same element type for all operands and results")
        _check(len(s.get_shape()) == len(r.get_shape()), "rank of source must be same as rank of result", plain=True)
        for i, (a, b) in enumerate(zip(s.get_shape(), r.get_shape())):
            _check(a == b or a == 1, lambda: f"Different dimensions at index {i} between source and result.  "
                                             "Broadcast requires the source dimension to be 1.", plain=True)


@op_definition
class ExpandDimsOp(UnaryOp):
    name = "tt.expand_dims"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    axis = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        s, r = self.src.type, self.result.type
        _check(isinstance(s, TensorType) and isinstance(r, TensorType), "operand and result must be tensors")
        assert isinstance(s, TensorType) and isinstance(r, TensorType)
        shape = list(s.get_shape())
        ax = self.axis.value.data
        _check(0 <= ax <= len(shape), f"axis {ax} out of range")
        shape.insert(ax, 1)
        _check(tuple(shape) == tuple(r.get_shape()), lambda: f"expand_dims {s} along {ax} is not {r}")


@op_definition
class TransOp(UnaryOp):
    name = "tt.trans"
    order = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        s, r = self.src.type, self.result.type
        _check(isinstance(s, TensorType) and isinstance(r, TensorType), "operand and result must be tensors")
        assert isinstance(s, TensorType) and isinstance(r, TensorType)
        order = [int(v) for v in self.order.get_values()]
        rank = len(s.get_shape())
        _check(len(order) == rank == len(r.get_shape()),
               "order must have the same size as the rank of the operand and result", plain=True)
        _check(sorted(order) == list(range(rank)), "order must be a permutation of [0, ..., rank - 1]", plain=True)
        _check([s.get_shape()[p] for p in order] == list(r.get_shape()),
               "result shape must match the permutation of the source shape", plain=True)
        from xpu_passes.dialects.ttg.infer_layout import trans_encoding  # (ttg imports tt)

        enc = encoding(s)
        out = trans_encoding(enc, order) if enc is not None else None
        check_inferred(self, [_inferred([s.get_shape()[p] for p in order], s.element_type, enc, out, r)])


@op_definition
class HistogramOp(UnaryOp):
    name = "tt.histogram"


class _Binary(IRDLOperation):
    """`op %a, %b : T -> U`."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"


@op_definition
class JoinOp(_Binary):
    name = "tt.join"

    def verify_(self) -> None:
        t = self.lhs.type
        # MLIR rejects a non-tensor while parsing the custom form; same line, same words.
        _check(isinstance(t, TensorType), "invalid kind of type specified")
        assert isinstance(t, TensorType)
        from xpu_passes.dialects.ttg.infer_layout import join_encoding

        enc = encoding(t)
        out = join_encoding(enc) if enc is not None else None
        check_inferred(self, [_inferred([*t.get_shape(), 2], t.element_type, enc, out, self.result.type)])


@op_definition
class CatOp(_Binary):
    name = "tt.cat"


@op_definition
class SplitOp(IRDLOperation):
    """`%l, %r = tt.split %x : T -> U`."""

    name = "tt.split"
    U: ClassVar = VarConstraint("U", AnyAttr())
    src = operand_def()
    outLHS = result_def(U)
    outRHS = result_def(U)
    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($outLHS)"

    def verify_(self) -> None:
        t = self.src.type
        _check(isinstance(t, TensorType), "invalid kind of type specified")
        assert isinstance(t, TensorType)
        shape = t.get_shape()
        if not shape or shape[-1] != 2:
            raise infer_failed("last dimension of input tensor must be 2")
        from xpu_passes.dialects.ttg.infer_layout import split_encoding

        enc = encoding(t)
        out = split_encoding(enc) if enc is not None else None
        if isinstance(out, str):
            raise infer_failed(out)
        want = _inferred(shape[:-1], t.element_type, enc, out, self.outLHS.type)
        check_inferred(self, [want, want])


@op_definition
class ReshapeOp(IRDLOperation):
    """`tt.reshape %x (allow_reorder)? (efficient_layout)? : T -> U`."""

    name = "tt.reshape"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    src = operand_def()
    result = result_def()
    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict `:` "
        "type($src) `->` type($result)"
    )

    def verify_(self) -> None:
        s, r = self.src.type, self.result.type
        _check(isinstance(s, TensorType) and isinstance(r, TensorType), "operand and result must be tensors")
        assert isinstance(s, TensorType) and isinstance(r, TensorType)
        _check(_numel(s) == _numel(r), "number of src and dst elements of reshape must be the same", plain=True)
        _check((encoding(s) is None) == (encoding(r) is None),
               "Op requires that either (a) src and dst both have encodings, or (b) neither does.", plain=True)
        es, er = encoding(s), encoding(r)
        if es is not None and er is not None and self.allow_reorder is None:
            want = reshape_expected(es, s.get_shape(), er, r.get_shape())
            _check(want is None, lambda: f"Expected result encoding {want} but was {er}", plain=True)




@op_definition
class GatherOp(IRDLOperation):
    """`tt.gather %src[%idx] {axis = 0 : i32} : (T, I) -> R`."""

    name = "tt.gather"
    src = operand_def(TensorType)
    indices = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        s, i, r = (cast(TensorType, v.type) for v in (self.src, self.indices, self.result))
        ss, si = s.get_shape(), i.get_shape()
        _check(si == r.get_shape(), "indices and output shapes must match")
        _check(encoding(i) == encoding(r), "indices and output encodings must match")
        _check(s.element_type == r.element_type, "input and output element types must match")
        _check(len(ss) == len(si), "input and indices ranks must match")
        axis = self.axis.value.data
        _check(axis < len(ss), "gather dimension must be less than the input rank")
        for dim in range(len(si)):
            _check(dim == axis or si[dim] == ss[dim], lambda: f"indices dimension {dim} must match the corresponding "
                                                             "input dimension")
