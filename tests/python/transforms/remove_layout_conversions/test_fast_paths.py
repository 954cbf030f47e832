"""RemoveLayoutConversions' fast paths build and key exactly what the general xDSL calls do.

Each fast path here replaces an xDSL call on RLC's hot path (an op's creation, its operands'
use lists, its insertion and walk-order key, a verification key); each test compares it
with the general call on the construct it serves, use lists and order included.
"""

from __future__ import annotations


import pytest
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint

from xpu_passes.dialects import make_context, tt, ttg
from xpu_passes.frontend import parse_module
from xpu_passes.frontend import verifier
from xpu_passes.frontend.verifier import VERIFIED, verify_key
from xpu_passes.ir import journal
from xpu_passes.transforms.remove_layout_conversions import locality
from xpu_passes.ir.journal import Journal, walk_list
from xpu_passes.transforms.remove_layout_conversions.locality import Contexts
from xpu_passes.transforms.remove_layout_conversions.materialize import _clone
from xpu_passes.transforms.remove_layout_conversions.remat import Slice

TEXT = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x32xf32, #a>, %y: tensor<16x32xf32, #b>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #a}>> {
    %z = arith.addf %x, %x : tensor<16x32xf32, #a>
    %r = "tt.reduce"(%z) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %m = arith.maxnumf %p, %q : f32
      tt.reduce.return %m : f32
    }) {tt.custom = 1 : i32} : (tensor<16x32xf32, #a>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #a}>>
    %w = arith.mulf %z, %z : tensor<16x32xf32, #a>
    tt.return %r : tensor<16xf32, #ttg.slice<{dim = 1, parent = #a}>>
  }
}
"""



def _module() -> Operation:
    return parse_module(make_context(), TEXT).module


def _op(module: Operation, cls: type) -> Operation:
    return next(o for o in walk_list(module) if isinstance(o, cls))


def _shape(op: Operation) -> list:
    """An op as its printer and users see it: class, operands (and their use lists, in order),
    result types, properties, attributes, location, regions (ops, block arguments)."""
    out: list = [type(op), [v.type for v in op.operands], [r.type for r in op.results], dict(op.properties),
                 dict(op.attributes), str(op.location), len(op.regions)]
    out += [[(u.operation is op, u.index) for u in v.uses] for v in op.operands]
    for r in op.regions:
        for b in r.blocks:
            out.append([a.type for a in b.args])
            out += [(o.name, [type(v).__name__ for v in o.operands], [t.type for t in o.results]) for o in b.ops]
    out.append([r.parent is op for r in op.regions])
    return out


def test_a_recomputed_reduction_is_what_create_makes() -> None:
    """materialize._clone builds a reduction (regions attached after new_op) as Operation.create
    does: same operands and use-list order, types, properties, attributes, location, regions."""
    made = []
    for ours in (True, False):  # each in its own module: the use lists are compared
        red = _op(_module(), tt.ReduceOp)
        (z,) = red.operands
        if ours:
            c = _clone(red, tuple(red.operands), Slice(), {})
        else:
            c = type(red).create(operands=[z], result_types=[r.type for r in red.results],
                                 properties=dict(red.properties), attributes=dict(red.attributes),
                                 regions=[r.clone() for r in red.regions], location=red.location)
        assert [u.operation for u in z.uses][0] is c  # the newest user first
        made.append(_shape(c))
    assert made[0] == made[1] and made[0][6] == 1


def test_inserting_before_and_after_keys_the_op_where_it_is() -> None:
    """journal.insert_before/insert_after (no InsertPoint) put the op where InsertPoint.before/
    after do, and Order.place's direct key for an op between two plain ops keeps walk order,
    until the gap runs out (then it renumbers)."""
    module = _module()
    add = _op(module, tt.ReduceOp).prev_op
    assert add is not None and add.name == "arith.addf"
    j = Journal(module).begin()
    made = []
    for i in range(40):  # more halvings of one gap than its 32 bits
        c = journal.created(add.clone())
        journal.insert_after(c, add) if i % 2 else journal.insert_before(c, add)
        made.append(c)
    j.order.check()  # keys follow the walk (raises otherwise)
    assert {o for o in made} <= set(j.touched)
    j.rollback()
    assert all(o.parent is None for o in made)
    j.order.check()
    # The same positions as through InsertPoint.
    a, b = add.clone(), add.clone()
    j.begin()
    journal.insert_before(a, add)
    journal.insert_op(b, InsertPoint.before(add))
    assert add.prev_op is b and b.prev_op is a
    j.order.check()
    j.rollback()


def test_erasing_and_undoing_restores_every_use_list_in_order() -> None:
    """journal.erase_op's inline unlinking: the operands' use lists lose exactly the op's uses,
    and a rollback puts each back where it was."""
    module = _module()
    mul = next(o for o in walk_list(module) if o.name == "arith.mulf")
    (z, _) = mul.operands
    before = [(u.operation, u.index) for u in z.uses]
    assert len(before) == 3
    j = Journal(module).begin()
    journal.erase_op(mul)
    assert [(u.operation, u.index) for u in z.uses] == [x for x in before if x[0] is not mul]
    assert mul.parent is None and mul in j.touched
    j.rollback()
    assert [(u.operation, u.index) for u in z.uses] == before and mul.parent is not None


def test_the_verification_key_is_the_parsers() -> None:
    """verify_key (read from _operands/_type) is the key the parser's walk stores (an op of a
    signature verified while parsing is not verified again), and another signature differs."""
    module = _module()
    add = _op(module, tt.ReduceOp).prev_op
    mul = next(o for o in walk_list(module) if o.name == "arith.mulf")
    ka, km = verify_key(add, []), verify_key(mul, [])
    assert ka is not None and km is not None and ka[0] != km[0]
    expected = [type(add), *[v.type for v in add.operands], None, *[r.type for r in add.results], None]
    for d in (add.properties, add.attributes):
        for item in d.items():
            expected += item
        if d is add.properties:
            expected.append(None)
    assert ka[1] == expected and ka[0] == tuple(map(id, expected))
    # Verified op by op as the parser does (its walk builds its key inline): this very key is stored.
    parsed = parse_module(make_context(), TEXT)
    add = next(o for o in walk_list(parsed.module) if o.name == "arith.addf")
    context = Contexts().of(add)
    VERIFIED.clear()
    verifier._Walk(parsed, False, ()).check(add, context)
    assert len(VERIFIED) == 1 and verify_key(add, context)[0] in VERIFIED  # type: ignore[index]


def test_layout_equality_by_identity_is_equality() -> None:
    """memo.same: `==` of two attributes, remembered by their identities: equal layouts that are
    distinct objects are the same, layouts of one class that differ are not, asked twice or
    after the table starts over."""
    from xpu_passes.layouts import memoize as memo

    module = _module()
    red = _op(module, tt.ReduceOp)
    a = red.operands[0].type.encoding
    b = parse_module(make_context(), TEXT.replace("[1, 2]", "[2, 1]", 1)).module
    b = next(o for o in walk_list(b) if isinstance(o, tt.ReduceOp)).operands[0].type.encoding
    twin = type(a).new(a.parameters)
    assert twin is not a and type(b) is type(a) and a != b
    for _ in range(2):
        assert memo.same(a, twin) and memo.same(twin, a) and memo.same(a, a)
        assert not memo.same(a, b) and not memo.same(b, a)
        assert memo.same(a, None) is False
    memo._SAME.clear()
    assert memo.same(a, twin) and not memo.same(a, b)


def test_a_shape_by_identity_is_the_types_shape() -> None:
    """memo.shape_of: each tensor type's own shape (types of one layout, other shapes; asked
    again, and after the table starts over)."""
    from xpu_passes.layouts import memoize as memo

    types = {v.type for o in walk_list(_module()) for v in (*o.operands, *o.results) if isinstance(v.type, TensorType)}
    assert {len(t.get_shape()) for t in types} == {1, 2}
    for _ in range(2):
        assert all(memo.shape_of(t) == tuple(t.get_shape()) for t in types)
        memo._SHAPES.clear()


def test_a_region_ops_key_reads_its_blocks_as_the_views_do() -> None:
    """locality.verify_key_of of a reduction and of its terminator (read through the blocks'
    links and `_type`): the objects the public views give, in the same order."""
    module = _module()
    red = _op(module, tt.ReduceOp)
    term = red.regions[0].block.last_op
    for op, mark in ((red, locality._REGION), (term, locality._TERMINATOR)):
        ctx = Contexts().of(op)
        want = [type(op), type(op.parent_op()), *ctx, None, *[v.type for v in op.operands], None,
                *[r.type for r in op.results], mark]
        for r in op.regions:
            want += [None, len(r.blocks)]
            for b in r.blocks:
                want += [None, *[a.type for a in b.args], None, type(b.last_op), *[v.type for v in b.last_op.operands]]
        for d in (op.properties, op.attributes):
            want.append(None)
            for item in d.items():
                want += item
        key = locality.verify_key_of(op, ctx)
        assert key is not None and key[1] == want and key[0] == tuple(map(id, want))


def test_a_copied_name_hint_is_what_the_setter_stores() -> None:
    """clone.valid_hint (materialize's and the journal's copies of name hints): the name_hint
    setter's answer, asked once or twice, for valid names, numbered ones and none."""
    from xdsl.ir.core import IRWithName

    from xpu_passes.ir.clone import valid_hint

    for name in ("x", "x_12", "x_12_3", "arg4", "_", "a.b$c", None, "x_12"):
        assert valid_hint(name) == IRWithName.extract_valid_name(name)  # type: ignore[arg-type]
    module = _module()
    mul = next(o for o in walk_list(module) if o.name == "arith.mulf")
    j = Journal(module).begin()
    new = journal.replace_value_with_new_type(mul.results[0], mul.results[0].type)
    probe = mul.results[0]
    probe.name_hint = new.name_hint
    assert new.name_hint == probe.name_hint
    j.rollback()


