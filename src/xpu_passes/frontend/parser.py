"""Parsing TTGIR/TTIR as Triton prints it, on top of xDSL's parser."""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import UNKNOWN_LOC, FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.parser import UnresolvedOperand
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.exceptions import ParseError, VerifyException

from xpu_passes.frontend.fast.ops import parse_fast
from xpu_passes.frontend.fast.regions import parse_block_args
from xpu_passes.frontend.diagnostics import SourceMap, TTGIRError
from xpu_passes.frontend.locations import LocAliasError, LocDef, cut_off_alias, extract_loc_defs
from xpu_passes.frontend.fast.memo import MemoParser
from xpu_passes.ir.gc_pause import gc_paused
from xpu_passes.frontend.spelling import Spelling, denormalize, normalize
from xpu_passes.frontend.verifier import verify_module


_TYPE_CLASH = re.compile(r"operand is used with type (.*), but has been previously used or defined with type (.*)$", re.S)


class _TrackingParser(MemoParser):
    """xDSL's parser, remembering where each operation starts (for diagnostics)."""

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        self.op_offsets: dict[Operation, int] = {}
        # Start of the innermost op being parsed when something went wrong.
        self.failed_at: int | None = None
        # Where each not-yet-defined value was first used, to report it there.
        self.first_use: dict[str, int] = {}
        self.fast = True  # hot op forms through frontend/fast/ops.py
        self.fast_end = 0  # where the last op read by parse_fast(lex=False) ends
        # Where each value was defined: MLIR's "prior use here" note on a type clash.
        self.def_offsets: dict[str, int] = {}
        self.multi_block = False  # some region has several blocks (see verify_module's `dominance`)
        self.isolated: set[Operation] = set()  # functions read isolated from above (verify_module's `isolated`)

    def parse_optional_region(self, arguments=None):  # type: ignore[no-untyped-def]
        region = super().parse_optional_region(arguments)
        if region is not None and region.blocks.first is not region.blocks.last:
            self.multi_block = True
        return region

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        self.def_offsets.setdefault(name, span.start)
        super()._register_ssa_definition(name, values, span)

    def define(self, name: str, values: Sequence[SSAValue], start: int) -> None:
        if name.isdigit() and name not in self.ssa_values and name not in self.forward_ssa_references:
            # What xDSL does for a new numbered value (no earlier use to resolve, no name hint).
            self.def_offsets.setdefault(name, start)
            self.ssa_values[name] = tuple(values)
            return
        super().define(name, values, start)

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        if operand.operand_name not in self.ssa_values:
            self.first_use.setdefault(operand.operand_name, operand.span.start)
        try:
            return super().resolve_operand(operand, type)
        except ParseError as e:
            if (m := _TYPE_CLASH.match(e.msg)) is None:
                raise
            # MLIR's wording (Triton's lit tests and users grep for it).
            name = operand.span.text
            err = ParseError(
                e.span, f"use of value '{name}' expects different type than prior uses: '{m[1]}' vs '{m[2]}'"
            )
            prior = self.def_offsets.get(operand.operand_name, self.first_use.get(operand.operand_name))
            err.prior_use = prior  # type: ignore[attr-defined]
            raise err from None

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as e:
            if "custom op '" in e.msg:
                raise
            at_end = self.current_token.kind == MLIRTokenKind.EOF
            if at_end and e.msg == "Could not parse entire input!":
                # No op at all (only comments or alias definitions): MLIR reads an empty module.
                return ModuleOp([])
            if e.msg.startswith("values used but not defined") and self.forward_ssa_references:
                name = next(iter(self.forward_ssa_references))
                pos = self.first_use.get(name, e.span.start)
                raise ParseError(Span(pos, pos + 1 + len(name), e.span.input), f"use of undefined value '%{name}'") from None
            if e.msg == "Could not parse entire input!":
                # Something other than an op at top level (a stray `)` after a location alias).
                raise ParseError(e.span, "expected operation name in quotes") from None
            if self.current_token.kind == MLIRTokenKind.EOF:
                raise ParseError(e.span, f"unexpected end of input ({e.msg.strip()}): an op or region is not closed") from None
            raise

    def _parse_optional_block_arg_list(self, block: Block):  # type: ignore[no-untyped-def]
        if self.fast and self.current_token.kind == MLIRTokenKind.L_PAREN and parse_block_args(self, block):
            return block
        return super()._parse_optional_block_arg_list(block)

    def _parse_block_body(self, block: Block) -> None:
        if not self.fast:
            return super()._parse_block_body(block)
        text = self._text
        while self.current_token.kind in _OP_START:
            op = self.parse_operation()
            block.add_op(op)
            # The ops that follow in the usual one-line forms: read without lexing between them.
            pos = self.current_token.span.start
            chained = False
            offsets, blanks = self.op_offsets, _BLANKS.match
            last = block._last_op
            while (c := text[pos : pos + 1]) == "%" or c.islower():
                op = parse_fast(self, pos, False)
                if op is None:
                    chained = True  # (the lexer is anywhere: resume at pos)
                    break
                offsets[op] = pos
                # block.add_op(op) for a new op without regions (xDSL's linking, inline)
                op.parent = block
                if last is None:
                    block._first_op = op
                else:
                    last._next_op = op
                    op._prev_op = last
                block._last_op = last = op
                pos = blanks(text, self.fast_end).end()
                chained = True
            if chained:
                self.resume_from(pos)

    def parse_operation(self) -> Operation:
        start = self.current_token.span.start
        if self.fast and (op := parse_fast(self, start)) is not None:
            self.op_offsets[op] = start
            return op
        try:
            op = super().parse_operation()
        except ParseError as e:
            if e.msg.endswith("is not registered") and self.failed_at is None:
                # xDSL points past the op name; the op is where the user looks.
                self.failed_at = start
                at, msg = self._unknown_op(start, e.msg)
                raise ParseError(Span(at, at + 1, e.span.input), msg) from None
            raise
        except Exception:
            if self.failed_at is None:
                self.failed_at = start
            raise
        self.op_offsets[op] = start
        return op

    def _unknown_op(self, start: int, msg: str) -> tuple[int, str]:
        """Where MLIR reports an op name no dialect defines, and its words."""
        m = re.match(r"Operation (\S+) is not registered$", msg)
        if m is None:
            return start, msg
        name = m[1]
        at = _RESULTS.match(self._text, start).end()  # type: ignore[union-attr]
        dialect, dot, _ = name.partition(".")
        known = self.ctx.get_optional_dialect(dialect) is not None
        if self._text.startswith('"', at):  # generic form
            if not known:
                return at + len(name) + 2, (
                    "operation being parsed with an unregistered dialect. If this is intended, "
                    "please use -allow-unregistered-dialect with the MLIR tool used"
                )
            return at, f"unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
        if dot:
            return at, f"custom op '{name}' is unknown" if known else f"Dialect `{dialect}' not found for custom op '{name}'"
        # MLIR tries the enclosing op's default dialect: builtin at top level and in a module's body.
        if all(d == "builtin" for d in self.dialect_stack):
            return at, f"custom op '{name}' is unknown (tried 'builtin.{name}' as well)"
        return at, f"Dialect `' not found for custom op '{name}'  (tried '.{name}' as well)"


