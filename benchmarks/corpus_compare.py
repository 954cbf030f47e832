"""The whole corpus, natively and through ours, side by side: is ours ever worse than native?

    python benchmarks/corpus_compare.py [--set all|core|workloads] [--only KERNEL ...] [--repeat N]
                                        [--csv F] [--markdown F] [--no-explain]
    python benchmarks/corpus_compare.py --from-csv F [--markdown F]   # count a CSV again, no compile

Every kernel/config of the corpus (src/xpu_passes/corpus: the core set and the workload
families) is compiled for PVC on the CPU through `triton.compile` (the backend's stages
TTIR -> TTGIR -> LLVM IR -> SPIR-V) three ways, interleaved: triton-xpu's own pipeline,
ours without raising (`xpu:raise_block_pointer=false`) and ours as by default, raising (`xpu`), both STRICT: a failure of
ours is a failure (no native fallback). Figures: SLM bytes (metadata "shared"; `!` = over
PVC's 128 KB), ttg.convert_layout in the final TTGIR, 2D block reads/writes and DPAS calls
in the LLVM IR, compile time (median of --repeat, and ours / native).

With Intel's GPU compiler installed (`ocloc`, tools/install-igc), every SPIR-V is also
compiled for PVC by IGC and the row shows its ISA figures (instructions, spill bytes, 2D
block loads+prefetches/stores, gathers/scatters, SLM messages, DPAS; see
xpu_passes.integration.isa), and the row is judged on them: WORSE when ours needs more SLM
bytes, or has more spill bytes, SLM messages, gathers or scatters, fewer 2D block messages
or DPAS, or more than 5% more instructions; TRADE (not worse) when those losses buy an SLM
footprint that fits PVC's 128 KB where native's does not (native cannot launch), or are spill
bytes only, at most the driver's 1,000, in 128 registers where native runs in 256. Without
ocloc the row is judged on the LLVM IR, as follows. A row is WORSE when ours needs more SLM
or conversions, or has fewer 2D block reads/writes or DPAS calls than native; FAIL when
ours raises where native compiles (or IGC fails on ours only). For those rows the
reason is printed: the error, or the ops that consume ours' extra conversions, our passes'
remarks, and whether `rlc=last` (ours only at the last RemoveLayoutConversions) or
`block_io_encoding=false` clears it. Writes a CSV; exits 1 if any row is WORSE or FAIL.

Last, issue 29's count per pipeline: of the GEMM/attention rows (those whose kernel has a
tt.dot in its TTIR), how many are strictly better than native at the ISA (nothing worse by
the judge, at least one figure better by its thresholds mirrored: isa.strictly_better), and
how many worse; each better row with what it wins; then the rows where raising loses an ISA
figure to `xpu` itself.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from xpu_passes.corpus import SETS, Config, KernelSpec
from xpu_passes.integration import isa, oracle

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules, also when imported by path

# (the judge and the report, re-exported: other benchmarks and the tests import them from here)
from corpus_report import (  # noqa: E402, F401
    HEADER, ISA_COLUMNS, dot_summary, format_isa, format_row, read_csv, summarize, write_csv, write_markdown,
)
from corpus_verdicts import (  # noqa: E402, F401
    FIGURES, PIPELINES, Result, Row, better, verdict, worse, worse_figures, worse_isa,
)

EXPLAIN = {"rlc=last": "rlc=last", "no block-io encoding": "block_io_encoding=false"}
OCLOC: str | None = None  # set by main(): IGC's ocloc, or None (judge on the LLVM IR)


_CVT = re.compile(r"(%[\w#]+) = ttg\.convert_layout ")


def conversion_users(ttgir: str) -> Counter[str]:
    """For each ttg.convert_layout, the op that first uses its result: what needed the conversion."""
    lines = ttgir.splitlines()
    users: Counter[str] = Counter()
    for i, line in enumerate(lines):
        m = _CVT.search(line)
        if not m:
            continue
        use = re.compile(re.escape(m.group(1)) + r"\b")
        user = next((ln for ln in lines[i + 1 :] if use.search(ln.split("=", 1)[-1])), "")
        op = re.search(r"\b((?:tt|ttg|ttig|arith|math|scf|cf)\.\w+)", user.split("=", 1)[-1] if "=" in user else user)
        users[op.group(1) if op else "?"] += 1
    return users


# ---------------------------------------------------------------- compiling


def compile_once(spec: KernelSpec, config: Config, pipeline: str | None, with_isa: bool = True) -> Result:
    """triton.compile for PVC with `pipeline` (None: native), strict; errors are results.
    With OCLOC set and `with_isa`, also IGC's ISA figures of the kernel (not timed)."""
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.integration import plugin as triton_plugin
    from xpu_passes.transforms.base import RemarkSink, collecting_remarks

    triton_plugin.disable()
    sink = RemarkSink()
    if pipeline is not None:
        name, options = triton_plugin.parse_spec(pipeline)
        triton_plugin.enable(name, strict=True, **options)
    src = ASTSource(spec.fn, spec.signature(), dict(config.constexprs), spec.attrs())
    opts = dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large")
    t = time.perf_counter()
    try:
        with collecting_remarks(sink) if pipeline is not None else contextlib.nullcontext():
            k = triton.compile(src, target=oracle.pvc_target(), options=opts)
        ms = (time.perf_counter() - t) * 1e3
        figures = oracle.figures(k.asm["ttgir"], k.asm["llir"], k.metadata.shared)
        result = Result(figures, ms=[ms], ttgir=k.asm["ttgir"], dot="tt.dot" in k.asm["ttir"])
        if OCLOC is not None and with_isa:
            try:
                result.isa = isa.compile_spirv(*oracle.spirv(k), ocloc=OCLOC)
            except isa.IsaError as e:
                result.isa_error = str(e)
    except Exception as e:  # noqa: BLE001 - every failure is a row of the table
        text = str(e).strip() or type(e).__name__
        result = Result(error=f"{type(e).__name__}: {text}")
    finally:
        triton_plugin.disable()
    result.remarks = [f"{r.pass_name}: {r.message}" for r in sink.remarks]
    return result


