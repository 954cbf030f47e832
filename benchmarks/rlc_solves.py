"""RemoveLayoutConversions' two solves (block pointers anchored, then not): what the second costs and repeats.

RLC solves once with block pointers anchored and, when that leaves more than
`least.least_result` (what no result can beat), again without anchoring, keeping the
better (issue 14). Per corpus dump taken before a native RLC this prints: how many solves
ran, each one's CPU seconds and trials (and backward trials not made because
`slice_cost.floor` bounded them as losing), how many of the second's trials the first made too (same conversion of the
input, same rewrite, same slice of the input's ops and layouts, same outcome), how
long the two run the same trials from the start, whether the second won or ended with
the same text, after what share of its steps (folds and trials) it first has figures the
first had after one of its steps, and after what share of its steps and CPU its module
first prints as one the first passed through (a second solve stopped where it meets the
first, whose rest is then known, could save no more than that; printing ignores use-list
order, so this is a bound). Then sums per kernel (`--kernels`) and overall.

    python benchmarks/rlc_solves.py [--set core|workloads|all] [--only KERNEL] [--kernels K ...] [--json OUT]

The pass's methods are wrapped, not changed: decisions are the pass's (`run_one`'s text
is what `rlc_decisions.py` writes); times include the wrappers (a few percent).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rlc_decisions  # noqa: E402

from xpu_passes.frontend import print_module  # noqa: E402
from xpu_passes.transforms.remove_layout_conversions import materialize
from xpu_passes.transforms.remove_layout_conversions import slice_cost
from xpu_passes.ir.journal import walk_list  # noqa: E402
from xpu_passes.transforms import remove_layout_conversions as rlc  # noqa: E402

KERNELS = ["flash_attention_fwd", "rms_norm_block_fwd", "sparsemax_fwd"]


@contextlib.contextmanager
def instrument(solves: list[dict[str, Any]]) -> Iterator[None]:
    """While open, each `_solve` appends {anchor, cpu, trials, figures, text, reached, steps, states} to `solves`."""
    cls, cur = rlc.RemoveLayoutConversions, {}
    saved = (cls._solve, cls._remove, rlc.Work.settle, materialize.rewrite)
    solve, remove, settle, rewrite = saved
    loses = slice_cost.loses

    def w_loses(low: Any, now: Any) -> bool:
        out = loses(low, now)
        cur["bounded"] += out
        return out

    def key(w: rlc.Work, op: Any) -> Any:
        o = w.origin.get(op)
        return cur["index"][o] if o is not None else ("new", op.name)

    def text(w: rlc.Work) -> str:  # its time is not the pass's: taken off the solve's CPU
        t = time.process_time()
        out = print_module(w.module)
        cur["printing"] += time.process_time() - t
        return out

    def step(w: rlc.Work) -> None:
        """After a fold or a trial: the first (when it anchored) keeps the text of each state it passes
        through; the second notes when its module is first one of them (a change always changes figures)."""
        if cur["steps"] and cur["steps"][-1] == w.figures:
            cur["steps"].append(w.figures)
            return
        cur["steps"].append(w.figures)
        if cur["anchor"] and w.anchored:
            cur["states"].setdefault(w.figures, set()).add(text(w))
            return
        first = solves[0] if solves else None
        if cur["anchor"] or cur["reached"] is not None or first is None or w.figures not in first["states"]:
            return
        if text(w) in first["states"][w.figures]:
            cur["reached"] = (len(cur["steps"]), time.process_time() - cur["t0"] - cur["printing"])

    def w_solve(self: Any, op: Any, start: Any, anchor: bool, iv: Any, loads: Any, *rest: Any) -> rlc.Work:
        cur.update(anchor=anchor, trials=[], steps=[], states={}, reached=None, bounded=0,
                   index={o: i for i, o in enumerate(walk_list(op))},
                   printing=0.0, t0=time.process_time())
        w = solve(self, op, start, anchor, iv, loads, *rest)
        cpu = time.process_time() - cur["t0"] - cur["printing"]
        solves.append({"anchor": anchor, "cpu": cpu, "trials": cur["trials"], "bounded": cur["bounded"],
                       "figures": w.figures,
                       "text": text(w), "reached": cur["reached"], "steps": cur["steps"], "states": cur["states"],
                       "printing": cur["printing"]})
        return w

    def w_remove(self: Any, w: rlc.Work, cvt: Any) -> str | None:
        cur["w"], cur["this"] = w, []
        why = remove(self, w, cvt)
        for i, (how, sl) in enumerate(cur["this"]):
            cur["trials"].append((key(w, cvt), how, sl, why is None and i == len(cur["this"]) - 1))
        step(w)
        return why

    def w_settle(self: rlc.Work, *args: Any, **kwargs: Any) -> None:
        settle(self, *args, **kwargs)
        self.fresh()  # (a fold's figures, costed here even where the pass costs them before its next trial)
        step(self)

    def w_rewrite(j: Any, cvt: Any, s: Any, how: str, loads: Any, new_loads: Any, cache: Any = None,
                  in_place: bool = True) -> None:
        w = cur["w"]
        layouts = frozenset((key(w, v.owner) if hasattr(v.owner, "name") else "arg", str(lay))
                            for v, lay in s.layout.items())
        cur["this"].append((how, (frozenset(key(w, o) for o in s.ops), layouts)))
        return rewrite(j, cvt, s, how, loads, new_loads, cache, in_place)

    def w_round(self: Any, w: rlc.Work) -> bool:
        cur["w"] = w
        if cur["anchor"] and w.anchored and not cur["states"]:  # the state its trials start from
            cur["states"][w.figures] = {text(w)}
        return rnd(self, w)

    rnd = cls._round
    cls._solve, cls._remove, rlc.Work.settle, cls._round = w_solve, w_remove, w_settle, w_round
    materialize.rewrite, slice_cost.loses = w_rewrite, w_loses
    try:
        yield
    finally:
        cls._solve, cls._remove, rlc.Work.settle, materialize.rewrite = saved
        slice_cost.loses = loses
        cls._round = rnd


def measure(path: Path) -> tuple[dict[str, Any], str]:
    """One dump's figures, and the pass's output (remarks and text) as `rlc_decisions.run_one` gives it."""
    solves: list[dict[str, Any]] = []
    with instrument(solves):
        out, total = rlc_decisions.run_one(path)
    d: dict[str, Any] = {"total": total - sum(s["printing"] for s in solves), "solves": len(solves),
                         "cpu": [s["cpu"] for s in solves], "kept": [sum(t[3] for t in s["trials"]) for s in solves],
                         "trials": [len(s["trials"]) for s in solves], "bounded": [s["bounded"] for s in solves]}
    if len(solves) == 2:
        a, b = solves[0]["trials"], solves[1]["trials"]
        prefix = 0
        while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
            prefix += 1
        seen, had = set(a), set(solves[0]["steps"])
        met = next((i for i, f in enumerate(solves[1]["steps"]) if f in had), None)
        d.update(repeated=sum(t in seen for t in b), prefix=prefix, same_text=solves[0]["text"] == solves[1]["text"],
                 second_won=solves[1]["figures"].better_than(solves[0]["figures"]),
                 met=None if met is None else (met + 1) / len(solves[1]["steps"]),
                 reached=None if (at := solves[1]["reached"]) is None else (at[0] / len(solves[1]["steps"]),
                                                                          at[1] / max(solves[1]["cpu"], 1e-9)))
    return d, out


def summary(rows: dict[str, dict[str, Any]], label: str) -> str:
    total = sum(r["total"] for r in rows.values())
    both = [r for r in rows.values() if r["solves"] == 2]
    second = sum(r["cpu"][1] for r in both)
    reach = [r["reached"][1] for r in both if r["reached"] is not None]
    reach_steps = [r["reached"][0] for r in both if r["reached"] is not None]
    met = [r["met"] for r in both if r["met"] is not None]
    return (f"{label}: {len(rows)} inputs, {len(both)} run both solves ({sum(r['second_won'] for r in both)} "
            f"won by the second, {sum(r['same_text'] for r in both)} with the same text); RLC CPU {total:.2f} s, "
            f"second solve {second:.2f} s ({100 * second / max(total, 1e-9):.0f}%); trials first/second "
            f"{sum(r['trials'][0] for r in both)}/{sum(r['trials'][1] for r in both)}, second's also in the first "
            f"{sum(r['repeated'] for r in both)}, same from the start {sum(r['prefix'] for r in both)}; second "
            f"is first in a state the first solve was in after {min(reach_steps, default=float('nan')):.0%}-"
            f"{max(reach_steps, default=float('nan')):.0%} of its steps, {min(reach, default=float('nan')):.0%}-"
            f"{max(reach, default=float('nan')):.0%} of its CPU ({len(reach)} of {len(both)}); its figures are "
            f"first ones the first solve had after "
            f"{min(met, default=float('nan')):.0%}-{max(met, default=float('nan')):.0%} of its steps")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="all")
    ap.add_argument("--only")
    ap.add_argument("--kernels", nargs="*", default=KERNELS)
    ap.add_argument("--json", type=Path, help="write the per-dump figures here")
    args = ap.parse_args(argv)
    rows: dict[str, dict[str, Any]] = {}
    for path in rlc_decisions.dumps(args.set, args.only):
        name = f"{path.parent.name}--{path.name.split('-before-')[0]}"
        rows[name], _ = measure(path)
        r = rows[name]
        print(f"{name}: {r['total'] * 1e3:.0f} ms, solves {r['solves']}, cpu "
              f"{'/'.join(f'{t * 1e3:.0f}' for t in r['cpu'])} ms, trials {'/'.join(map(str, r['trials']))}"
              f" (not made, bounded: {'/'.join(map(str, r['bounded']))})"
              + (f", repeated {r['repeated']}, same text {r['same_text']}" if r["solves"] == 2 else ""),
              file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    print(summary(rows, "all"))
    for k in args.kernels:
        mine = {n: r for n, r in rows.items() if n.startswith(k + "-")}
        if mine:
            print(summary(mine, k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
