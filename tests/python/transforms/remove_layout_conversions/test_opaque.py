"""RLC's verification keys without layouts (transforms/remove_layout_conversions/opaque.py) say what xDSL's verifier says.

For each op class keyed so, built from the construct RLC retypes (elementwise ops, splats,
broadcasts, ranges, pointer arithmetic, loads and stores through tensors of pointers and
block pointers), every assignment of layouts to the op's values from a pool (two valid
layouts, one invalid in the module, none) is verified by xDSL: two assignments that share a
key must get the same answer, and RLC's check (validity._errs_alone, which trusts a key
verified before) must reject every one xDSL rejects.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from xdsl.dialects.builtin import NoneAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects import make_context, tt, ttg
from xpu_passes.dialects.traits import layout_error
from xpu_passes.frontend import parse_module
from xpu_passes.transforms.remove_layout_conversions import validity
from xpu_passes.transforms.remove_layout_conversions.locality import Contexts
from xpu_passes.transforms.remove_layout_conversions.opaque import OPAQUE_NAMES, opaque_key, valid_layout

TEXT = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%p: !tt.ptr<f32>, %x: tensor<16x32xf32, #a>, %y: tensor<16x32xf32, #a>, %i: tensor<16x32xi32, #a>,
             %s: f32, %col: tensor<16x1xf32, #a>, %n: i64, %k: i32, %pool: tensor<16x32xf32, #b>,
             %pool1: tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>) {
    %0 = arith.addf %x, %y : tensor<16x32xf32, #a>
    %1 = arith.cmpf olt, %x, %y : tensor<16x32xf32, #a>
    %2 = arith.select %1, %x, %y : tensor<16x32xi1, #a>, tensor<16x32xf32, #a>
    %3 = arith.sitofp %i : tensor<16x32xi32, #a> to tensor<16x32xf32, #a>
    %4 = math.exp %x : tensor<16x32xf32, #a>
    %5 = tt.splat %s : f32 -> tensor<16x32xf32, #a>
    %6 = tt.broadcast %col : tensor<16x1xf32, #a> -> tensor<16x32xf32, #a>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #a}>>
    %7 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
    %8 = tt.splat %p : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #a>
    %9 = tt.addptr %8, %i : tensor<16x32x!tt.ptr<f32>, #a>, tensor<16x32xi32, #a>
    %10 = tt.load %9, %1, %x : tensor<16x32x!tt.ptr<f32>, #a>
    tt.store %9, %10, %1 : tensor<16x32x!tt.ptr<f32>, #a>
    %bp = tt.make_tensor_ptr %p, [%n, %n], [%n, %n], [%k, %k] {order = array<i32: 1, 0>} : <tensor<16x32xf32, #a>>
    %bq = tt.advance %bp, [%k, %k] : <tensor<16x32xf32, #a>>
    %11 = tt.load %bq : !tt.ptr<tensor<16x32xf32, #a>>
    tt.store %bq, %11 : !tt.ptr<tensor<16x32xf32, #a>>
    tt.return
  }
}
"""

# Layouts of 4 warps: valid where they are written, invalid in TEXT's 2-warp module.
FOUR_WARPS = """
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @g(%x: tensor<16x32xf32, #c>, %r: tensor<32xi32, #d>) {
    tt.return
  }
}
"""


def _args(text: str) -> list[Attribute]:
    module = parse_module(make_context(), text).module
    func = next(o for o in module.walk() if isinstance(o, tt.FuncOp))
    return [a.type for a in func.regions[0].block.args]


def _verifies(op: Operation) -> bool:
    try:
        op.verify(verify_nested_ops=False)
    except VerifyException:
        return False
    return True


def _ops() -> tuple[Operation, list[Operation], dict[int, list[Attribute | None]]]:
    """TEXT's keyed ops, and per rank a pool of layouts: two valid ones, one invalid in TEXT, none."""
    module = parse_module(make_context(), TEXT).module
    ops = [o for o in module.walk() if o.name in OPAQUE_NAMES]
    args, four = _args(TEXT), _args(FOUR_WARPS)
    a = args[1].encoding
    pools = {
        2: [a, args[8].encoding, four[0].encoding, None],
        1: [ttg.SliceEncodingAttr.make(dim=0, parent=a), args[9].encoding, four[1].encoding, None],
    }
    return module, ops, pools


def _positions(op: Operation) -> list[SSAValue]:
    """The op's values that carry a layout (tensors and block pointers), each once."""
    seen: dict[int, SSAValue] = {}
    for v in (*op.operands, *op.results):
        t = v.type
        if isinstance(t, TensorType) or (isinstance(t, tt.PointerType) and isinstance(t.pointee, TensorType)):
            seen.setdefault(id(v), v)
    return list(seen.values())


