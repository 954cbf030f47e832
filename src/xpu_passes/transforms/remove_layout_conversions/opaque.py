"""Verification keys that leave layouts out, for ops whose verifiers treat layouts as opaque.

RemoveLayoutConversions changes layouts and little else, so keys by the identity of an
op's types (frontend/verifier.verify_key) miss on every new layout and xDSL verifies the
op again. The verifiers of the ops in `OPAQUE_NAMES` (read for each: IRDL type constraints
that leave a tensor's encoding free, arith_compat's compare/select/cast checks, tt's
splat/broadcast/expand_dims/addptr/make_range/load/store/advance/make_tensor_ptr checks and
TT_Op's rules) read a layout only by comparing it with another of the op's layouts (equal
types, equal encodings, `with_element` of a type) and through TritonGPU's layout check of
each type (traits.layout_error). So their answer is the same for two ops that agree on class,
parent class, attributes, shapes, element types, which of their layouts are equal, and each
layout's validity there: that is the key (`opaque_key`; a block pointer's layout is only
compared, never checked). ttg.convert_layout's verifier reads its two layouts the same way
(`convert_key`). Built only when an op's own signature was not verified (locality.py; a
conversion's key first: its signature rarely repeats), each layout's validity remembered per
context (`valid_layout`), and read from a per-type table so that it holds ints: hashing
attributes is Python code.
"""

from __future__ import annotations

from xdsl.dialects.builtin import NoneAttr, TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import tt
from xpu_passes.dialects.traits import layout_error
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.layouts.memoize import shape_of

_ARITH = ("addi", "subi", "muli", "divui", "divsi", "floordivsi", "ceildivsi", "ceildivui", "remui", "remsi",
          "minsi", "maxsi", "minui", "maxui", "addf", "subf", "mulf", "divf", "negf", "andi", "ori", "xori",
          "shli", "shrui", "shrsi", "minimumf", "minnumf", "maximumf", "maxnumf", "cmpi", "cmpf", "select",
          "bitcast", "index_cast", "fptosi", "fptoui", "sitofp", "uitofp", "extf", "truncf", "trunci", "extsi",
          "extui")
_MATH = ("absf", "absi", "ceil", "copysign", "cos", "erf", "exp2", "exp", "floor", "fma", "log2", "log", "powf",
         "rsqrt", "sin", "sqrt", "tanh", "trunc", "roundeven", "round")
OPAQUE_NAMES = frozenset((*(f"arith.{n}" for n in _ARITH), *(f"math.{n}" for n in _MATH), "tt.splat",
                          "tt.broadcast", "tt.expand_dims", "tt.addptr", "tt.make_range", "tt.load", "tt.store",
                          "tt.advance", "tt.make_tensor_ptr"))

# (ids of a layout, the op's class when it matters (tt.dot), rank, the layout context) -> the layout
# is valid there. Pins the objects, so their ids are not reused.
_VALID = IdTable(20_000)


def valid_layout(op: Operation, t: TensorType, context: list[object]) -> bool:
    """`not traits.layout_error(op, t)`: it reads the layout, `op` being a tt.dot, the rank
    and the enclosing ttg.num-warps/threads-per-warp/num-ctas (`context`, locality.Contexts)."""
    keep = [t.encoding, type(op) is tt.DotOp, *context]
    key = (len(shape_of(t)), *map(id, keep))
    hit = _VALID.get(key)
    if hit is None:
        hit = not layout_error(op, t)
        _VALID.put(key, keep, hit)
    return hit


# Equal attributes as one object (whose id stands for the value in keys; a key's objects keep
# them alive, so no other object takes their ids), remembered per object id; and per type object
# its descriptor (shapes, strings and ids: a tuple the GC does not track), the layout and the
# object named being read from the type again. Both pin the objects whose ids are their keys.
_CANON: dict[Attribute, Attribute] = {}
_IDS = IdTable(1 << 62)  # (cleared with _CANON)
_TYPES = IdTable(20_000)
_NO_LAYOUT = object()
_UNKEYED = object()  # a type holding a layout elsewhere (a tensor of block pointers)


def _canon(a: Attribute) -> Attribute:
    hit = _IDS.get(id(a))
    if hit is None:
        if len(_IDS) > 20_000:
            _IDS.clear()
            _CANON.clear()
            _TYPES.clear()  # (its descriptors hold ids of _CANON's objects)
        hit = _CANON.setdefault(a, a)
        _IDS.put(id(a), (a,), hit)
    return hit


