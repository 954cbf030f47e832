"""What a kernel's SLM costs on PVC: the work-groups one Xe-core holds at once.

SLM is not a figure of the ISA's code (spill, messages, DPAS, instructions): a few KB more cost nothing
until they lower how many work-groups an Xe-core runs together (occupancy), and past 128 KB the kernel
cannot launch. An Xe-core has 8 vector engines of 8 hardware threads each (4 with the 256-register
file) and 128 KB of SLM shared by the work-groups on it; a work-group of `warps` sub-groups takes
`warps` threads (Intel's GPU optimization guide, "Thread Mapping and GPU Occupancy"). Both judges
(integration.isa.judge at the ISA, stage_figures in the compile) weigh SLM by `work_groups` at the
128-register file's 64 threads: the most an Xe-core can hold, so the strictest budget (an SLM size
that keeps native's work-groups there keeps them with 32 threads too).
"""

from __future__ import annotations

import re

SLM_LIMIT = 128 * 1024  # PVC's SLM per Xe-core, and the most one work-group may allocate
THREADS = 8 * 8  # hardware threads per Xe-core with the default 128-register file (8 engines x 8)
_WARPS = re.compile(r'"ttg\.num-warps"\s*=\s*(\d+)')


def work_groups(slm: int, warps: int) -> int:
    """Work-groups of `warps` sub-groups needing `slm` bytes each that one Xe-core holds at once (0: it
    cannot launch)."""
    if slm > SLM_LIMIT:
        return 0
    by_threads = max(1, THREADS // max(1, warps))
    return by_threads if slm <= 0 else min(by_threads, SLM_LIMIT // slm)


def fewer_work_groups(slm: int, than: int, warps: int) -> bool:
    """Whether `slm` bytes hold fewer work-groups per Xe-core than `than` bytes (warps unknown, 0: any
    more SLM counts as fewer, as nothing shows it does not)."""
    if warps <= 0:
        return slm > than
    return work_groups(slm, warps) < work_groups(than, warps)


def warps_of(text: str) -> int:
    """The module's `ttg.num-warps` in a TTGIR print (0: not found)."""
    m = _WARPS.search(text)
    return int(m[1]) if m else 0
