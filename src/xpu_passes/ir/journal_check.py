"""What check mode (`Journal(check=True)`) compares a journal's work with: the module's
fingerprint before and after a rollback, and whether operands and use lists agree."""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation, SSAValue

from xpu_passes.ir.walk_order import walk_list


def _uses(v: SSAValue) -> tuple[tuple[int, int], ...]:
    out, use = [], v.first_use
    while use is not None:
        out.append((id(use._operation), use._index))  # pyright: ignore[reportPrivateUsage]
        use = use._next_use  # pyright: ignore[reportPrivateUsage]
    return tuple(out)


def _values(op: Operation) -> list[SSAValue]:
    """`op`'s results and its blocks' arguments."""
    return [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]


def fingerprint(module: Operation) -> list[tuple[Any, ...]]:
    """What a rollback must restore, by identity where the pass keys by identity (check mode):
    each op's place, operands, result and argument objects, their types, names and use lists
    (in order), properties and attributes."""
    out = []
    for op in walk_list(module):
        vals = _values(op)
        out.append((id(op), id(op.parent), id(op._next_op), tuple(map(id, op._operands)),  # pyright: ignore
                    tuple(map(id, vals)), tuple(v.type for v in vals), tuple(v._name for v in vals),  # pyright: ignore
                    tuple(map(_uses, vals)), id(op.properties), tuple(op.properties.items()),
                    tuple(op.attributes.items()), op.location))
    return out


def linked(module: Operation) -> bool:
    """Every operand is in its value's use list once, each use list names only operands, every
    result and argument says where it is (check mode)."""
    refs: dict[int, int] = {}
    ops = walk_list(module)
    for op in ops:
        for i, (v, use) in enumerate(zip(op._operands, op._operand_uses)):  # pyright: ignore[reportPrivateUsage]
            if use._operation is not op or use._index != i:  # pyright: ignore[reportPrivateUsage]
                return False
            refs[id(v)] = refs.get(id(v), 0) + 1
        for i, r in enumerate(op.results):
            if r.op is not op or r.index != i:
                return False
    for op in ops:
        for v in _values(op):
            n, use = 0, v.first_use
            while use is not None:
                user = use._operation  # pyright: ignore[reportPrivateUsage]
                if user._operands[use._index] is not v or user._operand_uses[use._index] is not use:  # pyright: ignore
                    return False
                n, use = n + 1, use._next_use  # pyright: ignore[reportPrivateUsage]
            if n != refs.get(id(v), 0):
                return False
    return True
