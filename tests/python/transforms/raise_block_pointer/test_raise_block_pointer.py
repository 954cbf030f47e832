"""RaiseBlockPointer: the decomposition on its own, the rewrite, bit identity on the interpreter, and the
real compiler (tutorial GEMM 256x256x32 bf16 gets 2D block reads and fits SLM)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import BlockArgument

from xpu_passes.integration import oracle
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import ONE, Decomposer, Lin, nonneg, reset_order
from xpu_passes.dialects import make_context, tt
from xpu_passes.dialects import arith as arith_compat
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.interp import Inputs, validate
from xpu_passes.transforms import collecting_remarks, load_all
from xpu_passes.transforms.raise_block_pointer import RaiseBlockPointer

load_all()

LIT = Path(__file__).parents[3] / "lit" / "passes" / "raise-block-pointer.mlir"
triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu (the [triton] extra)")


def _chunk(func: str) -> str:
    """The lit test's input module that defines `func` (the inputs are shared with the lit test)."""
    for part in LIT.read_text().split("// -----"):
        if f"@{func}(" in part:
            return "\n".join(ln for ln in part.splitlines() if not ln.lstrip().startswith("//"))
    raise KeyError(func)


def _parse(text: str) -> ModuleOp:
    return parse_module(make_context(), text, "test").module


def _raise(text: str) -> tuple[ModuleOp, ModuleOp, list[str]]:
    before, after = _parse(text), _parse(text)
    with collecting_remarks() as sink:
        RaiseBlockPointer(dot_only=False).apply(make_context(), after)
    remarks = [r.message for r in sink.remarks]
    return before, after, remarks


def _ops(m: ModuleOp, kind: type) -> list:
    return [o for o in m.walk() if isinstance(o, kind)]


# ------------------------------------------------------------------ the decomposition


def test_decompose_masked_epilogue_pointer_and_mask() -> None:
    m = _parse(_chunk("add_matrix"))
    reset_order()
    load = _ops(m, tt.LoadOp)[0]
    fn = _ops(m, tt.FuncOp)[0]
    args = fn.body.blocks.first.args
    dec = Decomposer()
    pf = dec.pointer(load.ptr)
    assert pf.base is args[0]
    t0, t1 = pf.offset.dims
    assert t0 is not None and t1 is not None
    assert t0.stride == Lin.leaf(args[4]) and t1.stride == ONE
    pids = [o.result for o in _ops(m, tt.GetProgramIdOp)]
    assert t0.pos == Lin.leaf(pids[0]).scale(16) and t1.pos == Lin.leaf(pids[1]).scale(16)
    assert not pf.offset.base.terms and t0.wrap is None
    parts = dec.mask(load.mask)
    assert not parts.others
    assert [(b.dim, b.bound) for b in parts.bounds] == [(0, Lin.leaf(args[2])), (1, Lin.leaf(args[3]))]
    assert nonneg(t0.pos) and not nonneg(t0.pos - Lin.const(1))


def test_decompose_wrap_around_and_loop_mask() -> None:
    m = _parse(_chunk("gemm_tensor_ptr"))
    reset_order()
    fn = _ops(m, tt.FuncOp)[0]
    args = fn.body.blocks.first.args
    loop = _ops(m, scf.ForOp)[1]  # the masked K loop
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
    m = _parse(_chunk("one_d_and_gather"))
    dec = Decomposer()
    gather = [o for o in _ops(m, tt.LoadOp) if len(o.ptr.type.get_shape()) == 2][0]
    with pytest.raises(Exception, match="indirect"):
        dec.pointer(gather.ptr)


# ------------------------------------------------------------------ the rewrite


def test_epilogue_raised_with_boundary_check_and_padding() -> None:
    _, after, remarks = _raise(_chunk("add_matrix"))
    assert remarks == []
    (load,) = _ops(after, tt.LoadOp)
    (store,) = _ops(after, tt.StoreOp)
    assert load.is_block_pointer and load.boundary_check == (0, 1) and load.padding.value.data == 1
    assert store.is_block_pointer and store.boundary_check == (0, 1)
    assert not _ops(after, tt.AddPtrOp)  # the tensor-of-pointer chains are gone