def _describe(t: Attribute) -> tuple[object, object, Attribute | None]:
    """(t's descriptor, its layout or _NO_LAYOUT, the object the descriptor names or None)."""
    desc = _TYPES.get(id(t))
    if type(t) is TensorType:
        elem = t.element_type
        if type(elem) is tt.PointerType and type(elem.pointee) is TensorType:
            return _UNKEYED, _NO_LAYOUT, None
        c = _canon(elem)
        enc: object = t.encoding
        if desc is not None and desc[-1] == id(c):  # (another thread may have started both over since)
            return desc, enc, c
        desc = (tuple(t.get_shape()), id(c))
    elif type(t) is tt.PointerType and type(p := t.pointee) is TensorType:
        # A block pointer: its layout is compared (load/store/advance), never checked for validity.
        c, enc = _canon(p.element_type), p.encoding
        if desc is not None and desc[-1] == id(c):
            return desc, enc, c
        desc = ("ptr", t.address_space.data, tuple(p.get_shape()), id(c))
    else:
        c, enc = _canon(t), _NO_LAYOUT
        return id(c), enc, c
    _TYPES.put(id(t), (t,), desc)  # (a hit names `c`: _TYPES starts over with _CANON, and a hit is checked)
    return desc, enc, c


def opaque_key(op: Operation, context: list[object]) -> tuple[tuple[object, ...], list[object]] | None:
    """The key of an op of OPAQUE_NAMES (not last in its block, no regions or successors: the
    caller checks), or None when one of its types holds a layout other than a tensor's or a
    block pointer's own. Types, element types and attributes by value (as their one object)."""
    layouts: list[Attribute] = []
    objects: list[object] = [type(op), type(op.parent_op())]
    key: list[object] = [id(objects[0]), id(objects[1])]
    for vs in (op.operands, op.results):
        key.append(None)
        for v in vs:
            t = v.type
            desc, enc, keep = _describe(t)
            objects.append(keep)
            if enc is _NO_LAYOUT:
                if desc is _UNKEYED:
                    return None
                key.append(desc)
                continue
            i = _slot(enc, layouts)  # type: ignore[arg-type]
            if i is None:
                return None
            key.append((desc, i, type(desc[0]) is str or valid_layout(op, t, context)))  # type: ignore[index]
    for d in (op.properties, op.attributes):
        key.append(None)
        for name, value in d.items():
            c = _canon(value)
            objects.append(c)
            key += (name, id(c))
    return tuple(key), objects


def _slot(enc: Attribute | None, layouts: list[Attribute]) -> object:
    """Which of the op's distinct layouts `enc` is (by equality); "none" for no layout (NoneAttr:
    the rules skip it, type equality sees it); None when not keyed."""
    if enc is None:
        return None
    for i, e in enumerate(layouts):
        if e is enc:
            return i
    if type(enc) is NoneAttr:
        return "none"
    if getattr(enc, "name", "") == "none":
        return None  # (another class the rules read as no layout: not keyed)
    for i, e in enumerate(layouts):
        if e == enc:
            return i
    layouts.append(enc)
    return len(layouts) - 1


def convert_key(op: Operation, context: list[object]) -> tuple[tuple[object, ...], list[object]] | None:
    """ttg.convert_layout's key: its verifier reads its layouts only through the layout check
    of each type (in the op's context: `context`) and of its shapes and element types whether
    they agree."""
    ins, outs = op._operands, op.results  # pyright: ignore[reportPrivateUsage]  # (not the views' Python calls)
    if len(ins) != 1 or len(outs) != 1 or op.regions or op._successors or op._next_op is None:  # pyright: ignore
        return None
    s, r = ins[0]._type, outs[0]._type  # pyright: ignore[reportPrivateUsage]
    if type(s) is not TensorType or type(r) is not TensorType:
        return None
    # (all by id, the objects pinned by the table: a key of ints and shapes is not tracked by the GC)
    objects: list[object] = [type(op.parent_op()), _canon(s.element_type), _canon(r.element_type)]
    for d in (op.properties, op.attributes):
        objects.append(None)
        for item in d.items():
            objects += item
    key = (shape_of(s), shape_of(r), valid_layout(op, s, context), valid_layout(op, r, context),
           *map(id, objects))
    return key, objects

