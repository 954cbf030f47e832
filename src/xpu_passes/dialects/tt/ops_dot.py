"""`tt.dot` and `tt.dot_scaled`, with the operand encoding checks of Triton's verifier."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from xdsl.dialects.builtin import IntAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    BaseAttr,
    IRDLOperation,
    VarConstraint,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
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
    print_attr_dict,
)
from xpu_passes.dialects.traits import check_inferred, encoding, infer_failed
from xpu_passes.dialects.tt._checks import _bits, _check
from xpu_passes.dialects.tt.attributes import INPUT_PRECISION, SCALE_DOT_ELEM, ScaleDotElem


@op_definition
class DotOp(IRDLOperation):
    """`tt.dot %a, %b, %c(, inputPrecision = tf32)? : A * B -> D`."""

    name = "tt.dot"
    FAST_SYNTAX: ClassVar[str] = "dot"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    PRINT_FROM_SIGNATURE: ClassVar[bool] = True
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    d = result_def(TensorType)
    inputPrecision = opt_prop_def(IntegerAttr)
    maxNumImpreciseAcc = opt_prop_def(IntegerAttr)
    traits = traits_def(Pure())
    DEFAULTS: ClassVar[dict[str, Attribute | None]] = {"maxNumImpreciseAcc": i32_attr(0)}

    @classmethod
    def parse(cls, parser: Parser) -> DotOp:
        xs = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            xs.append(parser.parse_unresolved_operand())
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("inputPrecision")
            parser.parse_punctuation("=")
            props["inputPrecision"] = parse_keyword_enum(parser, INPUT_PRECISION, "input precision")
        more, attrs = parse_attr_dict(parser, ("maxNumImpreciseAcc", "inputPrecision"))
        parser.parse_punctuation(":")
        at = parser.parse_type()
        parser.parse_punctuation("*")
        bt = parser.parse_type()
        parser.parse_punctuation("->")
        dt = parser.parse_type()
        ops = [parser.resolve_operand(x, t) for x, t in zip(xs, (at, bt, dt))]
        return cls.build(operands=ops, result_types=[dt], properties=props | more, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.a, self.b, self.c), printer.print_operand)
        # Triton's format prints the group only when it is not the default (ieee).
        if self.inputPrecision is not None and self.inputPrecision.value.data != INPUT_PRECISION["ieee"]:
            printer.print_string(f", inputPrecision = {enum_keyword(self.inputPrecision, INPUT_PRECISION)}")
        print_attr_dict(printer, self, self.DEFAULTS, skip=("inputPrecision",))
        emit(printer, " : ", self.a.type, " * ", self.b.type, " -> ", self.d.type)

    def verify_(self) -> None:
        a, b, c, d = (cast(TensorType, v.type) for v in (self.a, self.b, self.c, self.d))
        _check(_bits(a.element_type) == _bits(b.element_type),
               "element types of operands A and B must have same bit width", plain=True)
        ea, eb, ec = encoding(a), encoding(b), encoding(c)
        if ea is not None or eb is not None:
            _check(ea is not None and eb is not None, "mismatching encoding between A and B operands", plain=True)
            _check(ec is not None, "miss encoding of C operand", plain=True)
            _dot_encodings_compatible(ea, eb, ec)
        _dot_interface_checks(a, b, c)
        if ea is not None and ec is not None:
            for idx, e in enumerate((ea, eb)):
                if why := _dot_operand_encoding_error(e, idx, ec):
                    raise infer_failed(why)
        check_inferred(self, [c])


def _dot_encodings_compatible(ea: Attribute | None, eb: Attribute | None, ec: Attribute | None) -> None:
    """verifyDotOpEncodingCompatibility of the result layout's dialect (ttg, or Intel's for DPAS)."""
    da, db = (cast(Any, e) if getattr(e, "name", "") == "ttg.dot_op" else None for e in (ea, eb))
    if da is None and db is None:
        return
    intel = getattr(ec, "name", "").startswith("ttig.")
    if not intel and da is not None and _is_hopper(da.parent):
        return
    _check(da is not None and db is not None, "mismatching encoding between A and B operands")
    if not intel:
        _check(da.k_width == db.k_width, "mismatching kWidth between A and B operands")
        return
    dpas = da.parent
    if getattr(dpas, "name", "") != "ttig.dpas":
        return
    _check(dpas == db.parent, "mismatching parent encoding between A and B operands")
    ops = cast(int, dpas.ops_per_chan)
    _check(da.k_width == (ops if ops == 1 else ops // 2), "mismatching kWidth of A operands")
    _check(db.k_width == ops, "mismatching kWidth of B operands")


def _is_hopper(parent: Attribute) -> bool:
    return getattr(parent, "name", "") == "ttg.nvidia_mma" and "versionMajor = 3" in str(parent)


def _dot_operand_encoding_error(e: Attribute | None, idx: int, ret: Attribute) -> str:
    """inferDotOpEncoding: why operand `idx`'s layout does not fit the result layout ('' if it does)."""
    dot = cast(Any, e) if getattr(e, "name", "") == "ttg.dot_op" else None
    if getattr(ret, "name", "") == "ttig.dpas":
        ok = dot is not None and dot.op_idx == idx and getattr(dot.parent, "name", "") == "ttig.dpas"
        return "" if ok else "unexpected operand layout for DPAS"
    if _is_hopper(ret):
        return ""
    if dot is None:
        return "Dot's a/b's encoding should be of DotOperandEncodingAttr"
    if dot.op_idx != idx:
        return "Wrong opIdx"
    return "" if dot.parent == ret else "Incompatible parent encoding"