def test_gemm_wrap_around_raised_without_version() -> None:
    """The wrapped rows of A (columns of B) reach only accumulator rows (columns) the store masks off: no
    run-time version, the wrapped dims bounds-checked against M and N."""
    _, after, remarks = _raise(_chunk("gemm_tensor_ptr"))
    assert not [r for r in remarks if r.startswith("left alone")]
    assert sum("needs no version" in r for r in remarks) == 4
    assert len(_ops(after, scf.IfOp)) == 1 and len(_ops(after, scf.ForOp)) == 2  # the kernel's own
    loads = _ops(after, tt.LoadOp)
    assert len(loads) == 4 and all(ld.is_block_pointer and ld.padding.value.data == 1 for ld in loads)
    assert sorted(ld.boundary_check for ld in loads) == [(0,), (0, 1), (0, 1), (1,)]


def _gemm_variant(store_rows_bound: str = "%arg3", store_mask: bool = True) -> str:
    text = _chunk("gemm_tensor_ptr")
    text = text.replace("%50 = tt.splat %arg3 : i32 -> tensor<16x1xi32>",
                        f"%50 = tt.splat {store_rows_bound} : i32 -> tensor<16x1xi32>")
    if not store_mask:
        text = text.replace("tt.store %49, %40, %56 : tensor<16x16x!tt.ptr<f32>>",
                            "tt.store %49, %40 : tensor<16x16x!tt.ptr<f32>>")
    return text


@pytest.mark.parametrize("variant,versioned", [
    ({"store_rows_bound": "%arg5"}, ["needs 16*(divsi ...) >= 0, %arg3 - 16*(divsi ...) - 16 >= 0"]),
    ({"store_mask": False}, ["needs %arg4 - 16*(remsi ...) - 16 >= 0",
                             "needs 16*(divsi ...) >= 0, %arg3 - 16*(divsi ...) - 16 >= 0"])])
def test_gemm_wrap_around_versioned_where_the_store_does_not_mask_it(variant: dict, versioned: list[str]) -> None:
    """A store masking rows by K (not M), or not at all: the wrapped rows would be stored, so that wrap is
    versioned (the other one, still masked, is not): each load alone, inside the K loops, which are not
    copied (their tt.dot neither); bit-identical at ragged sizes."""
    text = _gemm_variant(**variant)
    before, after, remarks = _raise(text)
    assert len(_ops(after, scf.ForOp)) == 2 and len(_ops(after, tt.DotOp)) == 2  # the kernel's own
    ifs = [i for i in _ops(after, scf.IfOp) if isinstance(i.parent_op(), scf.ForOp)]
    assert len(ifs) == 2 * len(versioned)  # one per versioned load, in each K loop
    for v in ifs:  # the conditions are computed before the loop (they do not depend on it)
        assert v.cond.owner.parent_op() is not v.parent_op()
    left = sorted({r.split(" at run time")[0].removeprefix("left alone: ") for r in remarks
                   if r.startswith("left alone")})
    assert left == versioned
    assert all("raised in the versioned copy" in r for r in remarks if r.startswith("left alone"))
    for M, N, K in [(40, 24, 48), (33, 17, 5)]:
        inputs = _gemm_inputs(M, N, K, np.float16, M + N)
        inputs.args[2] = np.full((max(M, K) + 32) * N, np.nan, np.float32)  # unmasked stores reach past M
        _check(before, after, inputs)


def test_wrap_proof_is_needed_where_the_store_does_not_mask(monkeypatch: Any) -> None:
    """Sensitivity: skipping the version where the store masks rows by K makes the interpreter differ."""
    from xpu_passes.transforms.raise_block_pointer import plan as raise_plan

    monkeypatch.setattr(raise_plan, "wrap_masked", lambda *a: (None, []))
    before, after, _ = _raise(_gemm_variant("%arg5"))
    assert not _ops(after, tt.LoadOp)[0].parent_op().name == "scf.if"
    inputs = _gemm_inputs(40, 24, 48, np.float16, 9)
    inputs.args[2] = np.full(48 * 24, np.nan, np.float32)
    assert not validate(before, after, inputs).ok


