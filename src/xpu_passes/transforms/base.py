"""What every xpu-passes pass shares: the registry, remarks, and pass errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.ir import Operation
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class Remark:
    pass_name: str
    op: Operation
    message: str


class RemarkSink:
    """Collects remarks so the driver can print them located in the input."""

    def __init__(self) -> None:
        self.remarks: list[Remark] = []
        self.enabled = False

    def emit(self, pass_name: str, op: Operation, message: str) -> None:
        if self.enabled:
            self.remarks.append(Remark(pass_name, op, message))

    def drain(self) -> list[Remark]:
        out, self.remarks = self.remarks, []
        return out


REMARKS = RemarkSink()


class PassError(Exception):
    """A pass met IR it cannot handle; reported at `op` in the input."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


@dataclass(frozen=True)
class XpuPass(ModulePass):
    """Base of our passes: `remark()` says why a rewrite was not done."""

    name = "xpu-pass"
    summary: ClassVar[str] = ""

    def remark(self, op: Operation, message: str) -> None:
        REMARKS.emit(self.name, op, message)


PASSES: dict[str, Callable[[], type[ModulePass]]] = {}


def register(cls: type[ModulePass]) -> type[ModulePass]:
    """Class decorator: make a pass available to xpu-opt and pipelines."""
    PASSES[cls.name] = lambda: cls
    return cls
