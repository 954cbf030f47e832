"""RemoveLayoutConversions' memos cannot return a stale answer.

Each memo is keyed by what its answer reads; these tests change one of those things on
the construct the memo serves and check that the answer follows (and, where the memo
serves two spellings of one value, that both get the same answer).
"""

from __future__ import annotations


import pytest

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint

from xpu_passes.dialects import make_context, tt, ttg
from xpu_passes.frontend import parse_module
from xpu_passes.ir import journal
from xpu_passes.transforms.remove_layout_conversions import validity
from xpu_passes.ir.journal import Journal
from xpu_passes.transforms.remove_layout_conversions.locality import Contexts, verify_key_of
from xpu_passes.layouts.propagation import with_encoding
from xpu_passes.layouts.scratch import scan_reduce_scratch_bytes

from samples import LOOP

# Two warps along dim 1 in #a, none in #b: a reduction along 1 needs scratch in #a only.
TEXT = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x32xf32, #a>, %y: tensor<16x32xf32, #b>) {
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %m = arith.maxnumf %p, %q : f32
      tt.reduce.return %m : f32
    }) : (tensor<16x32xf32, #a>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #a}>>
    %s = "tt.scan"(%y) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%p: f32, %q: f32):
      %n = arith.addf %p, %q : f32
      tt.scan.return %n : f32
    }) : (tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b>
    tt.return
  }
}
"""


def _module() -> tuple[Operation, tt.ReduceOp, tt.ScanOp]:
    module = parse_module(make_context(), TEXT).module
    red = next(o for o in module.walk() if isinstance(o, tt.ReduceOp))
    scan = next(o for o in module.walk() if isinstance(o, tt.ScanOp))
    return module, red, scan


def test_a_reduction_verified_once_is_verified_again_with_other_types() -> None:
    module, red, scan = _module()
    assert not validity._errs_alone(red, Contexts())
    key = verify_key_of(red, Contexts().of(red))
    assert key is not None and key[0] in key[2]  # remembered
    # The same op with its result in another layout (not the slice of its operand's): an error.
    j = Journal(module).begin()
    journal.replace_value_with_new_type(red.results[0], with_encoding(red.results[0].type, scan.results[0].type.encoding))
    assert verify_key_of(red, Contexts().of(red))[0] != key[0]
    assert validity._errs_alone(red, Contexts())
    j.rollback()
    assert not validity._errs_alone(red, Contexts())


def test_a_terminator_verified_once_is_verified_again_under_another_parent() -> None:
    module, red, scan = _module()
    term = red.regions[0].block.last_op
    assert isinstance(term, tt.ReduceReturnOp)
    assert not validity._errs_alone(term, Contexts())
    key = verify_key_of(term, Contexts().of(term))
    assert key is not None and key[0] in key[2]
    # The same signature as the scan's terminator: HasParent(ReduceOp) fails there.
    j = Journal(module).begin()
    old = scan.regions[0].block.last_op
    moved = journal.created(tt.ReduceReturnOp.create(operands=list(old.operands)))
    journal.insert_op(moved, InsertPoint.after(old))
    journal.erase_op(old)
    assert verify_key_of(moved, Contexts().of(moved))[0] != key[0]
    assert validity._errs_alone(moved, Contexts())
    j.rollback()
    assert not validity._errs_alone(scan.regions[0].block.last_op, Contexts())




def test_a_loop_verified_once_is_verified_again_when_its_yield_changes() -> None:
    """scf.for's verifier reads its terminator's operand types: they are part of its key."""
    module = parse_module(make_context(), LOOP).module
    loop = next(o for o in module.walk() if o.name == "scf.for")
    yield_ = loop.body.block.last_op
    assert not validity._errs_alone(loop, Contexts()) and not validity._errs_alone(yield_, Contexts())
    key, ykey = verify_key_of(loop, Contexts().of(loop)), verify_key_of(yield_, Contexts().of(yield_))
    assert key is not None and key[0] in key[2] and ykey is not None and ykey[0] in ykey[2]
    # The yielded value in another layout: the loop's own verifier refuses it (not _op_error's checks).
    j = Journal(module).begin()
    b = next(o for o in module.walk() if o.name == "tt.func").regions[0].block.args[1].type.encoding
    s = yield_.operands[0]
    journal.replace_value_with_new_type(s, with_encoding(s.type, b))
    assert verify_key_of(loop, Contexts().of(loop))[0] != key[0]
    assert validity._errs_alone(loop, Contexts())
    assert validity._op_error(loop) is None  # the refusal was the verifier's
    j.rollback()
    assert not validity._errs_alone(loop, Contexts())


def test_scan_and_reduce_scratch_follow_their_types_and_layout() -> None:
    module, red, scan = _module()
    a, b = red.operands[0].type.encoding, scan.operands[0].type.encoding
    with_warps = scan_reduce_scratch_bytes(red)
    assert with_warps > 0  # two warps along the axis
    # Asked in the scan's layout (no warp along the axis): none; asked again: the same answers.
    sliced_b = ttg.SliceEncodingAttr.make(dim=1, parent=b)
    assert scan_reduce_scratch_bytes(red, sliced_b) == 0
    assert scan_reduce_scratch_bytes(red) == with_warps
    # The op's operand retyped: the answer is the new type's, not the remembered one.
    j = Journal(module).begin()
    journal.replace_value_with_new_type(red.operands[0], with_encoding(red.operands[0].type, b))
    assert scan_reduce_scratch_bytes(red) == 0
    j.rollback()
    assert scan_reduce_scratch_bytes(red) == with_warps
    # A scan in #a has scratch too (two warps along its axis), in #b none.
    assert scan_reduce_scratch_bytes(scan) == 0
    assert scan_reduce_scratch_bytes(scan, a) > 0
    assert isinstance(a, ttg.BlockedEncodingAttr)


def _region_shape(regions: list) -> list:
    """Each nested op and block argument: name, types, location, name hints, and every use list in order."""
    ops = [o for r in regions for b in r.blocks for o in b.walk()]
    at = {o: i for i, o in enumerate(ops)}
    out: list = []
    for r in regions:
        for b in r.blocks:
            out.append([(a.type, a.name_hint, str(a.location), [(at.get(u.operation), u.index) for u in a.uses])
                        for a in b.args])
    for o in ops:
        out.append((o.name, str(o.location), dict(o.properties), dict(o.attributes),
                    [(at.get(v.owner), getattr(v, "index", None)) for v in o.operands]))
        out += [(v.type, v.name_hint, [(at.get(u.operation), u.index) for u in v.uses]) for v in o.results]
    return out


def test_a_recomputed_combiner_is_what_region_clone_makes() -> None:
    """materialize clones a reduction's or scan's region with layouts/clone.clone_regions: the
    same regions as xDSL's Region.clone (and the originals keep their uses)."""
    from xpu_passes.ir.clone import clone_regions

    module, red, scan = _module()
    for op in (red, scan):
        before = _region_shape(list(op.regions))
        ours, theirs = clone_regions(op), [r.clone() for r in op.regions]
        assert _region_shape(ours) == _region_shape(theirs) and len(before) > 3
        assert _region_shape(list(op.regions)) == before
        assert all(r.parent is None for r in ours)


