"""Intel's lit files run with xpu-opt in place of triton-opt, chunk by chunk.

    python benchmarks/intel_lit.py /work/.mirror/intel+intel-xpu-backend-for-triton/repo [--ref v3.3.0b1]

Reads the files from a git checkout of intel/intel-xpu-backend-for-triton (`git show`, nothing
is copied into this project): test/TritonIntelGPU/*.mlir and
test/Triton/Intel/RaiseToBlockPointers/*.mlir. Each `// -----` chunk of a file is one case,
written to a temporary file with the input's line numbers; each RUN line of the file runs on
it with `triton-opt` replaced by `xpu-opt`. Per case: the command line is ACCEPTED (xpu-opt
reported no `xpu-opt: error:` about its options, passes or pipeline), the output FILECHECKS,
and why not (the first diagnostic). Per file and in total; `--csv` writes the cases.
"""

from __future__ import annotations

import argparse
import collections
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

DIRS = ("test/TritonIntelGPU", "test/Triton/Intel/RaiseToBlockPointers")
_SPLIT = re.compile(r"^// -----.*$\n?", re.MULTILINE)
_RUN = re.compile(r"^\s*//\s*RUN:(.*)$")


@dataclass
class Case:
    file: str
    chunk: int
    run: int
    accepted: bool
    checked: bool
    why: str


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, *args], capture_output=True, text=True, check=True).stdout


def run_lines(text: str) -> list[str]:
    """RUN lines, continuations (trailing backslash) joined."""
    out: list[str] = []
    cur = ""
    for line in text.splitlines():
        m = _RUN.match(line)
        if not m:
            continue
        part = m.group(1).strip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        out.append(cur + part)
        cur = ""
    return out


def chunks(text: str) -> list[tuple[str, int]]:
    out, line, pos = [], 0, 0
    for m in _SPLIT.finditer(text):
        out.append((text[pos : m.start()], line))
        line += text.count("\n", pos, m.end())
        pos = m.end()
    out.append((text[pos:], line))
    return out


# lit's FileCheck: the `filecheck` package plus LLVM's --implicit-check-not (our one wrapper of it).
FILECHECK = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'tests' / 'lit' / 'filecheck_wrapper.py'}"


def command(run: str, path: str, xpu_opt: str, filecheck: str) -> str:
    """The shell command of one RUN line."""
    cmd = re.sub(r"\btriton-opt\b", xpu_opt, run)
    cmd = re.sub(r"\bFileCheck\b", filecheck, cmd)
    return cmd.replace("%s", path).replace("%t", path + ".tmp")


def first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()[:160]
    return stderr.strip().splitlines()[0][:160] if stderr.strip() else ""


def run_case(cmd: str, timeout: float) -> tuple[bool, bool, str]:
    """(accepted, filechecks, why) for one shell pipeline."""
    script = "set -o pipefail\nnot() { ! \"$@\"; }\n" + cmd
    try:
        p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return True, False, f"timeout after {timeout:.0f}s"
    usage = [ln for ln in p.stderr.splitlines() if ln.startswith("xpu-opt: error:")]
    if usage:
        return False, False, usage[0].removeprefix("xpu-opt: error: ")[:160]
    if p.returncode == 0:
        return True, True, ""
    if "No check strings found" in p.stderr:
        return True, False, "no CHECK lines in this chunk"
    ours = [ln for ln in p.stderr.splitlines() if re.match(r"\S+:\d+:\d+: error:", ln)]
    if ours and "Couldn't match" not in ours[0] and "Could not find" not in ours[0]:
        return True, False, "xpu-opt: " + first_error(ours[0])
    return True, False, "FileCheck: " + first_error(p.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", help="git dir of intel/intel-xpu-backend-for-triton (the fetch tool's /work/.mirror/...)")
    ap.add_argument("--ref", default="v3.3.0b1", help="tag or commit (default: v3.3.0b1, the 3.3 era)")
    ap.add_argument("--filter", default="", help="only files whose path contains this")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--csv", default="", help="write one row per case here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = ap.parse_args()
    bindir = os.path.dirname(sys.executable)
    xpu_opt = shutil.which("xpu-opt", path=bindir) or "xpu-opt"
    files = [f for f in git(args.repo, "ls-tree", "-r", "--name-only", args.ref, *DIRS).split()
             if f.endswith(".mlir") and args.filter in f]
    cases: list[Case] = []
    with tempfile.TemporaryDirectory(prefix="intel-lit-") as tmp:
        for f in files:
            text = git(args.repo, "show", f"{args.ref}:{f}")
            runs = run_lines(text)
            split = any("split-input-file" in r for r in runs)
            for ci, (chunk, offset) in enumerate(chunks(text) if split else [(text, 0)]):
                path = os.path.join(tmp, os.path.basename(f))
                with open(path, "w") as out:
                    out.write("\n" * offset + chunk)
                for ri, run in enumerate(runs):
                    acc, ok, why = run_case(command(run, path, xpu_opt, FILECHECK), args.timeout)
                    cases.append(Case(f, ci, ri, acc, ok, why))
                    if args.verbose:
                        print(f"{f}#{ci} RUN{ri}: {'accepted' if acc else 'REJECTED'} "
                              f"{'filechecks' if ok else 'fails'} {why}", flush=True)
    report(cases)
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["file", "chunk", "run", "accepted", "filechecks", "why"])
            for c in cases:
                w.writerow([c.file, c.chunk, c.run, c.accepted, c.checked, c.why])
    return 0 if all(c.accepted for c in cases) else 1


def report(cases: list[Case]) -> None:
    by_file: dict[str, list[Case]] = collections.defaultdict(list)
    for c in cases:
        by_file[c.file].append(c)
    print(f"{'file':60} {'cases':>5} {'accepted':>8} {'checks':>6}  why not (most frequent)")
    for f, cs in by_file.items():
        whys = collections.Counter(c.why for c in cs if not c.checked)
        top = f"{whys.most_common(1)[0][0]} (x{whys.most_common(1)[0][1]})" if whys else ""
        print(f"{f.split('test/', 1)[1]:60} {len(cs):5} {sum(c.accepted for c in cs):8} "
              f"{sum(c.checked for c in cs):6}  {top}")
    n = len(cases)
    print(f"\ntotal: {n} cases (chunk x RUN line), command accepted {sum(c.accepted for c in cases)}, "
          f"FileCheck passes {sum(c.checked for c in cases)}")
    rejected = collections.Counter(c.why for c in cases if not c.accepted)
    for why, k in rejected.most_common():
        print(f"  rejected x{k}: {why}")


if __name__ == "__main__":
    raise SystemExit(main())
