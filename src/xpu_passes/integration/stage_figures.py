"""Figures of a TTGIR stage's result, read from triton's own module: what the final kernel is judged by.

RemoveLayoutConversions' figures (`solution.figures`) judge one position; a kernel is judged after
the whole stage (third-party benchmark, corpus_compare): the SLM triton-xpu allocates, the
conversions left, and the 2D block messages of loads and stores. Different inputs at each position
(ours earlier in the stage) can make the end worse though each position is not. These figures are
cheap enough to take on every compile: SLM by triton-xpu's own allocation, run on a copy (the
passes make_llir runs before it), the rest from the module's print.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# Loop nesting multiplies what an access or conversion weighs (as RemoveLayoutConversions' costs.LOOP_WEIGHT).
LOOP_WEIGHT = 8
# make_llir's passes up to its SLM allocation that change what is allocated.
_ALLOCATION = ("intel-decompose-unsupported-conversions", "allocate-shared-memory")


@dataclass(frozen=True)
class StageFigures:
    shared: int  # SLM bytes triton-xpu allocates for the kernel (-1: not allocated, see cheap_figures)
    converts: int  # ttg.convert_layout left
    block_io: int  # loop-weighted elements of loads/stores in a layout 3.3 lowers to 2D block messages
    block_writes: int = 0  # of which stores: reads and writes are compared apart (one must not pay for the other)

    def losses(self, native: StageFigures) -> list[str]:
        """The figures in which these are worse than `native`'s (empty: no worse in any)."""
        out = []
        if self.shared > native.shared >= 0:
            out.append(f"SLM {self.shared} > {native.shared}")
        if self.converts > native.converts:
            out.append(f"conversions {self.converts} > {native.converts}")
        reads, native_reads = self.block_io - self.block_writes, native.block_io - native.block_writes
        if reads < native_reads:
            out.append(f"2D block read elements {reads} < {native_reads}")
        if self.block_writes < native.block_writes:
            out.append(f"2D block write elements {self.block_writes} < {native.block_writes}")
        return out

    def __str__(self) -> str:
        slm = f"{self.shared} bytes of SLM" if self.shared >= 0 else "SLM not allocated"
        return f"{slm}, {self.converts} conversion(s), {self.block_io} 2D block I/O elements"


def stage_figures(mod: Any, text: str | None = None) -> StageFigures:
    """`mod`: a triton module after the TTGIR stage (left as it is); `text`: its print, if at hand."""
    text = str(mod) if text is None else text
    return StageFigures(allocated_shared(text, mod.context), text.count("ttg.convert_layout"), *_block_io(text))


def cheap_figures(text: str) -> StageFigures:
    """The figures of a print without the SLM (-1): what decides most comparisons, without an allocation."""
    return StageFigures(-1, text.count("ttg.convert_layout"), *_block_io(text))


def allocated_shared(text: str, context: Any) -> int:
    """SLM bytes triton-xpu's allocation gives the module printed as `text` (on a copy)."""
    from xpu_passes import registry
    from xpu_passes.integration import oracle
    from xpu_passes.integration.native_passes import run_native

    copy = oracle.parse(text, context)
    run_native(copy, [registry.PassSpec(name, {}) for name in _ALLOCATION], {})
    return int(copy.get_int_attr("ttg.shared") or 0)


_ALIAS = re.compile(r"^(#[\w.$-]+) = (.*)$", re.M)
_LOC = re.compile(r"\s*loc\(.*$")
_ACCESS = re.compile(r"^( *)(?:%\S+ = )?tt\.(load|store) ")
_TENSOR = re.compile(r"tensor<([0-9x]+)x[a-z0-9]+, (#[\w.]+(?:<\{.*?\}>)?)>")
_DPAS = ("triton_intel_gpu.dpas", "ttig.dpas")


def block_io_elements(text: str) -> int:
    """Loop-weighted elements of loads and stores that lower to 2D block messages (see _block_io)."""
    return _block_io(text)[0]


def _block_io(text: str) -> tuple[int, int]:
    """(all, of which stores): loop-weighted elements of the loads tagged `block_io` and the stores of block pointers (or
    tagged) whose layout is DPAS or a DPAS dot operand: what triton-xpu 3.3 lowers to 2D block
    reads/writes (a tagged load in another layout becomes gathers). Depth from the print's indent."""
    dpas = {m[1] for m in _ALIAS.finditer(text) if m[2].lstrip("#").startswith(_DPAS)}
    total = writes = 0
    for line in text.splitlines():
        m = _ACCESS.match(line)
        if m is None:
            continue
        line = _LOC.sub("", line)
        tagged = "block_io" in line
        if m[2] == "load" and not tagged:
            continue
        head, _, ty = line.rpartition(" : ")
        if m[2] == "store" and not (tagged or ty.startswith("!tt.ptr<tensor<")):
            continue
        t = _TENSOR.search(ty)
        if t is None or not _lowers_2d(t[2], dpas):
            continue
        n = 1
        for d in t[1].split("x"):
            n *= int(d)
        depth = max(0, (len(m[1]) - 4) // 2)  # (a function's body is indented by 4, each region by 2 more)
        total += n * LOOP_WEIGHT ** depth
        writes += n * LOOP_WEIGHT ** depth if m[2] == "store" else 0
    return total, writes


def _lowers_2d(enc: str, dpas: set[str]) -> bool:
    if enc in dpas or enc.lstrip("#").startswith(_DPAS):
        return True
    if enc.startswith("#ttg.dot_op<"):
        parent = re.search(r"parent = (#[\w.]+)", enc)
        return parent is not None and (parent[1] in dpas or parent[1].lstrip("#").startswith(_DPAS))
    return False
