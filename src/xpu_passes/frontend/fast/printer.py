"""What printing reuses across ops, modules and printers (process-wide tables).

- Op templates. An op without regions or successors prints as a function of its class,
  its properties, attributes, operand and result types, which of its operands are the
  same value, and its operands' names. So the first op of a form is printed by its own
  `print` (or xDSL's generic form) with each operand and each top-level attribute left
  as a slot, and every later op of that form is the template with the slots filled: the
  operands' SSA names, and the attributes' text through the printer (which visits their
  aliases in the same order, so alias numbering is unchanged; an attribute that visits no
  alias is its text in the template). Which printers are such
  functions (`_eligible`): xDSL's declarative formats, and the hand-written ones whose
  class declares PRINT_FROM_SIGNATURE (dialects/declared.py).
- Texts of attributes and of alias definitions (aliases.py), with the aliases they visit.
Attributes are keyed by the id of their canonical object, the first attribute seen equal
to them (xDSL compares attributes by value, floats by their bits): a module parsed anew
has new attribute objects, equal to the old ones. Every table keeps the objects whose
ids its keys hold, and is emptied only between prints (`begin`), so an id in a key is
never another object's. `tests/python/test_fastprint.py` prints every corpus dump and
lit input with and without reuse, in every form, and compares.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects.declared import PRINT_FROM_SIGNATURE
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.ir.xdsl_adapt import value_type

if TYPE_CHECKING:
    from xpu_passes.frontend.printer import TTGIRPrinter

# A template: the literal pieces around its slots, and the slots (an operand's index,
# or an attribute to print).
Template = tuple[tuple[str, ...], tuple["int | Attribute", ...]]

MARK = "\x02"  # a slot in captured text (never printed otherwise: MLIR escapes it)
_MAX = 50_000  # entries kept before the tables start afresh
# (kind, printing mode) -> key -> entry; op templates: (template or None, the objects the key names)
_templates: dict[Any, dict[Any, Any]] = {}  # op templates: IdTable (key -> plan)
_eligible_cache: dict[type[Operation], bool] = {}


_DECLARATIVE_MODULES = ("xdsl.irdl.operations", "xpu_passes.ir.xdsl_adapt")  # (upstream's, read on first use)


def _eligible(cls: type[Operation], generic: bool) -> bool:
    """Whether `cls`'s print is a function of what op_text keys: a declarative format, or a
    hand-written print whose class declares PRINT_FROM_SIGNATURE (dialects/declared.py)."""
    if generic:
        return not issubclass(cls, UnregisteredOp)
    hit = _eligible_cache.get(cls)
    if hit is None:
        fn = cls.print
        declarative = fn.__qualname__.endswith("print_with_format") and fn.__module__ in _DECLARATIVE_MODULES
        # (the class that wrote the print declares it: a subclass with its own print says so anew)
        owner = next(c for c in cls.__mro__ if "print" in vars(c))
        hit = _eligible_cache[cls] = declarative or bool(vars(owner).get(PRINT_FROM_SIGNATURE, False))
    return hit


def table(mode: Any) -> dict[Any, Any]:
    """The process-wide table of one kind and printing mode (a printer looks it up once).
    Op templates: keys of ids and names (untracked by the GC), the objects pinned (idkeys.py)."""
    found = _templates.get(mode)
    if found is None:
        found = _templates[mode] = IdTable(1 << 62) if mode[0] == "ops" else {}  # (emptied by begin only)
    return found


def remember(table: dict[int, Any], attr: Attribute, entry: Any) -> None:
    """Keep `entry` under the id of `attr`'s canonical object (kept by the entry too, so
    the id stays its own)."""
    canon = canonical(attr)
    table[id(canon)] = (entry, canon)


def recall(table: dict[int, Any], attr: Attribute) -> Any:
    """What `remember` kept for `attr` or an attribute equal to it, or None."""
    entry = table.get(id(_known.get(id(attr)) or _learn(attr)))
    return None if entry is None else entry[0]


_REF = re.compile("\x00(\\d+)\x01")


def split_refs(text: str, count: int, expect: list[int] | None = None) -> tuple[str, ...] | None:
    """The text around its alias placeholders; None unless there are `count` of them
    (and, with `expect`, those aliases in that order)."""
    parts = _REF.split(text)
    if len(parts) != 2 * count + 1:
        return None
    if expect is not None and [int(i) for i in parts[1::2]] != expect:
        return None
    return tuple(parts[0::2])


def op_text(printer: TTGIRPrinter, op: Operation, generic: bool, templates: dict[Any, Any]) -> str | None:
    """The op's text after its results (`"name"` or name, then the rest), or None: print it
    op by op (regions, successors, a form not listed)."""
    if op.regions or op._successors or not printer._reuse:
        return None
    operands = op._operands
    # (xDSL's `operands`/`result_types`/`type` are views and properties: too slow here)
    # First by the ids of the very objects (a parse shares its types and attributes: most
    # ops hit here, in C-level maps), else by canonical ids (equal attributes print alike).
    ids = [*map(id, operands)]
    key = [id(op.__class__), *map(id, map(value_type, operands)), None, *map(id, map(value_type, op.results))]
    if len(ids) > 1 and len(set(ids)) != len(ids):  # which operands are the same value is part of the form
        key.append(1)
        key += [ids.index(i) for i in ids]
    if props := op.properties:
        key.append(None)
        key += props
        key += map(id, props.values())
    if attrs := op.attributes:
        key.append(0)
        key += attrs
        key += map(id, attrs.values())
    plan = templates.get(k := tuple(key), _MISSING)
    if plan is _MISSING:
        plan = _by_value(printer, op, generic, templates)
        templates.put(k, (op.__class__, *_objects(op)), plan)
    if plan is None:
        return None
    first, pairs = plan
    if not pairs:
        return first
    names = printer._names
    out = [first]
    for slot, piece in pairs:
        if slot.__class__ is int:
            out += ("%", names[ids[slot]], piece)
        else:
            out += (printer.attribute_text(slot), piece)
    return "".join(out)


def _objects(op: Operation) -> tuple[Any, ...]:
    """The objects whose ids op_text's key holds (kept with the entry, so the ids stay theirs)."""
    return (*op.operand_types, *op.result_types, *op.properties.values(), *op.attributes.values())


