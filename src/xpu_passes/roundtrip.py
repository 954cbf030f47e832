"""One text round trip inside a triton compile: triton's module -> our passes in xDSL -> triton's module.

Every failure of ours becomes a `PassFailure` whose message names the pass, the op, its
source position (the kernel's Python line, from the op's location) and its line in the
TTGIR; the plugin turns it into a native compile with one warning, or an error when strict.
"""

from __future__ import annotations

import traceback
from functools import cache
from time import perf_counter
from typing import Any

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from xpu_passes import oracle, registry
from xpu_passes.frontend import Spelling, TTGIRError, parse_module, print_module


class PassFailure(RuntimeError):
    """One of our passes (or triton on its output) failed while compiling a kernel."""


# benchmarks/compile_time.py sets a dict here: seconds per phase (and op counts) are added to it,
# on CLOCK (its --cpu: time.process_time, steadier than wall time on a shared machine).
TIMES: dict[str, float] | None = None
CLOCK = perf_counter


def record(key: str, since: float) -> float:
    now = CLOCK()
    if TIMES is not None:
        TIMES[key] = TIMES.get(key, 0.0) + now - since
    return now


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


@cache
def source_hash(top: str) -> str:
    """8 hex digits of the sources of top-level module/package `top` (as triton hashes its own):
    an edit to a pass (an editable install, a script) changes the cache key without a new version."""
    import hashlib
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec(top)
    h = hashlib.sha256()
    if spec is not None and spec.origin and spec.origin not in ("built-in", "frozen"):
        origin = Path(spec.origin)
        files = sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
        for f in files:
            h.update(f.read_bytes())
    return h.hexdigest()[:8]


def providers(names: list[str]) -> dict[str, str]:
    """Distribution -> version+source hash of the packages that provide the passes `names` (for the cache key)."""
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str] = {}
    passes = registry.python_passes()
    for name in names:
        top = passes[name]().__module__.split(".")[0]
        if top not in _distributions():
            _distributions.cache_clear()  # installed since (sys.path changes): look again
        for dist in _distributions().get(top, [top]):
            try:
                v = version(dist)
            except PackageNotFoundError:  # a pass defined in a script: its source is all we know
                v = "unpackaged"
            out[dist] = f"{v}+{source_hash(top)}"
    return dict(sorted(out.items()))


def _diagnostic(message: str) -> str:
    """triton's diagnostic, its first line cut short (it prints whole ops)."""
    first = message.strip().splitlines()[0] if message.strip() else "rejected"
    return first if len(first) <= 300 else first[:300] + " ..."


def _culprit(mod: Any, text: str, passes: list[tuple[str, ModulePass]]) -> str:
    """The first pass whose output triton-xpu rejects (found again, pass by pass: failures only)."""
    from xpu_passes.dialects import make_context

    ctx = make_context()
    module = parse_module(ctx, text, "<ttgir>").module
    for name, p in passes:
        p.apply(ctx, module)
        out = print_module(module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
        try:
            oracle.parse(out, mod.context)
        except oracle.OracleError:
            return name
    return ", ".join(name for name, _ in passes)


def run_python(mod: Any, passes: list[tuple[str, ModulePass]], text: str | None = None) -> Any:
    """One round trip through `passes` (name, instance); returns triton's module of the result.
    `text`: triton's print of `mod`, if the caller has it."""
    from xpu_passes.dialects import make_context
    from xpu_passes.transforms import PassError
    from xpu_passes.transforms.base import judged_clean

    names = ", ".join(name for name, _ in passes)
    t = CLOCK()
    ctx = make_context()
    text = str(mod) if text is None else text
    t = record("triton_print", t)
    try:
        parsed = parse_module(ctx, text, "<ttgir>")
    except TTGIRError as e:
        raise PassFailure(f"xpu-passes could not read triton's TTGIR (before {names}): {e}") from None
    t = record("parse", t)
    if TIMES is not None:
        TIMES["ops"] = TIMES.get("ops", 0) + sum(1 for _ in parsed.module.walk())
        t = CLOCK()
    with judged_clean(parsed.module):  # the foreign-layout check once, not once per pass
        for name, p in passes:
            try:
                p.apply(ctx, parsed.module)
            except PassError as e:
                where = parsed.where(e.op)
                raise PassFailure(f"{name} failed on {describe_op(e.op, where[0] if where else None)}: "
                                  f"{e.message}") from None
            except Exception as e:
                frame = traceback.extract_tb(e.__traceback__)[-1]
                raise PassFailure(f"{name} raised {type(e).__name__}: {e} "
                                  f"(at {frame.filename}:{frame.lineno})") from e
            t = record(f"pass:{name}", t)
    out = print_module(parsed.module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
    t = record("print", t)
    try:
        result = oracle.parse(out, mod.context)
    except oracle.OracleError as e:
        culprit = _culprit(mod, text, passes) if len(passes) > 1 else names
        raise PassFailure(f"triton-xpu rejected the output of {culprit}: {_diagnostic(str(e))}") from None
    record("triton_parse", t)
    if TIMES is not None:
        TIMES["round_trips"] = TIMES.get("round_trips", 0) + 1
    return result
