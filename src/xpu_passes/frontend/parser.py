"""Parsing TTGIR/TTIR as Triton prints it, on top of xDSL's parser."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation
from xdsl.ir import SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.exceptions import ParseError, VerifyException

from xpu_passes.frontend.diagnostics import SourceMap, TTGIRError
from xpu_passes.frontend.locations import LocDef, extract_loc_defs
from xpu_passes.frontend.memo import MemoParser, gc_paused
from xpu_passes.frontend.spelling import Spelling, normalize


class _TrackingParser(MemoParser):
    """xDSL's parser, remembering where each operation starts (for diagnostics)."""

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        self.op_offsets: dict[Operation, int] = {}
        # Start of the innermost op being parsed when something went wrong.
        self.failed_at: int | None = None
        # Where each not-yet-defined value was first used, to report it there.
        self.first_use: dict[str, int] = {}

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        if operand.operand_name not in self.ssa_values:
            self.first_use.setdefault(operand.operand_name, operand.span.start)
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as e:
            if e.msg.startswith("values used but not defined") and self.forward_ssa_references:
                name = next(iter(self.forward_ssa_references))
                pos = self.first_use.get(name, e.span.start)
                raise ParseError(Span(pos, pos + 1 + len(name), e.span.input), f"use of undefined value '%{name}'") from None
            if self._current_token.kind == MLIRTokenKind.EOF:
                raise ParseError(e.span, f"unexpected end of input ({e.msg.strip()}): an op or region is not closed") from None
            raise

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        try:
            op = super().parse_operation()
        except ParseError as e:
            if e.msg.endswith("is not registered") and self.failed_at is None:
                # xDSL points past the op name; the op is where the user looks.
                self.failed_at = start
                raise ParseError(Span(start, start + 1, e.span.input), e.msg) from None
            raise
        except Exception:
            if self.failed_at is None:
                self.failed_at = start
            raise
        self.op_offsets[op] = start
        return op


@dataclass
class ParsedModule:
    module: ModuleOp
    spelling: Spelling  # the dialect spellings the input used
    source: SourceMap
    op_offsets: dict[Operation, int] = field(default_factory=dict)

    def where(self, op: Operation) -> tuple[int, int] | None:
        """Line and column of an op in the input, if it came from the input."""
        off = self.op_offsets.get(op)
        return None if off is None else self.source.locate(off)

    def error_at(self, op: Operation, message: str) -> TTGIRError:
        off = self.op_offsets.get(op)
        while off is None and op.parent_op() is not None:
            op = op.parent_op()  # type: ignore[assignment]
            off = self.op_offsets.get(op)
        return TTGIRError.at(self.source, off or 0, message)


def parse_module(
    ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0, verify: bool = True
) -> ParsedModule:
    """Parse one module; raise TTGIRError located in `text` on bad input."""
    normalized, columns, spelling = normalize(text)
    source = SourceMap(name, text, columns, line_offset)
    body, loc_defs = extract_loc_defs(normalized)
    parser = _TrackingParser(ctx, body, name)
    try:
        with gc_paused():
            _parse_loc_defs(ctx, normalized, name, loc_defs, parser.attribute_aliases)
            module = parser.parse_module()
    except ParseError as e:
        raise TTGIRError.at(source, e.span.start, e.msg) from None
    except (VerifyException, ValueError, TypeError, KeyError, IndexError) as e:
        # Raised by op/attribute constructors while parsing: invalid, not malformed.
        where = parser.failed_at if parser.failed_at is not None else parser.pos
        raise TTGIRError.at(source, where, str(e) or type(e).__name__) from None
    parsed = ParsedModule(module, spelling, source, parser.op_offsets)
    if verify:
        verify_module(parsed)
    return parsed


def _parse_loc_defs(
    ctx: Context, text: str, name: str, defs: list[LocDef], aliases: dict[str, Attribute]
) -> None:
    # One parser over the unblanked text, moved to each definition in turn, so
    # error offsets are offsets into the input.
    sub = MemoParser(ctx, text, name)
    sub.attribute_aliases = aliases
    for d in defs:
        sub._resume_from(d.offset)
        sub._parse_alias_def()


def verify_module(parsed: ParsedModule) -> None:
    """Verify op by op, so an error points at the op that is wrong.

    Also checks that every use is dominated by its definition, which xDSL's
    verifier does not (MLIR's does).
    """
    position: dict[Operation, int] = {}
    for op in parsed.module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except (VerifyException, ValueError) as e:
            raise parsed.error_at(op, f"'{op.name}' op {e}") from None
        if op.parent is not None and op not in position:
            for i, sibling in enumerate(op.parent.ops):
                position[sibling] = i
        for index, operand in enumerate(op.operands):
            if not _dominates(operand, op, position):
                raise parsed.error_at(op, f"'{op.name}' op operand #{index} does not dominate this use")
        if op.name == "scf.if" and (why := _if_yields_mismatch(op)):  # by name: scf loads lazily
            raise parsed.error_at(op, f"'scf.if' op {why}")
        if isinstance(op, ModuleOp) and (bad := _undialected_attrs(op)):
            raise parsed.error_at(op, f"'builtin.module' op can only contain attributes with dialect-prefixed "
                                      f"names, found: '{bad}'")


def _undialected_attrs(op: ModuleOp) -> str:
    """MLIR's ModuleOp verifier: discardable attributes must be dialect-prefixed (xDSL does not check)."""
    return ", ".join(n for n in op.attributes if "." not in n and n not in ("sym_name", "sym_visibility"))


def _if_yields_mismatch(op: Operation) -> str:
    """MLIR requires both branches of an scf.if with results to yield them; xDSL does not check."""
    want = list(op.result_types)
    if not want:
        return ""
    for region, branch in zip(op.regions, ("then", "else")):
        block = region.blocks.first
        if block is None:
            return f"has results but no {branch} branch"
        last = block.last_op
        got = list(last.operand_types) if last is not None and last.name == "scf.yield" else []
        if got != want:
            return f"{branch} branch yields {len(got)} values of the wrong types for its {len(want)} results"
    return ""


def _dominates(value: SSAValue, user: Operation, position: dict[Operation, int]) -> bool:
    """Single-block regions (all of TTGIR's structured control flow): the definition
    must come earlier in the user's block or in a block enclosing it."""
    if isinstance(value, BlockArgument):
        block: Block | None = user.parent
        while block is not None:
            if block is value.owner:
                return True
            parent = block.parent_op()
            block = parent.parent if parent is not None else None
        return False
    definer = value.owner
    if not isinstance(definer, Operation):
        return True
    op: Operation | None = user
    while op is not None:
        if op.parent is not None and op.parent is definer.parent:
            return definer in position and op in position and position[definer] < position[op]
        op = op.parent_op()
    return False
