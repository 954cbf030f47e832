"""`tt` ops that say where a program is: its id and the number of programs, and index ranges."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i32
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, prop_def, result_def, traits_def
from xdsl.traits import Pure

from xpu_passes.ir.xdsl_adapt import op_definition
from xpu_passes.dialects._syntax import i32_attr
from xpu_passes.dialects.tt._checks import _check
from xpu_passes.dialects.tt.attributes import ProgramDim


# ---------------------------------------------------------- program and ranges


class _ProgramQuery(IRDLOperation):
    """`op x : i32`."""

    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    axis = prop_def(IntegerAttr)
    result = result_def(i32)
    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (ProgramDim,)
    assembly_format = "custom<ProgramDim>($axis) attr-dict `:` type($result)"

    def __init__(self, axis: int) -> None:
        super().__init__(properties={"axis": i32_attr(axis)}, result_types=[i32])


@op_definition
class GetProgramIdOp(_ProgramQuery):
    name = "tt.get_program_id"


@op_definition
class GetNumProgramsOp(_ProgramQuery):
    name = "tt.get_num_programs"


@op_definition
class MakeRangeOp(IRDLOperation):
    """`tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>`."""

    name = "tt.make_range"
    FAST_SYNTAX: ClassVar[str] = "format"
    VERIFY_ONCE_PER_SIGNATURE: ClassVar[bool] = True
    start = prop_def(IntegerAttr)
    end = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, TensorType)
        _check(self.start.type == i32 and self.end.type == i32, "start and end must be i32 attributes")
        n = self.end.value.data - self.start.value.data
        _check(t.get_shape() == (n,), lambda: f"range [{self.start.value.data}, {self.end.value.data}) does not fill {t}")
        _check(isinstance(t.element_type, IntegerType), "make_range yields integers")
