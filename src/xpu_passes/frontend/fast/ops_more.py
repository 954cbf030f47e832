"""Fast parsers of the next most frequent op forms (after frontend/fast/ops.py's): block
terminators, `tt.dot`, `arith.select`, `tt.get_program_id`, unary `math` ops.

Same contract as fastops.py: one regex over the op's line, None (xDSL's parser) for
anything else; `tests/python/frontend/fast/test_ops.py` checks both paths build the same IR.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.ir import Attribute, Operation

from xpu_passes.ir.xdsl_adapt import new_op
from xpu_passes.frontend.fast import build as F

if TYPE_CHECKING:
    from xpu_passes.frontend.fast.memo import MemoParser

_VALS = rf"((?:{F._VAL}, )*{F._VAL})"
_DICT = r"(?: (\{[^{}]*\}))?"
# `%a, %b : T1, T2` or nothing (tt.return, scf.yield, tt.reduce.return).
_RETURN = re.compile(rf"(?:{_VALS} : ([^ ].*))?")
# The types hold no ` * ` or ` -> `; anything else fails fast_type.
_DOT = re.compile(rf"({F._VAL}), ({F._VAL}), ({F._VAL})(?:, inputPrecision = ([a-z0-9]+))?{_DICT} : (.+) \* (.+) -> (.+)")
_AXIS = re.compile(r"([a-z]+) : ([^ ].*)")
_UNARY = re.compile(rf"({F._VAL}) : ([^ ].*)")  # math.exp2 %a : T (no fastmath flags)

_I32: dict[int, Attribute] = {}  # enum values, one object each (verify_key sees repeats)


def _i32(value: int) -> Attribute:
    found = _I32.get(value)
    if found is None:
        found = _I32[value] = IntegerAttr(value, i32)  # (as the ops' own parsers build it)
    return found


# One type of a list: no `,` outside `<...>` (nested up to 4 deep; deeper: xDSL reads it).
_NEST = r"[^<>]*"
for _ in range(4):
    _NEST = rf"(?:[^<>]|<{_NEST}>)*"
_ONE_TYPE = re.compile(rf"(?:[^,<>]|<{_NEST}>)+")


def _type_list(p: MemoParser, start: int, end: int) -> list[Attribute] | None:
    """`T1, T2, ...`: split at the commas outside `<...>`."""
    text = p._text[start:end]
    if "(" in text or "-" in text or '"' in text:
        return None  # function types, `->`, strings: leave it to xDSL
    out: list[Attribute] = []
    pos, n, match = 0, len(text), _ONE_TYPE.match
    while True:
        m = match(text, pos)
        if m is None:
            return None
        t = p.fast_type(start + pos, start + m.end())
        if t is None:
            return None
        out.append(t)
        pos = m.end()
        if pos == n:
            return out
        if not text.startswith(", ", pos):
            return None
        pos += 2


def _return(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    if m.group(1) is None:
        return new_op(cls)
    types = _type_list(p, m.start(2), m.end(2))
    uses = list(F._USE.finditer(m.group(1)))
    if types is None or len(types) != len(uses):
        return None
    at = m.start(1)
    operands = [F.use(p, u.group(1), int(u.group(2) or 0), at + u.start(), t) for u, t in zip(uses, types)]
    return new_op(cls, operands=operands)


def _dot(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    from xpu_passes.dialects.tt import INPUT_PRECISION

    types = [p.fast_type(m.start(g), m.end(g)) for g in (6, 7, 8)]
    split = F._split(p, m, 5, ("maxNumImpreciseAcc", "inputPrecision"))
    if None in types or split is None:
        return None
    props: dict[str, Attribute] = {}
    if m.group(4) is not None:
        if m.group(4) not in INPUT_PRECISION:
            return None
        props["inputPrecision"] = _i32(INPUT_PRECISION[m.group(4)])
    ops = [F._operand(p, m, g, 0, t) for g, t in zip((1, 2, 3), types)]  # type: ignore[arg-type]
    return new_op(cls, operands=ops, result_types=[types[2]], properties=props | split[0], attributes=split[1])  # type: ignore[list-item]


def _program_query(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    from xpu_passes.dialects.tt import PROGRAM_DIM

    t = p.fast_type(m.start(2), m.end(2))
    if m.group(1) not in PROGRAM_DIM or t is None:
        return None
    return new_op(cls, result_types=[t], properties={"axis": _i32(PROGRAM_DIM[m.group(1)])})


def _unary(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    t = p.fast_type(m.start(2), m.end(2))
    return None if t is None else new_op(cls, operands=[F._operand(p, m, 1, 0, t)], result_types=[t])


_SELECT = re.compile(rf"({F._VAL}), ({F._VAL}), ({F._VAL}) : ([^ ].*)")  # %c, %a, %b : T  or  : C, T


def _select(p: MemoParser, cls: type[Operation], m: re.Match[str], base: int) -> Operation | None:
    types = _type_list(p, m.start(4), m.end(4))
    if types is None or len(types) > 2:
        return None
    ct, t = (i1, types[0]) if len(types) == 1 else types
    ops = [F._operand(p, m, 1, 0, ct), F._operand(p, m, 2, 0, t), F._operand(p, m, 3, 0, t)]
    return new_op(cls, operands=ops, result_types=[t])


# The forms (an op class names one in its FAST_SYNTAX, or derives it: frontend/fast/syntax.py).
FORMS: dict[str, tuple[re.Pattern[str], F._Builder]] = {
    "return": (_RETURN, _return),
    "dot": (_DOT, _dot),
    "program_query": (_AXIS, _program_query),
    "unary": (_UNARY, _unary),
    "select": (_SELECT, _select),
}
