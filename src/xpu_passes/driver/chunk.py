"""One chunk of xpu-opt's input through its pass segments: Python passes on xDSL, native ones in triton-xpu."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.utils.exceptions import DiagnosticException

from xpu_passes import registry
from xpu_passes.driver.native import ChunkFailed, NativeFailure, run_segment, strip_locations
from xpu_passes.dialects import make_context
from xpu_passes.frontend import ParsedModule, Spelling, TTGIRError, parse_module, print_module, verify_module
from xpu_passes.frontend.spelling import denormalize, normalize
from xpu_passes.driver.verify_diagnostics import Diagnostic
from xpu_passes.registry import PassSpec

if TYPE_CHECKING:  # (xdsl.passes and our passes' base are imported only when a pass runs)
    from xdsl.context import Context
    from xdsl.passes import ModulePass


def _diags(e: TTGIRError) -> list[Diagnostic]:
    first = Diagnostic(e.file, e.line, e.col, "error", e.message, e.source_line, list(e.notes))
    return ([first] + [Diagnostic(e.file, e.line, e.col, "error", m, e.source_line) for m in e.more]
            + [Diagnostic(e.file, ln, col, "note", m) for ln, col, m in e.located_notes])


def _wants_remarks(args: argparse.Namespace, chunk: str) -> bool:
    return bool(args.remarks or (args.verify_diagnostics and "expected-remark" in chunk))


def process_chunk(
    chunk: str, name: str, line_offset: int, segments: list[tuple[str, list[PassSpec]]], args: argparse.Namespace,
    diags: list[Diagnostic],
) -> str:
    """The chunk's output text; ChunkFailed with located diagnostics; remarks go to `diags` or stderr."""
    if not _wants_remarks(args, chunk):
        return _process_chunk(chunk, name, line_offset, segments, args, diags)
    from xpu_passes.transforms.base import collecting_remarks

    with collecting_remarks():  # this chunk's passes' remarks (printed after each pass: _remarks)
        return _process_chunk(chunk, name, line_offset, segments, args, diags)


def _process_chunk(
    chunk: str, name: str, line_offset: int, segments: list[tuple[str, list[PassSpec]]], args: argparse.Namespace,
    diags: list[Diagnostic],
) -> str:
    verify = not args.disable_verify
    quiet = args.verify_diagnostics  # diagnostics are checked, not printed
    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    parsed: ParsedModule | None = None
    native_text: str | None = None  # triton's print after a native segment (locations name the input)
    after = ""  # the passes the current text comes out of, for errors located in it
    try:
        if args.xpu_pipeline is not None:
            chunk = _run_xpu_pipeline(chunk, args.xpu_pipeline)
        before, origin = None, {}
        if args.verify_semantics is not None or not segments:
            parsed = parse_module(ctx, chunk, name, line_offset, verify=verify, text_locations=True)
            if args.verify_semantics is not None:
                before = parsed.module.clone()
                # Errors in the `before` run name ops of the clone: map them back to the input.
                origin = dict(zip(before.walk(), parsed.module.walk()))
        for kind, specs in segments:
            if kind == "python":
                if parsed is None:
                    src_name = f"{name} (after {after})" if after else name
                    src, offset = (native_text, 0) if native_text is not None else (chunk, line_offset)
                    parsed = parse_module(ctx, src, src_name, offset, verify=verify, text_locations=src is chunk)
                for spec in specs:
                    _apply(registry.make_pass(spec), ctx, parsed, diags, quiet, name)
                if verify:
                    try:
                        verify_module(parsed)
                    except TTGIRError as e:
                        e.message = f"IR invalid after {', '.join(s.name for s in specs)}: {e.message}"
                        raise
                native_text = None
            else:
                native_text = _native(chunk, name, line_offset, parsed, native_text, specs, after, diags, quiet)
                parsed = None
            after = ", ".join(s.name for s in specs)
        if args.verify_semantics is not None and before is not None:
            if parsed is None:
                parsed = parse_module(ctx, native_text or "", f"{name} (after {after})", 0, verify=verify)
                native_text = None
            _verify_semantics(before, parsed, args.verify_semantics, origin, diags, quiet)
    except TTGIRError as e:
        raise ChunkFailed(_diags(e)) from None
    except NativeFailure as e:
        raise ChunkFailed(e.diagnostics) from None
    if native_text is not None:
        text = native_text if args.debuginfo else strip_locations(native_text)
        if args.spelling == "triton-3.3":
            return text
        return denormalize(normalize(text)[0], Spelling.choose(args.spelling, normalize(chunk)[2]))
    assert parsed is not None
    # The input's spelling, also when the module was last read from triton-xpu's print.
    seen = parsed.spelling if parsed.source.original is chunk else normalize(chunk)[2]
    return print_module(
        parsed.module,
        Spelling.choose(args.spelling, seen),
        debuginfo=args.debuginfo,
        local_scope=args.mlir_print_local_scope,
        generic=args.generic,
    )


