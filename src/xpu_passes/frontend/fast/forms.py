"""Headers of region ops printed in one string: the very text of the op's own `print`, for
speed. A kernel's `tt.func` header has a dozen arguments, each `%argN: type {attrs} loc(...)`,
which xDSL's print_func_op_like writes through ~10 calls per argument; here each argument is
three texts the printer already keeps (type, attribute dictionary, location), visited in the
same order, so alias numbering is unchanged. Forms the fast path does not cover (no body,
results, result attributes, an argument the namer did not name) go to the op's own print.
`tests/python/test_fastprint.py` compares with the op's own print (print_module(fast=False)).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdsl.ir import Operation

from xpu_passes.dialects.declared import FAST_PRINT, declared

if TYPE_CHECKING:
    from xpu_passes.frontend.printer import TTGIRPrinter

_func_class: list[type[Operation]] = []  # tt.FuncOp, imported on first use (start-up)


def _tt_func(printer: TTGIRPrinter, op: Any) -> None:
    if not _func_class:
        from xpu_passes.dialects.tt import FuncOp

        _func_class.append(FuncOp)
    text = _func_args(printer, op) if type(op) is _func_class[0] else None
    if text is None:
        op.print(printer)
        return
    if op.sym_visibility:
        printer.print_string(f" {op.sym_visibility.data}")
    printer.print_string(" ")
    printer.print_symbol_name(op.sym_name.data)
    printer.print_string(text)
    printer.print_op_attributes(op.attributes, reserved_attr_names=op.RESERVED, print_keyword=True)
    printer.print_string(" ", indent=0)
    printer.print_region(op.body, False, False)


def _func_args(printer: TTGIRPrinter, op: Any) -> str | None:
    """`(%arg0: type {attrs} loc(...), ...)`, or None: print it through the op's own print."""
    block = op.body.blocks.first
    if block is None or op.function_type.outputs.data or op.res_attrs is not None:
        return None
    args = block.args
    arg_attrs = op.arg_attrs
    if arg_attrs is not None and len(arg_attrs.data) != len(args):
        return None
    names = printer._names
    attribute_text = printer.attribute_text
    debuginfo = printer.print_debuginfo
    parts = []
    for i, arg in enumerate(args):
        name = names.get(id(arg))
        if name is None:
            return None
        part = f"%{name}: {attribute_text(arg.type)}"
        if arg_attrs is not None and (attrs := arg_attrs.data[i].data):
            part += " " + printer.attr_dict_text(attrs)
        if debuginfo:
            part += " " + attribute_text(arg.location)
        parts.append(part)
    return "(" + ", ".join(parts) + ")"


# The forms, by the name an op class declares as its FAST_PRINT (dialects/declared.py).
FORMS: dict[str, Callable[[TTGIRPrinter, Operation], None]] = {"func": _tt_func}
_BY_CLASS: dict[type[Operation], Callable[[TTGIRPrinter, Operation], None] | None] = {}


def print_form(cls: type[Operation]) -> Callable[[TTGIRPrinter, Operation], None] | None:
    """The one-string printer `cls` declares (FAST_PRINT), or None: the op's own print."""
    if cls not in _BY_CLASS:
        name = declared(cls, FAST_PRINT)
        _BY_CLASS[cls] = None if name is None else FORMS[name]
    return _BY_CLASS[cls]
