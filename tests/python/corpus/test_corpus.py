"""The corpus' workload families and the never-worse benchmark (benchmarks/corpus_compare.py).

The families: each kernel at two or more configurations, every kernel/config compiled
natively for PVC (the cached build), each with the construct it stands for in its TTIR
and DPAS calls in the lowering of every kernel with a tt.dot. The benchmark's judgement: which figure is worse, FAIL vs WORSE
vs ok, the exit status and the CSV, on stand-in compiles (real ones are its own job).
"""

from __future__ import annotations

import csv
import importlib.util
import sys
from collections import defaultdict
from pathlib import Path
from types import ModuleType

import pytest

from xpu_passes.integration import oracle
from xpu_passes.corpus import SETS, WORKLOADS

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]
ROOT = Path(__file__).resolve().parents[3]

# The construct each family stands for, in the TTIR the native TTGIR stage starts from.
CONSTRUCTS = {
    "splitk_gemm": ["tt.atomic_rmw fadd", "tt.dot"],
    "streamk_gemm": ["scf.while", "tt.atomic_rmw fadd", "scf.if"],
    "persistent_gemm": ["tt.make_tensor_ptr", "tt.dot"],
    "grouped_gemm": ["tt.int_to_ptr", "scf.while", "tt.dot"],
    "batched_gemm_tensor_ptr": ["tt.dot", "tt.get_program_id y"],
    "gemm_lowp": ["tt.dot"],
    "gemm_int8": ["tt.dot", "xi8>", "xi32>"],
    "cumsum_2d": ["tt.scan"],
    "cumsum_rows": ["tt.scan", "scf.for"],
    "layer_norm_bwd_dx": ["tt.atomic_cas", "scf.while : () -> ()", "gpu.barrier", "tt.atomic_rmw exch"],
    "layer_norm_bwd_dwdb": ["tt.reduce"],
    "rms_norm_fwd": ["cf.cond_br", "math.rsqrt"],
    "rms_norm_bwd": ["tt.reduce", "scf.for"],
    "rms_norm_block_fwd": ["tt.reduce", "math.rsqrt", "tt.expand_dims"],
    "rms_norm_block_bwd": ["tt.reduce", "tt.expand_dims"],
    "softmax": ["tt.reduce", "math.exp"],
    "group_norm_fwd": ["tt.reduce", "scf.for"],
    "group_norm_bwd": ["tt.reduce", "scf.for"],
    "cross_entropy": ["cf.cond_br", "gpu.barrier", "scf.for"],
    "rope": ["tt.load", "arith.subf", "arith.addf"],
    "rope_interleaved": ["tt.join", "tt.split", "tt.reshape"],
    "swiglu_fwd": ["math.exp"],
    "swiglu_bwd": ["math.exp"],
    "geglu_fwd": ["math.erf"],
    "geglu_bwd": ["math.erf"],
    "sparsemax_fwd": ["tt.scan", "tt.reshape"],
    "sparsemax_bwd": ["tt.reduce"],
    "dropout": ["tt.mulhiui"],
    "attn_bwd_preprocess": ["tt.reduce"],
    "attn_bwd_dkdv": ["tt.dot", "tt.trans"],
    "attn_bwd_dq": ["tt.dot", "tt.trans"],
    "moe_gemm": ["cf.cond_br", "tt.dot"],
    "moe_gather_rows": ["tt.load"],
}


def test_every_family_has_two_configs_and_the_gemms_three_dtypes() -> None:
    configs: dict[str, set[str]] = defaultdict(set)
    for spec in WORKLOADS:
        configs[spec.function or spec.name] |= {f"{spec.name}/{c.name}" for c in spec.configs}
    assert set(configs) == set(CONSTRUCTS)
    assert not {f: len(c) for f, c in configs.items() if len(c) < 2}
    gemm_inputs = {s.dtypes["a_ptr"] for s in WORKLOADS if "gemm" in s.name and "a_ptr" in s.dtypes}
    assert {"i8", "fp16", "bf16"} <= gemm_inputs
    names = [s.name for s in SETS["all"]]
    assert len(names) == len(set(names))  # `find` and the cache directories go by name


