"""`python -m xpu_passes.corpus dump OUTDIR [--only KERNEL] [--set core|workloads|all]`: write the corpus dumps."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from xpu_passes.corpus import SETS, compile_spec, write


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    dump = sub.add_parser("dump", help="compile every kernel/config and write the IR before each pass")
    dump.add_argument("outdir", type=Path)
    dump.add_argument("--only", help="one kernel by name")
    dump.add_argument("--set", choices=sorted(SETS), default="core", help="which kernels (default: core)")
    args = ap.parse_args()
    total = 0
    for spec in SETS[args.set]:
        if args.only and spec.name != args.only:
            continue
        for config in spec.configs:
            t = time.perf_counter()
            compiled = compile_spec(spec, config)
            d = write(compiled, args.outdir)
            total += len(compiled.steps) + 1
            f = compiled.figures
            print(
                f"{d.name:44} {time.perf_counter() - t:5.1f}s  SLM {f['shared_bytes']:7d}  cvt {f['converts']}"
                f"  block_io {f['block_io_loads']}/{f['loads']}  2D r/w {f['block_reads']}/{f['block_writes']}"
                f"  DPAS {f['dpas']}"
            )
    print(f"{total} dumps in {args.outdir}")


if __name__ == "__main__":
    main()
