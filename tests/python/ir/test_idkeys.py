"""Process-wide tables keyed by ids (ir/idkeys.py) stay exact with few GC-tracked objects.

Every id a key holds must be the id of an object the table pins (else a dead object's id
could be taken by another and the key would serve it); keys made of ids are tuples that
CPython stops tracking; different constructs get different keys.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from xdsl.dialects.builtin import f16, f32

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.frontend.fast import printer as fastprint
from xpu_passes.frontend.fast import memo
from xpu_passes.ir.idkeys import IdTable
from xpu_passes.frontend.verifier import VERIFIED
from xpu_passes.layouts import memoize as lmemo

TEXT = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
#loc = loc("f.py":1:2)
#loc1 = loc("g.py":3:4)
#loc2 = loc(callsite(#loc at #loc1))
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%p: !tt.ptr<f32>, %x: tensor<16x32xf32, #a>, %y: tensor<16x32xf32, #b>) {
    %c = arith.constant dense<1.000000e+00> : tensor<16x32xf32, #a>
    %0 = arith.addf %x, %c : tensor<16x32xf32, #a> loc(#loc2)
    %1 = arith.addf %y, %y : tensor<16x32xf32, #b>
    %2 = ttg.convert_layout %0 : tensor<16x32xf32, #a> -> tensor<16x32xf32, #b>
    %3 = arith.mulf %2, %1 : tensor<16x32xf32, #b>
    tt.return
  }
}
"""


class _Thing:
    pass


def test_a_table_pins_its_keys_objects_until_it_is_cleared() -> None:
    t = IdTable(2)
    a, b = _Thing(), _Thing()
    ra, rb = weakref.ref(a), weakref.ref(b)
    t.put((id(a),), [a], True)
    t.put((id(b), 7), (b,), "b")
    del a, b
    gc.collect()
    assert ra() is not None and rb() is not None  # pinned: their ids stay theirs
    assert t[(id(ra()),)] is True and t[(id(rb()), 7)] == "b"
    c = _Thing()
    t.put((id(c),), [c], True)  # over the limit: starts over, then pins c
    gc.collect()
    assert ra() is None and rb() is None and list(t) == [(id(c),)] and t.pins == {id(c): c}


def test_a_table_refuses_a_write_that_pins_nothing() -> None:
    t = IdTable(2)
    a = _Thing()
    with pytest.raises(TypeError, match="put"):
        t[(id(a),)] = True
    assert not t and not t.pins


def _id_keys(table: IdTable, skip: int = 0) -> list[int]:
    return [i for key in table for i in key[skip:] if isinstance(i, int)]


def test_every_id_in_the_front_ends_keys_is_pinned_and_keys_are_untracked() -> None:
    parse_module(make_context(), TEXT)
    gc.collect()
    for table, skip in ((VERIFIED, 0), (memo._TYPES, 1), (memo._CALLSITES, 0)):
        assert table and all(i in table.pins for i in _id_keys(table, skip))
        assert not any(gc.is_tracked(k) for k in table)
    assert all(isinstance(i, int) for key in VERIFIED for i in key)


def test_a_type_text_is_one_type_per_aliases_named_and_pointer_class() -> None:
    """memo._TYPES's key: the text and, by id, the pointer class and the aliases it names."""
    one = parse_module(make_context(), TEXT).module
    two = parse_module(make_context(), TEXT).module
    other = parse_module(make_context(), TEXT.replace("warpsPerCTA = [1, 2]", "warpsPerCTA = [2, 1]")).module

    def arg_types(m):  # type: ignore[no-untyped-def]
        return [a.type for op in m.walk() if op.name == "tt.func" for a in op.regions[0].block.args]

    t1, t2, t3 = arg_types(one), arg_types(two), arg_types(other)
    assert all(x is y for x, y in zip(t1, t2))  # same text, same aliases: the same objects
    assert t3[1] is not t1[1] and t3[1] != t1[1]  # `#a` names another layout: another type
    assert t3[2] is t1[2]  # `#b` is the same layout


def test_canonical_objects_tell_apart_unequal_attributes_of_one_hash() -> None:
    class Same:
        def __init__(self, v: int) -> None:
            self.v = v

        def __hash__(self) -> int:
            return 12345

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Same) and other.v == self.v

    fastprint.clear()
    a, b, a2, c = Same(1), Same(2), Same(1), Same(3)
    canon = [fastprint.canonical(x) for x in (a, b, a2, c)]  # type: ignore[arg-type]
    assert canon[0] is a and canon[1] is b and canon[2] is a and canon[3] is c
    assert [fastprint.canonical_id(x) for x in (a, b, a2, c)] == [id(a), id(b), id(a), id(c)]  # type: ignore[arg-type]
    assert fastprint._known.pins[id(a2)] is a2  # (pinned: a2's id is not another's while known)
    fastprint.clear()


