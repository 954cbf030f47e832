"""RemoveLayoutConversions in place of each of triton-xpu's, on every corpus kernel.

The TTGIR right before each native RemoveLayoutConversions (make_ttgir runs three)
goes through ours instead, then through the rest of the native pipeline and its
lowering. Ours must leave no more conversions than native at that point, verify
in triton-xpu, and never be worse than native on SLM, conversions, 2D block reads
or DPAS after lowering; the masked tensor-of-pointer GEMM epilogue at 256x256
with 32 warps must need no SLM (native: 263,168 bytes, over PVC's 128 KB).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def _cases() -> list[tuple[dict, int]]:
    if not oracle.available():
        return []
    from xpu_passes.corpus import entries

    return [(e, i) for e in entries() for i in range(sum(s["step"] == STEP for s in e["steps"]))]


CASES = _cases()


def _ours(entry: dict, position: int) -> tuple[str, str, str]:
    """(step file, native's TTGIR right after that RLC, ours instead)."""
    steps = entry["steps"]
    k = [j for j, s in enumerate(steps) if s["step"] == STEP][position]
    d = Path(entry["dir"])
    after = d / steps[k + 1]["file"] if k + 1 < len(steps) else d / "final.ttgir"
    ctx = make_context()
    parsed = parse_module(ctx, (d / steps[k]["file"]).read_text())
    RemoveLayoutConversions().apply(ctx, parsed.module)
    return steps[k]["file"], after.read_text(), print_module(parsed.module, parsed.spelling, debuginfo=True)


@pytest.mark.parametrize(("entry", "position"), CASES, ids=lambda c: c if isinstance(c, int) else f"{c['kernel']}-{c['config']}")
def test_never_worse_than_native(entry: dict, position: int) -> None:
    from xpu_passes.corpus import resume_native

    step_file, native_after, ours = _ours(entry, position)
    count = oracle.ttgir_counts
    assert count(ours)[0] <= count(native_after)[0]
    figures = resume_native(entry, step_file, ours)  # verifies, then compiles on natively
    native = entry["figures"]
    assert figures.shared_bytes <= native["shared_bytes"]
    assert figures.converts <= native["converts"]
    assert figures.block_reads >= native["block_reads"]
    assert figures.dpas >= native["dpas"]


def test_masked_epilogue_256x256_needs_no_slm() -> None:
    from xpu_passes.corpus import resume_native

    entry = next(e for e, _ in CASES if e["kernel"] == "gemm_add_tensor_ptr" and e["config"] == "256x256x32-w32-s3")
    assert entry["figures"]["shared_bytes"] == 263168  # native, over 128 KB
    step_file, _, ours = _ours(entry, -1)
    figures = resume_native(entry, step_file, ours)
    assert figures.shared_bytes == 0 and figures.converts == 0 and figures.fits_slm


# ------------------------------------------- issue 13: kernels RLC lost to native on

RLC = "tritonintelgpu-remove-layout-conversions"


def _kernels() -> list[str]:
    if not oracle.available():
        return []
    import rlc_kernels

    return list(rlc_kernels.CASES)


def _run_ours(text: str, **options: object) -> str:
    ctx = make_context()
    parsed = parse_module(ctx, text)
    RemoveLayoutConversions(**options).apply(ctx, parsed.module)  # type: ignore[arg-type]
    return print_module(parsed.module, parsed.spelling, debuginfo=True)


@pytest.mark.parametrize("position", [0, 1, 2])
@pytest.mark.parametrize("name", _kernels())
def test_reproduction_never_worse_than_native(name: str, position: int) -> None:
    """Split-K with an atomic epilogue, prefix sums, rotary embedding, chunked reductions,
    RMS norm: ours in place of each native RLC leaves no more conversions or scratch than
    native there, and no more SLM or conversions after the rest of the native pipeline."""
    import rlc_kernels

    from xpu_passes.layouts import module_scratch_bytes

    steps, native = rlc_kernels.compile_steps(name)
    k = [i for i, (n, _) in enumerate(steps) if n == RLC][position]
    ours = _run_ours(steps[k][1])
    native_after = steps[k + 1][1]
    count = oracle.ttgir_counts
    assert count(ours)[0] <= count(native_after)[0]
    ctx = make_context()
    slm = [module_scratch_bytes(parse_module(ctx, t).module) for t in (ours, native_after)]
    assert slm[0] <= slm[1]
    figures = rlc_kernels.resume(name, k, ours)
    assert figures.shared_bytes <= native.shared_bytes
    assert figures.converts <= native.converts


@pytest.mark.parametrize(("name", "raising"), [("splitk_atomic_64x128", False), ("cumsum_axis1", False),
                                              ("rope_fwd", False), ("rms_norm_fwd", True),
                                              ("attn_bwd_dkdv", False), ("group_norm_bwd", False),
                                              ("cumsum_axis1", True), ("rms_norm_bwd", True),
                                              ("rope_pairs", False)])
def test_reproduction_whole_pipeline(name: str, raising: bool) -> None:
    """Ours at all three positions (and raising for the RMS norm forward whose RLC output
    triton-xpu once rejected) compiles and is not worse than native."""
    import rlc_kernels

    _, native = rlc_kernels.compile_steps(name)
    ours = rlc_kernels.pipeline_figures(name, raise_block_pointer=raising)
    assert ours.shared_bytes <= native.shared_bytes and ours.converts <= native.converts


def test_split_k_atomic_runs_in_dpas() -> None:
    """The accumulator is added atomically in the DPAS layout: no conversion before tt.atomic_rmw."""
    import rlc_kernels

    steps, _ = rlc_kernels.compile_steps("splitk_atomic_64x128")
    k = [i for i, (n, _) in enumerate(steps) if n == RLC][-1]
    before = steps[k][1]
    assert "tt.atomic_rmw" in before and oracle.ttgir_counts(before)[0] > 0
    ours = _run_ours(before)
    # Only the A/B loads' conversions to dot operands stay: in those layouts the tensor-of-pointer
    # loads would read one element per message (costs.memory_cost).
    convs = [ln for ln in ours.splitlines() if "ttg.convert_layout" in ln]
    assert len(convs) == 2 and all("#ttg.dot_op" in ln.split("->")[-1] for ln in convs), convs
    atomic = next(ln for ln in ours.splitlines() if "tt.atomic_rmw" in ln)
    assert "#mma" in atomic
    oracle.parse_verify(ours)


def test_option_by_intels_name() -> None:
    """`max-backward-remat-iterations` (kebab-case, as MLIR spells it) maps to the field."""
    from xdsl.utils.arg_spec import parse_spec

    spec = parse_spec(f"{RLC}{{max-backward-remat-iterations=1}}")
    assert RemoveLayoutConversions.from_pass_spec(spec).max_backward_remat_iterations == 1
    assert RemoveLayoutConversions().max_backward_remat_iterations == 4


def test_safety_net_keeps_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the rewrites leave more conversions than the input had, the input is kept with a remark."""
    import rlc_kernels

    from xpu_passes.dialects import ttg
    from xpu_passes.transforms import base
    from xpu_passes.transforms import remove_layout_conversions as rlc
    from xpu_passes.transforms.remove_layout_conversions import solve, trials

    steps, _ = rlc_kernels.compile_steps("cumsum_axis1")
    before = steps[[i for i, (n, _) in enumerate(steps) if n == RLC][0]][1]

    def add_a_pair(module: object) -> int:  # a broken anchoring step: convert there and back
        from xdsl.rewriter import InsertPoint

        from xpu_passes.ir import journal

        cvt = next(o for o in module.walk() if isinstance(o, ttg.ConvertLayoutOp))  # type: ignore[attr-defined]
        there = ttg.ConvertLayoutOp.build(operands=[cvt.result], result_types=[cvt.src.type])
        back = ttg.ConvertLayoutOp.build(operands=[there.result], result_types=[cvt.result.type])
        journal.insert_op(journal.created(back), InsertPoint.after(cvt))  # recorded, as every rewrite is
        journal.insert_op(journal.created(there), InsertPoint.after(cvt))
        journal.replace_all_uses_with(cvt.result, back.result)
        journal.set_operand(there, 0, cvt.result)
        return 0  # reports no family retyped: no second solution without anchoring is tried

    monkeypatch.setattr(solve, "anchor_block_pointers", add_a_pair)
    monkeypatch.setattr(trials, "fold", lambda cvt: False)
    monkeypatch.setattr(rlc.RemoveLayoutConversions, "_remove", lambda self, w, cvt: "off")
    with base.collecting_remarks() as sink:
        assert _run_ours(before).count(" ttg.convert_layout ") == oracle.ttgir_counts(before)[0]
    remarks = [r.message for r in sink.remarks]
    assert any(m.startswith("input kept: the rewrite would leave") for m in remarks)


SCRATCH_LAYOUTS = [
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [1, 0]}>",
    "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>",
    "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 4], warpsPerCTA = [8, 1], order = [1, 0]}>",
    "#triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
    "threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1]}>",
]


def _scan_or_reduce(layout: str, op: str, axis: int, warps: int, shape: tuple[int, int] = (64, 32)) -> str:
    t = f"tensor<{shape[0]}x{shape[1]}xf32, #l>"
    out = t if op == "scan" else f"tensor<{shape[1 - axis]}xf32, #ttg.slice<{{dim = {axis}, parent = #l}}>>"
    pt = t.replace("xf32", "x!tt.ptr<f32>") if op == "scan" else out.replace("xf32", "x!tt.ptr<f32>")
    props = f"<{{axis = {axis} : i32, reverse = false}}>" if op == "scan" else f"<{{axis = {axis} : i32}}>"
    return (
        f"#l = {layout}\n"
        f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "xpu", '
        '"ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.min_sg_size = 16 : i32, '
        "triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block} {\n"
        "  tt.func public @k(%p: !tt.ptr<f32>) {\n"
        f"    %x = arith.constant dense<1.0> : {t}\n"
        f'    %s = "tt.{op}"(%x) {props} ({{\n'
        "    ^bb0(%a: f32, %b: f32):\n      %c = arith.addf %a, %b : f32\n"
        f"      tt.{op}.return %c : f32\n    }}) : ({t}) -> {out}\n"
        f"    %q = tt.splat %p : !tt.ptr<f32> -> {pt}\n"
        f"    tt.store %q, %s : {pt}\n    tt.return\n  }}\n}}\n"
    )


@pytest.mark.parametrize("op", ["scan", "reduce"])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("layout", SCRATCH_LAYOUTS, ids=range(len(SCRATCH_LAYOUTS)))
def test_scan_reduce_scratch_matches_triton_allocation(layout: str, op: str, axis: int) -> None:
    """Our SLM of tt.scan / tt.reduce (counted in RLC's choices) equals triton-xpu's allocation."""
    from xpu_passes.layouts import module_scratch_bytes

    if op == "scan" and "dpas" in layout:
        pytest.skip("triton-xpu lowers scans in blocked layouts only (RLC keeps them there)")
    warps = 8 if "[8, 1]" in layout else 4
    text = _scan_or_reduce(layout, op, axis, warps)
    ours = module_scratch_bytes(parse_module(make_context(), text).module)
    backend = oracle.pvc_backend()
    theirs = oracle.lower_text(text, backend.parse_options(dict(num_warps=warps)), backend).shared_bytes
    assert ours == theirs


RESHAPES = [  # (operand layout, shape, result shape, whether a blocked result exists)
    ("[1, 4], [2, 16], [4, 1], [1, 0]", (8, 64), (8, 32, 2), True),
    ("[1, 1], [1, 32], [2, 2], [1, 0]", (8, 64), (8, 32, 2), True),
    ("[1, 1], [1, 32], [4, 1], [1, 0]", (32, 32), (1024,), True),
    ("[1, 8], [1, 32], [4, 2], [1, 0]", (16, 512), (16, 8, 64), True),
    ("[2, 2], [4, 8], [4, 1], [1, 0]", (32, 32), (1024,), False),  # a thread's elements are not contiguous
    ("[2, 1], [16, 2], [1, 4], [0, 1]", (64, 32), (2048,), False),  # column-major: triton needs #ttg.linear
]


@pytest.mark.parametrize(("fields", "src", "dst", "fits"), RESHAPES)
def test_reshape_layout_is_what_triton_verifies(fields: str, src: tuple[int, ...], dst: tuple[int, ...], fits: bool) -> None:
    """shape_infer.reshape_layout's result layout (both directions) is one triton-xpu's tt.reshape
    verifier accepts (same linear layout as its own inference); None only where no blocked layout fits."""
    from xpu_passes.layouts.encodings import to_linear
    from xpu_passes.layouts.shape_infer import reshape_layout, reshape_linear

    spt, tpw, wpc, order = (f"[{x.strip(' []')}]" for x in fields.split("], "))
    layout = f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = {wpc}, order = {order}}}>"
    ctx = make_context()
    from xdsl.parser import Parser

    attr = Parser(ctx, layout).parse_attribute()
    out = reshape_layout(attr, src, dst)
    assert (out is not None) == fits
    if out is None:
        return
    assert to_linear(out, dst) == reshape_linear(to_linear(attr, src), dst)
    assert reshape_layout(out, dst, src) is not None
    t = "x".join(map(str, src))
    u = "x".join(map(str, dst))
    warps = math.prod(int(w) for w in wpc.strip("[]").split(","))
    text = (
        f"#a = {attr}\n#b = {out}\n"
        f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "xpu", '
        '"ttg.threads-per-warp" = 32 : i32} {\n'
        f"  tt.func public @k(%x: tensor<{t}xf32, #a>) -> tensor<{u}xf32, #b> {{\n"
        f"    %r = tt.reshape %x : tensor<{t}xf32, #a> -> tensor<{u}xf32, #b>\n"
        f"    tt.return %r : tensor<{u}xf32, #b>\n  }}\n}}\n"
    )
    oracle.parse_verify(text)


_TWO_FUNCS = """
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @f(%a: i32) -> i32 {
    %c = arith.constant 1 : i32
    %s = arith.addi %a, %c : i32
    tt.return %s : i32
  }
  tt.func public @g(%b: i32) -> i32 {
    %c = arith.constant 2 : i32
    %m = scf.for %i = %c to %b step %c iter_args(%acc = %b) -> (i32) : i32 {
      %t = arith.muli %acc, %i : i32
      scf.yield %t : i32
    }
    tt.return %m : i32
  }
}
"""


@pytest.mark.parametrize("which", ["valid", "other function's argument", "other function's op", "outside module"])
def test_isolated_module_agrees_with_the_verifier(which: str) -> None:
    """RLC judges IsolatedFromAbove of its input in one walk (layouts/locality.isolated_module):
    the same answer as xDSL's verifier on the module and each function, valid or not."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr, i32
    from xdsl.utils.exceptions import VerifyException

    from xpu_passes.ir.journal import walk_list
    from xpu_passes.transforms.remove_layout_conversions.locality import isolated_module
    from xpu_passes.transforms.remove_layout_conversions.solution import layout_errors

    module = parse_module(make_context(), _TWO_FUNCS).module
    f, g = list(module.body.block.ops)
    mul = next(o for o in g.walk() if isinstance(o, arith.MuliOp))
    if which == "other function's argument":
        mul.operands = (f.body.block.args[0], mul.operands[1])
    elif which == "other function's op":
        mul.operands = (next(iter(f.body.block.ops)).results[0], mul.operands[1])
    elif which == "outside module":
        mul.operands = (arith.ConstantOp(IntegerAttr(3, i32)).result, mul.operands[1])
    try:
        module.verify()
        verifier = True
    except VerifyException:
        verifier = False
    assert verifier == (which == "valid")
    assert isolated_module(walk_list(module)) == verifier
    assert (layout_errors(module) == []) == verifier


def _shape(module: object) -> list[object]:
    """Every value's name hint, type and users (walk positions, operand index, in use-list order)."""
    from xpu_passes.ir.journal import walk_list

    ops = walk_list(module)  # type: ignore[arg-type]
    at = {o: i for i, o in enumerate(ops)}
    out: list[object] = []
    for o in ops:
        out.append((o.name, str(o.location), len(o.successors)))
        for v in (*o.results, *(a for r in o.regions for b in r.blocks for a in b.args)):
            out.append((v.name_hint, v.type, [(at[u.operation], u.index) for u in v.uses]))
    return out


@pytest.mark.parametrize("kernel", ["flash_attention_fwd-64x32x64-w4-s2", "layer_norm_fwd-256-w4-s1"])
def test_working_copy_is_what_xdsl_clone_makes(kernel: str) -> None:
    """RLC's working copy (ir/clone.py) equals `Operation.clone()`: text with locations,
    name hints, types, and every use list in the same order (the pass's walks read them)."""
    from xpu_passes.frontend import Spelling
    from xpu_passes.ir.clone import clone

    entry, position = next((e, i) for e, i in CASES if Path(e["dir"]).name == kernel)
    step = [s for s in entry["steps"] if s["step"] == STEP][position]
    module = parse_module(make_context(), (Path(entry["dir"]) / step["file"]).read_text()).module
    theirs, ours = module.clone(), clone(module)
    spelling = Spelling.choose("triton-3.3")
    assert print_module(ours, spelling, debuginfo=True) == print_module(theirs, spelling, debuginfo=True)
    assert _shape(ours) == _shape(theirs) and len(_shape(ours)) > 100
    ours.verify()
