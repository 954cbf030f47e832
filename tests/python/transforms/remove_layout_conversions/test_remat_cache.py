"""RemoveLayoutConversions' copies of values in other layouts (transforms/remove_layout_conversions/remat_cache.py): a copy is
read only where it is live, has the layout and properly dominates the user, outside loops; a copy
of a copy counts as a copy of the first value; the chain a copy replaced is swept."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.ir import journal
from xpu_passes.ir.journal import Journal
from xpu_passes.layouts.propagation import encoding
from xpu_passes.transforms.remove_layout_conversions.materialize import sweep_dead
from xpu_passes.transforms.remove_layout_conversions.remat_cache import RematCache

TEXT = """
#A = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#C = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @f(%c: i1, %n: i32, %p: tensor<128x!tt.ptr<i32>, #B>, %q: tensor<128x!tt.ptr<i32>, #C>) {
    %x = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #A>
    %early = arith.addi %x, %x : tensor<128xi32, #A>
    %xb = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B>
    %after = arith.addi %xb, %xb : tensor<128xi32, #B>
    scf.if %c {
      %xb2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B>
      %inside = arith.muli %xb2, %xb2 : tensor<128xi32, #B>
      tt.store %p, %inside : tensor<128x!tt.ptr<i32>, #B>
    }
    %xc = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #C>
    %outside = arith.subi %xb, %xb : tensor<128xi32, #B>
    tt.store %p, %outside : tensor<128x!tt.ptr<i32>, #B>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %xb3 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B>
      %looped = arith.muli %xb3, %xb3 : tensor<128xi32, #B>
      tt.store %p, %looped : tensor<128x!tt.ptr<i32>, #B>
      scf.if %c {
        %xb4 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B>
        %nested = arith.muli %xb4, %xb4 : tensor<128xi32, #B>
        tt.store %p, %nested : tensor<128x!tt.ptr<i32>, #B>
      }
    }
    %dead = arith.muli %early, %early : tensor<128xi32, #A>
    tt.store %q, %xc : tensor<128x!tt.ptr<i32>, #C>
    tt.return
  }
}
"""


def _setup() -> tuple[Journal, RematCache, dict[str, Operation]]:
    module = parse_module(make_context(), TEXT).module
    j = Journal(module)
    ops = [o for o in journal.walk_list(module) if o.results]
    names = {o.results[0].name_hint: o for o in ops if o.results[0].name_hint}
    return j, RematCache(j.order), names


def _v(names: dict[str, Operation], name: str) -> SSAValue:
    return names[name].results[0]


def test_a_copy_is_read_where_it_dominates() -> None:
    j, cache, n = _setup()
    x, b = _v(n, "x"), encoding(_v(n, "xb").type)
    assert b is not None
    cache.put(x, b, _v(n, "xb"))
    assert cache.lookup(x, b, n["after"]) is _v(n, "xb")  # after it, same block
    assert cache.lookup(x, b, n["inside"]) is _v(n, "xb")  # in a region nested after it
    assert cache.lookup(x, b, n["early"]) is None  # before it
    assert cache.lookup(x, b, n["xb"]) is None  # not itself (properly)
    assert cache.lookup(x, encoding(_v(n, "xc").type), n["after"]) is None  # another layout


def test_a_copy_in_a_branch_serves_that_branch_only() -> None:
    j, cache, n = _setup()
    x, b = _v(n, "x"), encoding(_v(n, "xb2").type)
    cache.put(x, b, _v(n, "xb2"))
    assert cache.lookup(x, b, n["inside"]) is _v(n, "xb2")
    assert cache.lookup(x, b, n["outside"]) is None


def test_no_copy_is_read_inside_a_loop() -> None:
    j, cache, n = _setup()
    x, b = _v(n, "x"), encoding(_v(n, "xb").type)
    cache.put(x, b, _v(n, "xb3"))
    assert cache.lookup(x, b, n["looped"]) is None  # defined in the loop
    cache.put(x, b, _v(n, "xb"))
    assert cache.lookup(x, b, n["looped"]) is None  # defined before it, read in it
    cache.put(x, b, _v(n, "xb4"))
    assert cache.lookup(x, b, n["nested"]) is None  # both in a branch inside the loop
    assert cache.lookup(x, b, n["outside"]) is _v(n, "xb")


def test_a_copy_of_a_copy_and_dead_copies() -> None:
    j, cache, n = _setup()
    x, xb, xc = _v(n, "x"), _v(n, "xb"), _v(n, "xc")
    cache.put(x, encoding(xb.type), xb)
    cache.put(xb, encoding(xc.type), xc)  # xc: a copy of xb, so of x
    assert cache.lookup(x, encoding(xc.type), n["dead"]) is xc
    assert cache.lookup(xb, encoding(xc.type), n["dead"]) is xc


def test_a_detached_copy_is_not_read() -> None:
    j, cache, n = _setup()
    x, after = _v(n, "x"), _v(n, "after")  # (an unused op in #B stands for a trial's clone)
    cache.put(x, encoding(after.type), after)
    assert cache.lookup(x, encoding(after.type), n["outside"]) is after
    j.begin()
    try:
        journal.erase_op(n["after"])  # a trial not kept detaches its clones
        assert cache.lookup(x, encoding(after.type), n["outside"]) is None
    finally:
        j.rollback()  # back in the module: read again
    assert cache.lookup(x, encoding(after.type), n["outside"]) is after


def test_the_chain_a_copy_replaced_is_swept() -> None:
    j, cache, n = _setup()
    dead, early, x = n["dead"], n["early"], n["x"]
    j.begin()
    try:
        sweep_dead([dead, n["xb"]])
    finally:
        j.commit()
    assert dead.parent is None and early.parent is None and x.parent is None  # dead, then left dead up the chain
    assert n["xb"].parent is not None  # still used
    assert n["after"].parent is not None  # unused but not on the chain: not the sweep's business