_OP_START = (MLIRTokenKind.PERCENT_IDENT, MLIRTokenKind.BARE_IDENT, MLIRTokenKind.STRING_LIT)
_BLANKS = re.compile(r"[ \t\r\n]*")


# Results before an op's name (`%a, %b:2 = `): MLIR locates an op at its name.
_RESULTS = re.compile(r"(?:%[^\s,=:]+(?::\d+)?\s*,\s*)*(?:%[^\s,=:]+(?::\d+)?\s*=\s*)?")


class _LocatingParser(_TrackingParser):
    """Also gives what the text leaves unlocated its position in the text, as MLIR's parser does:
    an op the line:col of its name, a block argument that of its `%name`, an implicit module 0:0.

    xDSL's default location is the shared UNKNOWN_LOC; a written `loc(unknown)` is another
    instance, so "not located" is told apart from "located as unknown" by identity."""

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        self.arg_offsets: list[tuple[BlockArgument, int]] = []

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        super()._register_ssa_definition(name, values, span)
        if len(values) == 1 and isinstance(values[0], BlockArgument):
            self.arg_offsets.append((values[0], span.start))

    def locate(self, module: ModuleOp, source: SourceMap) -> None:
        file = StringAttr(source.name)

        def at(offset: int) -> FileLineColLoc:
            line, col = source.locate(offset)
            return FileLineColLoc(file, IntAttr(line), IntAttr(col))

        for op, start in self.op_offsets.items():
            if op.location is UNKNOWN_LOC:
                m = _RESULTS.match(self._text, start)
                op.location = at(m.end() if m is not None else start)
        for arg, start in self.arg_offsets:
            if arg.location is UNKNOWN_LOC:
                arg.location = at(start)
        if module.location is UNKNOWN_LOC and module not in self.op_offsets:
            module.location = FileLineColLoc(file, IntAttr(0), IntAttr(0))  # MLIR's implicit module


# A rewritten copy's op -> the op it was copied from (passes that rewrite a clone and adopt
# it, as RemoveLayoutConversions does), so later diagnostics still point into the input.
_COPIED_FROM: weakref.WeakKeyDictionary[Operation, Operation] = weakref.WeakKeyDictionary()


def record_copies(copied_from: dict[Operation, Operation]) -> None:
    """Say which op each op of a rewritten copy stands for (see ParsedModule.where)."""
    _COPIED_FROM.update(copied_from)


