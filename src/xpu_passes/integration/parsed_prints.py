"""Final TTGIR prints a guard parsed to judge them, handed to the round trip that reads the same print next.

The stage guard's judge (stage_figures) and the raising comparison (never_worse.compare_raising) parse the
final TTGIRs they compare; the passes that run after the comparison (pipeline.AFTER_COMPARISON) then read
the kept one in their round trip, which parsed that very print again. A guard parses as a round trip
parses triton's print (`parse`: our strict context, trusted, no verifier) and only reads the module; within
a compile's stage comparison (`scope`) the module is offered, and the round trip reading that print
(roundtrip.run_python, when its session holds nothing for it) takes it instead of parsing it: the same
module, parsed once. Per compile and per context (a ContextVar), never process-wide; an offer not taken
goes with the scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.context import Context

from xpu_passes.frontend.parser import ParsedModule, parse_module

# print -> (the context it was parsed in, the module), for the compile's stage comparison (`scope`).
_OFFERED: ContextVar[dict[str, tuple[Context, ParsedModule]] | None] = ContextVar("xpu_passes_parsed_prints",
                                                                                     default=None)


@contextmanager
def scope() -> Iterator[None]:
    """A compile's stage comparison: what `parse` reads is offered to its round trips until it ends."""
    token = _OFFERED.set({})
    try:
        yield
    finally:
        _OFFERED.reset(token)


def parse(text: str) -> ParsedModule:
    """`text` (triton's print of a final TTGIR) parsed as a round trip parses it (raises what the parser
    raises); offered to the round trip that reads it next (`take`). The caller only reads the module."""
    from xpu_passes.dialects import make_context

    ctx = make_context()
    parsed = parse_module(ctx, text, "<ttgir>", verify=False)
    offered = _OFFERED.get()
    if offered is not None:
        offered[text] = (ctx, parsed)
    return parsed


def take(text: str) -> tuple[Context, ParsedModule] | None:
    """The module a guard parsed from `text` in this scope, if any (then it is the caller's to change:
    no longer offered)."""
    offered = _OFFERED.get()
    return None if offered is None else offered.pop(text, None)
