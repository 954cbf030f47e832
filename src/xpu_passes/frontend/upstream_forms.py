"""Custom forms of upstream MLIR ops (xDSL's scf, arith, ...) where xDSL's print differs
from MLIR's by even a byte. TTGIRPrinter uses these instead of the op's own `print`.
Each function prints what follows the op name, like `Operation.print`.
"""

from __future__ import annotations

from collections.abc import Callable

from typing import TYPE_CHECKING
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer


if TYPE_CHECKING:
    from xdsl.dialects import scf


def _scf_for(printer: Printer, op: "scf.ForOp") -> None:
    # MLIR's ForOp::print: `step %s  : i32 {` (its separator, then " : type ").
    indvar, *iter_args = op.body.block.args
    head = _scf_for_head(printer, op, indvar, iter_args)
    if head is not None:
        printer.print_string(head)
    else:
        _print_scf_for_head(printer, op, indvar, iter_args)
    printer.print_region(op.body, print_entry_block_args=False, print_empty_block=False,
                         print_block_terminators=bool(op.iter_args))
    printer.print_op_attributes(op.attributes)


def _scf_for_head(printer: Printer, op: "scf.ForOp", indvar: SSAValue, iter_args: list[SSAValue]) -> str | None:
    """The text before the body in one string (TTGIRPrinter: names and type texts it keeps),
    or None: printed piece by piece."""
    names = getattr(printer, "_names", None)
    if (names is None or not getattr(printer, "_reuse", True) or getattr(printer, "_slots", True) is not None
            or getattr(printer, "_frames", True) is not None or printer.printing_location):
        return None
    ids = [indvar, op.lb, op.ub, op.step, *iter_args, *op.iter_args]
    got = [names.get(id(v)) for v in ids]
    if None in got:
        return None
    text = f" %{got[0]} = %{got[1]} to %{got[2]} step %{got[3]}"
    if iter_args:
        n = len(iter_args)
        pairs = ", ".join(f"%{a} = %{i}" for a, i in zip(got[4 : 4 + n], got[4 + n :]))
        types = ", ".join(map(printer.attribute_text, op.iter_args.types))  # type: ignore[attr-defined]
        text += f" iter_args({pairs}) -> ({types})"
    if not isinstance(indvar.type, IndexType):
        return f"{text}  : {printer.attribute_text(indvar.type)} "  # type: ignore[attr-defined]
    return text + " "


def _print_scf_for_head(printer: Printer, op: "scf.ForOp", indvar: SSAValue, iter_args: list[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(indvar)
    printer.print_string(" = ")
    printer.print_ssa_value(op.lb)
    printer.print_string(" to ")
    printer.print_ssa_value(op.ub)
    printer.print_string(" step ")
    printer.print_ssa_value(op.step)
    if iter_args:
        printer.print_string(" iter_args(")
        for i, (arg, init) in enumerate(zip(iter_args, op.iter_args)):
            if i:
                printer.print_string(", ")
            printer.print_ssa_value(arg)
            printer.print_string(" = ")
            printer.print_ssa_value(init)
        printer.print_string(") -> (")
        printer.print_list(op.iter_args.types, printer.print_attribute)
        printer.print_string(")")
    printer.print_string(" ")
    if not isinstance(indvar.type, IndexType):
        printer.print_string(" : ")
        printer.print_attribute(indvar.type)
        printer.print_string(" ")


# By op name: xDSL's class or a subclass of it (mlir_compat's read more forms) print MLIR's.
FORMS: dict[str, Callable[[Printer, Operation], None]] = {
    "scf.for": _scf_for,  # type: ignore[dict-item]
}
