"""xDSL's `gpu` with `gpu.barrier`'s text (xDSL defines it without a custom format); its own
module so that reading `scf` does not import xDSL's `gpu` (and `memref`)."""

from __future__ import annotations

from xdsl.dialects import gpu
from xdsl.parser import Parser
from xdsl.printer import Printer

from xpu_passes.dialects.scf_gpu import replace_ops


class BarrierOp(gpu.BarrierOp):
    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        op = cls()
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)


GPU = replace_ops(gpu.GPU, [BarrierOp])
