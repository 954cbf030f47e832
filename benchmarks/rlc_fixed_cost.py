"""RemoveLayoutConversions' per-input cost on small and medium kernels, cold and warm, old tree vs new.

A JIT runs RLC on each new kernel in a process that has usually compiled others: per
kernel config this starts a fresh process, runs our pass on that config's RLC inputs (the
three corpus dumps taken before a native RLC) and times it (cold), then parses the same
inputs again and times a second run (warm). Trees are interleaved per repetition and the
median CPU time of each is printed, with xDSL verifications counted on the cold run.

    python benchmarks/rlc_fixed_cost.py [--tree NAME=SRC_DIR ...] [--reps 5] [--config SUBSTR ...]

Without --tree the installed package is timed alone. CPU time (process_time); parse and
print stay outside the clock, and garbage is collected before each input.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CONFIGS = [
    "flash_attention_fwd-64x32x64-w4-s2",
    "rms_norm_block_fwd-4x2048-w16-s1",
    "flash_attention_fwd-128x64x64-w8-s3",
    "group_norm_fwd-16x256-w4-s1",
    "layer_norm_fwd-1024-w8-s1",
    "rms_norm_block_bwd-4x2048-w16-s1",
    "cumsum_2d-64x64x1-w4-s1",
]
STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def _child(config: str) -> dict[str, float]:
    """Run in a fresh process: cold and warm CPU seconds of RLC over one config's inputs."""
    from xdsl.ir import Operation

    from xpu_passes import corpus
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module
    from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

    paths = [e["dir"] / s["file"] for e in corpus.entries(specs="all") if e["dir"].name == config
             for s in e["steps"] if s["step"] == STEP]
    if not paths:
        raise SystemExit(f"no RLC inputs for {config}")
    verifies = 0
    original = Operation.verify

    def counting(self: Operation, *args: object, **kw: object) -> None:
        nonlocal verifies
        verifies += 1
        original(self, *args, **kw)

    out: dict[str, float] = {}
    for run in ("cold", "warm"):
        total = 0.0
        for p in paths:
            ctx = make_context()
            module = parse_module(ctx, p.read_text(), str(p)).module
            gc.collect()
            if run == "cold":
                Operation.verify = counting  # type: ignore[method-assign]
            t = time.process_time()
            RemoveLayoutConversions().apply(ctx, module)
            total += time.process_time() - t
            Operation.verify = original  # type: ignore[method-assign]
        out[run] = total
    out["verifies"] = verifies
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=SRC_DIR")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--config", action="append", help="only configs containing this (repeatable)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child)))
        return 0
    trees = [t.split("=", 1) for t in args.tree] or [["installed", ""]]
    configs = [c for c in CONFIGS if not args.config or any(s in c for s in args.config)]
    got: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(args.reps):
        for config in configs:
            for name, src in trees:
                env = dict(os.environ)
                if src:
                    env["PYTHONPATH"] = str(Path(src).resolve())
                res = subprocess.run([sys.executable, __file__, "--child", config], env=env,
                                     capture_output=True, text=True, check=True)
                got.setdefault((config, name), []).append(json.loads(res.stdout))
    print(f"{'config':40} {'tree':10} {'cold ms':>8} {'warm ms':>8} {'verifies':>8}")
    sums: dict[str, list[float]] = {}
    for config in configs:
        for name, _src in trees:
            runs = got[(config, name)]
            cold = statistics.median(r["cold"] for r in runs) * 1e3
            warm = statistics.median(r["warm"] for r in runs) * 1e3
            s = sums.setdefault(name, [0.0, 0.0])
            s[0] += cold
            s[1] += warm
            print(f"{config:40} {name:10} {cold:8.1f} {warm:8.1f} {int(runs[0]['verifies']):8d}")
    for name, (cold, warm) in sums.items():
        print(f"{'total':40} {name:10} {cold:8.1f} {warm:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
