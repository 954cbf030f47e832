"""Our RemoveLayoutConversions on every corpus dump it runs on: outputs, remarks and time, to compare two trees.

Speed work on the pass must not change one decision. This writes, per dump taken right
before a native RemoveLayoutConversions (each kernel/config, each of the three runs), our
pass's printed output and its remarks to OUTDIR, and the CPU seconds per dump to
OUTDIR/times.json; `--compare OTHER` then says which outputs differ from OTHER's and sums
the times side by side. Run it once on the old tree (PYTHONPATH=old/src) and once on the new.

    python benchmarks/rlc_decisions.py OUTDIR [--set core|workloads|all] [--only KERNEL] [--compare OTHER]
                                      [--profile N]

`--profile N` runs the pass under cProfile and prints its top N entries (by own time and by
cumulative time) over the dumps run; times taken so are the profiler's, not comparable.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

from xpu_passes import corpus
from xpu_passes.dialects import make_context
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.transforms.base import collecting_remarks

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def dumps(specs: str, only: str | None) -> list[Path]:
    out = []
    for entry in corpus.entries(specs=specs):
        if only and entry["kernel"] != only:
            continue
        out += [entry["dir"] / s["file"] for s in entry["steps"] if s["step"] == STEP]
    return out


def run_one(path: Path, profile: cProfile.Profile | None = None) -> tuple[str, float]:
    """Our pass's output and remarks on one dump, and its CPU seconds (parse and print outside the clock)."""
    from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

    ctx = make_context()
    module = parse_module(ctx, path.read_text(), str(path)).module
    gc.collect()  # earlier dumps' garbage is not this dump's: a collection of it would land in the clock
    with collecting_remarks() as sink:
        t = time.process_time()
        if profile is not None:
            profile.enable()
        RemoveLayoutConversions().apply(ctx, module)
        if profile is not None:
            profile.disable()
        t = time.process_time() - t
    remarks = [f"// remark on {r.op.name}: {r.message}" for r in sink.remarks]
    return "\n".join([*remarks, print_module(module, Spelling.choose("triton-3.3"))]), t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--set", default="all", choices=sorted(corpus.SETS))
    ap.add_argument("--only")
    ap.add_argument("--compare", type=Path, help="another OUTDIR: list the dumps whose output differs")
    ap.add_argument("--profile", type=int, metavar="N", help="print the pass's top N profile entries")
    args = ap.parse_args(argv)
    profile = cProfile.Profile() if args.profile else None
    args.outdir.mkdir(parents=True, exist_ok=True)
    times: dict[str, float] = {}
    for path in dumps(args.set, args.only):
        name = f"{path.parent.name}--{path.name}"
        text, t = run_one(path, profile)
        (args.outdir / name).write_text(text)
        times[name] = t
        print(f"{name}: {t * 1e3:.0f} ms", file=sys.stderr)
    (args.outdir / "times.json").write_text(json.dumps(times, indent=1))
    if profile is not None:
        for order in ("tottime", "cumulative"):
            pstats.Stats(profile, stream=sys.stdout).strip_dirs().sort_stats(order).print_stats(args.profile)
    if args.compare is None:
        return 0
    other = json.loads((args.compare / "times.json").read_text())
    differ = [n for n in times if n in other and (args.compare / n).read_text() != (args.outdir / n).read_text()]
    for n in differ:
        print(f"DIFFERENT: {n}")
    common = [n for n in times if n in other]
    ratios = [times[n] / max(other[n], 1e-6) for n in common]
    print(f"{len(differ)} of {len(common)} outputs differ; CPU s {sum(other[n] for n in common):.1f} -> "
          f"{sum(times[n] for n in common):.1f}, per dump new/old median {statistics.median(ratios):.2f}x, "
          f"worst {max(ratios):.2f}x")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