def test_workloads_compile_natively_with_their_constructs() -> None:
    from xpu_passes.corpus import entries, find

    got = entries(specs="workloads")
    assert len(got) == sum(len(s.configs) for s in WORKLOADS)
    missing = []
    for e in got:
        spec, _ = find(e["kernel"], e["config"])
        ttir = (Path(e["dir"]) / "final.ttir").read_text()
        missing += [f"{e['kernel']}-{e['config']}: {c}" for c in CONSTRUCTS[spec.function or spec.name] if c not in ttir]
        if "tt.dot" in CONSTRUCTS[spec.function or spec.name]:
            assert e["figures"]["dpas"] > 0, e["kernel"]
    assert not missing


# ------------------------------------------------------------ the benchmark


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("corpus_compare", ROOT / "benchmarks" / "corpus_compare.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def F(slm: int = 0, cvt: int = 0, reads: int = 2, writes: int = 1, dpas: int = 8) -> oracle.StaticFigures:
    return oracle.StaticFigures(shared_bytes=slm, converts=cvt, block_reads=reads, block_writes=writes, dpas=dpas)


@pytest.mark.parametrize(
    ("ours", "worse"),
    [
        (F(slm=128, cvt=1), []),
        (F(slm=0, cvt=0, reads=3, dpas=9), []),  # better is not worse
        (F(slm=256, cvt=1), ["SLM 128->256"]),
        (F(slm=128, cvt=2), ["converts 1->2"]),
        (F(slm=128, cvt=1, reads=1, writes=0, dpas=4), ["block_reads 2->1", "block_writes 1->0", "dpas 8->4"]),
    ],
)
def test_worse_figures(bench: ModuleType, ours: oracle.StaticFigures, worse: list[str]) -> None:
    assert bench.worse_figures(F(slm=128, cvt=1), ours) == worse


def test_conversion_users_names_the_op_that_needed_each_conversion(bench: ModuleType) -> None:
    ttgir = """
    %5 = ttg.convert_layout %4 : tensor<8x8xf32, #mma> -> tensor<8x8xf32, #blocked> loc(#loc3)
    %6 = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs, %5, %m : (tensor<8x8x!tt.ptr<f32>, #blocked>) -> tensor<8x8xf32, #blocked>
    %7 = ttg.convert_layout %4 : tensor<8x8xf32, #mma> -> tensor<8x8xf32, #blocked1>
    %70 = arith.addf %x, %x : tensor<8x8xf32, #blocked1>
    tt.store %p, %7 : tensor<8x8x!tt.ptr<f32>, #blocked1>
    """
    assert bench.conversion_users(ttgir) == {"tt.atomic_rmw": 1, "tt.store": 1}  # %70 is not a use of %7


def _stand_in(bench: ModuleType, outcomes: dict[str, object]):
    """compile_once giving native F() and, for our pipelines, `outcomes[pipeline]` (figures or an error)."""

    def compile_once(spec, config, pipeline):
        if pipeline is None:
            return bench.Result(F(), ms=[10.0], ttgir="")
        out = outcomes.get(pipeline, F())
        if isinstance(out, str):
            return bench.Result(error=out)
        return bench.Result(out, ms=[20.0], ttgir="", remarks=["tritonintelgpu-remove-layout-conversions: kept: x cannot y"])

    return compile_once


@pytest.mark.parametrize(
    ("outcomes", "status", "verdicts"),
    [
        ({}, 0, ("ok", "ok")),
        ({"xpu:raise_block_pointer=false": F(slm=4096)}, 1, ("WORSE", "ok")),  # (ours: without raising)
        ({"xpu": "PassFailure: xpu-passes could not read triton's TTGIR: <ttgir>:3:1: error"}, 1,
         ("ok", "FAIL")),
    ],
)  # fmt: skip
def test_exit_status_and_csv(bench: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                             outcomes: dict[str, object], status: int, verdicts: tuple[str, str]) -> None:  # fmt: skip
    from xpu_passes.integration import plugin as triton_plugin

    monkeypatch.setattr(bench, "compile_once", _stand_in(bench, outcomes))
    monkeypatch.setattr(triton_plugin, "use_offline_pvc_target", lambda: None)
    out, md = tmp_path / "c.csv", tmp_path / "t.md"
    assert bench.main(["--set", "workloads", "--only", "swiglu_fwd", "--csv", str(out), "--markdown", str(md)]) == status
    table = md.read_text().splitlines()
    assert len(table) == 4 and table[2].startswith("| swiglu_fwd (bf16) | 4096-w8-s1 | 0 / ")
    rows = list(csv.DictReader(out.open()))
    assert [r["config"] for r in rows] == ["4096-w8-s1", "16384-w32-s1"]
    assert all((r["ours_verdict"], r["raise_verdict"]) == verdicts for r in rows)
    if "FAIL" in verdicts:
        assert all(r["raise_reason"].startswith("PassFailure: xpu-passes could not read") for r in rows)
    if "WORSE" in verdicts:
        assert all(r["ours_reason"].startswith("SLM 0->4096") for r in rows)
        assert rows[0]["ours_shared_bytes"] == "4096" and rows[0]["native_shared_bytes"] == "0"


def _isa(**change: int) -> object:
    from xpu_passes.integration import isa

    base = dict.fromkeys(isa.FIGURE_NAMES, 0) | {"instructions": 1000, "block2d_loads": 4, "dpas": 8, "simd": 16}
    return isa.IsaFigures(**(base | change))


def _row(bench: ModuleType, name: str, dot: bool, ours: object, raised: object, ours_slm: int = 0) -> object:
    from xpu_passes.corpus import find

    spec, config = find(name)
    native = bench.Result(F(), ms=[1.0], isa=_isa(spill_bytes=64), dot=dot)
    return bench.Row(spec, config, {"native": native, "ours": bench.Result(F(slm=ours_slm), ms=[1.0], isa=ours),
                                    "raise": bench.Result(F(slm=ours_slm), ms=[1.0], isa=raised)})  # fmt: skip


def test_dot_summary_counts_strictly_better_gemm_attention_rows(bench: ModuleType) -> None:
    """Issue 29's count: rows with a tt.dot only; strictly better = nothing worse by the ISA judge and
    something better; a row that wins one figure and loses another is not better."""
    rows = [
        _row(bench, "gemm_block_ptr", True, _isa(spill_bytes=64), _isa(spill_bytes=0)),  # equal / better
        _row(bench, "gemm_gelu", True, _isa(spill_bytes=0, gathers=1), _isa(spill_bytes=64, instructions=900)),  # mixed (worse) / better
        _row(bench, "flash_attention_fwd", True, _isa(instructions=1100), _isa(spill_bytes=64), ours_slm=2048),
        _row(bench, "softmax", False, _isa(spill_bytes=0), _isa(spill_bytes=0)),  # no dot: not counted
    ]
    lines = bench.dot_summary(rows)
    assert lines[0].startswith("GEMM/attention rows (a tt.dot in the kernel): 3; goal: ") and ">= 1," in lines[0]
    ours = next(ln for ln in lines if ln.startswith(bench.PIPELINES["ours"] + " "))
    assert "strictly better   0 (0%)  worse   2" in ours and "equal   1" in ours
    raised = next(ln for ln in lines if ln.startswith(bench.PIPELINES["raise"] + " "))
    assert "strictly better   2 (67%)  worse   1" in raised
    assert [ln.strip() for ln in lines if "better: " in ln] == [
        "better: gemm_block_ptr-256x256x32-w32-s3: spill_bytes 64->0",
        "better: gemm_gelu-256x256x32-w32-s3: instructions 1000->900 (-10%)",
    ]


def test_dot_summary_without_dot_rows_does_not_claim_missing_isa(bench: ModuleType) -> None:
    """A run of kernels without a tt.dot has ISA figures but nothing to count: it says so, and does not
    say the ISA figures are missing (it did, on a run of the corpus' non-dot kernels)."""
    rows = [_row(bench, "softmax", False, _isa(spill_bytes=0), _isa(spill_bytes=0))]
    assert bench.dot_summary(rows) == ["GEMM/attention rows (a tt.dot in the kernel): 0; nothing to count"]
    rows[0].results["native"].isa = None
    assert bench.dot_summary(rows) == ["GEMM/attention rows (a tt.dot in the kernel): 0; nothing to count"]
    rows.append(_row(bench, "gemm_block_ptr", True, _isa(spill_bytes=0), _isa(spill_bytes=0)))
    rows[1].results["native"].isa = None
    assert bench.dot_summary(rows) == ["GEMM/attention rows (a tt.dot in the kernel): 1; no ISA figures: better not counted"]


def test_read_csv_gives_the_rows_back(bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    rows = [_row(bench, "gemm_block_ptr", True, _isa(spill_bytes=64), _isa(spill_bytes=0)),
            _row(bench, "softmax", False, _isa(gathers=3), _isa(spill_bytes=0))]  # fmt: skip
    rows[1].results["raise"] = bench.Result(error="PassFailure: x")
    rows[1].reasons["ours"] = "gathers 0->3"
    path = tmp_path / "c.csv"
    bench.write_csv(rows, str(path))
    back = bench.read_csv(str(path))
    assert [r.case for r in back] == [r.case for r in rows] and [r.dot for r in back] == [True, False]
    assert [r.verdicts() for r in back] == [r.verdicts() for r in rows] == [
        {"ours": "ok", "raise": "ok"}, {"ours": "WORSE", "raise": "FAIL"}]
    assert back[0].results["raise"].isa == rows[0].results["raise"].isa and back[1].reasons == {"ours": "gathers 0->3"}
    assert bench.dot_summary(back) == bench.dot_summary(rows)
    assert bench.summarize(back, str(path)) == 1  # a WORSE and a FAIL row
    out = capsys.readouterr().out
    ours, raised = bench.PIPELINES["ours"], bench.PIPELINES["raise"]
    assert f"{ours} worse or failing: softmax-1024-w4-s1 (WORSE)" in out
    assert f"{raised} vs {ours} at the ISA: worse on 0" in out  # its FAIL row has no ISA to compare
    rows[0].results["raise"] = bench.Result(F(), ms=[1.0], isa=_isa(spill_bytes=128))
    bench.summarize(rows, str(path))
    assert f"vs {ours} at the ISA: worse on 1\n    gemm_block_ptr-256x256x32-w32-s3: spill_bytes 64->128" in capsys.readouterr().out
    # A CSV from before the `dot` column: each kernel's TTIR says.
    text = path.read_text().splitlines()
    cut = text[0].split(",").index("dot")
    path.write_text("\n".join(",".join(c for i, c in enumerate(ln.split(",")) if i != cut) for ln in text) + "\n")
    monkeypatch.setattr(sys.modules["corpus_report"], "_ttir_has_dot", lambda spec, config: spec.name.startswith("gemm"))
    assert [r.dot for r in bench.read_csv(str(path))] == [True, False]


def test_another_checkouts_corpus_cache_is_not_reused(tmp_path: Path) -> None:
    """Two checkouts with the same corpus sources at different paths: the dumps' locations name each
    checkout's kernel files (read back by the interpreter tests), so their cache keys differ."""
    import shutil

    from xpu_passes import corpus

    here = Path(corpus.__file__).parent
    keys = []
    for name in ("a", "b"):
        copy = tmp_path / name / "corpus"
        shutil.copytree(here, copy, ignore=shutil.ignore_patterns("__pycache__"))
        (copy.parent / "integration" / "oracle").mkdir(parents=True)
        shutil.copy(here.parent / "integration" / "oracle" / "__init__.py", copy.parent / "integration" / "oracle" / "__init__.py")
        keys.append(corpus._cache_key(copy))
    assert keys[0] != keys[1]
    assert corpus._cache_key(tmp_path / "a" / "corpus") == keys[0]  # same checkout, same key
    (tmp_path / "a" / "corpus" / "kernels.py").write_text("# changed\n")
    assert corpus._cache_key(tmp_path / "a" / "corpus") != keys[0]  # a source changed
