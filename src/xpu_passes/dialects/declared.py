"""What an op class declares about its text and its verification, in one place per op.

Our op classes declare these as class attributes, next to their `assembly_format` or
their hand-written `parse`/`print`:

- `FAST_SYNTAX`: the front end's one-line form of the op (frontend/fast/): `"format"`
  derives it from the op's `assembly_format` (frontend/fast/syntax.py reads the format);
  a form's name (`"load"`, `"dot"`, ...) where the syntax is hand-written. Not declared:
  the op is read by xDSL's parser only.
- `PRINT_FROM_SIGNATURE`: a hand-written `print` that reads nothing but the op's class,
  properties, attributes, operand/result types and operand names, so the printer may
  print later ops of the same signature from a template (frontend/fast/printer.py).
  Declarative formats are such printers without saying so.
- `FAST_PRINT`: the printer's one-string form of an op with a body (`"func"`).
- `VERIFY_ONCE_PER_SIGNATURE`: the op's verifiers (IRDL's, `verify_`, its traits') read
  nothing but that signature and the enclosing layout context, and not the op's place in
  its block: an op equal in all of them to one verified before is not verified again
  (frontend/verifier.py). Independent of having a fast form.

xDSL's own op classes (arith, math, ub, scf), which we use as they are, are declared in
`_UPSTREAM` below, by class: nothing is set on them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

FAST_SYNTAX = "FAST_SYNTAX"
PRINT_FROM_SIGNATURE = "PRINT_FROM_SIGNATURE"
FAST_PRINT = "FAST_PRINT"
VERIFY_ONCE_PER_SIGNATURE = "VERIFY_ONCE_PER_SIGNATURE"
DERIVED = "format"  # FAST_SYNTAX: the form derived from the op's assembly_format


def _arith(m: Any) -> dict[type, dict[str, Any]]:
    binary = (
        m.AddiOp, m.SubiOp, m.MuliOp, m.DivSIOp, m.DivUIOp, m.RemSIOp, m.RemUIOp, m.AndIOp, m.OrIOp,
        m.XOrIOp, m.ShLIOp, m.ShRSIOp, m.ShRUIOp, m.CeilDivSIOp, m.FloorDivSIOp, m.MaxSIOp, m.MinSIOp,
        m.MaxUIOp, m.MinUIOp, m.AddfOp, m.SubfOp, m.MulfOp, m.DivfOp, m.MaxnumfOp, m.MinnumfOp,
        m.MaximumfOp, m.MinimumfOp,
    )  # fmt: skip
    once = {FAST_SYNTAX: DERIVED, VERIFY_ONCE_PER_SIGNATURE: True}
    return {cls: once for cls in (*binary, m.ConstantOp)}


def _math(m: Any) -> dict[type, dict[str, Any]]:
    once = {FAST_SYNTAX: DERIVED, VERIFY_ONCE_PER_SIGNATURE: True}
    return {cls: once for cls in (m.ExpOp, m.Exp2Op, m.SqrtOp, m.ErfOp)}  # (the ones the corpus checks)


def _ub(m: Any) -> dict[type, dict[str, Any]]:
    return {m.PoisonOp: {FAST_SYNTAX: DERIVED, VERIFY_ONCE_PER_SIGNATURE: True}}


def _scf(m: Any) -> dict[type, dict[str, Any]]:
    return {m.YieldOp: {FAST_SYNTAX: DERIVED}}  # (a terminator: its verifier reads its parent)


# xDSL's module -> its classes' declarations, built when a class of the module is first asked about.
_UPSTREAM: dict[str, Callable[[Any], dict[type, dict[str, Any]]]] = {
    "xdsl.dialects.arith": _arith,
    "xdsl.dialects.math": _math,
    "xdsl.dialects.ub": _ub,
    "xdsl.dialects.scf": _scf,
}
_upstream: dict[str, dict[type, dict[str, Any]]] = {}


def declared(cls: type, what: str, default: Any = None) -> Any:
    """What `cls` declares as `what` (one of the names above), or `default`."""
    found = getattr(cls, what, _NONE)
    if found is not _NONE:
        return found
    module = cls.__module__
    build = _UPSTREAM.get(module)
    if build is None:
        return default
    table = _upstream.get(module)
    if table is None:
        table = _upstream[module] = build(sys.modules[module])
    return table.get(cls, {}).get(what, default)


_NONE = object()


def upstream_classes() -> list[type]:
    """xDSL's classes declared here (tests list every declaring class)."""
    import importlib

    out: list[type] = []
    for module in _UPSTREAM:
        out += _UPSTREAM[module](importlib.import_module(module))
    return out
