"""Our RemoveLayoutConversions vs triton-xpu's, side by side, on every corpus kernel.

make_ttgir runs RemoveLayoutConversions three times. For each kernel/config and each
of those positions, the TTGIR right before the native pass goes through ours
instead: the conversions each leaves are printed (`before->native/ours`). Then the
output of ours at the last position (the one that shapes GEMM epilogues) goes
through the rest of the native pipeline and its lowering for PVC (no GPU needed):
SLM bytes (and whether they fit PVC's 128 KB), conversions, 2D block reads and
DPAS calls, native / ours. Exits 1 if ours is worse than native anywhere.

    python benchmarks/layout_conversions.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from xpu_passes.integration import oracle
from xpu_passes.corpus import entries, resume_native
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def _slm(b: int) -> str:
    return f"{b}{'' if b <= 128 * 1024 else '!'}"


def main() -> int:
    worse = 0
    print(f"{'kernel-config':40} {'cvt at RLC 1 | 2 | 3':32} {'SLM native':>11} {'SLM ours':>9} {'cvt n/o':>8} "
          f"{'2D reads n/o':>13} {'DPAS n/o':>9} {'ms':>5}")
    for e in entries():
        steps = e["steps"]
        d = Path(e["dir"])
        cols, ms, last = [], 0.0, ("", "")
        for k in [j for j, s in enumerate(steps) if s["step"] == STEP]:
            before = (d / steps[k]["file"]).read_text()
            after = (d / steps[k + 1]["file"]).read_text()
            t = time.perf_counter()
            ctx = make_context()
            parsed = parse_module(ctx, before)
            RemoveLayoutConversions().apply(ctx, parsed.module)
            ours = print_module(parsed.module, parsed.spelling, debuginfo=True)
            ms += (time.perf_counter() - t) * 1e3
            b, n, o = (oracle.ttgir_counts(x)[0] for x in (before, after, ours))
            worse += o > n
            cols.append(f"{b}->{n}/{o}{'!' if o > n else ''}")
            last = (steps[k]["file"], ours)
        n, o = e["figures"], resume_native(e, *last)
        bad = (o.shared_bytes > n["shared_bytes"] or o.converts > n["converts"]
               or o.block_reads < n["block_reads"] or o.dpas < n["dpas"])
        worse += bad
        print(f"{e['kernel'] + '-' + e['config']:40} {' | '.join(cols):32} {_slm(n['shared_bytes']):>11} "
              f"{_slm(o.shared_bytes):>9} {n['converts']:>3}/{o.converts:<4} {n['block_reads']:>6}/{o.block_reads:<6} "
              f"{n['dpas']:>4}/{o.dpas:<4} {ms:5.0f}{'  WORSE' if bad else ''}", flush=True)
    print("(! = over PVC's 128 KB of SLM, or more conversions than native at that position)")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