def test_left_alone_cases_say_why() -> None:
    _, after, remarks = _raise(_chunk("may_fault"))
    assert not _ops(after, tt.MakeTensorPtrOp)
    assert remarks == ["left alone: mask is not a bounds check of the block, and the block load may read "
                       "outside the kernel's bounds along dim 0"]
    _, after, remarks = _raise(_chunk("one_d_and_gather"))
    assert len(_ops(after, tt.MakeTensorPtrOp)) == 2  # the 1D ones, as Intel's pass; the gather stays
    assert sorted(set(remarks)) == ["left alone: gather: offsets loaded from memory (indirect)",
                                    "raised; dim 0 has no bound in the IR: shape = 0 as Intel's (not dot data: never "
                                    "2D block I/O)"]


def test_version_off_leaves_wrapping_loops_alone() -> None:
    m = _parse(_gemm_variant(store_mask=False))  # the wrapped rows would be stored: needs a version
    RaiseBlockPointer(version=False, dot_only=False).apply(make_context(), m)
    loads = _ops(m, tt.LoadOp)
    assert not any(ld.is_block_pointer for ld in loads)
    assert _ops(m, tt.StoreOp)[0].is_block_pointer  # the epilogue does not wrap


# ------------------------------------------------------------------ bit identity (interpreter)


def _intel_form(op: tt.LoadOp | tt.StoreOp) -> bool:
    """Whether the access's block pointer has a constant shape 0 (Intel's unknown): raising writes it only
    for accesses that move no tt.dot data, which 3.3 never lowers to 2D block I/O (no surface)."""
    v = op.ptr
    while isinstance(v, BlockArgument) and isinstance(v.owner.parent_op(), scf.ForOp):
        v = v.owner.parent_op().iter_args[v.index - 1]
    while isinstance(v.owner, tt.AdvanceOp):
        v = v.owner.ptr
    mk = v.owner
    return isinstance(mk, tt.MakeTensorPtrOp) and any(_const(s) == 0 for s in mk.shape)


def _const(v: Any) -> int | None:
    attr = v.owner.properties.get("value") if getattr(v.owner, "name", "") == "arith.constant" else None
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _surface_model(m: ModuleOp) -> ModuleOp:
    """`m` with every block access bounds-checked on all dims: how 2D block I/O treats the shape (reads
    outside the surface give 0, writes are dropped). Equal results mean no access reaches past a shape."""
    m = m.clone()
    for op in m.walk():
        if isinstance(op, tt.LoadOp | tt.StoreOp) and op.is_block_pointer and not _intel_form(op):
            rank = len(op.ptr.type.pointee.get_shape())
            op.properties["boundaryCheck"] = DenseArrayBase.from_list(i32, list(range(rank)))
            if isinstance(op, tt.LoadOp) and op.padding is None:
                op.properties["padding"] = IntegerAttr(1, i32)
    return m


def _check(before: ModuleOp, after: ModuleOp, inputs: Inputs) -> None:
    for variant in (after, _surface_model(after)):
        r = validate(before, variant, inputs)
        assert r.ok, str(r)

GEMM_SHAPES = [(40, 24, 40), (48, 32, 48), (33, 17, 5), (16, 16, 64)]


