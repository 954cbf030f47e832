"""Fast parsers of `tt.func`'s and `scf.for`'s headers (the op's line up to its body's `{`).

Triton prints each function on one line: `tt.func public @k(%arg0: !tt.ptr<f16>
{tt.divisibility = 16 : i32} loc(#loc1), ...) -> T attributes {noinline = false} {`.
xDSL reads it token by token; here one regex per argument, the types, dictionaries and
locations from the same tables as fastops.py. The body is xDSL's `parse_region` (its ops
take the fast paths one by one), and the op is built as `FuncOp.parse` builds it. A header
of any other shape (result attributes, quoted names with escapes, unnamed arguments,
several lines...) is left to xDSL before anything is consumed; errors in the body are the
body's. `tests/python/frontend/fast/test_regions.py` checks both paths build the same IR.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import UNKNOWN_LOC, IndexType
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span

from xpu_passes.frontend.fast.build import use as fast_use
from xpu_passes.frontend.fast.ops_more import _type_list
from xpu_passes.frontend.fast.types import TYPE_TEXT
from xpu_passes.frontend.fast.memo import _SIMPLE_LOC
from xpu_passes.frontend.fast.types import function_type
from xpu_passes.ir.xdsl_adapt import new_op

if TYPE_CHECKING:
    from xdsl.ir import Block, LocationAttr, Region

    from xpu_passes.frontend.fast.memo import MemoParser

_OP = r"[a-z_]+\.[a-z_0-9.]+"  # the op's name (its class declared the form: dialects/declared.py)
_HEAD = re.compile(rf'{_OP} (?:(public|private|nested) )?@([\w$.]+|"[^"\\\n]*")\(')
_ARG = re.compile(r"%([0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*): ")
_DICT = re.compile(r" (\{[^{}\n]*\})")
_TAIL = re.compile(r"\)(?: -> (\([^(){}\n]*\)|[^ (){}\n]+))?(?: attributes (\{[^{}\n]*\}))? \{[ \t]*\n")
_RESERVED = ("sym_name", "function_type", "sym_visibility")


def _region(p: MemoParser, args: list[Parser.Argument], dialect: str) -> Region:
    """The body, read by xDSL with `dialect` as the default dialect (as the op's own parser does)."""
    stack = p.dialect_stack
    stack.append(dialect)
    try:
        return p.parse_region(args)
    finally:
        stack.pop()

def parse_func(p: MemoParser, cls: type[Operation], start: int) -> Operation | None:
    """The `tt.func` at `start` (name at `start`), or None with nothing consumed."""
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr

    text = p._text
    head = _HEAD.match(text, start)  # (a result, `%x = tt.func`: xDSL's error)
    if head is None:
        return None
    read = _arg_list(p, head.end(), True)
    if read is None:
        return None
    found, at = read
    args = [Parser.Argument(Span(m.start(), m.start() + 1 + len(m.group(1)), p.lexer.input), t, loc)
            for m, t, _, loc in found]
    arg_attrs = [attrs for _, _, attrs, _ in found]
    tail = _TAIL.match(text, at)
    if tail is None:
        return None
    outs: list[Attribute] = []
    if tail.group(1) is not None:
        found = _types(p, tail.start(1), tail.end(1))
        if found is None:
            return None
        outs = found
    extra = None
    if tail.group(2) is not None:
        items = p.fast_attr_dict(tail.start(2), tail.end(2))
        if items is None or any(k in _RESERVED for k, _ in items):
            return None  # (the reserved names: xDSL's error)
        extra = DictionaryAttr(dict(items))
    name = head.group(2)
    # Committed: the body is parsed now; its errors are its own.
    p.resume_from(tail.start() + len(tail.group().rstrip(" \t\n")) - 1)  # at the `{`
    # No value in scope before the body and no reference left open after it: every value the
    # body uses is defined in it (IsolatedFromAbove holds; the verifier need not walk it).
    nothing_above = not p.ssa_values and not p.forward_ssa_references
    region = _region(p, args, "tt")
    nothing_above = nothing_above and not p.forward_ssa_references
    visibility = head.group(1)
    props: dict[str, Attribute | None] = {
        "sym_name": StringAttr(name[1:-1] if name.startswith('"') else name),
        "function_type": function_type([a.type for a in args], outs),
        "sym_visibility": StringAttr(visibility) if visibility else None,
        "arg_attrs": ArrayAttr(DictionaryAttr(a) for a in arg_attrs) if any(arg_attrs) else None,
    }
    op = cls.build(properties={k: v for k, v in props.items() if v is not None}, regions=[region])  # type: ignore[attr-defined]
    if extra is not None:
        op.attributes |= extra.data
    if (loc := p.parse_optional_location()) is not None:
        op.location = loc
    if nothing_above and (isolated := getattr(p, "isolated", None)) is not None:
        isolated.add(op)
    return op


_NAME = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_VAL = rf"%{_NAME}(?:#[0-9]+)?"
_FOR_RESULTS = re.compile(rf"%({_NAME})(?::([0-9]+))? = ")
_FOR = re.compile(
    rf"{_OP} %({_NAME}) = ({_VAL}) to ({_VAL}) step ({_VAL})"
    rf"(?: iter_args\(((?:%{_NAME} = {_VAL}, )*%{_NAME} = {_VAL})\) -> (\([^(){{}}\n]*\)|[^ (){{}}\n]+))?"
    r" +(?:: ([^ {}\n]+) )?\{[ \t]*\n"
)
_PAIR = re.compile(rf"%({_NAME}) = ({_VAL})")
_USE = re.compile(rf"%({_NAME})(?:#([0-9]+))?")


def parse_for(p: MemoParser, cls: type[Operation], start: int) -> Operation | None:
    """The `scf.for` whose line starts at `start` (results included), as mlir_compat's
    ForOp.parse builds it, or None with nothing consumed."""
    text = p._text
    res = _FOR_RESULTS.match(text, start)
    m = _FOR.match(text, res.end() if res is not None else start)
    if m is None:
        return None
    pairs = list(_PAIR.finditer(m.group(5))) if m.group(5) is not None else []
    bound = 0 if res is None else int(res.group(2) or 1)
    if bound not in (0, len(pairs)):
        return None  # (xDSL's error)
    types: list[Attribute] = []
    if pairs:
        found = _types(p, m.start(6), m.end(6))
        if found is None or len(found) != len(pairs):
            return None
        types = found
    iv_type = IndexType() if m.group(7) is None else p.fast_type(m.start(7), m.end(7))
    if iv_type is None:
        return None

    def use(at: int, value: str, t: Attribute):  # type: ignore[no-untyped-def]
        u = _USE.fullmatch(value)
        assert u is not None
        return fast_use(p, u.group(1), int(u.group(2) or 0), at, t)

    def arg(at: int, name: str, t: Attribute) -> Parser.Argument:
        return Parser.Argument(Span(at, at + 1 + len(name), p.lexer.input), t)

    # Committed: operands are resolved (their errors are xDSL's, at the same places), then the body.
    base = m.start(5)
    inits = [use(base + q.start(2), q.group(2), t) for q, t in zip(pairs, types)]
    lb, ub, step = (use(m.start(g), m.group(g), iv_type) for g in (2, 3, 4))
    p.resume_from(m.end() - len(m.group()) + len(m.group().rstrip(" \t\n")) - 1)  # at the `{`
    args = [arg(m.start(1) - 1, m.group(1), iv_type)]
    args += [arg(base + q.start(1) - 1, q.group(1), t) for q, t in zip(pairs, types)]
    body = _region(p, args, "scf")
    op = cls(lb, ub, step, inits, body)  # type: ignore[call-arg]
    op.attributes |= p.parse_optional_attr_dict()
    if not pairs:
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
    if (loc := p.parse_optional_location()) is not None:
        op.location = loc
    if res is not None:
        p._register_ssa_definition(res.group(1), op.results, Span(start, start + 1 + len(res.group(1)), p.lexer.input))
    return op


def _types(p: MemoParser, start: int, end: int) -> list[Attribute] | None:
    """`(T, U)` or `T`."""
    if p._text.startswith("(", start):
        return [] if end - start == 2 else _type_list(p, start + 1, end - 1)
    t = p.fast_type(start, end)
    return None if t is None else [t]


# `%r = "tt.reduce"(%a, %b) <{axis = 1 : i32}> ({` (triton prints tt.reduce and tt.scan generic).
_GENERIC = re.compile(
    rf'(?:%({_NAME})(?::([0-9]+))? = )?"({_OP})"\(((?:{_VAL}, )*{_VAL})\) <(\{{[^{{}}\n]*\}})> \(\{{[ \t]*\n'
)
_GENERIC_TAIL = re.compile(r"\) : \(([^()\n]*)\) -> (\([^()\n]*\)|[^()\n]+?)(?= loc\(|[ \t]*(?:\n|\Z))")


def parse_generic(p: MemoParser, cls: type[Operation], start: int) -> Operation | None:
    """The generic `tt.reduce`/`tt.scan` at `start` (results included), as xDSL's generic
    form builds it (the body, then the types, then the operands), or None with nothing consumed."""
    text = p._text
    m = _GENERIC.match(text, start)
    if m is None:
        return None
    items = p.fast_attr_dict(m.start(5), m.end(5))
    if items is None:
        return None
    props: dict[str, Attribute] = dict(items)
    # Committed: the body (its errors are its own), then the signature.
    p.resume_from(m.end() - len(m.group()) + len(m.group().rstrip(" \t\n")) - 1)  # at the `{`
    stack = p.dialect_stack
    stack.append(cls.dialect_name())
    try:
        region = p.parse_region()
    finally:
        stack.pop()
    close = p.current_token.span.start  # the `)` after the body
    tail = _GENERIC_TAIL.match(text, close)
    ins = _types(p, tail.start(1) - 1, tail.end(1) + 1) if tail is not None else None
    outs = _types(p, tail.start(2), tail.end(2)) if tail is not None else None
    at = m.start(4)
    uses = list(_USE.finditer(m.group(4)))
    attrs: dict[str, Attribute] = {}
    if ins is not None and outs is not None and len(ins) == len(uses) and tail is not None:
        p.resume_from(tail.end())
        loc = p.parse_optional_location()
        operands = [fast_use(p, u.group(1), int(u.group(2) or 0), at + u.start(), t) for u, t in zip(uses, ins)]
    else:  # any other signature: the rest as xDSL's generic parser reads it (and its errors)
        p.resume_from(close)
        p.parse_punctuation(")")
        attrs = p.parse_optional_attr_dict()
        p.parse_punctuation(":", "function type signature expected")
        pos = p.current_token.span.start
        signature = p.parse_function_type()
        loc = p.parse_optional_location()
        args = [UnresolvedOperand(Span(at + u.start(), at + u.start() + 1 + len(u.group(1)), p.lexer.input),
                                  int(u.group(2) or 0)) for u in uses]
        operands = p.resolve_operands(args, signature.inputs.data, pos)
        outs = list(signature.outputs.data)
        for name in cls.get_irdl_definition().properties:  # type: ignore[attr-defined]
            if name in attrs and name not in props:
                props[name] = attrs.pop(name)
    op = new_op(cls, operands=operands, result_types=outs, properties=props, attributes=attrs, regions=[region])
    op.location = UNKNOWN_LOC if loc is None else loc
    if m.group(1) is not None:
        bound = int(m.group(2) or 1)
        if bound != len(outs):
            raise ParseError(Span(start, start + 1 + len(m.group(1)), p.lexer.input),
                             f"Operation has {len(outs)} results, but was given {bound} to bind.")
        p.define(m.group(1), op.results, start)
    return op


def parse_block_args(p: MemoParser, block: Block) -> bool:
    """A block's `(%a: T loc(...), ...)` at the lexer's `(` (tt.reduce's `^bb0(...)`), added to
    `block` and defined as xDSL's _parse_optional_block_arg_list does; False with nothing
    consumed for any other text (other forms, errors: xDSL's)."""
    text = p._text
    start = p.current_token.span.start
    eol = text.find("\n", start)
    # The same text reads alike in a module (its aliases are fixed): read once (tt.reduce's
    # combiners repeat theirs).
    key = "b" + text[start : eol if eol >= 0 else len(text)]  # (kind "b" in shared_value's table)
    read = p.fast_values.get(key)
    if read is None:
        read = _read_block_args(p, start)
        if read is None:
            return False
        p.fast_values[key] = read
    args, close = read
    # Committed (nothing can fail to read now; a name defined twice is xDSL's error, raised alike).
    source = p.lexer.input
    for name, at, t, loc in args:
        arg = block.insert_arg(t, len(block.args), loc)
        p._register_ssa_definition(name, (arg,), Span(start + at, start + at + 1 + len(name), source))
    p.resume_from(start + close + 1)
    return True


def _read_block_args(
    p: MemoParser, start: int
) -> tuple[list[tuple[str, int, Attribute, LocationAttr | None]], int] | None:
    """`(%a: T loc(...), ...)` at `start`: each argument's name, offset (from `start`), type and
    location, and the offset of the `)`; None for any other text."""
    read = _arg_list(p, start + 1, False)
    if read is None:
        return None
    found, close = read
    return [(m.group(1), m.start() - start, t, loc) for m, t, _, loc in found], close - start


def _arg_list(
    p: MemoParser, at: int, with_attrs: bool
) -> tuple[list[tuple[re.Match[str], Attribute, dict[str, Attribute], LocationAttr | None]], int] | None:
    """`%a: T {attrs} loc(...), ...` from `at` (after a `(`; the attributes only `with_attrs`: a
    function's arguments): each argument's name match, type, attributes and location, and where
    the `)` is; None for any other text."""
    text = p._text
    found: list[tuple[re.Match[str], Attribute, dict[str, Attribute], LocationAttr | None]] = []
    while text[at : at + 1] != ")":
        if found:
            if not text.startswith(", ", at):
                return None
            at += 2
        m = _ARG.match(text, at)
        if m is None:
            return None
        ty = TYPE_TEXT.match(text, m.end())
        if ty is None or (t := p.typed_text(ty.group())) is None:
            return None
        at = ty.end()
        attrs: dict[str, Attribute] = {}
        if with_attrs and (d := _DICT.match(text, at)) is not None:
            items = p.fast_attr_dict(d.start(1), d.end(1))
            if items is None:
                return None
            attrs, at = dict(items), d.end()
        loc = None
        if text.startswith(" loc(", at):
            lm = _SIMPLE_LOC.match(text, at + 1)
            if lm is None or (loc := p._simple_loc(lm)) is None:
                return None
            at = lm.end()
        found.append((m, t, attrs, loc))
    return found, at
