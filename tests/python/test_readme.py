"""The README's examples, as a user pastes them: its shell session prints what it shows, its
Python blocks run, and no shell command continues a line inside quotes (a pasted
`'...,\\` + newline puts the backslash and the newline into the argument)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xpu_passes.integration import oracle

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```$", README, re.M | re.S)


def _commands(kind: str, body: str) -> list[tuple[str, list[str]]]:
    """(command with its continuation lines, output lines shown after it)."""
    out: list[tuple[str, list[str]]] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if kind == "console" and not line.startswith("$ "):
            if out:
                out[-1][1].append(line)
            continue
        command = line.removeprefix("$ ")
        while command.endswith("\\") and i < len(lines):
            command += "\n" + lines[i]
            i += 1
        out.append((command, []))
    return out


def _continued_inside_quotes(command: str) -> bool:
    quote = ""
    for i, c in enumerate(command):
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and command[i + 1 : i + 2] == "\n":
                return True
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1].isspace()):
            command_end = command.find("\n", i)
            if command_end < 0:
                return False
            return _continued_inside_quotes(command[command_end:])
    return False


SHELL = [(kind, c) for kind, body in BLOCKS if kind in ("sh", "console") for c in _commands(kind, body)]
SESSION = [c for kind, c in SHELL if kind == "console"]
PYTHON = [body for kind, body in BLOCKS if kind == "python"]


def test_the_readme_has_what_these_tests_read() -> None:
    assert len(SESSION) >= 3 and len(PYTHON) >= 2 and any(kind == "sh" for kind, _ in SHELL)


@pytest.mark.parametrize("command", [c for _, (c, _) in SHELL], ids=lambda c: c.split("\n")[0][:60])
def test_no_line_is_continued_inside_quotes(command: str) -> None:
    assert not _continued_inside_quotes(command), command


def test_the_quote_check_finds_the_pasting_bug() -> None:
    """Negative case: the form that failed when pasted."""
    assert _continued_inside_quotes("xpu-opt k -verify-semantics='arg0=1,\\\n    arg1=2'")
    assert not _continued_inside_quotes("xpu-opt k \\\n    -verify-semantics='arg0=1,arg1=2'  # it's fine")


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, TMPDIR=str(tmp_path), TRITON_CACHE_DIR=str(tmp_path / "triton"))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


@pytest.mark.parametrize(("command", "shown"), SESSION, ids=lambda c: c.split("\n")[0][:60] if isinstance(c, str) else "")
def test_the_session_prints_what_it_shows(command: str, shown: list[str], tmp_path: Path) -> None:
    # xpu-opt's exit status, not grep's (`grep -c` of nothing found is 1)
    r = subprocess.run(["bash", "-c", command + "\nexit ${PIPESTATUS[0]}"], cwd=ROOT, env=_env(tmp_path),
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    printed = (r.stdout + r.stderr).splitlines()
    for line in shown:
        assert line in printed, (line, printed[-20:])


@pytest.mark.parametrize("code", PYTHON, ids=lambda c: c.split("\n")[0][:60])
def test_the_python_examples_run(code: str, tmp_path: Path) -> None:
    if "triton" in code and not oracle.available():
        pytest.skip("needs triton-xpu")
    script = tmp_path / "example.py"  # a file: triton.jit reads its kernels' source
    script.write_text(code)
    r = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