def _with_layout(t: Attribute, enc: Attribute | None) -> Attribute:
    enc = NoneAttr() if enc is None else enc
    if isinstance(t, tt.PointerType):
        p = t.pointee
        return tt.PointerType(TensorType(p.element_type, p.get_shape(), enc), t.address_space.data)
    return TensorType(t.element_type, t.get_shape(), enc)


def _rank(t: Attribute) -> int:
    return len((t.pointee if isinstance(t, tt.PointerType) else t).get_shape())


def _assignments(op: Operation, pools: dict[int, list[Attribute | None]]) -> Iterator[None]:
    """Give the op's values every combination of layouts of their rank; restore them after."""
    values = _positions(op)
    saved = [v._type for v in values]  # pyright: ignore[reportPrivateUsage]
    try:
        wide = len(values) > 3  # (select, load: 4 values; no NoneAttr there, to keep the sweep short)
        for choice in itertools.product(*(pools[_rank(t)][: 3 if wide else 4] for t in saved)):
            for v, t, enc in zip(values, saved, choice):
                v._type = _with_layout(t, enc)  # pyright: ignore[reportPrivateUsage]
            yield
    finally:
        for v, t in zip(values, saved):
            v._type = t  # pyright: ignore[reportPrivateUsage]


def test_ops_sharing_a_layout_free_key_verify_alike_and_rlc_rejects_what_xdsl_rejects() -> None:
    module, ops, pools = _ops()
    names = {o.name for o in ops}
    assert {"arith.addf", "arith.cmpf", "arith.select", "arith.sitofp", "math.exp", "tt.splat", "tt.broadcast",
            "tt.make_range", "tt.expand_dims", "tt.addptr", "tt.load", "tt.store", "tt.make_tensor_ptr",
            "tt.advance"} <= names
    for op in ops:
        answers: dict[tuple[object, ...], bool] = {}
        seen = 0
        for _ in _assignments(op, pools):
            key = opaque_key(op, Contexts().of(op))
            assert key is not None, op.name
            ok = _verifies(op)
            assert answers.setdefault(key[0], ok) == ok, f"{op.name}: one key, two answers"
            # RLC's check trusts a key verified before (a twin with other layouts): it still refuses.
            assert ok or validity._errs_alone(op, Contexts()), op.name
            seen += 1
        # The key leaves layouts out (fewer keys than assignments); where the verifier reads layouts
        # (all but a cast and make_tensor_ptr: no rule compares or checks their layouts), the pool
        # reaches both answers.
        assert len(answers) < seen, op.name
        both = op.name not in ("arith.sitofp", "tt.make_tensor_ptr")
        assert set(answers.values()) == ({True, False} if both else {True}), op.name


def test_layout_validity_is_remembered_per_context() -> None:
    """valid_layout's memo keys on the layout, the rank and the enclosing context: the same
    layout object is valid in a 4-warp module and invalid in a 2-warp one, as xDSL says."""
    four = parse_module(make_context(), FOUR_WARPS).module
    two = parse_module(make_context(), TEXT).module
    t4 = _args(FOUR_WARPS)[0]
    op4 = next(o for o in four.walk() if o.name == "tt.return")
    op2 = next(o for o in two.walk() if o.name == "arith.addf")
    t2 = TensorType(t4.element_type, t4.get_shape(), t4.encoding)  # the same layout object
    assert valid_layout(op4, t4, Contexts().of(op4)) and not layout_error(op4, t4)
    assert not valid_layout(op2, t2, Contexts().of(op2)) and layout_error(op2, t2)
    flat = TensorType(t4.element_type, [512], t4.encoding)  # another rank: invalid even with 4 warps
    assert not valid_layout(op4, flat, Contexts().of(op4)) and layout_error(op4, flat)


def test_a_layout_inside_a_pointer_element_or_a_none_layout_gets_no_key() -> None:
    module, ops, _ = _ops()
    load = next(o for o in ops if o.name == "tt.load" and isinstance(o.operands[0].type, TensorType))
    ptr = load.operands[0]
    saved = ptr._type  # pyright: ignore[reportPrivateUsage]
    block = next(o for o in ops if o.name == "tt.advance").results[0].type
    try:
        ptr._type = TensorType(block, saved.get_shape(), saved.encoding)  # pyright: ignore[reportPrivateUsage]
        assert opaque_key(load, Contexts().of(load)) is None
    finally:
        ptr._type = saved  # pyright: ignore[reportPrivateUsage]


@pytest.mark.parametrize("name", sorted(OPAQUE_NAMES))
def test_every_opaque_op_class_exists(name: str) -> None:
    """Each name of OPAQUE_NAMES is an op the dialects define (a typo would key nothing)."""
    ctx = make_context()
    assert ctx.get_optional_op(name) is not None
