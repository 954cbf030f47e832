"""Parse+print time of xpu-opt's front end vs triton-xpu's, side by side.

For every TTIR/TTGIR dump of the corpus (or the files given), and for a module 50x the
largest kernel, prints: ops, xpu-passes parse ms, print ms, parse ms cold, triton
parse+print ms, ratio; then the medians in us/op (issue 14's goals: parse <= 100, print
<= 30), `xpu-opt` start-up (empty module, --list-passes; goal <= 0.3 s) and the top of a
cProfile of parse+print of the largest dump (where the time goes). "parse" is a module
parsed again in the same process (the process-wide tables of layouts, types and verified
op signatures filled, as in a compiler's later round trips and kernels); "cold" empties
those tables before each parse (a module whose layouts and types are all new). Also the
median of a parse without verification (`verify=False`: the compile path reading triton's
print of a module triton verified).

    python benchmarks/frontend_speed.py [--dir DUMPS] [--repeat N] [--limit N] [--top N]
    python benchmarks/frontend_speed.py --startup-only [FILE] [--against OTHER/src ...] [--startup-repeat N]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.frontend.fast.memo import clear_shared


def _best(fn: Callable[[], object], repeat: int) -> float:
    # CPU time of this process: on a shared machine, wall time mostly measures the others.
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times) * 1e3


def _ours(text: str, repeat: int) -> tuple[int, float, float, float]:
    """Ops, parse ms (process-wide tables warm, as in a compiler's later round trips),
    print ms, parse ms cold (those tables emptied before each parse)."""
    ctx = make_context()
    parse_module(ctx, text, "bench")  # dialects loaded
    t_cold = _best(lambda: (clear_shared(), parse_module(ctx, text, "bench")), repeat)
    parsed = parse_module(ctx, text, "bench")
    n_ops = sum(1 for _ in parsed.module.walk())
    t_parse = _best(lambda: parse_module(ctx, text, "bench"), repeat)
    t_print = _best(lambda: print_module(parsed.module, parsed.spelling, debuginfo=True), repeat)
    TRUSTED.append(_best(lambda: parse_module(ctx, text, "bench", verify=False), repeat) / n_ops * 1e3)
    return n_ops, t_parse, t_print, t_cold


TRUSTED: list[float] = []  # us/op of each parse without verification (verify=False: triton's own print)


def _triton(text: str, repeat: int) -> float | None:
    try:
        from xpu_passes.integration import oracle
    except ImportError:
        return None
    if not oracle.available():
        return None
    return _best(lambda: oracle.parse_verify(text), repeat)


# (each tree's own command: xpu_opt() where it has one, else main())
_MAIN = "from xpu_passes.driver import cli; getattr(cli, 'xpu_opt', cli.main)()"


def startup(repeat: int, first: Path | None = None, against: Sequence[Path] = ()) -> dict[str, float]:
    """Median CPU time (user+sys, s) of `xpu-opt` on an empty module, with --list-passes and
    on `first` (a real module: what lazy loading saved must not come back there).

    `against`: other source trees (their `src` directories), run interleaved with this one by
    the same Python (`python -c 'xpu-opt main'` with PYTHONPATH set, this tree's too), so two
    trees compare on one machine under the same load. Children run with bytecode caches
    (PYTHONDONTWRITEBYTECODE dropped): an installed package starts so."""
    exe = shutil.which("xpu-opt") or str(Path(sys.executable).with_name("xpu-opt"))
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("module {\n}\n")
    inputs = {"empty module": [f.name], "--list-passes": ["--list-passes"]}
    if first is not None:
        inputs[f"{first.name} ({first.parent.name})"] = [str(first)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs: dict[str, tuple[list[str], dict[str, str]]] = {"python -c pass": ([sys.executable, "-c", "pass"], env)}
    if against:
        here = Path(__file__).resolve().parents[1] / "src"
        for tree in (here, *against):
            tree_env = env | {"PYTHONPATH": str(tree)}
            for name, args in inputs.items():
                runs[f"{name} [{tree}]"] = ([sys.executable, "-c", _MAIN, *args], tree_env)
    else:
        for name, args in inputs.items():
            runs[name] = ([exe, *args], env)
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeat):  # interleaved
        for name, (cmd, cmd_env) in runs.items():
            # (getrusage: microseconds; os.times counts 10 ms clock ticks)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=cmd_env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    Path(f.name).unlink()
    return {k: statistics.median(v) for k, v in times.items()}


def parse_stages(texts: list[str], repeat: int) -> dict[str, float]:
    """Where a parse's CPU time goes, us/op over `texts` (the tables warm, a new context
    per parse as in a round trip): dialect spellings, location aliases (cut out, then
    read), the parser, the collection Python defers while parsing, verification."""
    import gc

    from xpu_passes.frontend import parser as P
    from xpu_passes.frontend.diagnostics import SourceMap
    from xpu_passes.frontend.locations import extract_loc_defs
    from xpu_passes.frontend.spelling import normalize

    names = ("spelling", "loc aliases", "parser", "deferred gc", "verify")
    best = dict.fromkeys(names, float("inf"))
    n_ops = sum(sum(1 for _ in parse_module(make_context(), t, "bench").module.walk()) for t in texts)
    for _ in range(repeat):
        spent = dict.fromkeys(names, 0.0)
        for text in texts:
            ctx = make_context()
            t0 = time.process_time()
            normalized, columns, spelling = normalize(text)
            t1 = time.process_time()
            body, defs = extract_loc_defs(normalized)
            p = P._TrackingParser(ctx, body, "bench")
            gc.disable()
            P._parse_loc_defs(ctx, normalized, "bench", defs, p)
            t2 = time.process_time()
            module = p.parse_module()
            t3 = time.process_time()
            gc.enable()
            [[] for _ in range(4)]  # (the first allocations after enabling run the collection)
            t4 = time.process_time()
            parsed = P.ParsedModule(module, spelling, SourceMap("bench", text, columns, 0), p.op_offsets)
            P.verify_module(parsed, dominance=bool(p.first_use) or p.multi_block, isolated=p.isolated)
            t5 = time.process_time()
            for name, dt in zip(names, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                spent[name] += dt
        best = {k: min(best[k], spent[k]) for k in names}
    return {k: v / n_ops * 1e6 for k, v in best.items()}


def print_stages(texts: list[str], repeat: int) -> dict[str, float]:
    """Where a print's CPU time goes, us/op over `texts` (each module printed once before,
    as the benchmark's print is: the tables warm): SSA numbering, the ops (templates,
    locations and aliases visited), alias definitions and their numbers (finish), old
    dialect spellings put back. The steps of printer._print, timed apart."""
    import gc

    from xpu_passes.frontend.fast import printer as fastprint
    from xpu_passes.frontend import printer as PR
    from xpu_passes.frontend.asm_names import ssa_name_ids
    from xpu_passes.frontend.spelling import Spelling, denormalize

    names = ("numbering", "ops", "finish", "spelling")
    best = dict.fromkeys(names, float("inf"))
    ctx = make_context()
    modules = [parse_module(ctx, t, "bench") for t in texts]
    n_ops = sum(sum(1 for _ in p.module.walk()) for p in modules)
    spelling = Spelling.choose("triton-3.3")
    for p in modules:
        print_module(p.module, p.spelling, debuginfo=True)
    for _ in range(repeat):
        spent = dict.fromkeys(names, 0.0)
        for p in modules:
            body = io.StringIO()
            printer = PR.TTGIRPrinter(renames={c: n for c, n in (p.spelling or spelling).names.items() if c != n},
                                      stream=body, print_debuginfo=True)
            printer._reuse = True
            fastprint.begin()
            mode = tuple(sorted(printer.renames.items()))
            printer._templates = fastprint.table(("ops", False, True, mode))
            printer._attr_texts = fastprint.table(("attributes", True, mode))
            printer._definitions = fastprint.table(("definitions", mode))
            printer._plain = fastprint.table(("plain", True, mode))
            gc.disable()
            t0 = time.process_time()
            printer._names = ssa_name_ids(p.module, False)
            t1 = time.process_time()
            printer.print_op(p.module)
            text = body.getvalue()
            t2 = time.process_time()
            text = printer.finish(text, True)
            t3 = time.process_time()
            denormalize(text, p.spelling or spelling)
            t4 = time.process_time()
            gc.enable()
            for name, dt in zip(names, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                spent[name] += dt
        best = {k: min(best[k], spent[k]) for k in names}
    return {k: v / n_ops * 1e6 for k, v in best.items()}


def first_seen(texts: list[str], repeat: int) -> tuple[float, float]:
    """Print us/op of each module and of a copy of its functions printed with it (scaled_module
    x2): the copy's ops cost what an op costs once its attributes and locations have been
    seen by the printer (their aliases defined); the rest of the module's print is what it
    pays for being a module (setup, headers, alias definitions) and for first visits.
    Medians over `texts`: (whole print, the copy's marginal cost)."""
    ctx = make_context()
    whole, marginal = [], []
    for text in texts:
        one = parse_module(ctx, text, "bench")
        two = parse_module(ctx, scaled_module(text, 2), "bench")
        n = sum(1 for _ in one.module.walk())
        n2 = sum(1 for _ in two.module.walk())
        t1 = _best(lambda: print_module(one.module, one.spelling, debuginfo=True), repeat)
        t2 = _best(lambda: print_module(two.module, two.spelling, debuginfo=True), repeat)
        whole.append(t1 / n * 1e3)
        marginal.append((t2 - t1) / (n2 - n) * 1e3)
    return statistics.median(whole), statistics.median(marginal)


def profile(text: str, top: int, print_only: bool = False) -> str:
    """cProfile of parse+print (3 round trips), the `top` entries by own time; with
    `print_only`, of printing the module 3 times (once before, to fill the tables)."""
    ctx = make_context()
    parsed = parse_module(ctx, text, "bench")
    print_module(parsed.module, parsed.spelling, debuginfo=True)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(3):
        if not print_only:
            parsed = parse_module(ctx, text, "bench")
        print_module(parsed.module, parsed.spelling, debuginfo=True)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    lines = out.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    return "\n".join(line.replace(str(Path(sys.prefix)), "<venv>") for line in lines[start:] if line.strip())


def scaled_module(text: str, factor: int) -> str:
    """The module's functions `factor` times, renamed apart; aliases kept once."""
    body_start = text.index("module")
    head, rest = text[:body_start], text[body_start:]
    open_brace = rest.index("{\n") + 2
    close = rest.rindex("\n}")
    header, funcs, footer = rest[:open_brace], rest[open_brace:close], rest[close:]
    names = set(re.findall(r'tt\.func (?:public |private )?@("[^"]*"|[\w$.]+)', funcs))
    copies = []
    for i in range(factor):
        copy = funcs
        for n in names:
            new = f'{n[:-1]}_{i}"' if n.startswith('"') else f"{n}_{i}"
            copy = re.sub(rf"@{re.escape(n)}(?![\w$.])", f"@{new}", copy)
        copies.append(copy)
    return head + header + "\n".join(copies) + footer


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--dir", type=Path, help="directory of dumps (default: build the corpus)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="at most this many dumps")
    ap.add_argument("--top", type=int, default=15, help="profile entries to print")
    ap.add_argument("--startup-repeat", type=int, default=7)
    ap.add_argument("--startup-only", action="store_true", help="only xpu-opt's start-up (on FILES[0] if given)")
    ap.add_argument("--against", type=Path, action="append", default=[],
                    help="another tree's src directory: start-up of both, interleaved (repeatable)")
    args = ap.parse_args()
    if args.startup_only:
        s = startup(args.startup_repeat, args.files[0] if args.files else None, args.against)
        print("xpu-opt start-up (median CPU time):\n" + "\n".join(f"  {k}: {v:.3f} s" for k, v in s.items()))
        return 0
    files = list(args.files)
    if args.dir:
        files += sorted(p for p in args.dir.rglob("*") if p.suffix in (".mlir", ".ttir", ".ttgir"))
    if not files:
        from xpu_passes.corpus import corpus_dump_files

        files = corpus_dump_files()
    if args.limit:
        files = files[: args.limit]
    rows = []
    print(f"{'dump':58} {'ops':>6} {'parse ms':>9} {'print ms':>9} {'cold ms':>8} {'triton ms':>10} {'ratio':>6}")
    for path in files:
        text = path.read_text()
        n, tp, tpr, tc = _ours(text, args.repeat)
        tt = _triton(text, args.repeat)
        ratio = (tp + tpr) / tt if tt else float("nan")
        rows.append((path, n, tp, tpr, tt, ratio, tc))
        name = str(path)[-58:]
        print(f"{name:58} {n:6d} {tp:9.2f} {tpr:9.2f} {tc:8.2f} {tt or float('nan'):10.2f} {ratio:6.1f}")
    if not rows:
        return 1
    biggest = max(rows, key=lambda r: r[1])[0]
    big = scaled_module(biggest.read_text(), 50)
    n, tp, tpr, tc = _ours(big, 1)
    tt = _triton(big, 1)
    print(f"\n50x {biggest.name}: {n} ops; xpu-passes parse {tp:.0f} ms + print {tpr:.0f} ms"
          f" ({(tp + tpr) / n * 1e3:.0f} us/op); triton {tt or float('nan'):.0f} ms;"
          f" ratio {(tp + tpr) / tt if tt else float('nan'):.1f}x")
    ratios = [r[5] for r in rows if r[4]]
    if ratios:
        print(f"median ratio over {len(ratios)} dumps: {statistics.median(ratios):.1f}x slower than triton-xpu")
    per_op_parse = statistics.median(r[2] / r[1] * 1e3 for r in rows)
    per_op_print = statistics.median(r[3] / r[1] * 1e3 for r in rows)
    per_op_cold = statistics.median(r[6] / r[1] * 1e3 for r in rows)
    print(f"median over {len(rows)} dumps: parse {per_op_parse:.0f} us/op, print {per_op_print:.0f} us/op"
          f" (goals: 100, 30); parse cold {per_op_cold:.0f} us/op; 50x module: parse {tp / n * 1e3:.0f} us/op,"
          f" print {tpr / n * 1e3:.0f} us/op, parse cold {tc / n * 1e3:.0f} us/op")
    print(f"parse without verification (verify=False, for triton's own print): {statistics.median(TRUSTED[:len(rows)]):.0f}"
          " us/op median over the dumps")
    stages = parse_stages([r[0].read_text() for r in rows], 1 if len(rows) > 100 else args.repeat)
    print("parse, where the time goes (us/op, all dumps): " + ", ".join(f"{k} {v:.0f}" for k, v in stages.items()))
    stages = print_stages([r[0].read_text() for r in rows], 1 if len(rows) > 100 else args.repeat)
    print("print, where the time goes (us/op, all dumps, gc paused as print_module does): "
          + ", ".join(f"{k} {v:.1f}" for k, v in stages.items()))
    whole, marginal = first_seen([r[0].read_text() for r in rows[:: max(1, len(rows) // 40)]], args.repeat)
    print(f"print of a module {whole:.1f} us/op, of a copy of its functions printed with it {marginal:.1f} us/op"
          " (medians: the difference is the module's setup, headers and first visits of its attributes and locations)")
    by_size = sorted(rows, key=lambda r: r[1])
    s = startup(args.startup_repeat, by_size[len(by_size) // 2][0], args.against)
    print("xpu-opt start-up (median CPU time): " + ", ".join(f"{k} {v:.3f} s" for k, v in s.items()) + " (goal: 0.3 s)")
    print(f"\nprofile of parse+print of {biggest} (top {args.top} by own time):")
    print(profile(biggest.read_text(), args.top))
    print(f"\nprofile of printing {biggest} (top {args.top} by own time):")
    print(profile(biggest.read_text(), args.top, print_only=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
