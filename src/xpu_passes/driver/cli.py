"""`xpu-opt`: triton-opt's command line over our passes, triton-xpu's native passes and installed ones.

MLIR's option syntax (one dash or two for every long option, `-pass=opt=v`, `-pass="a=1 b=2"`,
`-pass-pipeline='builtin.module(p{opt=v})'`), `-split-input-file`, `-verify-diagnostics`.
Consecutive native passes run in one triton-xpu pass manager (see cli_native), Python passes
on our xDSL front end; the module crosses between them as text.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from xpu_passes import __version__, registry
from xpu_passes.registry import PassSpec, PipelineError

_SPLIT = re.compile(r"^// -----.*$\n?", re.MULTILINE)
_SHORT_WITH_VALUE = ("-o", "-p")  # may be written with the value attached: -o%t
_IGNORED = ("--mlir-disable-threading", "--mlir-pretty-debuginfo")

SPELLINGS = ["input", "new", "old", "triton-3.3"]


class UsageError(Exception):
    """A bad command line: one line, exit 1."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="xpu-opt",
        description="triton-opt for xpu-passes: run our passes, triton-xpu's and installed ones on TTIR/TTGIR. "
        "Every long option takes one dash or two; a pass runs as -<pass>[=OPTS] (xpu-opt --list-passes).",
        allow_abbrev=False,
    )
    a = p.add_argument
    a("input_file", nargs="?", default="-", help="input file (default: stdin)")
    a("-o", "--output-file", default=None, metavar="FILE", help="output file (default: stdout)")
    a("--split-input-file", action="store_true", help="process '// -----'-separated chunks independently")
    a("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    a("--pass-pipeline", default="", metavar="PIPELINE", help="e.g. 'builtin.module(canonicalize,p{opt=1})'")
    a("-p", "--passes", default="", metavar="PASSES", help="comma-separated passes, as in xdsl-opt")
    a("--list-passes", action="store_true", help="list every pass (ours, native, installed) and exit")
    a("--mlir-print-debuginfo", "--print-debuginfo", action="store_true", dest="debuginfo", help="print locations")
    a("--mlir-print-local-scope", action="store_true", help="print attributes and locations inline")
    a("--mlir-print-op-generic", "--print-op-generic", action="store_true", dest="generic", help="generic op form")
    a("--verify-diagnostics", action="store_true", help="check diagnostics against expected-* annotations")
    a("--disable-verify", action="store_true", help="do not verify the IR after parsing and after passes")
    a("--verify-each", default="true", metavar="BOOL", help="--verify-each=false: as --disable-verify")
    for flag in _IGNORED:
        a(flag, action="store_true", help=argparse.SUPPRESS)
    a("--spelling", choices=SPELLINGS, default="input",
      help="dialect names to print: as in the input, ttg/ttig, triton_gpu/triton_intel_gpu, or triton-xpu 3.3's")
    a("--remarks", action="store_true", help="print why passes left IR alone")
    a("--xpu-pipeline", nargs="?", const="", default=None, metavar="OPTIONS",
      help="run triton-xpu's TTIR->TTGIR stage with our passes on a TTIR file (needs [triton]); options: "
      "'num-warps=N num-stages=N pipeline=xpu|native rewrite-tensor-pointer=true ...'")
    a("--verify-semantics", nargs="?", const="", default=None, metavar="ARGS",
      help="run the kernel before and after the passes in our NumPy interpreter on the same random inputs and "
      "fail at the first differing element. ARGS: NAME=VALUE for scalar arguments, a pointer argument's element "
      "count, grid=X[xYxZ], seed=, rtol=, atol=, func=; e.g. 'M=48,N=40,K=32,grid=2x2'")
    a("--version", action="version", version=f"xpu-opt {__version__}")
    return p


def _long_options(parser: argparse.ArgumentParser) -> set[str]:
    return {o[2:] for o in parser._option_string_actions if o.startswith("--")}


class _PassNames:
    """Every pass flag; installed passes' entry points are scanned (~0.1 s) only for a name not ours or native."""

    def __init__(self) -> None:
        self._cheap = set(registry.OURS) | {row.name for row in registry.NATIVE_TABLE}
        self._all: set[str] | None = None

    def __contains__(self, name: object) -> bool:
        return name in self._cheap or name in self.all()

    def all(self) -> set[str]:
        if self._all is None:
            self._all = set(registry.all_names())
        return self._all


def split_argv(argv: Sequence[str], parser: argparse.ArgumentParser) -> tuple[list[str], list[PassSpec]]:
    """MLIR's command line -> (argparse's argv, pass flags in order); unknown options are UsageErrors."""
    longs = _long_options(parser)
    names = _PassNames()
    rest: list[str] = []
    flags: list[PassSpec] = []
    takes_value = {o[2:] for o, act in parser._option_string_actions.items() if o.startswith("--") and act.nargs is None
                   and not isinstance(act, (argparse._StoreTrueAction, argparse._VersionAction, argparse._HelpAction))}
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            rest += args[i - 1 :]
            break
        if not arg.startswith("-") or arg == "-" or arg in ("-h", *_SHORT_WITH_VALUE):
            rest.append(arg)
            if arg in _SHORT_WITH_VALUE and i < len(args):
                rest.append(args[i])
                i += 1
            continue
        if not arg.startswith("--") and arg[:2] in _SHORT_WITH_VALUE and arg[2:3] != "" and arg[1:].split("=")[0] not in longs and arg[1:].split("=")[0] not in names:
            rest.append(arg)  # -o%t
            continue
        body = arg[2:] if arg.startswith("--") else arg[1:]
        name, eq, value = body.partition("=")
        if name in longs:
            rest.append("--" + body)
            if not eq and name in takes_value and i < len(args):
                rest.append(args[i])
                i += 1
        elif name in names:
            flags.append(PassSpec(name, registry.parse_options_text(name, value) if eq else {}))
        else:
            import difflib  # (only for a bad command line: not imported at start-up)

            close = difflib.get_close_matches(name, sorted(longs | names.all()), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join('-' + c for c in close)}?" if close else ""
            raise UsageError(f"unknown option or pass '{arg}'{hint}")
    return rest, flags


def resolve(specs: list[PassSpec]) -> list[tuple[str, list[PassSpec]]]:
    """Check names and options; group into segments ("python" | "native", consecutive specs)."""
    segments: list[tuple[str, list[PassSpec]]] = []
    if not specs:
        return segments
    for spec in specs:
        if registry.python_pass(registry.canonical_name(spec.name)) is not None:
            registry.make_pass(spec)  # options checked now, before any input is read
            kind = "python"
        elif registry.is_native(spec.name):
            from xpu_passes.integration import native_passes  # (a run without native passes never imports it)

            native_passes.native_options(spec)
            kind = "native"
        else:
            raise registry.UnknownPassError(registry.unknown_pass_message(spec.name, spec.column))
        if segments and segments[-1][0] == kind:
            segments[-1][1].append(spec)
        else:
            segments.append((kind, [spec]))
    registry.check_order([s.name for s in specs], complete=False)
    native = [s.name for kind, ss in segments if kind == "native" for s in ss]
    if native and importlib.util.find_spec("triton") is None:
        raise UsageError(f"native pass '{native[0]}' needs triton-xpu: pip install 'xpu-passes[triton]'")
    return segments


def list_passes(out: Any = None) -> None:
    out = out or sys.stdout
    infos = registry.list_passes()
    width = max(len(i.name) for i in infos) + 4
    for title, kind in (("Our passes", "ours"), ("Registered passes", "registered"),
                        ("Installed passes", "installed"), ("Native passes (triton-xpu)", "native")):
        group = [i for i in infos if i.kind == kind]
        if not group:
            continue
        print(f"{title}:", file=out)
        for i in group:
            extra = f"[{i.package}: {i.target}] " if kind == "installed" else ""
            options: tuple[registry.NativeOption, ...] = ()
            if kind == "native":
                row = registry.NATIVE_BY_NAME.get(i.name.removeprefix(registry.NATIVE_PREFIX))
                options = row.options if row else ()
            elif kind == "ours" and i.name not in registry.ALIASES:
                options = registry.OUR_OPTIONS.get(i.name, ())
            if options:
                extra = "{" + " ".join(f"{o.name}={_option_text(o.default)}" for o in options) + "} "
            print(f"  --{i.name:{width}} {kind}: {extra}{i.summary}".rstrip(), file=out)


def _option_text(value: Any) -> str:
    """A default as it is written on the command line (MLIR's `true`, not Python's `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def split_chunks(text: str) -> list[tuple[str, int]]:
    """`// -----` chunks and the number of lines before each."""
    chunks: list[tuple[str, int]] = []
    line = 0
    pos = 0
    for m in _SPLIT.finditer(text):
        chunks.append((text[pos : m.start()], line))
        line += text.count("\n", pos, m.end())
        pos = m.end()
    chunks.append((text[pos:], line))
    return chunks


def _read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _process(chunk: str, name: str, line_offset: int, segments: list[tuple[str, list[PassSpec]]],
             args: argparse.Namespace, diags: list[Any]) -> str:
    """One chunk. Only native passes on text triton-xpu reads: no xDSL at all (it costs a second to import)."""
    from xpu_passes.driver.native import ChunkFailed, NativeFailure, run_segment, strip_locations

    fast = (len(segments) == 1 and segments[0][0] == "native" and args.verify_semantics is None
            and args.xpu_pipeline is None and args.spelling in ("input", "triton-3.3") and not args.generic)
    if fast:
        try:
            result = run_segment(chunk, segments[0][1], name, line_offset)
        except NativeFailure as e:
            if not e.parse_failed:
                raise ChunkFailed(e.diagnostics) from None
        else:  # triton-xpu read the input: its print keeps the input's spelling
            for d in result.diagnostics:
                diags.append(d) if args.verify_diagnostics else print(d, file=sys.stderr)
            return result.text if args.debuginfo else strip_locations(result.text)
    from xpu_passes.driver.chunk import process_chunk  # xDSL is imported from here on

    return process_chunk(chunk, name, line_offset, segments, args, diags)


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    rest, flags = split_argv(argv, parser)
    args = parser.parse_args(rest)
    if args.list_passes:
        list_passes()
        return 0
    specs = [s for t in (args.passes, args.pass_pipeline) if t.strip() for s in registry.parse_pipeline(t)] + flags
    segments = resolve(specs)
    if args.verify_each.lower() in ("false", "0"):
        args.disable_verify = True
    from xpu_passes.driver.native import ChunkFailed
    from xpu_passes.driver.verify_diagnostics import Diagnostic, check

    name = args.input_file if args.input_file != "-" else "<stdin>"
    text = _read_input(args.input_file)
    chunks = split_chunks(text) if args.split_input_file else [(text, 0)]
    outputs: list[str] = []
    failed = False
    for chunk, line_offset in chunks:
        diags: list[Diagnostic] = []
        try:
            outputs.append(_process(chunk, name, line_offset, segments, args, diags))
        except ChunkFailed as e:
            diags += e.diagnostics
            failed = failed or not args.verify_diagnostics
        if args.verify_diagnostics:
            problems = check(chunk, line_offset, name, diags)
            failed = failed or bool(problems)
            diags = problems
        for d in diags:
            print(d, file=sys.stderr)
    out = "// -----\n".join(outputs)
    if args.output_file and args.output_file != "-":
        with open(args.output_file, "w", encoding="utf-8") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    try:
        code = run(argv)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`, a FileCheck that failed early)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    except (UsageError, PipelineError) as e:
        print(f"xpu-opt: error: {e}", file=sys.stderr)
        code = 1
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print(f"xpu-opt: error: {e}", file=sys.stderr)
        code = 1
    except Exception as e:  # never a traceback for users; XPU_OPT_TRACEBACK=1 to debug
        if os.environ.get("XPU_OPT_TRACEBACK"):
            raise
        print(f"xpu-opt: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        code = 1
    raise SystemExit(code)


def xpu_opt() -> None:
    """The `xpu-opt` command: main(), then the process ends without the interpreter's final
    garbage collections walking every class, function and attribute xDSL and our dialects
    defined (gc.freeze(): 50-100 ms of CPU of a 0.3-0.6 s run, as long as the imports'
    dataclass compiles). Only the dying process's collector is told; atexit handlers, stream
    flushes and finalizers run as before. In-process callers use main(), which freezes nothing."""
    try:
        main()
    finally:
        gc.freeze()


if __name__ == "__main__":
    xpu_opt()
