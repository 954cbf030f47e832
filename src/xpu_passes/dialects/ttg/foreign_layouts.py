"""Layouts of other backends (`#ttg.nvidia_mma`, `#ttg.amd_mfma`, `#ttg.nvmma_shared`, ...), kept as their
text and printed back verbatim: our passes do not reason about them and leave IR holding them alone
(see `transforms.base.foreign_layout`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects.lazy import FOREIGN_LAYOUTS
from xpu_passes.ir.xdsl_adapt import parse_dialect_symbol_body


class ForeignLayoutAttr(ParametrizedAttribute):
    """A layout kept as the text between its `<` and `>`."""

    body: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        params = (StringAttr(parse_dialect_symbol_body(parser)),)
        try:
            cls(*params)  # verify here, where the text position is known (as StructAttr does)
        except VerifyException as e:
            parser.raise_error(str(e), start, parser.pos)
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.body.data}>")

    def verify(self) -> None:
        if self.name == "ttg.amd_mfma":  # AMDMfmaEncodingAttr::verify
            from xpu_passes.dialects.ttg import foreign_int

            major, minor = foreign_int(self, "versionMajor"), foreign_int(self, "versionMinor") or 0
            m = re.search(r"\binstrShape\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]", self.body.data)
            if major is not None and not 0 <= major <= 4:
                raise VerifyException("major version must be in the [0, 4] range")
            if minor != 0:
                raise VerifyException("minor version must be 0")
            if m and (m.group(1), m.group(2)) not in (("32", "32"), ("16", "16")):
                raise VerifyException("(M, N) cases other than (32, 32) or (16, 16) unimplemented")


def _eq(self: ForeignLayoutAttr, other: object) -> bool:
    return type(other) is type(self) and self.body.data == other.body.data  # type: ignore[attr-defined]


def _hash(self: ForeignLayoutAttr) -> int:
    return hash((self.name, self.body.data))


def _foreign(mnemonic: str) -> type[ForeignLayoutAttr]:
    # (equality and hash by the text: the generated ones of a subclass without fields of its own
    # made every two layouts of one kind equal, and caches by value conflated them)
    cls = type("".join(w.title() for w in mnemonic.split("_")) + "Attr", (ForeignLayoutAttr,),
               {"name": f"ttg.{mnemonic}", "__eq__": _eq, "__hash__": _hash})
    return irdl_attr_definition(cls)


FOREIGN = [_foreign(m) for m in FOREIGN_LAYOUTS]
