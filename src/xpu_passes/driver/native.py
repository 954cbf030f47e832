"""xpu-opt's native segments: consecutive triton-xpu passes run on the module's text.

A forked child parses the text with triton-xpu, runs the passes in one pass manager and
sends back triton's print, so that a native pass that aborts (C++ assertions do) ends in a
located error instead of killing xpu-opt. The text is written to a file whose lines are the
input's (chunks of `-split-input-file` are padded), so triton's diagnostics and locations
carry the input's line:col; its temporary path is replaced by the input's name.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from xpu_passes.driver.verify_diagnostics import Diagnostic
from xpu_passes.registry import PassSpec

# MLIR's default handler: `loc("file":L:C): error: message` (or `file:L:C: error: message`).
_DIAG = re.compile(
    r'^(?:loc\()?(?:"(?P<qfile>[^"]*)"|(?P<file>[^:\s]+)):(?P<line>\d+):(?P<col>\d+)\)?:\s*'
    r"(?P<kind>error|warning|remark|note):\s*(?P<msg>.*)$"
)
_UNKNOWN = re.compile(r"^(?:loc\(unknown\)|-):?\s*(?P<kind>error|warning|remark|note):\s*(?P<msg>.*)$")
_LOC_USE = re.compile(r' loc\((?:[^()"]|"(?:[^"\\]|\\.)*"|\((?:[^()"]|"(?:[^"\\]|\\.)*")*\))*\)')
_LOC_DEF = re.compile(r"^#loc\d*\s*=\s*loc\(.*\n?", re.MULTILINE)


_PARSE_FAILED = "triton-xpu could not parse the input"


class ChunkFailed(Exception):
    """One chunk of xpu-opt's input failed; its located diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics


class NativeFailure(Exception):
    def __init__(self, diagnostics: list[Diagnostic], parse_failed: bool = False) -> None:
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics
        self.parse_failed = parse_failed  # triton-xpu did not read the text (no pass ran)


@dataclass
class NativeResult:
    text: str  # triton's print, with locations (naming the input)
    diagnostics: list[Diagnostic]  # warnings and remarks of passes that succeeded


def strip_locations(text: str) -> str:
    """Triton's print without debug info, as MLIR prints it without -mlir-print-debuginfo."""
    return _LOC_USE.sub("", _LOC_DEF.sub("", text))


def parse_diagnostics(stderr: str, display: str, fallback: str) -> list[Diagnostic]:
    """MLIR diagnostics printed by triton-xpu, one Diagnostic per located line; the rest joins the last."""
    out: list[Diagnostic] = []
    for raw in stderr.splitlines():
        line = raw.rstrip()
        m = _DIAG.match(line)
        if m:
            file = m.group("qfile") or m.group("file") or display
            out.append(Diagnostic(file, int(m.group("line")), int(m.group("col")), m.group("kind"), m.group("msg")))
            continue
        u = _UNKNOWN.match(line)
        if u:
            out.append(Diagnostic(display, 0, 0, u.group("kind"), u.group("msg")))
        elif line.strip() and out and not out[-1].source_line and not line.lstrip().startswith("^"):
            out[-1].notes.append(line.strip()) if out[-1].kind != "error" else None
    if not any(d.kind == "error" for d in out):
        out.append(Diagnostic(display, 0, 0, "error", fallback))
    return out


def run_segment(
    text: str, specs: list[PassSpec], display: str, line_offset: int = 0, compile_options: dict[str, Any] | None = None
) -> NativeResult:
    """Run native `specs` on `text` in a forked child; NativeFailure with triton's located diagnostics."""
    import json  # (here: xpu-opt without native passes does not import them)
    import signal
    import tempfile

    names = ", ".join(s.name for s in specs) or "(none)"
    with tempfile.TemporaryDirectory(prefix="xpu-opt-") as tmp:
        path = os.path.join(tmp, "input.mlir")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n" * line_offset + text)
        err_path = os.path.join(tmp, "stderr")
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            os.close(rfd)
            fd = os.open(err_path, os.O_WRONLY | os.O_CREAT)
            os.dup2(fd, 2)
            try:
                payload = {"text": _child(path, specs, compile_options or {})}
            except BaseException as e:  # reported by the parent
                payload = {"error": str(e) or type(e).__name__}
            with os.fdopen(wfd, "w") as w:
                w.write(json.dumps(payload))
            os._exit(0)
        os.close(wfd)
        with os.fdopen(rfd) as r:
            data = r.read()
        _, status = os.waitpid(pid, 0)
        with open(err_path, encoding="utf-8", errors="replace") as f:
            stderr = f.read().replace(path, display)
    if os.WIFSIGNALED(status) or not data:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
        why = signal.Signals(sig).name if sig else f"exit status {os.WEXITSTATUS(status)}"
        diags = [d for d in parse_diagnostics(stderr, display, "") if d.line and "signal was caught" not in d.message]
        tail = "" if diags else " | ".join(ln.strip() for ln in stderr.strip().splitlines()[-3:])
        msg = f"native pass(es) {names} crashed ({why})" + (f": {tail}" if tail else "")
        raise NativeFailure(diags + [Diagnostic(display, 0, 0, "error", msg)])
    result = json.loads(data)
    if "error" in result:
        raise NativeFailure(parse_diagnostics(stderr, display, f"native pass(es) {names}: {result['error']}"),
                            parse_failed=result["error"] == _PARSE_FAILED)
    diags = [d for d in parse_diagnostics(stderr, display, "") if d.message]
    return NativeResult(result["text"].replace(path, display), diags)


def _child(path: str, specs: list[PassSpec], compile_options: dict[str, Any]) -> str:
    from triton._C.libtriton import intel, ir

    from xpu_passes.integration import native_passes

    ctx = ir.context()
    ir.load_dialects(ctx)
    intel.load_dialects(ctx)
    try:
        mod = ir.parse_mlir_module(path, ctx)
    except RuntimeError:
        mod = None
    if mod is None:
        raise RuntimeError(_PARSE_FAILED)
    mod.context = ctx
    if specs:
        native_passes.run_native(mod, specs, compile_options, capture=False)
    return str(mod)