def _gemm_inputs(M: int, N: int, K: int, dtype: type, seed: int) -> Inputs:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(M * K).astype(dtype)
    b = rng.standard_normal(K * N).astype(dtype)
    c = np.full(M * N, np.nan, np.float32)  # untouched elements must stay NaN in both runs
    return Inputs([a, b, c, M, N, K, K, N, N], (-(-M // 16) * -(-N // 16),))


@pytest.mark.parametrize("M,N,K", GEMM_SHAPES)
def test_gemm_bit_identical(M: int, N: int, K: int) -> None:
    before, after, _ = _raise(_chunk("gemm_tensor_ptr"))
    _check(before, after, _gemm_inputs(M, N, K, np.float16, M * N + K))


def test_epilogue_and_select_bit_identical_on_ragged_shapes() -> None:
    rng = np.random.default_rng(1)
    before, after, _ = _raise(_chunk("add_matrix"))
    for M, N in [(40, 24), (16, 16), (7, 33)]:
        d = rng.standard_normal(M * N).astype(np.float32)
        c = np.full(M * N, np.nan, np.float32)
        _check(before, after, Inputs([d, c, M, N, N, N], (-(-M // 16), -(-N // 16))))
    before, after, _ = _raise(_chunk("select_mask"))
    for M, N in [(40, 16), (21, 11)]:
        a = rng.standard_normal(M * N).astype(np.float32)
        b = rng.standard_normal(16).astype(np.float32) * 3
        _check(before, after, Inputs([a, b, M, N, N], (-(-M // 16),)))


def test_wrapped_epilogue_versioned_per_access_bit_identical() -> None:
    """Rows `(pid * 16 + arange) % M` outside any loop: the load and the store are each versioned."""
    text = _chunk("add_matrix").replace("    %6 = arith.addi %5, %4 : tensor<16xi32>\n", (
        "    %w6 = arith.addi %5, %4 : tensor<16xi32>\n    %wm = tt.splat %arg2 : i32 -> tensor<16xi32>\n"
        "    %6 = arith.remsi %w6, %wm : tensor<16xi32>\n"))
    before, after, remarks = _raise(text)
    assert len(_ops(after, scf.IfOp)) == 2 and len(_ops(after, tt.MakeTensorPtrOp)) == 2
    assert len(remarks) == 2 and all("raised in the versioned copy" in r for r in remarks)
    rng = np.random.default_rng(8)
    for M, N in [(40, 24), (16, 16), (7, 33)]:
        d = rng.standard_normal(M * N).astype(np.float32)
        _check(before, after, Inputs([d, np.full(M * N, np.nan, np.float32), M, N, N, N], (-(-M // 16), -(-N // 16))))


def test_loop_mask_position_form_nan_padding_bit_identical() -> None:
    before, after, remarks = _raise(_chunk("row_sums"))
    assert remarks == ["raised; dim 1 has no bound in the IR: shape = the extent the tile reaches, unchecked"]
    (load,) = _ops(after, tt.LoadOp)
    assert load.boundary_check == (0, 1) and load.padding.value.data == 2 and len(_ops(after, tt.AdvanceOp)) == 1
    rng = np.random.default_rng(2)
    for M, K in [(40, 40), (16, 16), (5, 70)]:  # ragged rows and columns: NaN padding reaches the sums
        x = rng.standard_normal(M * K).astype(np.float32)
        _check(before, after, Inputs([x, np.zeros(M * 16, np.float32), M, K, K], (-(-M // 16),)))


def test_increment_fitting_two_dims_takes_the_one_the_mask_checks() -> None:
    """Row stride a constant 16 and `ptrs += 16`: one row down or 16 columns right; the K mask decides."""
    text = _chunk("row_sums").replace("%6 = tt.splat %arg4 : i32 -> tensor<16x1xi32>",
                                      "%6 = arith.constant dense<16> : tensor<16x1xi32>")
    before, after, _ = _raise(text)
    (load,) = _ops(after, tt.LoadOp)
    (adv,) = _ops(after, tt.AdvanceOp)
    assert load.boundary_check == (0, 1) and [o.owner.value.value.data for o in adv.offsets] == [0, 16]
    x = np.random.default_rng(6).standard_normal(40 * 16 + 40).astype(np.float32)
    _check(before, after, Inputs([x, np.zeros(40 * 16, np.float32), 40, 40, 16], (3,)))


def test_column_major_order_and_extents_bit_identical() -> None:
    before, after, _ = _raise(_chunk("col_major"))
    ptrs = _ops(after, tt.MakeTensorPtrOp)
    assert [p.order_values for p in ptrs] == [(0, 1), (0, 1)]
    n = 3 * 16
    x = np.random.default_rng(3).standard_normal(n * 16).astype(np.float16)
    _check(before, after, Inputs([x, np.zeros(n * 16, np.float16), n], (3,)))


def test_surface_model_catches_a_short_shape() -> None:
    """The surface model is sensitive: a shape one row short of the tile's extent is caught."""
    from xdsl.dialects import arith
    from xdsl.rewriter import InsertPoint, Rewriter

    before, after, _ = _raise(_chunk("col_major"))
    ptr = _ops(after, tt.MakeTensorPtrOp)[0]  # shape [0, 0] (no tt.dot): a real one, one row short
    short, full = arith.ConstantOp(IntegerAttr(15, i64)), arith.ConstantOp(IntegerAttr(16, i64))
    Rewriter.insert_op([short, full], InsertPoint.before(ptr))
    ptr.operands = [ptr.base, short.result, full.result, *ptr.operands[3:]]
    x = np.random.default_rng(4).standard_normal(16 * 16).astype(np.float16)
    inputs = Inputs([x, np.zeros(16 * 16, np.float16), 16], (1,))
    assert validate(before, after, inputs).ok  # Triton's semantics ignore an unchecked shape...
    assert not validate(before, _surface_model(after), inputs).ok  # ...2D block reads do not


@pytest.mark.parametrize("other,padding,select", [("0.000000e+00", 1, False), ("-0.000000e+00", None, True),
                                                   ("1.500000e+00", None, True), ("0x7FC00000", 2, False),
                                                   ("0xFFC00000", None, True)])
def test_other_becomes_padding_only_when_exact(other: str, padding: int | None, select: bool) -> None:
    """+0 and the quiet NaN are what padding gives; -0.0, 1.5 and -NaN keep a select on the checked load."""
    text = _chunk("add_matrix").replace("%cst = arith.constant dense<0.000000e+00>", f"%cst = arith.constant dense<{other}>")
    before, after, _ = _raise(text)
    load = _ops(after, tt.LoadOp)[0]
    assert load.boundary_check == (0, 1)
    assert (load.padding.value.data if load.padding is not None else None) == padding
    assert bool(_ops(after, arith_compat.SelectOp)) == select
    d = np.random.default_rng(7).standard_normal(40 * 24).astype(np.float32)
    _check(before, after, Inputs([d, np.zeros(40 * 24, np.float32), 40, 24, 24, 24], (3, 2)))


def test_validation_catches_a_dropped_bounds_check() -> None:
    """The check is sensitive: the same raise without boundaryCheck on the K loop differs or faults."""
    before, after, _ = _raise(_chunk("gemm_tensor_ptr"))
    for ld in _ops(after, tt.LoadOp):
        if ld.boundary_check:
            del ld.properties["boundaryCheck"]
            ld.properties.pop("padding", None)
    assert not validate(before, after, _gemm_inputs(40, 24, 40, np.float16, 3)).ok


# ------------------------------------------------------------------ the real compiler


def _ttir(kernel: str, dtypes: dict[str, str], tile: dict[str, int], warps: int) -> tuple[str, object, object]:
    from xpu_passes import corpus

    spec = corpus.KernelSpec(kernel, dtypes)
    mod, opts, backend = corpus.make_ttir_module(spec, corpus.Config(tile, warps, 3))
    oracle.run_steps(mod, oracle.native_ttir_steps(opts))
    return str(mod), opts, backend


@pytest.mark.triton
@triton
@pytest.mark.parametrize("dtype,np_dtype", [("fp16", np.float16), ("fp32", np.float32)])
def test_tutorial_gemm_from_triton_bit_identical(dtype: str, np_dtype: type) -> None:
    text, _, _ = _ttir("gemm_tensor_ptr", {"a_ptr": dtype, "b_ptr": dtype, "c_ptr": "fp32"},
                       {"BM": 16, "BN": 16, "BK": 16}, 4)
    before, after, _ = _raise(text)
    assert sum(ld.is_block_pointer for ld in _ops(after, tt.LoadOp)) == 4
    for M, N, K in [(40, 24, 40), (48, 32, 48)]:
        _check(before, after, _gemm_inputs(M, N, K, np_dtype, K))


@pytest.mark.triton
@triton
def test_add_matrix_kernel_from_triton_bit_identical() -> None:
    text, _, _ = _ttir("gemm_add_tensor_ptr", {"a_ptr": "fp16", "b_ptr": "fp16", "c_ptr": "fp32", "d_ptr": "fp32"},
                       {"BM": 16, "BN": 16, "BK": 16}, 4)
    before, after, remarks = _raise(text)
    assert remarks == []
    (d_load,) = [ld for ld in _ops(after, tt.LoadOp) if ld.padding is not None]
    assert d_load.boundary_check == (0, 1)
    rng = np.random.default_rng(5)
    M, N, K = 40, 24, 40
    a, b = (rng.standard_normal(n).astype(np.float16) for n in (M * K, K * N))
    d = rng.standard_normal(M * N).astype(np.float32)
    c = np.full(M * N, np.nan, np.float32)
    _check(before, after, Inputs([a, b, c, d, M, N, K, K, N, N, N], (-(-M // 16) * -(-N // 16),)))


@pytest.mark.triton
@triton
def test_tutorial_gemm_256_gets_2d_block_reads_and_fits_slm() -> None:
    """TTIR -> our raise -> triton-xpu 3.3's whole TTGIR stage -> LLVM: 2D reads, DPAS as native, no SLM."""
    from xpu_passes import corpus

    entry = next(e for e in corpus.entries() if e["kernel"] == "gemm_tensor_ptr" and e["config"] == "256x256x32-w32-s3")
    native = entry["figures"]
    step = next(s["file"] for s in entry["steps"] if s["step"] == "ttgir.input")
    ctx = make_context()
    parsed = parse_module(ctx, (entry["dir"] / step).read_text(), step)
    RaiseBlockPointer(dot_only=True).apply(ctx, parsed.module)
    ours = corpus.resume_native(entry, step, print_module(parsed.module, parsed.spelling))
    assert native["block_reads"] == 0 and native["shared_bytes"] > 128 * 1024
    assert ours.block_io_loads == 4 and ours.block_reads > 0 and ours.dpas > 0
    assert ours.fits_slm, ours.shared_bytes
    # issue 16: the wrap-around needs no version, so no loop copy: DPAS calls as native, no gather's SLM
    assert ours.dpas == native["dpas"] and ours.shared_bytes == 0


@pytest.mark.triton
@triton
def test_ttgir_epilogue_keeps_layouts_and_needs_no_slm() -> None:
    """On TTGIR (before the native MaterializeBlockPointer) the block pointer takes the load's layout."""
    from xpu_passes import corpus

    entry = next(e for e in corpus.entries() if e["kernel"] == "gemm_add_tensor_ptr" and e["config"] == "64x128x32-w4-s3")
    files = [s["file"] for s in entry["steps"] if s["step"].startswith("ttgir.")]
    mat = next(s["file"] for s in entry["steps"] if s["step"] == "ttgir.tritonintelgpu-materialize-block-pointer")
    ctx = make_context()
    parsed = parse_module(ctx, (entry["dir"] / mat).read_text(), mat)
    RaiseBlockPointer(dot_only=True).apply(ctx, parsed.module)
    (load,) = [ld for ld in _ops(parsed.module, tt.LoadOp) if ld.padding is not None]
    assert load.ptr.type.pointee == load.result.type and load.result.type.encoding is not None
    ours = corpus.resume_native(entry, files[files.index(mat) - 1], print_module(parsed.module, parsed.spelling))
    assert entry["figures"]["shared_bytes"] > 0 and ours.shared_bytes == 0
    assert ours.block_reads > entry["figures"]["block_reads"] and ours.dpas == entry["figures"]["dpas"]


# ------------------------------------------------------------------ issue 13: raising without regressions


def _bench() -> Any:
    """benchmarks/raise_block_pointer.py (its kernels and `compile_three`)."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[4] / "benchmarks" / "raise_block_pointer.py"
    spec = importlib.util.spec_from_file_location("raise_block_pointer_bench", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.triton
@triton
@pytest.mark.parametrize("case", ["bwd_preprocess-128x64-w4", "softmax_rows-2x128-w4"])
def test_reduction_kernel_keeps_its_slm_with_raising(case: str) -> None:
    """Issue 13: with raising an attention-backward preprocess needed 1,024 bytes of SLM (native 512, ours 0)
    and a 2D softmax 32 (native and ours 16): their loads feed no tt.dot, so dot-only leaves them to
    Coalesce."""
    bench = _bench()
    name, kernel, sig, cx, warps = next(c for c in bench.extra_cases() if c[0] == case)
    f = bench.compile_three(kernel, sig, cx, warps)
    assert f["raised"].shared_bytes == f["xpu"].shared_bytes <= f["native"].shared_bytes
    assert f["native"].shared_bytes > 0  # a kernel whose reduction needs scratch, as measured there


def test_old_pass_name_still_resolves() -> None:
    """The old flag is an alias in the registry: it makes the same pass (and the pass is registered once)."""
    from xpu_passes import registry
    from xpu_passes.registry import PassSpec
    from xpu_passes.transforms import load_all

    assert type(registry.make_pass(PassSpec("tritonintelgpu-raise-block-pointer", {}))) is RaiseBlockPointer
    assert [n for n, f in load_all().items() if f() is RaiseBlockPointer] == ["triton-raise-block-pointer"]


@pytest.mark.triton
@triton
def test_gemm_with_pointers_used_after_the_loop_gets_2d_block_io(tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 13: a tensor-of-pointer GEMM whose loop pointers are used after the loop (a masked K tail) was
    left alone; through triton.compile with raising on it gets 2D block reads and writes, no more SLM and no
    fewer DPAS than native."""
    import triton as tr
    from triton.compiler.compiler import ASTSource

    from xpu_passes.integration import plugin as triton_plugin

    bench = _bench()
    name, kernel, sig, cx, warps = next(c for c in bench.extra_cases() if c[0] == "gemm_tail-64x128x32-w4")
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    triton_plugin.disable()
    triton_plugin.use_offline_pvc_target()
    attrs = {(i,): [["tt.divisibility", 16]] for i, k in enumerate(sig) if sig[k].startswith("*") or "stride" in k}

    def compile_() -> Any:
        src = ASTSource(kernel, {**sig, **{k: "constexpr" for k in cx}}, dict(cx), attrs)
        return tr.compile(src, target=oracle.pvc_target(), options=dict(num_warps=warps, num_stages=3,
                                                                          grf_mode="large"))

    try:
        native = compile_()
        triton_plugin.enable("xpu", raise_block_pointer=True)
        ours = compile_()
    finally:
        triton_plugin.disable()
    llir = ours.asm["llir"]
    assert "2d_block_read" not in native.asm["llir"]
    assert llir.count("2d_block_read") > 0 and llir.count("2d_block_write") > 0
    assert ours.metadata.shared <= native.metadata.shared
    assert llir.count("matrix_mad") >= native.asm["llir"].count("matrix_mad") > 0


def test_nonneg_through_select_max_min() -> None:
    """`x > 0 ? x : 0` (the trip count raising writes after a loop), maxsi and minsi: >= 0; `x > -1 ? x : 0`,
    and `x < 0 ? x : 0` are not proven."""
    from xpu_passes.transforms.raise_block_pointer.ptr_decompose import nonneg_value

    m = _parse("""module {
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
