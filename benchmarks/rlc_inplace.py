"""RemoveLayoutConversions with slice ops retyped in place against cloning them, in one process.

The pass option `in-place` off clones every op of a rewritten slice and erases the originals
left unused (the path before issue 14's change); on, those are retyped where they are.
Per corpus dump, the two run alternately (CPU time, `gc.collect()` before each run, medians
of `--repeat`), and their printed outputs and remarks must be the same.

    python benchmarks/rlc_inplace.py [--set core|workloads|all] [--only KERNEL ...] [--repeat N]

`--only` with no kernel runs every dump of the set (default: sparsemax_fwd).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

from xpu_passes import corpus
from xpu_passes.dialects import make_context
from xpu_passes.frontend import Spelling, parse_module, print_module
from xpu_passes.transforms.base import collecting_remarks
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def run(text: str, in_place: bool) -> tuple[float, str]:
    ctx = make_context()
    module = parse_module(ctx, text).module
    rlc = RemoveLayoutConversions(in_place=in_place)
    gc.collect()
    with collecting_remarks() as sink:
        t = time.process_time()
        rlc.apply(ctx, module)
        t = time.process_time() - t
    remarks = [f"{r.op.name}: {r.message}" for r in sink.remarks]
    return t, "\n".join([*remarks, print_module(module, Spelling.choose("triton-3.3"))])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="all", choices=("all", "core", "workloads"))
    ap.add_argument("--only", nargs="*", default=["sparsemax_fwd"])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    differ, sums = 0, [0.0, 0.0]
    print("| dump | cloning ms | in place ms | ratio |\n|---|---:|---:|---:|")
    for entry in corpus.entries(specs=args.set):
        if args.only and entry["kernel"] not in args.only:
            continue
        for step in (s for s in entry["steps"] if s["step"] == STEP):
            text = (Path(entry["dir"]) / step["file"]).read_text()
            times: dict[bool, list[float]] = {False: [], True: []}
            outs: dict[bool, str] = {}
            for i in range(args.repeat):
                for flag in ((False, True) if i % 2 == 0 else (True, False)):  # rotating order
                    t, outs[flag] = run(text, flag)
                    times[flag].append(t)
            old, new = (1000 * statistics.median(times[f]) for f in (False, True))
            same = outs[False] == outs[True]
            differ += not same
            sums[0] += old
            sums[1] += new
            print(f"| {entry['kernel']} {entry['config']} ({step['file'].split('-')[0]}) | {old:.1f} | {new:.1f} "
                  f"| {new / old:.2f}{'' if same else ' DIFFERENT'} |")
    print(f"sums: cloning {sums[0]:.0f} ms, in place {sums[1]:.0f} ms ({sums[1] / max(sums[0], 1e-9):.2f}x)")
    print(f"{differ} output(s) differ between cloning and retyping in place")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