def _dot_interface_checks(a: TensorType, b: TensorType, c: TensorType) -> None:
    """verifyDotOpInterface (tt.dot, tt.dot_scaled): ranks, K, batch and output dims."""
    sa, sb, sc = a.get_shape(), b.get_shape(), c.get_shape()
    _check(len(sa) in (2, 3), "expected operands to be 2d or 3d")
    _check(len(sa) == len(sb) == len(sc), "expected all operands to have the same rank")
    _check(sa[-1] == sb[-2], "expected the last dimension of the first operand to be equal to the second-to-last "
                             "dimension of the second operand")
    _check(len(sa) == 2 or sa[0] == sc[0] == sb[0], "expected the first dimension of the first operand to be equal "
                                                    "to the first dimension of the result")
    _check(sc[-2] == sa[-2] and sc[-1] == sb[-1], "expected the output shape to be the concatenation of the last "
                                                  "dimension of the first operand and the last dimension of the second ")


@op_definition
class DotScaledOp(IRDLOperation):
    """`tt.dot_scaled %a (scale %sa)?, %b (scale %sb)?, %c lhs = e2m1 rhs = bf16 {fastMath = false} : A(, SA)? * B(, SB)? -> D`."""

    name = "tt.dot_scaled"
    T: ClassVar = VarConstraint("T", BaseAttr(TensorType))
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(T)
    a_scale = opt_operand_def(TensorType)
    b_scale = opt_operand_def(TensorType)
    a_elem_type = prop_def(IntegerAttr)
    b_elem_type = prop_def(IntegerAttr)
    d = result_def(T)
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    # fastMath and the k-pack flags are inherent in Triton: kept where they print (the dict).
    custom_directives = (ScaleDotElem,)
    assembly_format = (
        "$a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c `lhs` `=` custom<ScaleDotElem>($a_elem_type) "
        "`rhs` `=` custom<ScaleDotElem>($b_elem_type) attr-dict `:` type($a) (`,` type($a_scale)^)? `*` type($b) "
        "(`,` type($b_scale)^)? `->` type($d)"
    )

    def verify_(self) -> None:
        """verifyDotOpInterface's K check, with e2m1 packing two elements per byte along K."""
        a, b = (cast(TensorType, v.type).get_shape() for v in (self.a, self.b))
        if len(a) not in (2, 3) or len(b) != len(a):
            return
        ka, kb = a[-1], b[-2]
        for elem, pack, k in ((self.a_elem_type, "lhs_k_pack", "a"), (self.b_elem_type, "rhs_k_pack", "b")):
            packed = self.attributes.get(pack, self.properties.get(pack))
            if elem.value.data == SCALE_DOT_ELEM["e2m1"] and getattr(packed, "value", None) != IntAttr(0):
                ka, kb = (ka * 2, kb) if k == "a" else (ka, kb * 2)
        if ka != kb:
            raise VerifyException("expected the last dimension of the first operand to be equal to the "
                                  "second-to-last dimension of the second operand")
