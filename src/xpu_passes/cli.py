"""`xpu-opt`: a triton-opt-style driver for xpu-passes, built on xDSL's opt main."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from xdsl.context import Context
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from xpu_passes import __version__
from xpu_passes.dialects import register_dialects
from xpu_passes.frontend import (
    ParsedModule,
    Spelling,
    TTGIRError,
    parse_module,
    print_module,
    verify_module,
)
from xpu_passes.transforms import CATALOG, REMARKS, PassError, lazy_factories

_SPLIT = re.compile(r"^// -----.*$\n?", re.MULTILINE)
_SUMMARIES: dict[str, str] = dict(CATALOG.values())


def _mlir_target() -> Any:
    from xdsl.targets.mlir import MLIRTarget

    return MLIRTarget


class _PassFlag(argparse.Action):
    """`--<pass>` or `--<pass>=<opts>`: appended in command-line order."""

    def __call__(
        self, parser: argparse.ArgumentParser, ns: argparse.Namespace, value: Any, opt: str | None = None
    ) -> None:
        order: list[str] = list(getattr(ns, "pass_flags", None) or [])
        order.append(self.dest_pass if value is None else f"{self.dest_pass}{{{value}}}")
        ns.pass_flags = order

    def __init__(self, *args: Any, pass_name: str, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.dest_pass = pass_name


class XpuOptMain(xDSLOptMain):
    version_format = "xpu-opt " + __version__ + " (xdsl {xdsl_version})"

    # Start-up: dialects, passes and targets are registered without importing them.
    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_passes(self) -> None:
        for name, factory in lazy_factories().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        # Only `-t mlir` (the default) is meaningful: run() prints the module itself.
        self.available_targets["mlir"] = _mlir_target

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--pass-pipeline",
            default="",
            help="MLIR-style pipeline, e.g. 'builtin.module(pass-a,pass-b{opt=1})'",
        )
        arg_parser.add_argument("--list-passes", action="store_true", help="list passes and exit")
        arg_parser.add_argument(
            "--mlir-print-debuginfo", action="store_true", help="print locations (like --print-debuginfo)"
        )
        arg_parser.add_argument(
            "--mlir-print-local-scope", action="store_true", help="print attributes and locations inline"
        )
        arg_parser.add_argument(
            "--spelling",
            choices=["input", "new", "old", "triton-3.3"],
            default="input",
            help="dialect names to print: as in the input (default), ttg/ttig, "
            "triton_gpu/triton_intel_gpu, or what triton-xpu 3.3 reads",
        )
        arg_parser.add_argument(
            "--remarks", action="store_true", help="print why passes left IR alone"
        )
        arg_parser.add_argument(
            "--xpu-pipeline",
            nargs="?",
            const="",
            default=None,
            metavar="OPTIONS",
            help="run triton-xpu's TTIR->TTGIR stage with our passes on a TTIR file (needs [triton]); "
            "options: 'num-warps=N num-stages=N pipeline=xpu|native rewrite-tensor-pointer=true'",
        )
        arg_parser.add_argument(
            "--verify-semantics",
            nargs="?",
            const="",
            default=None,
            metavar="ARGS",
            help="after the passes, run the kernel before and after them with our NumPy interpreter on the "
            "same random inputs and fail with the first differing output element. ARGS: comma-separated "
            "NAME=VALUE for scalar arguments (argN, or the Python names when the kernel's source is at its "
            "location; unnamed ints are 40, floats 0.5), for a pointer argument its buffer's element count "
            "(default 16384), and grid=X[xYxZ] (default 1), seed=, rtol=, atol= (default: bitwise equal), "
            "func=; e.g. --verify-semantics='M=48,N=40,K=32,stride_am=32,grid=2x2'",
        )
        for name in self.available_passes:
            arg_parser.add_argument(
                f"--{name}",
                nargs="?",
                action=_PassFlag,
                pass_name=name,
                dest="pass_flags",
                metavar="OPTIONS",
                help=_SUMMARIES.get(name, "").replace("%", "%%"),
            )

    def setup_pipeline(self) -> None:
        specs = [s for s in (self.args.passes, _strip_anchor(self.args.pass_pipeline)) if s]
        specs += list(getattr(self.args, "pass_flags", None) or [])
        self.pipeline = PassPipeline.parse_spec(self.available_passes, ",".join(specs))

    def run(self) -> None:  # type: ignore[override]
        """Parse, run passes, print; one diagnostic per failing chunk, exit 1 on any."""
        if self.args.list_passes:
            for name in sorted(self.available_passes):
                print(f"  --{name:48} {_SUMMARIES.get(name, '')}")
            return
        name = self.args.input_file or "<stdin>"
        text = _read_input(self.args.input_file)
        chunks = _split(text) if self.args.split_input_file else [(text, 0)]
        outputs: list[str] = []
        failed = False
        REMARKS.enabled = self.args.remarks
        for chunk, line_offset in chunks:
            try:
                outputs.append(self._process(chunk, name, line_offset))
            except TTGIRError as e:
                failed = True
                print(e, file=sys.stderr)
        out = "// -----\n".join(outputs)
        if self.args.output_file:
            with open(self.args.output_file, "w") as f:
                f.write(out)
        else:
            sys.stdout.write(out)
        if failed:
            raise SystemExit(1)

    def _process(self, text: str, name: str, line_offset: int) -> str:
        if self.args.xpu_pipeline is not None:
            text = _run_xpu_pipeline(text, self.args.xpu_pipeline)
        parsed = parse_module(self.ctx, text, name, line_offset, verify=not self.args.disable_verify)
        module = parsed.module
        before = module.clone() if self.args.verify_semantics is not None else None
        # Errors in the `before` run name ops of the clone: map them back to the input.
        origin = dict(zip(before.walk(), module.walk())) if before is not None else {}
        try:
            for p in self.pipeline.passes:
                _apply(p, self.ctx, parsed)
        finally:
            _print_remarks(parsed)
        if not self.args.disable_verify and self.pipeline.passes:
            try:
                verify_module(parsed)
            except TTGIRError as e:
                e.message = f"IR invalid after passes: {e.message}"
                raise
        if before is not None:
            _verify_semantics(before, parsed, self.args.verify_semantics, origin)
        return print_module(
            module,
            Spelling.choose(self.args.spelling, parsed.spelling),
            debuginfo=self.args.mlir_print_debuginfo or self.args.print_debuginfo,
            local_scope=self.args.mlir_print_local_scope,
            generic=self.args.print_op_generic,
        )


def _apply(p: ModulePass, ctx: Context, parsed: ParsedModule) -> None:
    """Run one pass; any failure becomes a located diagnostic naming the pass."""
    try:
        p.apply(ctx, parsed.module)
    except PassError as e:
        raise parsed.error_at(e.op, f"[{p.name}] {e.message}") from None
    except DiagnosticException as e:
        raise parsed.error_at(parsed.module, f"[{p.name}] {e}") from None
    except Exception as e:
        if os.environ.get("XPU_OPT_TRACEBACK"):
            raise
        raise parsed.error_at(
            parsed.module, f"[{p.name}] internal error: {type(e).__name__}: {e}"
        ) from None


def _verify_semantics(before: Any, parsed: ParsedModule, spec: str, origin: dict[Any, Any]) -> None:
    """--verify-semantics: interpret before/after on the same random inputs; error at the first difference."""
    from xpu_passes.interp.validate import validate_spec

    r = validate_spec(before, parsed.module, spec)
    func = next((op for op in parsed.module.walk() if op.name == "tt.func"), parsed.module)
    if not r.ok:
        op = origin.get(r.error_op, r.error_op) or func
        raise parsed.error_at(op, f"--verify-semantics: {r}")
    line, col = parsed.where(func) or (1, 1)
    print(f"{parsed.source.name}:{line}:{col}: remark: [verify-semantics] {r}", file=sys.stderr)


def _run_xpu_pipeline(text: str, spec: str) -> str:
    """TTIR in, TTGIR out, through triton-xpu's make_ttgir with our passes in it.

    `spec`: `num-warps=N num-stages=N pipeline=xpu|native` and every option of
    `pipeline.plan` in kebab case (`rewrite-tensor-pointer=true`, `rlc=all`, ...).
    """
    from xpu_passes import oracle
    from xpu_passes.pipeline import PassFailure, PipelineError, option_defaults, run_ttgir

    opts = dict(kv.split("=", 1) for kv in spec.replace(",", " ").split() if "=" in kv)
    params = {p.replace("_", "-"): default for p, default in option_defaults().items()}
    unknown = set(opts) - {"num-warps", "num-stages", "pipeline", *params}
    if unknown:
        raise ValueError(f"unknown --xpu-pipeline options: {', '.join(sorted(unknown))} "
                         f"(choose from num-warps, num-stages, pipeline, {', '.join(params)})")
    chosen = {k.replace("-", "_"): (v == "true" if isinstance(params[k], bool) else v)
              for k, v in opts.items() if k in params}
    backend = oracle.pvc_backend()
    options = backend.parse_options(
        {"num_warps": int(opts.get("num-warps", 4)), "num_stages": int(opts.get("num-stages", 3)), "grf_mode": "large"}
    )
    try:
        mod = oracle.parse(text)
        mod = run_ttgir(mod, {}, options, backend.properties, opts.get("pipeline", "xpu"), **chosen)
    except (oracle.OracleError, PassFailure, PipelineError) as e:
        raise ValueError(f"--xpu-pipeline: {e}") from None
    return str(mod)


def _print_remarks(parsed: ParsedModule) -> None:
    for r in REMARKS.drain():
        where = parsed.where(r.op)
        line, col = where if where is not None else (parsed.source.line_offset + 1, 1)
        print(f"{parsed.source.name}:{line}:{col}: remark: [{r.pass_name}] {r.message}", file=sys.stderr)


def _strip_anchor(spec: str) -> str:
    """`builtin.module(a,b)` (MLIR) -> `a,b` (xDSL); nested anchors are not ours."""
    spec = spec.strip()
    m = re.fullmatch(r"(?:builtin\.module|any)\((.*)\)", spec, re.DOTALL)
    return m.group(1).strip() if m else spec


def _read_input(path: str | None) -> str:
    if path is None or path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _split(text: str) -> list[tuple[str, int]]:
    chunks: list[tuple[str, int]] = []
    line = 0
    pos = 0
    for m in _SPLIT.finditer(text):
        chunks.append((text[pos : m.start()], line))
        line += text.count("\n", pos, m.end())
        pos = m.end()
    chunks.append((text[pos:], line))
    return chunks


def main(argv: Sequence[str] | None = None) -> None:
    try:
        XpuOptMain(args=argv).run()
    except TTGIRError as e:
        print(e, file=sys.stderr)
        raise SystemExit(1) from None
    except (OSError, UnicodeDecodeError) as e:
        print(f"xpu-opt: error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    except ValueError as e:  # bad pass pipeline and the like
        print(f"xpu-opt: error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    except Exception as e:  # never a traceback for users; XPU_OPT_TRACEBACK=1 to debug
        if os.environ.get("XPU_OPT_TRACEBACK"):
            raise
        print(f"xpu-opt: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