def test_identity_memos_start_over_with_the_intern_table_and_keep_their_keys_pinned() -> None:
    """by_identity's keys hold ids of objects _BY_ID pins: a start-over of _BY_ID empties the
    memos too (also one that happens inside a computation), and answers stay right."""
    from xdsl.dialects.builtin import TensorType

    calls = []

    @lmemo.by_identity
    def elem(t: TensorType, burst: int) -> object:
        calls.append(t)
        for i in range(burst):  # interning that may start the tables over midway
            lmemo.intern(TensorType(f32, [i + 1]))
        return t.element_type

    table = elem.cache_clear.__self__  # type: ignore[attr-defined]
    saved = lmemo._MAX
    lmemo._MAX = 8
    try:
        lmemo._start_over()
        x, y = TensorType(f16, [4]), TensorType(f32, [4])
        assert elem(x, 0) is f16 and elem(TensorType(f16, [4]), 0) is f16 and len(calls) == 1
        assert elem(y, 20) is f32  # starts over inside: the answer is kept under pinned ids
        assert all(i in lmemo._BY_ID.pins for key in table for i in key[:1])
        assert elem(y, 20) is f32 and len(calls) == 2
        generation = lmemo._GENERATION[0]
        for n in range(10):
            lmemo.intern(TensorType(f16, [n + 100]))
        assert lmemo._GENERATION[0] > generation and len(table) == 0  # emptied with _BY_ID
        assert elem(x, 0) is f16 and len(calls) == 3
    finally:
        lmemo._MAX = saved
        lmemo._start_over()


def test_every_id_in_rlcs_verification_keys_is_pinned() -> None:
    """RemoveLayoutConversions' checks fill locality's and opaque's tables: each id they key on is pinned."""
    from xpu_passes.transforms.remove_layout_conversions import locality
    from xpu_passes.transforms.remove_layout_conversions import opaque
    from xpu_passes.transforms.remove_layout_conversions import validity
    from xpu_passes.transforms.remove_layout_conversions.locality import Contexts

    for t in (locality._VERIFIED, locality._CONVERTS, locality._OPAQUE, opaque._VALID, opaque._TYPES, opaque._IDS,
              validity._PASSED):
        t.clear()
    module = parse_module(make_context(), TEXT).module
    VERIFIED.clear()  # (else the parse's verified signatures answer first)
    contexts = Contexts()
    for op in module.walk():
        assert not validity._errs_alone(op, contexts)
    assert locality._CONVERTS and locality._OPAQUE and opaque._TYPES and opaque._VALID and validity._PASSED
    for _ in range(4):  # (tuples nest 3 deep in a key: a collection may untrack one level)
        gc.collect()
    for table, skip in ((locality._VERIFIED, 0), (locality._CONVERTS, 4), (opaque._VALID, 1), (validity._PASSED, 0)):
        assert all(i in table.pins for i in _id_keys(table, skip))
    assert all(i in opaque._TYPES.pins for i in opaque._TYPES) and all(i in opaque._IDS.pins for i in opaque._IDS)
    for key in locality._OPAQUE:  # (ids of classes and attributes; descriptors hold shapes and ids of types)
        assert key[0] in locality._OPAQUE.pins and key[1] in locality._OPAQUE.pins
    for table in (locality._VERIFIED, locality._CONVERTS, locality._OPAQUE, opaque._VALID, validity._PASSED):
        assert not any(gc.is_tracked(k) for k in table)


def test_op_template_keys_are_ids_of_pinned_objects() -> None:
    """fastprint's op templates: keys of ids, names and small indices; every id pinned, and the
    same form in another module prints the same text."""
    from xpu_passes.frontend import print_module

    fastprint.clear()
    texts = [print_module(parse_module(make_context(), TEXT).module) for _ in range(2)]
    assert texts[0] == texts[1]
    tables = [t for mode, t in fastprint._templates.items() if mode[0] == "ops"]
    assert tables and all(isinstance(t, IdTable) and t for t in tables)
    for _ in range(4):
        gc.collect()
    for t in tables:
        ids = [i for key in t for i in key if type(i) is int and i > 1 << 16]  # (others: operand indices, marks)
        assert ids and all(i in t.pins for i in ids)
        assert not any(gc.is_tracked(k) for k in t)


def test_opaque_type_descriptors_start_over_with_the_canonical_objects_they_name() -> None:
    """opaque._TYPES holds descriptors naming _CANON's objects by id: when those start over, so
    do the descriptors (else a descriptor would name an object no longer pinned)."""
    from xdsl.dialects.builtin import TensorType

    from xpu_passes.transforms.remove_layout_conversions import opaque

    t = TensorType(f32, [4, 8])
    desc, _, c = opaque._describe(t)
    assert desc == ((4, 8), id(c)) and opaque._describe(t)[2] is c and id(t) in opaque._TYPES
    for n in range(20_002):
        opaque._canon(TensorType(f16, [n + 1]))  # fills _IDS past its bound: a start-over
    assert id(t) not in opaque._TYPES
    desc2, _, c2 = opaque._describe(t)
    assert desc2 == ((4, 8), id(c2)) and opaque._IDS.pins[id(f32)] is f32
