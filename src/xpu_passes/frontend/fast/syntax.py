"""Which fast form reads an op: what its class declares (dialects/declared.py), the form
derived from its `assembly_format` where it declares `FAST_SYNTAX = "format"`.

A derived form is the format with its optional groups left out (the fast form reads the
line without them; a line with one goes to xDSL's parser) and each `$name` replaced by
what it names: `$operand`, `$var_operand` (variadic or optional), `$result`, `$attr`.
`FORMS` maps such formats to the forms of frontend/fast/ops*.py.
"""

from __future__ import annotations

import re
from typing import Any

from xpu_passes.dialects.declared import DERIVED, FAST_SYNTAX, declared

FORMS: dict[str, str] = {
    "$operand `,` $operand attr-dict `:` type($result)": "binary",
    "$operand `,` $operand attr-dict `:` type($result) `,` type($operand)": "two_types",
    "$operand attr-dict `:` type($operand) `->` type($result)": "arrow",
    "$operand attr-dict `:` type($result)": "unary",
    "$var_operand attr-dict `:` type($var_operand)": "return",
    "attr-dict ($var_operand^ `:` type($var_operand))?": "return",
    "attr-dict $attr": "constant",
    "attr-dict `:` type($result)": "attrs_result",
    "custom<ProgramDim>($attr) attr-dict `:` type($result)": "program_query",
    "$operand `,` `[` $var_operand `]` attr-dict `:` custom<StrippedPtr>(type($result))": "advance",
}
_OPTIONAL_GROUP = re.compile(r"\([^()]*\)\?")  # no nested parentheses: `type($x)` keeps a group whole
_NAME = re.compile(r"\$(\w+)")


def normalized_format(cls: type) -> str | None:
    """The op's assembly format as FORMS keys it, or None (no declarative format)."""
    op_def = cls.get_irdl_definition()  # type: ignore[attr-defined]
    text = op_def.assembly_format
    if text is None:
        return None
    while (shorter := _OPTIONAL_GROUP.sub("", text)) != text:
        text = shorter
    kinds: dict[str, str] = {}
    for name, d in op_def.operands:
        kinds[name] = "var_operand" if type(d).__name__ in ("VarOperandDef", "OptOperandDef") else "operand"
    for name, d in op_def.results:
        kinds[name] = "var_result" if type(d).__name__ in ("VarResultDef", "OptResultDef") else "result"
    return " ".join(_NAME.sub(lambda m: "$" + kinds.get(m[1], "attr"), text).split())


def form_name(cls: type) -> str | None:
    """The name of the fast form that reads `cls`'s ops, or None (xDSL's parser only)."""
    syntax: Any = declared(cls, FAST_SYNTAX)
    if syntax != DERIVED:
        return syntax
    fmt = normalized_format(cls)
    found = FORMS.get(fmt) if fmt is not None else None
    if found is None:
        raise ValueError(f"{cls.__name__}: FAST_SYNTAX = {DERIVED!r} but no fast form reads its format {fmt!r}")
    return found
