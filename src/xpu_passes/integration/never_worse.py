"""Never worse than triton-xpu's own pass, by construction: run both on the same input, keep the better.

A pass of ours with the option `never-worse-than-native` (RemoveLayoutConversions) is run
through `apply`: triton-xpu's pass of the same flag runs on a copy of the same input (the
module's print, parsed by triton-xpu), its result is read back, and the whole-module figures
of both results (`remove_layout_conversions.solution.figures`: loop-weighted cost of
conversions and scan/reduce scratch, SLM bytes, conversions) decide which is kept. Ours is kept
only when it is no worse in every figure (ties included: see `native_wins`); otherwise, or when
ours ran out of its work budget (OVER_BUDGET), native's result replaces the module. A remark
says which was kept and why. The round trip (`roundtrip._apply`) and xpu-opt (`driver/chunk.py`)
call this with their own way to run the native pass (`NativeRun`: text in, triton's print out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xpu_passes import registry
from xpu_passes.integration.native_passes import NATIVE_BY_NAME
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.transforms.base import OVER_BUDGET, REMARKS, UNCHANGED, last_said

# (a module's text, a native pass's flag) -> triton-xpu's print of that pass's result on it
NativeRun = Callable[[str, str], str]

# The figures compared, in the order a remark names them.
FIGURES = ("slm", "converts", "cost")


def guarded(p: ModulePass) -> bool:
    """Whether `p` asks for the comparison (its option) and triton-xpu has a pass of its flag."""
    return bool(getattr(p, "never_worse_than_native", False)) and p.name in NATIVE_BY_NAME


def native_wins(ours: Any, native: Any) -> list[str]:
    """The figures in which `ours` is worse than `native` (empty: ours is kept).

    Componentwise, so the kept result is never worse than native's in any figure. A tie keeps
    ours: the later passes of our pipeline (block I/O encoding, its legalization) were written
    and tested against our results, and on ties the output stays what it was without the guard.
    """
    return [f"{f} {getattr(ours, f)} > {getattr(native, f)}" for f in FIGURES if getattr(ours, f) > getattr(native, f)]


def in_process(context: Any) -> NativeRun:
    """Native's pass run in this process, in triton's `context` (the compile's)."""
    from xpu_passes.integration import oracle

    def run(text: str, flag: str) -> str:
        mod = oracle.parse(text, context)
        registry.run_native(mod, [registry.PassSpec(registry.native_name(flag), {})], {})
        return str(mod)

    return run


def apply(p: ModulePass, ctx: Context, module: ModuleOp, native: NativeRun, text: str | None = None) -> str | None:
    """Run `p` on `module`, guarded (`guarded(p)`); returns what the run says of its result
    (`transforms.base` UNCHANGED or None). `text`: a print of `module` triton-xpu reads, if at hand.
    `native(text, flag)` runs triton-xpu's pass `flag` on `text` and returns its print."""
    from xpu_passes.transforms.remove_layout_conversions.solution import figures

    if text is None:
        text = print_module(module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
    p.apply(ctx, module)
    said = last_said()
    over = said == OVER_BUDGET
    try:
        out = native(text, p.name)
        theirs = parse_module(ctx, out, "<native>", verify=False).module
    except Exception as e:  # triton-xpu missing, rejecting the text or failing; our parser failing
        kept = "input kept: ours ran out of its work budget and" if over else "ours kept:"
        _remark(p, module, f"{kept} triton-xpu's pass could not be compared ({_first_line(e)})")
        return said if said == UNCHANGED else None
    if over:
        _adopt(module, theirs)
        _remark(p, module, "native's result kept: ours ran out of its work budget")
        return None
    mine, other = figures(module), figures(theirs)
    losses = native_wins(mine, other)
    if losses:
        _adopt(module, theirs)
        _remark(p, module, f"native's result kept: ours would leave {', '.join(losses)} "
                           f"(ours: {mine}; native: {other})")
        return None
    _remark(p, module, f"ours kept: {mine}; native: {other}")
    # A later run on this result would compare with native's run on it, which was not made here:
    # only "unchanged" (the same input again, so the same two results) still holds.
    return said if said == UNCHANGED else None


def _remark(p: ModulePass, module: ModuleOp, message: str) -> None:
    REMARKS.emit(p.name, module, message)


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return (lines[0] if lines else type(e).__name__)[:200]


def _adopt(dst: ModuleOp, src: ModuleOp) -> None:
    """`dst` takes `src`'s body (`src`: native's result for `dst`'s input; the pass leaves the
    module's own attributes alone)."""
    for b in list(dst.body.blocks):
        dst.body.detach_block(b).drop_all_references()
    src.body.move_blocks(dst.body)
