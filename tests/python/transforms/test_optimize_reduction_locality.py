"""-tritonintelgpu-optimize-reduction-locality: the same IR as triton-xpu 3.3's native pass wherever
that one is right, and left alone where Intel main's guard says the native pass is wrong; the
xpu pipeline's `reduction_locality` option puts it where 3.3 runs Intel's, on both sides of never-worse."""

from __future__ import annotations

from pathlib import Path

import pytest

from xpu_passes.dialects import make_context, tt
from xpu_passes.driver import cli
from xpu_passes.frontend import parse_module
from xpu_passes.integration import oracle
from xpu_passes.transforms.optimize_reduction_locality import why_not

FLAG = "-tritonintelgpu-optimize-reduction-locality"


def kernel(warps: tuple[int, int], rep: tuple[int, int], shape: tuple[int, int], combine: str, ops: int = 1) -> str:
    m, n = shape
    t = f"tensor<{m}x{n}xf32, #mma>"
    r = f"tensor<{m}xf32, #ttg.slice<{{dim = 1, parent = #mma}}>>"
    return f"""#mma = #ttig.dpas<{{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = {ops}, threadsPerWarp = 16, warpsPerCTA = [{warps[0]}, {warps[1]}], repCluster = [{rep[0]}, {rep[1]}]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps[0] * warps[1]} : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func @k(%arg0: {t}) -> {r} {{
    %0 = "tt.reduce"(%arg0) <{{axis = 1 : i32}}> ({{
    ^bb0(%a: f32, %b: f32):
      %1 = arith.{combine} %a, %b : f32
      tt.reduce.return %1 : f32
    }}) : ({t}) -> {r}
    tt.return %0 : {r}
  }}
}}
"""


def xpu_opt(tmp_path: Path, text: str, *flags: str) -> str:
    src, out = tmp_path / "in.mlir", tmp_path / "out.mlir"
    src.write_text(text)
    with pytest.raises(SystemExit) as e:
        cli.main([str(src), *flags, "-o", str(out)])
    assert e.value.code == 0
    return out.read_text()


# (warpsPerCTA, repCluster, shape, combine): one warp, 2x2 warps, flash attention's 8 warps on rows
CASES = [((1, 1), (2, 1), (16, 16), "addf"), ((2, 2), (2, 2), (32, 64), "maxnumf"),
         ((8, 1), (4, 2), (256, 64), "addf"), ((4, 1), (4, 2), (128, 128), "maxnumf"),
         ((2, 4), (4, 1), (64, 256), "addf")]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"w{c[0]}-rep{c[1]}-{c[2]}")
def test_rewrites(tmp_path: Path, case: tuple) -> None:
    out = xpu_opt(tmp_path, kernel(*case), FLAG)
    assert out.count("tt.reshape") == 3 and out.count('"tt.reduce"') == 4 and out.count("ttg.convert_layout") == 2


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"w{c[0]}-rep{c[1]}-{c[2]}")
def test_same_as_native_33(tmp_path: Path, case: tuple) -> None:
    text = kernel(*case)
    ours = xpu_opt(tmp_path, text, FLAG)
    assert ours == xpu_opt(tmp_path, text, "-native" + FLAG)
    oracle.parse_verify(xpu_opt(tmp_path, text, FLAG, "-spelling=triton-3.3"))


@pytest.mark.parametrize(("case", "why"), [
    (((1, 2), (2, 1), (16, 16), "addf"), "16 columns, fewer than one tile of the layout (main's guard)"),
    (((1, 1), (2, 1), (64, 32), "addf"), "64 rows, not the layout's repeatCount*repCluster[0]*warpsPerCTA[0]"),
    (((1, 1), (1, 1), (8, 16), "addf"), "repeatCount*repCluster[0] = 8 not a multiple of 16"),
])  # fmt: skip
def test_left_alone(tmp_path: Path, case: tuple, why: str) -> None:
    text = kernel(*case)
    red = next(op for op in parse_module(make_context(), text).module.walk() if isinstance(op, tt.ReduceOp))
    assert why_not(red) == why
    assert "tt.reshape" not in xpu_opt(tmp_path, text, FLAG)


def test_pipeline_option_places_it_before_the_last_rlc_on_both_sides() -> None:
    from xpu_passes.integration.pipeline import ORL, RLC, plan

    p = plan("xpu", reduction_locality=True)
    names = [s.name for s in p.stages]
    assert names.index(ORL) < max(i for i, n in enumerate(names) if n == RLC)
    assert p.native_twin is not None
    twin = [s for s in p.native_twin if s.name == ORL]
    assert len(twin) == 1 and twin[0].python and twin[0].instance is not None
    assert ORL not in [s.name for s in plan("xpu").stages] + [s.name for s in plan("xpu").native_twin or []]


def rows_kernel(combine: str, elem: str) -> str:
    """A 32x64 tile loaded in a DPAS layout (2x2 warps), reduced along its rows and stored."""
    t, r = f"tensor<32x64x{elem}, #mma>", f"tensor<32x{elem}, #ttg.slice<{{dim = 1, parent = #mma}}>>"
    return f"""#mma = #ttig.dpas<{{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 1, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [2, 2]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func public @rows(%a: !tt.ptr<{elem}>, %c: !tt.ptr<{elem}>) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c32 = arith.constant 32 : i64
    %c64 = arith.constant 64 : i64
    %pa = tt.make_tensor_ptr %a, [%c32, %c64], [%c64, %c1], [%c0, %c0] {{order = array<i32: 1, 0>}} : <{t}>
    %x = tt.load %pa : !tt.ptr<{t}>
    %0 = "tt.reduce"(%x) <{{axis = 1 : i32}}> ({{
    ^bb0(%p: {elem}, %q: {elem}):
      %1 = arith.{combine} %p, %q : {elem}
      tt.reduce.return %1 : {elem}
    }}) : ({t}) -> {r}
    %pc = tt.make_tensor_ptr %c, [%c32], [%c1], [%c0] {{order = array<i32: 0>}} : <{r}>
    tt.store %pc, %0 : !tt.ptr<{r}>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize(("combine", "elem"), [("maxnumf", "f32"), ("addi", "i32")])
def test_same_results_on_the_interpreter(combine: str, elem: str) -> None:
    """Exact combines (max, integer sums): every row's result is unchanged, so the reshapes put each
    element where the layouts say (the interpreter follows efficient_layout's register order)."""
    from xpu_passes.interp.validate import validate_spec
    from xpu_passes.transforms.optimize_reduction_locality import OptimizeReductionLocality

    ctx = make_context()
    before = parse_module(ctx, rows_kernel(combine, elem)).module
    after = before.clone()
    OptimizeReductionLocality().apply(ctx, after)
    assert sum(o.name == "tt.reshape" for o in after.walk()) == 3
    res = validate_spec(before, after, "arg0=2048,arg1=32,grid=1")  # type: ignore[arg-type]
    assert res.error is None and res.mismatch is None and res.compared == 2048 + 32
