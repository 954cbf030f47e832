"""axis_transfer: a module's axis facts moved to its copy are the copy's own analysis, and a copy
changed since (stale facts would price its accesses wrongly) gets none."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.analysis.axis_transfer import transferred, value_map
from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.ir import journal
from xpu_passes.ir.clone import clone
from xpu_passes.ir.walk_order import walk_list
from xpu_passes.transforms.remove_layout_conversions import costs

# A strided tile loaded in a loop (loop-carried pointers, a runtime stride), in layout #a; #b is
# another layout of the same shape.
KERNEL = """#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<16x32xi32, #a>
    %rm = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #a}>>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #a}>>
    %em = tt.expand_dims %rm {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #a}>> -> tensor<16x1xi32, #a>
    %ss = tt.splat %s : i32 -> tensor<16x1xi32, #a>
    %om = arith.muli %em, %ss : tensor<16x1xi32, #a>
    %ek = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
    %bm = tt.broadcast %om : tensor<16x1xi32, #a> -> tensor<16x32xi32, #a>
    %bk = tt.broadcast %ek : tensor<1x32xi32, #a> -> tensor<16x32xi32, #a>
    %off = arith.addi %bm, %bk : tensor<16x32xi32, #a>
    %base = tt.splat %p : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>, #a>
    %ptrs = tt.addptr %base, %off : tensor<16x32x!tt.ptr<f16>, #a>, tensor<16x32xi32, #a>
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%q = %ptrs) -> (tensor<16x32x!tt.ptr<f16>, #a>)  : i32 {
      %v = tt.load %q : tensor<16x32x!tt.ptr<f16>, #a>
      %w = ttg.convert_layout %v : tensor<16x32xf16, #a> -> tensor<16x32xf16, #b>
      %nq = tt.addptr %q, %step : tensor<16x32x!tt.ptr<f16>, #a>, tensor<16x32xi32, #a>
      scf.yield %nq : tensor<16x32x!tt.ptr<f16>, #a>
    }
    tt.return
  }
}
"""


def _module() -> Operation:
    return parse_module(make_context(), KERNEL).module


def _named(module: Operation, name: str) -> Operation:
    return next(o for o in module.walk() if any(r.name_hint == name for r in o.results))


def test_moved_facts_are_the_copys_analysis() -> None:
    module = _module()
    facts = AxisInfoAnalysis(module)  # type: ignore[arg-type]
    copy = clone(module)
    moved = transferred(facts, walk_list(module), walk_list(copy))
    assert moved is not None
    fresh = AxisInfoAnalysis(copy)  # type: ignore[arg-type]
    assert moved.info == fresh.info
    # every key, and the runtime stride the tile's rows carry, are the copy's values
    mine = {v for op in walk_list(module) for v in op.results}
    assert not mine & set(moved.info)
    ptrs = _named(copy, "ptrs").results[0]
    assert moved.info[ptrs].stride[0] is fresh.info[ptrs].stride[0] is next(
        a for a in copy.walk() if isinstance(a, tt.FuncOp)).body.blocks.first.args[1]  # type: ignore[attr-defined]


def test_a_copy_in_other_layouts_gets_the_same_facts() -> None:
    """Retyped (new result values, another layout): still the copy's own analysis, value for value."""
    module = _module()
    facts = AxisInfoAnalysis(module)  # type: ignore[arg-type]
    copy = clone(module)
    off = _named(copy, "off").results[0]
    in_b = _named(copy, "w").results[0].type.encoding  # type: ignore[attr-defined]
    journal.replace_value_with_new_type(off, TensorType(off.type.element_type, off.type.get_shape(), in_b))  # type: ignore
    moved = transferred(facts, walk_list(module), walk_list(copy))
    assert moved is not None and moved.info == AxisInfoAnalysis(copy).info  # type: ignore[arg-type]
    now = _named(copy, "off").results[0]
    assert off not in moved.info and now.type.encoding is in_b and moved.info[now].contiguity == (1, 32)  # type: ignore


def test_a_changed_copy_gets_no_facts() -> None:
    """Stale facts would be wrong: the changed copy's own analysis differs from the input's, and
    `transferred` refuses both a changed property and a rewired operand."""
    module = _module()
    facts = AxisInfoAnalysis(module)  # type: ignore[arg-type]
    copy = clone(module)
    step = _named(copy, "step")
    step.properties["value"] = DenseIntOrFPElementsAttr.from_list(step.results[0].type, [31])  # type: ignore[arg-type]
    assert transferred(facts, walk_list(module), walk_list(copy)) is None
    nq = _named(copy, "nq").results[0]
    assert AxisInfoAnalysis(copy)[nq].divisibility != facts[_named(module, "nq").results[0]]  # type: ignore[arg-type]
    rewired = clone(module)
    add = _named(rewired, "off")
    add.operands[1] = add.operands[0]  # %bm + %bm: no longer contiguous along the row
    assert value_map(walk_list(module), walk_list(rewired)) is None
    assert transferred(facts, walk_list(module), walk_list(rewired)) is None


def test_a_pass_run_moves_facts_to_its_copy_only_while_it_is_unchanged() -> None:
    """costs.copy_facts: the run's facts of the input become the copy's (not computed again; check
    mode compares with a fresh analysis); a copy changed before the move gets its own, fresh."""
    module = _module()
    with costs.facts_scope():
        facts = costs.facts_of(module)
        copy = clone(module)
        costs.copy_facts(module, walk_list(module), copy, walk_list(copy), check=True)
        moved = costs.facts_of(copy)
        assert moved is not facts and moved.info == AxisInfoAnalysis(copy).info  # type: ignore[arg-type]
        changed = clone(module)
        step = _named(changed, "step")
        step.properties["value"] = DenseIntOrFPElementsAttr.from_list(step.results[0].type, [31])  # type: ignore[arg-type]
        costs.copy_facts(module, walk_list(module), changed, walk_list(changed), check=True)
        own = costs.facts_of(changed)
        nq = _named(changed, "nq").results[0]
        assert own[nq] == AxisInfoAnalysis(changed)[nq] != facts[_named(module, "nq").results[0]]  # type: ignore[arg-type]
    # outside a run nothing is kept to move
    costs.copy_facts(module, walk_list(module), copy, walk_list(copy))
    assert costs.facts_of(copy) is not costs.facts_of(copy)
