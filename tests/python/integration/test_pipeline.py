"""Pipelines as MLIR pass-pipeline text in the plugin (issue 15.3, 15.5).

`pipeline_text(name, **options)` spells a named pipeline; the plugin runs a name or a
text the same way (a name IS its text: same code, same cache key). Native options a text
leaves out come from the compile; given ones are kept. Errors are PipelineErrors at
`enable()`, before any compile.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.integration import oracle
from xpu_passes.integration.pipeline import MBP, OBIO, RLC, RTP, PassFailure, PipelineError, pipeline_text, plan

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")


def test_the_default_pipeline_as_text() -> None:
    assert pipeline_text("xpu") == pipeline_text("xpu", raise_block_pointer=True)  # raising is on by default
    text = pipeline_text("xpu", raise_block_pointer=False)
    assert text.startswith("builtin.module(triton-annotate-module{target-arch=spir64},convert-triton-to-tritongpu{")
    names = [n.split("{")[0] for n in re.findall(r"[\w.-]+(?:\{[^}]*\})?", text[len("builtin.module("):])]
    assert names.count(RLC) == 4 and names.count(MBP) == 1 and OBIO in names  # ours, all of them
    assert "native-" not in text  # no native pass shadowed by ours is left
    # compile-time options are left out, so each kernel's compile fills them in
    assert "num-warps" not in text and "num-stages" not in text and "threads-per-warp" not in text
    assert plan(text).text == text  # the text reads back to itself


def test_the_native_pipeline_spells_shadowed_passes_native() -> None:
    text = pipeline_text("native")
    assert f"native-{RLC}" in text and f"native-{MBP}" in text and OBIO not in text
    assert all(not s.python for s in plan(text).stages)


def test_options_become_passes() -> None:
    assert f"{MBP},{RTP},{OBIO}" in pipeline_text("xpu", rewrite_tensor_pointer=True)
    raised = pipeline_text("xpu", raise_block_pointer=True, rlc="last", block_io_encoding=False)
    assert raised.startswith("builtin.module(triton-annotate-module{target-arch=spir64},"
                             "triton-raise-block-pointer{dot-only=true block-io-only=true wide-positions=true "
                             "never-worse-than-native=true},")
    assert raised.count(f"native-{RLC}") == 2 and OBIO not in raised
    assert ("triton-raise-block-pointer{dot-only=true block-io-only=true never-worse-than-native=true}"
            in pipeline_text("xpu", wide_positions=False))


@pytest.mark.parametrize(("text", "message"), [
    ("builtin.module(cse, tritonintelgpu-remove-layout-conversion)",
     "unknown pass 'tritonintelgpu-remove-layout-conversion'; did you mean 'tritonintelgpu-remove-layout-conversions'"),
    ("builtin.module(tritongpu-optimize-dot-operands{hoist=true})",
     "pass 'tritongpu-optimize-dot-operands': unknown option 'hoist'"),
    ("builtin.module(tritonintelgpu-rewrite-tensor-pointer{gaurd=false})",
     "pass 'tritonintelgpu-rewrite-tensor-pointer': unknown option 'gaurd'"),
    ("builtin.module(tritonintelgpu-pipeline{num-stages=three})",
     "option 'num-stages=three'"),
    ("builtin.module(cse, canonicalize",
     "malformed pipeline text: expected ',' or ')', found end of text at column 33"),
    ("builtin.module(tritonintelgpu-rewrite-tensor-pointer, tritonintelgpu-materialize-block-pointer)",
     f"'{RTP}' must run after '{MBP}'"),
    (f"builtin.module({MBP}, {OBIO})", f"'{OBIO}' must be followed by '{RLC}'"),
    ("builtin.module(convert-triton-to-tritongpu, triton-raise-block-pointer)",
     "'triton-raise-block-pointer' must run before 'convert-triton-to-tritongpu'"),
    ("fast", "unknown pipeline 'fast' (choose from xpu, native, or give a pass-pipeline text)"),
    ("builtin.module()", "empty pipeline text"),
])  # fmt: skip
def test_bad_texts_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(PipelineError) as e:
        plan(text)
    assert message in str(e.value)


def test_malformed_text_points_at_the_column() -> None:
    with pytest.raises(PipelineError) as e:
        plan("builtin.module(cse,, canonicalize)")
    message, text, caret = str(e.value).splitlines()
    assert message.endswith("expected a pass name, found ',' at column 20")
    assert text == "  builtin.module(cse,, canonicalize)" and caret == "  " + " " * 19 + "^"  # under the 2nd comma


def test_options_go_with_names_not_texts() -> None:
    with pytest.raises(PipelineError, match="go with a pipeline name, not a text"):
        plan(pipeline_text("xpu"), rlc="last")
    with pytest.raises(PipelineError, match="unknown pipeline option"):
        pipeline_text("xpu", fast=True)


# ---------------------------------------------------------------- in triton.compile


def _compile(kernel: str, config: str) -> Any:
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.corpus import find

    spec, cfg = find(kernel, config)
    src = ASTSource(spec.fn, spec.signature(), dict(cfg.constexprs), spec.attrs())
    opts = dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages, grf_mode="large")
    return triton.compile(src, target=oracle.pvc_target(), options=opts)


@needs_triton
def test_a_name_is_its_text(plugin: Any) -> None:
    """enable("xpu") and enable(pipeline_text("xpu")): the same compile and the same cache key."""
    plugin.enable("xpu")
    by_name = _compile("gemm_add_tensor_ptr", "8x128x64-w4-s3")
    plugin.enable(pipeline_text("xpu"))
    by_text = _compile("gemm_add_tensor_ptr", "8x128x64-w4-s3")
    assert by_name.hash == by_text.hash and by_name.asm["ttgir"] == by_text.asm["ttgir"]
    assert by_text.metadata.shared == 0  # native: 4,608 (at 64x128 ours keeps it too: register pressure)


@needs_triton
def test_compile_options_fill_what_the_text_leaves_out(plugin: Any) -> None:
    """num-stages from the compile (3: the K loop is pipelined, with prefetches) unless the text sets it."""
    plugin.enable(pipeline_text("native"))
    filled = _compile("gemm_block_ptr", "64x128x32-w4-s3")
    fixed_text = pipeline_text("native").replace("tritonintelgpu-pipeline{", "tritonintelgpu-pipeline{num-stages=1 ")
    plugin.enable(fixed_text)
    fixed = _compile("gemm_block_ptr", "64x128x32-w4-s3")
    plugin.disable()
    native = _compile("gemm_block_ptr", "64x128x32-w4-s3")
    assert filled.asm["ttgir"] == native.asm["ttgir"]  # the native pipeline's text is triton-xpu's make_ttgir
    assert "prefetch" in native.asm["ttgir"] and "prefetch" not in fixed.asm["ttgir"]
    assert '"ttg.num-warps" = 4' in filled.asm["ttgir"] and '"ttg.threads-per-warp" = 16' in filled.asm["ttgir"]
    assert len({filled.hash, fixed.hash, native.hash}) == 3


@needs_triton
def test_a_bad_text_fails_at_enable_not_at_compile(plugin: Any) -> None:
    with pytest.raises(PipelineError, match="unknown pass 'my-pass'"):
        plugin.enable("builtin.module(my-pass)")
    assert not plugin.enabled()


# ------------------------------------------------- skipping idle round trips (issue 14)

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "gemm_add_tensor_ptr.ttgir"


def _run(name: str, text: str) -> str:
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module
    from xpu_passes.registry import PassSpec, make_pass

    ctx = make_context()
    module = parse_module(ctx, text, "<ttgir>").module
    make_pass(PassSpec(name, {})).apply(ctx, module)
    return print_module(module, debuginfo=True)


def test_passes_leave_modules_without_what_they_need_alone() -> None:
    """The declarations behind skipping (pipeline.NEEDS_TEXT), on the GEMM + masked epilogue:
    the module after our RemoveLayoutConversions has no conversion, no Subgroup2DBlock layout,
    and (before MaterializeBlockPointer) no block_io tag; each pass then changes nothing."""
    from xpu_passes.integration.pipeline import LEGAL, NEEDS_TEXT, idle

    text = _run(RLC, EXAMPLE.read_text())
    assert "convert_layout" in EXAMPLE.read_text() and "convert_layout" not in text  # RLC had work, then none
    for name in (RLC, OBIO, LEGAL):
        assert not all(n in text for n in NEEDS_TEXT[name])
        assert _run(name, text) == _run(RLC, text) == text, name


@needs_triton
@pytest.mark.parametrize(("kernel", "config", "round_trips"), [
    # no conversion is left before the last RemoveLayoutConversions: its round trip is skipped, and
    # the epilogue slicing's (a boundary-checked store, but no erf and no gather: NEEDS_MATCH)
    ("gemm_block_ptr", "64x128x32-w4-s3", 2),
    # no tt.dot: AccelerateMatmul is dropped, so the first two round trips become one, and the last is skipped
    ("softmax", "1024-w4-s1", 1),
])  # fmt: skip
def test_idle_round_trips_are_skipped_with_the_same_result(monkeypatch: pytest.MonkeyPatch, kernel: str, config: str,
                                                          round_trips: int) -> None:
    from xpu_passes import corpus
    from xpu_passes.integration import pipeline
    from xpu_passes.integration import roundtrip

    spec, cfg = corpus.find(kernel, config)
    out = {}
    for skip in (False, True):
        mod, opts, backend = corpus.make_ttir_module(spec, cfg)
        mod = backend.make_ttir(mod, {}, opts)
        # (the stage's own round trips, without raising's; native_first off: else softmax, whose native stage
        # leaves ours nothing to win, makes none)
        p = plan("xpu", raise_block_pointer=False, native_first=False)
        p.round_trips = roundtrip.RoundTripOptions(skip_idle=skip)
        with roundtrip.timing() as times:
            mod = pipeline.run_plan(mod, {}, opts, backend.properties, p)
        out[skip] = (str(mod), times["round_trips"])
    # unskipped: three of RemoveLayoutConversions' groups and the epilogue slicing
    assert out[False][1] == 4 and out[True][1] == round_trips
    assert out[False][0] == out[True][0]


def test_a_user_pass_declares_what_it_needs_before_it() -> None:
    """Order declarations of a registered pass (class attributes) apply like ours."""
    from dataclasses import dataclass

    from xdsl.passes import ModulePass

    from xpu_passes.registry import _REGISTERED, register_pass

    @register_pass
    @dataclass(frozen=True)
    class AfterTags(ModulePass):
        name = "test-after-tags"
        requires = (MBP,)

        def apply(self, ctx: Any, op: Any) -> None:
            pass

    try:
        with pytest.raises(PipelineError, match=f"'test-after-tags' must run after '{MBP}'"):
            plan(f"builtin.module(test-after-tags, {MBP})")
        assert [s.name for s in plan(f"builtin.module({MBP}, test-after-tags)").stages] == [MBP, "test-after-tags"]
    finally:
        _REGISTERED.pop("test-after-tags", None)


@needs_triton
def test_a_native_pass_failing_in_a_text_falls_back(plugin: Any) -> None:
    """A text that configures a native pass badly (a second conversion to TTGIR for 3 warps)
    still compiles, natively, with one warning quoting triton's located diagnostic."""
    import warnings

    bad = pipeline_text("native").replace("tritongpu-optimize-thread-locality,",
                                          "tritongpu-optimize-thread-locality,convert-triton-to-tritongpu{num-warps=3},")
    native = _compile("softmax", "1024-w4-s1")
    plugin.enable(bad, strict=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k = _compile("softmax", "1024-w4-s1")
    ours = [str(w.message) for w in caught if issubclass(w.category, plugin.XpuPassesWarning)]
    # the failing pass by name (the others of its pass manager replayed one by one), triton's diagnostic
    assert len(ours) == 1 and re.search(r"triton-xpu's convert-triton-to-tritongpu failed: .*kernels.py:\d+:\d+: "
                                        r"error: .*3 warps", ours[0], re.S), ours
    assert k.asm["ttgir"] == native.asm["ttgir"]
    plugin.enable(bad, strict=True)
    with pytest.raises(PassFailure, match="3 warps"):
        _compile("softmax", "1024-w4-s1")


@needs_triton
def test_the_compile_time_benchmark_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    """benchmarks/compile_time.py on the smallest kernel family: the table, the summary, the profile."""
    from support import load_benchmark  # tests/python/support.py

    bench = load_benchmark("compile_time", monkeypatch)
    # (every position compared, as the counts below say; the default compares the last one; native_first off:
    # else triton-xpu's stage, which leaves softmax nothing to win, is kept without running ours)
    assert bench.main(["--only", "softmax", "--repeat", "1", "--top", "5",
                       "--pipeline", "xpu:never_worse_positions=all,native_first=false"]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^\| softmax (\S+) \| [\d.]+ \| [\d.]+ \| [\d.]+ \|.* \| 1 \|$", out, re.M)
    assert rows == ["1024-w4-s1", "4096-w16-s1"]  # one round trip each (idle ones skipped)
    assert re.search(r"ratio ours/native: median [\d.]+x, worst [\d.]+x .*parse \d+ us/op, print \d+ us/op", out)
    assert "| parse | RLC | other passes | print | plugin | native part |" in out
    # the passes column split per pass: softmax's one round trip runs RLC and the passes after MaterializeBlockPointer
    assert re.search(r"^our passes: .*tritonintelgpu-materialize-block-pointer \d+ ms.*"
                     r"tritonintelgpu-remove-layout-conversions \d+ ms", out, re.M), out
    # its second RLC run sees the first's fixpoint: only native's side of it runs (never_worse); its
    # third run (not compared: native runs none after MaterializeBlockPointer) is skipped (roundtrip.REPEATS)
    assert re.search(r"; repeated runs skipped: 2, their check \d+ ms \(in other passes\)$", out, re.M), out
    assert re.search(r"^never worse than native: 2 runs compared with native's \(and 2 repeats, native's side "
                     r"only\), native's result kept 0 times, raising dropped 0 times, triton-xpu's whole stage kept 0 times",
                     out, re.M), out
    assert re.search(r"^sums over the kernels: native \d+ ms; ours: parse \d+ ms, rlc \d+ ms, other \d+ ms", out, re.M)
    assert "cProfile" in out and "tottime" in out
    # the noise floor (native against itself) and our native part stage by stage
    assert re.search(r"^noise floor, best of 1: native again / native median x[\d.]+, worst x[\d.]+ \(softmax ", out, re.M)
    assert re.search(r"^ours: make_ttir \d+, make_ttgir's native passes \d+, make_llir \d+; in Python's GC: ttir \d+",
                     out, re.M), out
    assert re.search(r"^\d of 2 kernels have a native part over x[\d.]+ \(the noise floor\)", out, re.M)
    # (5: native's whole stage also runs on the same input, stage_guard.compare_stage, in one pass manager: it starts
    # from native's pass at our first position, which ran on its state after the passes both stages open with, twin_fork)
    assert re.search(r"^native part, sums ours / native: make_ttir x[\d.]+, .* in 5\.0 pass managers per kernel "
                     r"\(native: 2;.* in our round trips: \d+ ms", out, re.M), out
    # softmax's one round trip has nothing before it to take (its TTGIR is unchanged: see test_roundtrip_reuse.py)
    assert re.search(r"^round trips: 2 \(0 took our previous module, 0 could not: the text differed; 0 changed "
                     r"nothing", out, re.M), out
    assert bench.main(["--only", "softmax", "--repeat", "1", "--lower-only"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^\| softmax (\S+) \| [\d.]+ \| [\d.]+ \| [\d.]+ \| \d+ / \d+ \|", out, re.M) == [
        "1024-w4-s1", "4096-w16-s1"]
    dump = tmp_path / "ttgir"
    assert bench.main(["--only", "softmax", "--dump-ttgir", str(dump)]) == 0
    files = sorted(f.name for f in dump.iterdir())
    assert files == ["softmax__1024-w4-s1.ttgir", "softmax__4096-w16-s1.ttgir"]
    assert all("tt.func" in (dump / f).read_text() for f in files)


def test_the_cache_key_changes_with_a_pass_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered pass from a script: no version, so its source's hash goes into the key."""
    from xpu_passes.integration import roundtrip
    from xpu_passes.registry import _REGISTERED

    keys = []
    for body in ("pass", "return None"):
        (tmp_path / "mypass_mod.py").write_text(
            "from dataclasses import dataclass\nfrom xdsl.passes import ModulePass\nimport xpu_passes\n\n"
            "@xpu_passes.register_pass\n@dataclass(frozen=True)\nclass MyPass(ModulePass):\n"
            f"    name = 'test-my-pass'\n\n    def apply(self, ctx, op):\n        {body}\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.delitem(sys.modules, "mypass_mod", raising=False)
        roundtrip.source_hash.cache_clear()
        __import__("mypass_mod")
        keys.append(plan("builtin.module(test-my-pass)").providers)
        _REGISTERED.pop("test-my-pass", None)
    assert all(re.fullmatch(r"unpackaged\+[0-9a-f]{8}", k["mypass_mod"]) for k in keys), keys
    assert keys[0] != keys[1]


_LOOP = ("    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %p = %q) -> (tensor<16x64xf32>, {carried})"
         "  : i32 {{\n")


@pytest.mark.parametrize(("line", "work"), [
    ("    %x = tt.load %p, %m : tensor<64x32x!tt.ptr<bf16>> loc(#loc3)\n", True),  # a 2D gather: raised
    ("    tt.store %p, %v, %m : tensor<2x64x32x!tt.ptr<f32>>\n", True),  # (rank 3: refused, but matched)
    (_LOOP.format(carried="tensor<64x!tt.ptr<f32>>"), True),  # a carried pointer tensor may be pruned
    (_LOOP.format(carried="tensor<64xi32>"), True),  # ... or offsets
    ("    %x = tt.load %p {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xbf16>>\n", False),  # block ptr
    ("    %x = tt.load %p, %m, %o : tensor<64x!tt.ptr<f32>> loc(#loc3)\n", False),  # 1D: refused with dot-only
    (_LOOP.format(carried="!tt.ptr<tensor<16x64xbf16>>"), False),  # a carried block pointer and an accumulator
])  # fmt: skip
def test_raising_needs_a_tile_of_pointers_or_a_carried_pointer_tensor(line: str, work: bool) -> None:
    """NEEDS_MATCH: raising (dot-only) plans 2D tensor-of-pointer accesses and else only prunes carried pointer
    or offset tensors; a TTIR with neither (fla's block-pointer kernels) skips its round trip."""
    from xpu_passes.integration.pipeline import NEEDS_MATCH, RAISE

    text = f"module {{\n  tt.func @k() {{\n    %d = tt.dot %a, %b, %c : tensor<16x16xf32>\n{line}  }}\n}}\n"
    assert NEEDS_MATCH[RAISE](text) is work


@needs_triton
@pytest.mark.parametrize(("kernel", "raised"), [(("gemm_block_ptr", "64x128x32-w4-s3"), 0),
                                                (("gemm_add_tensor_ptr", "64x128x32-w4-s3"), 1)])
def test_a_block_pointer_gemm_skips_raising_with_the_same_result(monkeypatch: pytest.MonkeyPatch,
                                                                 kernel: tuple[str, str], raised: int) -> None:
    from support import compile_timed  # tests/python/support.py

    out, times = compile_timed("xpu", kernel, monkeypatch)
    out_all, times_all = compile_timed("xpu", kernel, monkeypatch, skip_idle=False)
    runs = "runs:triton-raise-block-pointer"
    assert (times.get(runs, 0), times_all[runs]) == (raised, 1)
    assert out == out_all


@pytest.mark.parametrize(("options", "idle"), [("", True), ("{min-registers=16}", False), ("{min-registers=32}", False),
                                               ("{min-registers=33}", True)])
def test_slice_reduction_skip_reads_its_min_registers(options: str, idle: bool) -> None:
    """The round trip of -xpu-slice-reduction is skipped by its own min-registers: a 64x32 reduction on
    2 warps of 32 lanes has 32 elements per thread (the skip once read the option's default, 64, whatever
    the pipeline asked)."""
    from xpu_passes.integration import pipeline

    text = ('module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {\n'
            "    %x = tt.load %p : tensor<64x32x!tt.ptr<f32>>\n"
            '    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({\n'
            "    }) : (tensor<64x32xf32>) -> tensor<64xf32>\n}\n")
    p = plan(f"builtin.module(xpu-slice-reduction{options})")
    assert pipeline.idle(p.stages, text) is idle