def measure(spec: KernelSpec, config: Config, repeat: int) -> Row:
    """Native, ours and ours+raising, interleaved `repeat` times."""
    results: dict[str, Result] = {}
    for i in range(repeat):
        for key, pipeline in (("native", None), *PIPELINES.items()):
            r = compile_once(spec, config, pipeline) if i == 0 else compile_once(spec, config, pipeline, with_isa=False)
            if key not in results:
                results[key] = r
            else:
                results[key].ms += r.ms
    return Row(spec, config, results)


def explain(row: Row, which: str) -> str:
    """Why ours (or ours+raising) is worse or fails on `row`."""
    native, ours = row.results["native"], row.results[which]
    if ours.figures is None:
        return ours.error.splitlines()[0][:400]
    if ours.isa_error and not native.isa_error:
        return ours.isa_error[:400]
    assert native.figures is not None
    parts = worse(native, ours)
    extra = conversion_users(ours.ttgir) - conversion_users(native.ttgir)
    if extra:
        parts.append("extra conversions before " + ", ".join(f"{op} x{n}" for op, n in extra.items()))
    elif ours.figures.shared_bytes > native.figures.shared_bytes:
        parts.append("no extra conversion: the scratch of a reduce/scan (or a layout it is given)")
    base = PIPELINES[which]
    for label, option in EXPLAIN.items():
        spec = f"{base}{',' if ':' in base else ':'}{option}"
        trial = compile_once(row.spec, row.config, spec)
        if trial.figures is not None and not worse(native, trial):
            parts.append(f"not worse with {label}")
    # The remarks about the ops that needed the extra conversions, else the commonest refusal.
    notes = Counter(r for r in ours.remarks if any(f"'{op}'" in r for op in extra)) or Counter(
        r for r in ours.remarks if "cannot" in r or "left alone" in r
    )
    parts += [f"remark ({n}x) {r[:300]}" for r, n in notes.most_common(1)]
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=sorted(SETS), default="all")
    ap.add_argument("--only", nargs="*", default=[], help="kernel spec names")
    ap.add_argument("--repeat", type=int, default=1, help="compiles of each case per pipeline (median ms)")
    ap.add_argument("--csv", default="benchmarks/results/corpus_compare.csv")
    ap.add_argument("--markdown", help="also write the table as README (markdown) rows to this file")
    ap.add_argument("--ocloc", help="IGC's ocloc (default: on PATH, else tools/install-igc's)")
    ap.add_argument("--no-explain", action="store_true", help="skip the reasons (extra compiles of bad rows)")
    ap.add_argument("--from-csv", metavar="CSV", help="count (and --markdown) the rows of a CSV this wrote; no compile")
    args = ap.parse_args(argv)
    if args.from_csv:
        rows = read_csv(args.from_csv)
        if args.markdown:
            write_markdown(rows, args.markdown)
        return summarize(rows, args.from_csv)

    from xpu_passes.integration import plugin as triton_plugin
    from xpu_passes.transforms import load_all

    load_all()
    global OCLOC
    OCLOC = isa.ocloc_path(args.ocloc)
    print(f"ISA: IGC {OCLOC}: rows judged on the ISA" if OCLOC else f"{isa.MISSING}; rows judged on the LLVM IR")
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # no cached kernel: every compile is timed
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="xpu-passes-corpus-compare-"))
    triton_plugin.use_offline_pvc_target()
    rows: list[Row] = []
    print(HEADER, flush=True)
    for spec in SETS[args.set]:
        if args.only and spec.name not in args.only:
            continue
        for config in spec.configs:
            row = measure(spec, config, args.repeat)
            rows.append(row)
            print(format_row(row), flush=True)
            for p, v in row.verdicts().items():
                if v in ("WORSE", "FAIL"):
                    row.reasons[p] = "" if args.no_explain else explain(row, p)
                    print(f"    {p}: {v}: {row.reasons[p]}", flush=True)
                elif v == "TRADE":
                    native = row.results["native"]
                    row.reasons[p] = f"native needs {native.figures.shared_bytes} B of SLM (over 128 KB); ours " + \
                        "; ".join(worse(native, row.results[p]))
                    print(f"    {p}: {v}: {row.reasons[p]}", flush=True)
    os.makedirs(os.path.dirname(args.csv) or ".", exist_ok=True)
    write_csv(rows, args.csv)
    if args.markdown:
        write_markdown(rows, args.markdown)
    return summarize(rows, args.csv)


if __name__ == "__main__":
    sys.exit(main())