_MISSING = object()


def _by_value(printer: TTGIRPrinter, op: Operation, generic: bool, templates: IdTable) -> Any:
    """The template of the op's form keyed by canonical ids, captured on first sight, as a
    plan: its first piece and (slot, piece) pairs (None: print op by op)."""
    # `pins`: the canonical objects the key names, pinned by the entry itself (not read back from
    # _known, which another thread's print may start afresh meanwhile)
    pins: list[Any] = [type(op)]
    key: list[Any] = ["by value", id(type(op)), *_canonical_ids(map(value_type, op._operands), pins)]
    ids = list(map(id, op._operands))
    if len(ids) > 1 and len(set(ids)) != len(ids):
        key.append(1)
        key += [ids.index(i) for i in ids]
    key.append(None)
    key += _canonical_ids(map(value_type, op.results), pins)
    if props := op.properties:
        key.append(None)
        key += props
        key += _canonical_ids(props.values(), pins)
    if attrs := op.attributes:
        key.append(0)
        key += attrs
        key += _canonical_ids(attrs.values(), pins)
    plan = templates.get(k := tuple(key), _MISSING)
    if plan is _MISSING:
        template = _capture(printer, op, generic) if _eligible(type(op), generic) else None
        plan = None if template is None else (template[0][0], tuple(zip(template[1], template[0][1:])))
        templates.put(k, pins, plan)
    return plan


def _canonical_ids(attrs: Iterable[Attribute], pins: list[Any]) -> list[int]:
    """The ids of `attrs`' canonical objects, which go into `pins`."""
    known = _known
    found = [known.get(id(a)) or _learn(a) for a in attrs]
    pins += found
    return [*map(id, found)]


def _capture(printer: TTGIRPrinter, op: Operation, generic: bool) -> Template | None:
    slots: list[int | Attribute] = []
    text = printer.capture(op, generic, slots)
    if text is None or "\n" in text:
        return None
    operands = list(op.operands)
    resolved: list[int | Attribute] = []
    for slot in slots:
        if isinstance(slot, Attribute):
            resolved.append(slot)
        elif slot in operands:  # (a value used twice: the key says where, so its first use)
            resolved.append(operands.index(slot))
        else:  # a value that is not an operand
            return None
    pieces = text.split(MARK)
    if len(pieces) != len(resolved) + 1:
        return None
    # An attribute whose text visits no alias (i32, tensor<4xf32>, 1 : i32) prints the same
    # in every printer of this mode: its text goes into the template. (Asked in slot order,
    # as filling would: the aliases other slots visit are visited in the same order.)
    kept_pieces, kept_slots = [pieces[0]], []
    for slot, piece in zip(resolved, pieces[1:]):
        if slot.__class__ is not int:
            text = printer.attribute_text(slot)
            hit = printer._printed.get(id(slot))
            if hit is not None and hit[0] is slot and not hit[2]:
                kept_pieces[-1] += text + piece
                continue
        kept_slots.append(slot)
        kept_pieces.append(piece)
    return tuple(kept_pieces), tuple(kept_slots)


# id(attribute) -> its canonical object, the first attribute seen equal to it (the table pins
# the attribute: ir/idkeys.py). Attributes are immutable, hashing walks them. By hash:
# the canonical objects, one (most hashes) or a list of them.
_known = IdTable(1 << 62)  # (emptied by clear)
_by_hash: dict[int, Attribute | list[Attribute]] = {}


def _learn(attr: Attribute) -> Attribute:
    h = hash(attr)
    bucket = _by_hash.get(h)
    if bucket is None:
        canon = _by_hash[h] = attr
    elif bucket.__class__ is not list:
        if bucket is attr or bucket == attr:
            canon = bucket  # type: ignore[assignment]
        else:
            _by_hash[h] = [bucket, attr]  # type: ignore[list-item]
            canon = attr
    else:
        canon = next((other for other in bucket if other is attr or other == attr), None)  # type: ignore[union-attr]
        if canon is None:
            bucket.append(attr)  # type: ignore[union-attr]
            canon = attr
    _known.put(id(attr), (attr,), canon)
    return canon


def canonical_id(attr: Attribute) -> int:
    """The id of `canonical(attr)`."""
    return id(_known.get(id(attr)) or _learn(attr))


def canonical(attr: Attribute) -> Attribute:
    """The first attribute seen equal to `attr`."""
    return _known.get(id(attr)) or _learn(attr)


def begin() -> None:
    """Before a print: start afresh when the tables have grown too large (never during
    one, so an id in a table's key is always one of the objects the table keeps)."""
    if len(_known) > 4 * _MAX or sum(len(t) for t in _templates.values()) > _MAX:
        clear()


def clear() -> None:
    _known.clear()
    _by_hash.clear()
    _templates.clear()