@dataclass
class ParsedModule:
    module: ModuleOp
    spelling: Spelling  # the dialect spellings the input used
    source: SourceMap
    op_offsets: dict[Operation, int] = field(default_factory=dict)

    def where(self, op: Operation) -> tuple[int, int] | None:
        """Line and column of an op in the input, if it came from the input (or is a copy of one)."""
        off = self._offset(op)
        return None if off is None else self.source.locate(off)

    def _offset(self, op: Operation) -> int | None:
        seen = 0
        while (off := self.op_offsets.get(op)) is None and op in _COPIED_FROM and seen < 64:
            op, seen = _COPIED_FROM[op], seen + 1
        return off

    def error_at(self, op: Operation, message: str) -> TTGIRError:
        off = self._offset(op)
        while off is None and op.parent_op() is not None:
            op = op.parent_op()  # type: ignore[assignment]
            off = self._offset(op)
        # In the input's spelling, as triton reports it (`'triton_intel_gpu.glue' op ...`).
        return TTGIRError.at(self.source, off or 0, denormalize(message, self.spelling))


def parse_module(
    ctx: Context,
    text: str,
    name: str = "<stdin>",
    line_offset: int = 0,
    verify: bool = True,
    text_locations: bool = False,
) -> ParsedModule:
    """Parse one module; raise TTGIRError located in `text` on bad input.

    `text_locations`: what has no `loc(...)` gets its place in `text` (`loc("NAME":L:C)`), as
    MLIR's parser gives it; for text a user wrote, not for triton's prints that we re-read
    (there MLIR's builders, not the text, located a loop's block arguments).
    `verify=False` (trusted): no verification beyond what building each op checks; for
    triton's print of a module triton verified (the compile path's round trips). Ops a pass
    later checks are verified then (RemoveLayoutConversions' incremental check).
    """
    normalized, columns, spelling = normalize(text)
    source = SourceMap(name, text, columns, line_offset)
    try:
        body, loc_defs = extract_loc_defs(normalized)
    except LocAliasError as e:
        raise TTGIRError.at(source, e.offset, str(e)) from None
    parser = (_LocatingParser if text_locations else _TrackingParser)(ctx, body, name)
    try:
        with gc_paused():
            _parse_loc_defs(ctx, normalized, name, loc_defs, parser)
            module = parser.parse_module()
    except ParseError as e:
        if (cut := _cut_off(e, normalized, loc_defs, source)) is not None:
            raise cut from None
        err = TTGIRError.at(source, e.span.start, e.msg)
        if (prior := getattr(e, "prior_use", None)) is not None:
            err.located_notes.append((*source.locate(prior), "prior use here"))
        raise err from None
    except (VerifyException, ValueError, TypeError, KeyError, IndexError) as e:
        # Raised by op/attribute constructors while parsing: invalid, not malformed.
        where = parser.failed_at if parser.failed_at is not None else parser.pos
        raise TTGIRError.at(source, where, denormalize(str(e) or type(e).__name__, spelling)) from None
    if isinstance(parser, _LocatingParser):
        parser.locate(module, source)
    parsed = ParsedModule(module, spelling, source, parser.op_offsets)
    if verify:
        # Every use after its definition in the text (no forward reference) and one block
        # per region: each definition dominates its uses, nothing to check.
        verify_module(parsed, dominance=bool(parser.first_use) or parser.multi_block, isolated=parser.isolated)
    return parsed


_UNDEFINED_ALIAS = re.compile(r"undefined symbol alias '(#[^']+)'")


def _cut_off(e: ParseError, text: str, defs: list[LocDef], source: SourceMap) -> TTGIRError | None:
    """An input cut off among the location aliases after its module: said at its end, not at the use."""
    m = _UNDEFINED_ALIAS.fullmatch(e.msg.strip())
    if m is None or not cut_off_alias(m[1], defs):
        return None
    last = defs[-1].name if defs else None
    had = f"the last location alias it defines is '{last}'" if last else "it defines no location alias"
    err = TTGIRError.at(source, len(text.rstrip()), f"the input ended early: location alias '{m[1]}' is used but "
                        f"never defined ({had}; MLIR prints them after the module)")
    use = text.rfind(m[1], 0, e.span.end)  # (the parser's span ends the alias; the note starts it)
    err.located_notes.append((*source.locate(use if use >= 0 else e.span.start), f"'{m[1]}' used here"))
    return err


def _parse_loc_defs(ctx: Context, text: str, name: str, defs: list[LocDef], parser: MemoParser) -> None:
    aliases = parser.attribute_aliases
    sub: MemoParser | None = None
    for d in defs:
        # The usual forms, read by extract_loc_defs: no token parser needed.
        loc = parser.simple_loc_form(d.form) if d.form is not None else None
        if loc is not None:
            aliases[d.name] = loc
            continue
        if sub is None:
            # One parser over the unblanked text, moved to each definition in turn, so
            # error offsets are offsets into the input.
            sub = MemoParser(ctx, text, name)
            sub.attribute_aliases = aliases
        sub.resume_from(d.offset)
        sub._parse_alias_def()