def _native(chunk: str, name: str, line_offset: int, parsed: ParsedModule | None, native_text: str | None,
            specs: list[PassSpec], after: str, diags: list[Diagnostic], quiet: bool) -> str:
    """Run a native segment on the current module; the input's own text when no pass ran before."""
    if native_text is not None:
        result = run_segment(native_text, specs, f"{name} (after {after})")
    elif parsed is not None:  # after our passes: print in the spelling triton-xpu 3.3 reads
        _locate(parsed)
        text = print_module(parsed.module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
        result = run_segment(text, specs, f"{name} (after {after})")
    else:
        try:
            result = run_segment(chunk, specs, name, line_offset)
        except NativeFailure as e:
            if not e.parse_failed:
                raise
            # triton-xpu 3.3 reads only the old Intel spelling: hand it our print when we read the input.
            try:
                ours = parse_module(make_context(), chunk, name, line_offset, verify=False, text_locations=True)
            except TTGIRError:
                raise e from None
            _locate(ours)
            text = print_module(ours.module, Spelling.choose("triton-3.3"), debuginfo=True, block_arg_locs=True)
            result = run_segment(text, specs, name)
    for d in result.diagnostics:
        diags.append(d) if quiet else print(d, file=sys.stderr)
    return result.text


def _locate(parsed: ParsedModule) -> None:
    """Give ops without a location their place in the input, as MLIR's parser does (the op name's
    line:col), so that triton's diagnostics and locations name the input after the text round trip."""
    for op in parsed.module.walk():
        if isinstance(op.location, UnknownLoc):
            where = parsed.where(op)
            if where is not None:
                line, col = where
                text = parsed.source.line_text(line)
                if text[col - 1 : col] == "%":  # results first: MLIR locates the op at its name
                    eq = text.find("=", col - 1)
                    if eq >= 0:
                        col = len(text) - len(text[eq + 1 :].lstrip()) + 1
                op.location = FileLineColLoc(StringAttr(parsed.source.name), IntAttr(line), IntAttr(col))


def _apply(p: ModulePass, ctx: Context, parsed: ParsedModule, diags: list[Diagnostic], quiet: bool,
           name: str = "<stdin>") -> None:
    """Run one pass; a failure becomes a located diagnostic naming the pass. A pass asked to be
    never worse than triton-xpu's own (`never-worse-than-native=true`) is compared with it, run
    in a forked child as native segments are."""
    from xpu_passes.transforms import PassError

    def native(text: str, flag: str) -> str:
        return run_segment(text, [PassSpec(registry.native_name(flag), {})], f"{name} (native {flag})").text

    try:
        if _guarded(p):
            from xpu_passes.integration import never_worse

            never_worse.apply(p, ctx, parsed.module, native)
        else:
            p.apply(ctx, parsed.module)
    except PassError as e:
        raise parsed.error_at(e.op, f"[{p.name}] {e.message}") from None
    except DiagnosticException as e:
        raise parsed.error_at(parsed.module, f"[{p.name}] {e}") from None
    except Exception as e:
        if os.environ.get("XPU_OPT_TRACEBACK"):
            raise
        raise parsed.error_at(parsed.module, f"[{p.name}] internal error: {type(e).__name__}: {e}") from None
    finally:
        _remarks(parsed, diags, quiet)


def _guarded(p: ModulePass) -> bool:
    """`never_worse.guarded(p)`; never_worse (the ISA estimate, native passes) imported only for a
    pass given the option."""
    if not getattr(p, "never_worse_than_native", False):
        return False
    from xpu_passes.integration import never_worse

    return never_worse.guarded(p)


def _remarks(parsed: ParsedModule, diags: list[Diagnostic], quiet: bool) -> None:
    from xpu_passes.transforms.base import drain_remarks

    for r in drain_remarks():
        where = parsed.where(r.op)
        line, col = where if where is not None else (parsed.source.line_offset + 1, 1)
        d = Diagnostic(parsed.source.name, line, col, "remark", f"[{r.pass_name}] {r.message}")
        if quiet:
            diags.append(d)
        else:
            print(d, file=sys.stderr)


def _verify_semantics(before: Any, parsed: ParsedModule, spec: str, origin: dict[Any, Any], diags: list[Diagnostic], quiet: bool) -> None:
    """--verify-semantics: interpret before/after on the same random inputs; error at the first difference."""
    from xpu_passes.interp.validate import validate_spec

    r = validate_spec(before, parsed.module, spec)
    func = next((op for op in parsed.module.walk() if op.name == "tt.func"), parsed.module)
    if not r.ok:
        op = origin.get(r.error_op, r.error_op) or func
        raise parsed.error_at(op, f"--verify-semantics: {r}")
    line, col = parsed.where(func) or (1, 1)
    d = Diagnostic(parsed.source.name, line, col, "remark", f"[verify-semantics] {r}")
    if quiet:
        diags.append(d)
    else:
        print(d, file=sys.stderr)


def _run_xpu_pipeline(text: str, spec: str) -> str:
    """TTIR in, TTGIR out, through triton-xpu's make_ttgir with our passes in it.

    `spec`: `num-warps=N num-stages=N pipeline=xpu|native` and every option of
    `pipeline.plan` in kebab case (`rewrite-tensor-pointer=true`, `rlc=all`, ...).
    """
    from xpu_passes.integration import oracle
    from xpu_passes.integration.pipeline import PassFailure, PipelineError, option_defaults, run_ttgir

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
