"""One text round trip inside a triton compile: triton's module -> our passes in xDSL -> triton's module.

Every failure of ours becomes a `PassFailure` whose message names the pass, the op, its
source position (the kernel's Python line, from the op's location) and its line in the
TTGIR; the plugin turns it into a native compile with one warning, or an error when strict.
"""

from __future__ import annotations

import traceback
from functools import cache
from typing import Any

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation

from xpu_passes import oracle, registry
from xpu_passes.frontend import Spelling, TTGIRError, parse_module, print_module
from xpu_passes.registry import PassSpec


class PassFailure(RuntimeError):
    """One of our passes (or triton on its output) failed while compiling a kernel."""


def source_position(loc: Attribute | None) -> str | None:
    """`file.py:LINE:COL` of a location (through names, call sites and fusions), if any."""
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc):
        return source_position(loc.child_loc)
    if isinstance(loc, CallSiteLoc):
        return source_position(loc.callee)
    if isinstance(loc, FusedLoc):
        return next(filter(None, (source_position(x) for x in loc.locations)), None)
    return None


def describe_op(op: Operation, ttgir_line: int | None) -> str:
    where = [w for w in (source_position(getattr(op, "location", None)),
                         f"ttgir line {ttgir_line}" if ttgir_line else None) if w]
    return f"'{op.name}'" + (f" at {', '.join(where)}" if where else "")


@cache
def _distributions() -> dict[str, list[str]]:
    from importlib.metadata import packages_distributions

    return packages_distributions()


def providers(names: list[str]) -> dict[str, str]:
    """Distribution -> version of the packages that provide the passes `names` (for the cache key)."""
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str] = {}
    passes = registry.python_passes()
    for name in names:
        top = passes[name]().__module__.split(".")[0]
        for dist in _distributions().get(top, [top]):
            try:
                out[dist] = version(dist)
            except PackageNotFoundError:  # a pass defined in a script: its module is all we know
                out[dist] = "unpackaged"
    return dict(sorted(out.items()))


def _diagnostic(message: str) -> str:
    """triton's diagnostic, its first line cut short (it prints whole ops)."""
    first = message.strip().splitlines()[0] if message.strip() else "rejected"
    return first if len(first) <= 300 else first[:300] + " ..."


def _culprit(mod: Any, text: str, specs: list[PassSpec]) -> str:
    """The first of `specs` whose output triton-xpu rejects (found again, pass by pass: failures only)."""
    from xpu_passes.dialects import make_context

    ctx = make_context()
    module = parse_module(ctx, text, "<ttgir>").module
    for spec in specs:
        registry.make_pass(spec).apply(ctx, module)
        out = print_module(module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
        try:
            oracle.parse(out, mod.context)
        except oracle.OracleError:
            return spec.name
    return ", ".join(s.name for s in specs)


def run_python(mod: Any, specs: list[PassSpec]) -> Any:
    """One round trip through `specs` (our passes); returns triton's module of the result."""
    from xpu_passes.dialects import make_context
    from xpu_passes.transforms import PassError

    names = ", ".join(s.name for s in specs)
    passes = [registry.make_pass(s) for s in specs]
    ctx = make_context()
    text = str(mod)
    try:
        parsed = parse_module(ctx, text, "<ttgir>")
    except TTGIRError as e:
        raise PassFailure(f"xpu-passes could not read triton's TTGIR (before {names}): {e}") from None
    for spec, p in zip(specs, passes):
        try:
            p.apply(ctx, parsed.module)
        except PassError as e:
            where = parsed.where(e.op)
            raise PassFailure(f"{spec.name} failed on {describe_op(e.op, where[0] if where else None)}: "
                              f"{e.message}") from None
        except Exception as e:
            frame = traceback.extract_tb(e.__traceback__)[-1]
            raise PassFailure(f"{spec.name} raised {type(e).__name__}: {e} "
                              f"(at {frame.filename}:{frame.lineno})") from e
    out = print_module(parsed.module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
    try:
        return oracle.parse(out, mod.context)
    except oracle.OracleError as e:
        culprit = _culprit(mod, text, specs) if len(specs) > 1 else names
        raise PassFailure(f"triton-xpu rejected the output of {culprit}: {_diagnostic(str(e))}") from None
