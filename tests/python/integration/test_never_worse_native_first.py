"""native_first (stage_guard.compare_stage, stage_figures.nothing_to_win): in a kernel without tt.dot,
triton-xpu's stage runs first and is kept without running ours where its final TTGIR leaves ours nothing
to win in the stage guard's figures; elsewhere ours runs and is judged as before."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from xpu_passes.integration import oracle
from xpu_passes.integration.stages import AFTER_COMPARISON
from xpu_passes.integration.stage_figures import nothing_to_win
from xpu_passes.transforms.base import collecting_remarks

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")

BLOCKED1 = "#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>\n"
HEAD = """#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#loc = loc("k.py":1:0)
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%arg0: !tt.ptr<f32>) {
    %0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked> loc(#loc)
    %1 = tt.load %0 : tensor<256x!tt.ptr<f32>, #blocked> loc(#loc)
"""
TAIL = """    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
"""
REDUCE = """    %2 = "tt.reduce"(%1) <{axis = 0 : i32}> ({
    ^bb0(%a: f32 loc(#loc), %b: f32 loc(#loc)):
      %s = arith.addf %a, %b : f32 loc(#loc)
      tt.reduce.return %s : f32 loc(#loc)
    }) : (tensor<256xf32, #blocked>) -> f32 loc(#loc)
"""
CONVERT = "    %3 = ttg.convert_layout %1 : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1> loc(#loc)\n"
ALLOC = "    %4 = ttg.local_alloc %1 : (tensor<256xf32, #blocked>) -> !ttg.memdesc<256xf32, #shared, #smem> loc(#loc)\n"
ATOMIC = ("    %5 = tt.atomic_rmw fadd, acq_rel, gpu, %0, %1 : (tensor<256x!tt.ptr<f32>, #blocked>, "
          "tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> loc(#loc)\n")


def kernel(*lines: str, layouts: int = 1) -> str:
    return (BLOCKED1 if layouts > 1 else "") + HEAD + "".join(lines) + TAIL


def test_nothing_to_win_without_a_conversion_or_slm_but_reductions_in_one_layout() -> None:
    assert nothing_to_win(kernel()) == "no conversion left, one layout, no SLM"
    assert nothing_to_win(kernel(REDUCE)) == "no conversion left, one layout, SLM only for reductions and scans"
    assert nothing_to_win(kernel(REDUCE.replace("tt.reduce", "tt.scan"))) != ""
    # slices of the one layout are that layout's
    sliced = "    %6 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>\n"
    assert nothing_to_win(kernel(sliced)) == "no conversion left, one layout, no SLM"
    # locations naming an allocating op are not ops
    assert nothing_to_win(kernel().replace('loc("k.py":1:0)', 'loc("local_alloc.py":1:0)')) != ""


def test_something_to_win_where_a_conversion_other_slm_or_a_second_layout_is_left() -> None:
    assert nothing_to_win(kernel(CONVERT, layouts=2)) == ""
    assert nothing_to_win(kernel(REDUCE, CONVERT, layouts=2)) == ""
    assert nothing_to_win(kernel(REDUCE, ALLOC)) == ""
    assert nothing_to_win(kernel(ATOMIC)) == ""
    assert nothing_to_win(kernel(CONVERT.replace("ttg.", "triton_gpu."), layouts=2)) == ""  # 3.3's old spelling too
    # two layouts, no conversion: both passes may have removed coalesce's conversions differently
    # (liger qwen2vl_mrope: the same figures, ours spills less at the ISA)
    assert nothing_to_win(kernel(layouts=2)) == ""
    assert nothing_to_win(kernel(REDUCE, layouts=2)) == ""


def _compile(pipeline: str, kernel: tuple[str, str], remarks: bool = True) -> tuple[str, dict[str, Any], list[str]]:
    """The kernel's TTIR through the named pipeline `pipeline` (`xpu:option=value`): (final TTGIR, the
    compile's roundtrip.timing, the remarks said, collected when `remarks`)."""
    from xpu_passes import corpus
    from xpu_passes.integration import pipeline as pipelines, roundtrip
    from xpu_passes.integration.plugin import parse_spec
    from xpu_passes.transforms.base import RemarkSink

    spec, cfg = corpus.find(*kernel)
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    mod = backend.make_ttir(mod, {}, opts)
    name, options = parse_spec(pipeline)
    sink = RemarkSink()
    with roundtrip.timing() as times, (collecting_remarks(sink) if remarks else contextlib.nullcontext()):
        out = pipelines.run_plan(mod, {}, opts, backend.properties, pipelines.plan(name, **options))
    return str(out), times, [r.message for r in sink.remarks]


def _native(kernel: tuple[str, str]) -> str:
    from xpu_passes import corpus

    spec, cfg = corpus.find(*kernel)
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    mod = backend.make_ttir(mod, {}, opts)
    return str(backend.make_ttgir(mod, {}, opts, backend.properties))


@needs_triton
def test_a_kernel_native_leaves_nothing_to_win_keeps_natives_stage_without_ours() -> None:
    softmax = ("softmax", "1024-w4-s1")  # no tt.dot; native's final TTGIR: no conversion, a reduction's SLM
    out, times, _ = _compile("xpu", softmax, remarks=False)
    assert times.get("native_first") == 1 and not times.get("round_trips") and "native_stage_kept" not in times
    # (with remarks wanted, the epilogue slicing after the comparison makes a round trip to say why it is idle)
    again, times, remarks = _compile("xpu", softmax)
    assert times.get("native_first") == 1 and again == out
    # none of our stage's passes ran (those after the comparison run on the stage kept)
    assert not any(k.startswith("pass:tritonintelgpu") and k[5:] not in AFTER_COMPARISON for k in times)
    assert out == _native(softmax)
    assert ["triton-xpu's stage kept, ours not run: no tt.dot, no conversion left, one layout, SLM only for "
            "reductions and scans"] == [m for m in remarks if "stage kept" in m]
    # off: ours runs and is judged (a tie here: ours kept, the same TTGIR)
    off, times, remarks = _compile("xpu:native_first=false", softmax)
    assert "native_first" not in times and times.get("native_stage_kept") == 0
    assert any(k.startswith("pass:tritonintelgpu") for k in times)
    assert any(m.startswith("our stage kept") for m in remarks) and off == out


@needs_triton
def test_ours_runs_where_native_leaves_a_conversion_or_the_kernel_has_a_dot() -> None:
    rms = ("rms_norm_bwd", "1024-w4-s1")  # no tt.dot; native's final TTGIR keeps a conversion
    assert "convert_layout" in _native(rms)
    out, times, remarks = _compile("xpu", rms)
    off, times_off, _ = _compile("xpu:native_first=false", rms)
    assert "native_first" not in times and "native_stage_kept" in times
    assert out == off and "convert_layout" not in out  # ours' win kept
    gemm = ("gemm_add_tensor_ptr", "64x128x32-w4-s3")
    _, times, _ = _compile("xpu", gemm)
    assert "native_first" not in times and times.get("native_stage_kept") == 0 and times["round_trips"] >= 1


def test_the_option_is_a_pipeline_option() -> None:
    from xpu_passes.integration.pipeline import option_defaults, plan

    assert option_defaults()["native_first"] is True
    assert plan("xpu").native_first and not plan("xpu", native_first=False).native_first
    assert not plan("xpu", never_worse=False).native_first  # (no native twin: nothing runs first)