def test_a_blocked_tile_is_remembered_per_layout_fields() -> None:
    """encodings._blocked_tile: one tile per (sizes, threads, warps, order), whatever the shape;
    layouts that differ in one field get their own, equal to the tile built afresh."""
    from xpu_passes.layouts.encodings import _blocked_tile, to_linear

    _, red, scan = _module()
    a, b = red.operands[0].type.encoding, scan.operands[0].type.encoding
    for layout in (a, b, a):
        args = [tuple(v) for v in (layout.size_per_thread, layout.threads_per_warp, layout.warps_per_cta, layout.order)]
        assert _blocked_tile(*args) == _blocked_tile.__wrapped__(*args)
    assert to_linear(a, (16, 32)) != to_linear(b, (16, 32))
    assert to_linear(a, (16, 32)).shape == (16, 32) and to_linear(a, (8, 64)).shape == (8, 64)


DEAD = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x32xf32, #a>, %y: tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b> {
    %c = ttg.convert_layout %x : tensor<16x32xf32, #a> -> tensor<16x32xf32, #b>
    %d = arith.addf %c, %y : tensor<16x32xf32, #b>
    tt.return %d : tensor<16x32xf32, #b>
  }
}
"""


def test_a_conversion_left_dead_between_sweeps_is_swept() -> None:
    """The dead-conversion sweep looks only at conversions that lost a use (or came in) since the
    last kept sweep: one whose user moved away in a kept change without a sweep is still found;
    a change rolled back leaves the candidates as they were."""
    from xpu_passes.transforms.remove_layout_conversions.materialize import erase_dead_converts

    module = parse_module(make_context(), DEAD).module
    cvt = next(o for o in module.walk() if isinstance(o, ttg.ConvertLayoutOp))
    add = cvt.results[0].first_use.operation  # type: ignore[union-attr]
    j = Journal(module)
    erase_dead_converts(j.begin())  # the first sweep looks at every conversion: none is dead
    j.commit()
    assert cvt.parent is not None and j.maybe_dead == set()
    j.begin()
    journal.set_operand(add, 0, add.operands[1])
    j.rollback()  # undone: still used, nothing to look at
    assert j.maybe_dead == set() and cvt.results[0].first_use is not None
    j.begin()
    journal.set_operand(add, 0, add.operands[1])  # kept, no sweep (as a fold's session)
    j.commit()
    assert j.maybe_dead == {cvt}
    erase_dead_converts(j.begin())
    j.commit()
    assert cvt.parent is None and cvt not in j.converts and j.maybe_dead == set()


def test_conversion_figures_follow_their_layouts_not_the_last_asked() -> None:
    """needs_slm and convert_scratch_bytes are remembered by the identity of their layouts/types:
    each pair gets its own answer (as computed afresh), a pair equal by value the same one."""
    from xpu_passes.layouts.scratch import _needs_slm, convert_scratch_bytes

    _, red, scan = _module()
    ta, tb = red.operands[0].type, scan.operands[0].type
    a, b = ta.encoding, tb.encoding
    tb2 = TensorType(tb.element_type, tb.get_shape(), tb.encoding)  # a new object of the same value
    assert tb2 == tb and tb2 is not tb
    for src, dst in ((ta, tb), (tb, ta), (ta, ta), (ta, tb2)):
        assert convert_scratch_bytes(src, dst) == convert_scratch_bytes.__wrapped__(src, dst)
        assert _needs_slm(src.encoding, dst.encoding, (16, 32)) == _needs_slm.__wrapped__(src.encoding, dst.encoding, (16, 32))
    assert convert_scratch_bytes(ta, tb) > 0 and convert_scratch_bytes(ta, ta) == 0
    assert _needs_slm(a, b, (16, 32)) and not _needs_slm(a, a, (16, 32))


def test_intern_gives_one_object_per_value_and_remembers_objects_by_identity() -> None:
    """memo.intern's id table: an equal layout made afresh maps to the first one's object, and an
    object interned again answers the same (with no stale answer for another object)."""
    from xpu_passes.layouts import memoize as memo

    module, red, scan = _module()
    a, b = red.operands[0].type.encoding, scan.operands[0].type.encoding
    fresh = ttg.BlockedEncodingAttr(*a.parameters)  # equal to #a, another object
    assert fresh == a and fresh is not a
    one = memo.intern(a)
    assert memo.intern(fresh) is one and memo.intern(a) is one and memo.intern(fresh) is one
    assert memo.intern(b) is not one and memo.intern(b) == b
    assert memo.intern((1, 2)) == (1, 2)  # not an attribute: itself


FOUR_WARPS = """
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @g(%z: tensor<16x32xf32, #c>) {
    tt.return
  }
}
"""


def test_a_conversion_is_judged_by_its_shapes_elements_and_layout_validity_not_its_layouts() -> None:
    """ttg.convert_layout's key leaves its layouts out but keeps what its verifier reads of
    them: where two conversions share a key, xDSL's verifier says the same of both."""
    from xdsl.dialects.builtin import f16

    module, red, scan = _module()
    x, y = red.operands[0], scan.operands[0]  # 16x32xf32 in #a and in #b
    b = y.type.encoding
    four = parse_module(make_context(), FOUR_WARPS).module
    in_four = next(o for o in four.walk() if isinstance(o, tt.FuncOp)).regions[0].block.args[0].type
    j = Journal(module).begin()
    point = InsertPoint.before(scan)

    def convert(v, t):
        op = journal.created(ttg.ConvertLayoutOp.create(operands=[v], result_types=[t]))
        journal.insert_op(op, point)
        return op

    def verifies(op) -> bool:
        try:
            op.verify(verify_nested_ops=False)
        except Exception:
            return False
        return True

    first = convert(x, y.type)  # #a -> #b
    assert not validity._errs_alone(first, Contexts())
    key = verify_key_of(first, Contexts().of(first))
    assert key[0] in key[2]
    other = convert(y, x.type)  # #b -> #a: another signature with the same key, and xDSL agrees
    assert verify_key_of(other, Contexts().of(other))[0] == key[0] and verifies(other)
    assert not validity._errs_alone(other, Contexts())
    # Another element type, another shape: other keys, and xDSL refuses both.
    # A layout of 4 warps in this 2-warp module: xDSL refuses it (TritonGPU's layout check).
    for t in (TensorType(f16, [16, 32], b), TensorType(y.type.element_type, [32, 16], b), in_four):
        wrong = convert(x, t)
        assert verify_key_of(wrong, Contexts().of(wrong))[0] != key[0]
        assert not verifies(wrong) and validity._errs_alone(wrong, Contexts())
    j.rollback()
