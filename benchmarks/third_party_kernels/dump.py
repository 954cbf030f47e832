"""Final TTGIRs of the captured launches, to find the rows a change of ours touches without compiling the set at the ISA.

`third_party.py --dump-ttgir DIR` writes, per kernel/config, ours' final TTGIR (the plugin's TTGIR stage,
strict, as the figures' run compiles it; an error as one line `ERROR ...`) to DIR/<hash of the row's name>.ttgir,
the row's name on the first line and file locations blanked (two checkouts print other paths). Each row
compiles in a forked process (a crash or a hang of one is that row's error). Rows already in DIR are kept:
a stopped dump goes on where it stopped. `third_party.py --changed OLD NEW` prints, as `--rows` lines,
the rows whose TTGIR differs between two such dumps (made by two trees, each on its own PYTHONPATH):
only those can have other figures, so only those need the ISA run.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
from typing import Any

from .capture import Launch
from .compile import _plan, _to_ttgir, make_ir

_LOCATION = re.compile(r'loc\("[^"]*"')
_NAME = re.compile(r"(\w+)\.(\w+)\([^)]*\)(\[.*\])$")


def file_of(name: str) -> str:
    return hashlib.sha1(name.encode()).hexdigest()[:16] + ".ttgir"


def _ttgir(launch: Launch, pipeline: str) -> str:
    try:
        mod, opts, backend = make_ir(launch)
        return str(_to_ttgir(_plan(pipeline), mod, {}, opts, backend))
    except Exception as e:  # noqa: BLE001 - the row's result
        return f"ERROR {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def _child(launch: Launch, pipeline: str, conn: Any) -> None:
    conn.send(_ttgir(launch, pipeline))
    conn.close()


def run(launches: list[Launch], pipeline: str, outdir: str, timeout: float) -> int:
    """Dumps each launch's final TTGIR to `outdir`; prints one line per row written."""
    os.makedirs(outdir, exist_ok=True)
    ctx = multiprocessing.get_context("fork")
    for launch in launches:
        path = os.path.join(outdir, file_of(launch.name))
        if os.path.exists(path):
            continue
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(launch, pipeline, send), daemon=True)
        proc.start()
        send.close()
        try:
            text = recv.recv() if recv.poll(timeout) else f"ERROR timeout after {timeout:.0f} s"
        except EOFError:
            text = "ERROR the compiling process died"
        proc.kill()
        proc.join()
        with open(path, "w") as f:
            f.write(launch.name + "\n" + _LOCATION.sub("loc(F", text))
        print(f"{launch.name[:100]:100} {'ERROR' if text.startswith('ERROR') else len(text)}", flush=True)
    return 0


def changed(old: str, new: str) -> list[str]:
    """`--rows` lines (lib, kernel, [config]) of the rows whose dump differs between directories `old` and
    `new` (rows in one only are left out: a row neither compiled is not compared), each once."""
    out: list[str] = []
    for f in sorted(os.listdir(new)):
        a, b = os.path.join(old, f), os.path.join(new, f)
        if not f.endswith(".ttgir") or not os.path.exists(a):
            continue
        with open(a) as fa, open(b) as fb:
            x, y = fa.read(), fb.read()
        m = _NAME.match(y.split("\n", 1)[0])
        if x != y and m is not None and (line := "\t".join(m.groups())) not in out:
            out.append(line)
    return out