def test_attached_ops_are_those_whose_ancestors_reach_the_module() -> None:
    """locality.attached_of (by blocks, each looked at once): the ops whose parent_op chain
    reaches the module; a detached reduction takes its combiner out with it; the module counts."""
    from xpu_passes.transforms.remove_layout_conversions.locality import attached_of

    module = _module()
    ops = walk_list(module)
    red = _op(module, tt.ReduceOp)

    def reference(found: set[Operation]) -> set[Operation]:
        out = set()
        for op in found:
            o: Operation | None = op
            while o is not None and o is not module:
                o = o.parent_op()
            if o is module:
                out.add(op)
        return out

    assert attached_of(module, set(ops)) == set(ops)
    red.detach()
    inner = set(walk_list(red))
    got = attached_of(module, set(ops))
    assert got == reference(set(ops)) == set(ops) - inner and len(inner) == 3 and module in got
    assert attached_of(module, inner) == set()


def test_inserting_first_in_a_block_links_it_as_xdsl_does() -> None:
    """journal.insert_before's inline linking, before a block's first op: the block's first op,
    both directions of the list, the parent; an op already in a block is refused as xDSL does."""
    module = _module()
    add = _op(module, tt.ReduceOp).prev_op
    assert add is not None and add.prev_op is None
    block = add.parent
    assert block is not None
    before = list(block.ops)
    j = Journal(module).begin()
    c = journal.created(add.clone())
    journal.insert_before(c, add)
    assert block.first_op is c and c.prev_op is None and c.next_op is add and add.prev_op is c
    assert c.parent is block and list(block.ops) == [c, *before]
    assert [o for o in reversed(list(block.ops))] == list(reversed([c, *before]))
    with pytest.raises(ValueError):
        journal.insert_before(add, before[-1])  # attached: xDSL's check
    j.rollback()
    assert list(block.ops) == before and block.first_op is add and add.prev_op is None


