"""RaiseBlockPointer's pointer arithmetic analysis (raise_block_pointer/ptr_decompose.py) on its own:
pointers and masks decomposed per dim, what it refuses, and what it proves non-negative."""

from __future__ import annotations

import pytest
from xdsl.dialects import scf

from xpu_passes.dialects import tt
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import ONE, Decomposer, Lin, nonneg, reset_order

from transforms.raise_block_pointer.raise_support import lit_chunk, ops_of, parse_text


def test_decompose_masked_epilogue_pointer_and_mask() -> None:
    m = parse_text(lit_chunk("add_matrix"))
    reset_order()
    load = ops_of(m, tt.LoadOp)[0]
    fn = ops_of(m, tt.FuncOp)[0]
    args = fn.body.blocks.first.args
    dec = Decomposer()
    pf = dec.pointer(load.ptr)
    assert pf.base is args[0]
    t0, t1 = pf.offset.dims
    assert t0 is not None and t1 is not None
    assert t0.stride == Lin.leaf(args[4]) and t1.stride == ONE
    pids = [o.result for o in ops_of(m, tt.GetProgramIdOp)]
    assert t0.pos == Lin.leaf(pids[0]).scale(16) and t1.pos == Lin.leaf(pids[1]).scale(16)
    assert not pf.offset.base.terms and t0.wrap is None
    parts = dec.mask(load.mask)
    assert not parts.others
    assert [(b.dim, b.bound) for b in parts.bounds] == [(0, Lin.leaf(args[2])), (1, Lin.leaf(args[3]))]
    assert nonneg(t0.pos) and not nonneg(t0.pos - Lin.const(1))


def test_decompose_wrap_around_and_loop_mask() -> None:
    m = parse_text(lit_chunk("gemm_tensor_ptr"))
    reset_order()
    fn = ops_of(m, tt.FuncOp)[0]
    args = fn.body.blocks.first.args
    loop = ops_of(m, scf.ForOp)[1]  # the masked K loop
    dec = Decomposer()
    pa = dec.pointer(loop.iter_args[1])
    t0, t1 = pa.offset.dims
    assert t0 is not None and t0.wrap == Lin.leaf(args[3]) and t0.stride == Lin.leaf(args[6])
    assert t1 is not None and t1.wrap is None and t1.stride == ONE
    load = [o for o in loop.body.block.ops if isinstance(o, tt.LoadOp)][0]
    (b,) = dec.mask(load.mask).bounds
    iv = loop.body.block.args[0]
    assert b.dim == 1 and b.pos == Lin() and b.bound.split(iv) == (Lin.leaf(args[5]), -16)


def test_decompose_refuses_gathers_and_products() -> None:
    m = parse_text(lit_chunk("one_d_and_gather"))
    dec = Decomposer()
    gather = [o for o in ops_of(m, tt.LoadOp) if len(o.ptr.type.get_shape()) == 2][0]
    with pytest.raises(Exception, match="indirect"):
        dec.pointer(gather.ptr)


def test_nonneg_through_select_max_min() -> None:
    """`x > 0 ? x : 0` (the trip count raising writes after a loop), maxsi and minsi: >= 0; `x > -1 ? x : 0`,
    and `x < 0 ? x : 0` are not proven."""
    from xpu_passes.transforms.raise_block_pointer.ptr_decompose import nonneg_value

    m = parse_text("""module {
  tt.func public @f(%arg0: i32, %arg1: i32) {
    %c0 = arith.constant 0 : i32
    %cm1 = arith.constant -1 : i32
    %0 = arith.cmpi sgt, %arg0, %c0 : i32
    %1 = arith.select %0, %arg0, %c0 : i32
    %2 = arith.cmpi sgt, %arg0, %cm1 : i32
    %3 = arith.select %2, %arg0, %c0 : i32
    %4 = arith.cmpi slt, %arg0, %c0 : i32
    %5 = arith.select %4, %arg0, %c0 : i32
    %6 = arith.maxsi %arg0, %c0 : i32
    %7 = arith.minsi %arg0, %c0 : i32
    %8 = arith.minsi %1, %c0 : i32
    tt.return
  }
}""")
    vals = {o.results[0]: o for o in m.walk() if o.results}
    by_name = [v for v, o in vals.items() if o.name in ("arith.select", "arith.maxsi", "arith.minsi")]
    assert [nonneg_value(v) for v in by_name] == [True, False, False, True, False, True]