SHAPES = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
#l = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x32xf32, #a>, %v: tensor<16xf32, #ttg.slice<{dim = 1, parent = #a}>>) {
    %e = tt.expand_dims %v {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #a}>> -> tensor<16x1xf32, #a>
    %r = tt.reshape %x : tensor<16x32xf32, #a> -> tensor<512xf32, #l>
    %q = tt.reshape %x allow_reorder : tensor<16x32xf32, #a> -> tensor<512xf32, #l>
    %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%p: f32, %q2: f32):
      %n = arith.addf %p, %q2 : f32
      tt.scan.return %n : f32
    }) : (tensor<16x32xf32, #a>) -> tensor<16x32xf32, #a>
    %c = arith.constant dense<1.0> : tensor<16x32xf32, #a>
    tt.return
  }
}
"""


def test_operand_layout_rules_read_what_the_accessors_give() -> None:
    """propagation's rules (reading properties, _operands and _type directly): the answers the
    IRDL accessors give, for expand_dims, reshape (with and without allow_reorder), reduce (its
    axis' slice, another axis, a blocked layout), scan (blocked, sliced) and elementwise/sources."""
    from xpu_passes.layouts import propagation as P
    from xpu_passes.layouts.shape_infer import expand_dims_operand, reshape_layout

    ops = walk_list(parse_module(make_context(), SHAPES, verify=False).module) + walk_list(_module())
    by = {o.name: [x for x in ops if x.name == o.name] for o in ops}
    a, b = by["tt.scan"][0].operands[0].type.encoding, _op(_module(), tt.ReduceOp).operands[0].type.encoding
    sliced = by["tt.reduce"][0].results[0].type.encoding
    other = type(sliced).new((type(sliced.parameters[0])(0), *sliced.parameters[1:]))
    layouts = [a, b, sliced, other, by["tt.reshape"][0].results[0].type.encoding]
    for L in layouts:
        for e in by["tt.expand_dims"]:
            assert P._fresh(e, L) == [expand_dims_operand(L, e.axis.value.data)]
        for r in by["tt.reshape"]:
            want = reshape_layout(L, P.shape(r.result.type), P.shape(r.src.type), r.allow_reorder is not None,
                                  forward=False)
            assert P._fresh(r, L) == (None if want is None else [want])
        for red in by["tt.reduce"]:
            ok = isinstance(L, ttg.SliceEncodingAttr) and L.dim == red.axis.value.data
            assert P._fresh(red, L) == ([L.parent for _ in red.operands] if ok else None)
        for s in by["tt.scan"]:
            assert P._fresh(s, L) == ([L] if isinstance(L, ttg.BlockedEncodingAttr) else None)
        for add in by["arith.addf"]:
            assert P._fresh(add, L) == [L if isinstance(v.type, TensorType) else None for v in add.operands]
        assert P._fresh(by["arith.constant"][0], L) == []
    assert P._fresh(by["tt.reshape"][1], a) is None and P._fresh(by["tt.reduce"][0], sliced) == [a]
    assert P._fresh(by["tt.reduce"][0], other) is None and P.shape(a) == () and P.numel(by["tt.scan"][0].results[0].type) == 512


def test_remembered_isinstance_and_encoding_are_isinstances_answers() -> None:
    """propagation.isa (per classes, then per class of x) and encoding (per-class tests): the
    answers of isinstance and of reading the type, for layouts, types, ops, tuples of classes."""
    from xdsl.dialects.builtin import NoneAttr, f32

    from xpu_passes.layouts.propagation import ATOMICS, encoding, isa

    module = _module()
    red = _op(module, tt.ReduceOp)
    t = red.operands[0].type
    plain = TensorType(f32, [4, 4])
    for _ in range(2):
        for x in (t, t.encoding, red, plain, f32, None):
            for classes in (TensorType, ttg.BlockedEncodingAttr, tt.ReduceOp, ATOMICS, (tt.ReduceOp, TensorType)):
                assert isa(x, classes) == isinstance(x, classes)
        assert encoding(t) is t.encoding and encoding(plain) is None and encoding(f32) is None
        assert isinstance(plain.encoding, NoneAttr)
