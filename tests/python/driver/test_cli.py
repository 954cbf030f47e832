"""xpu-opt's command line: MLIR option syntax, installed passes by flag and in pipelines, cheap start-up."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.driver import cli
from xpu_passes.registry import PassSpec

XPU_OPT = [sys.executable, "-m", "xpu_passes.driver.cli"]

PLUGIN = '''
from dataclasses import dataclass
from xdsl.passes import ModulePass

@dataclass(frozen=True)
class CountOps(ModulePass):
    name = "test-count-ops"
    prefix: str = "ops"
    fail: bool = False
    def apply(self, ctx, op):
        import sys
        if self.fail:
            raise RuntimeError("asked to fail")
        print(f"{self.prefix}: {len(list(op.walk()))}", file=sys.stderr)
'''

MODULE = textwrap.dedent("""\
    module attributes {"ttg.num-warps" = 4 : i32} {
      tt.func @f(%a: i32) -> i32 {
        %c0 = arith.constant 0 : i32
        %s = arith.addi %a, %c0 : i32
        tt.return %s : i32
      }
    }
    """)


@pytest.fixture
def plugin_env(tmp_path: Path) -> dict[str, str]:
    """An installed distribution (dist-info + module) declaring `test-count-ops`, on PYTHONPATH."""
    (tmp_path / "xpu_test_plugin.py").write_text(PLUGIN)
    info = tmp_path / "xpu_test_plugin-0.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: xpu-test-plugin\nVersion: 0.3\n")
    (info / "entry_points.txt").write_text("[xpu_passes.passes]\ntest-count-ops = xpu_test_plugin:CountOps\n")
    (tmp_path / "in.mlir").write_text(MODULE)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    return env


def xpu_opt(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(XPU_OPT + args, capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def test_one_dash_long_options_and_pass_option_forms() -> None:
    parser = cli.build_parser()
    rest, flags = cli.split_argv(
        ["-split-input-file", "x.mlir", "-o", "out", "-mlir-print-debuginfo", "-canonicalize",
         "-tritonintelgpu-rewrite-tensor-pointer=guard=false", "--tritonintelgpu-pipeline=num-stages=2 support-regular-ptr=true",
         "-pass-pipeline", "builtin.module(cse)"],
        parser,
    )
    assert rest == ["--split-input-file", "x.mlir", "-o", "out", "--mlir-print-debuginfo", "--pass-pipeline",
                    "builtin.module(cse)"]
    assert flags == [
        PassSpec("canonicalize", {}),
        PassSpec("tritonintelgpu-rewrite-tensor-pointer", {"guard": "false"}),
        PassSpec("tritonintelgpu-pipeline", {"num-stages": "2", "support-regular-ptr": "true"}),
    ]
    args = parser.parse_args(rest)
    assert args.split_input_file and args.debuginfo and args.output_file == "out"


def test_attached_short_values_and_unknown_options() -> None:
    parser = cli.build_parser()
    assert cli.split_argv(["-oout.mlir", "-pcse"], parser)[0] == ["-oout.mlir", "-pcse"]
    with pytest.raises(cli.UsageError, match=r"unknown option or pass '-verify-diagnostic'; did you mean -verify-diagnostics"):
        cli.split_argv(["-verify-diagnostic"], parser)
    with pytest.raises(cli.UsageError, match=r"unknown option or pass '--tritongpu-coalesc'; did you mean -tritongpu-coalesce"):
        cli.split_argv(["--tritongpu-coalesc"], parser)


def test_segments_group_consecutive_native_passes() -> None:
    specs = [PassSpec(n, {}) for n in ("canonicalize", "cse", "tritonintelgpu-materialize-block-pointer", "cse")]
    assert [(k, [s.name for s in ss]) for k, ss in cli.resolve(specs)] == [
        ("native", ["canonicalize", "cse"]),
        ("python", ["tritonintelgpu-materialize-block-pointer"]),
        ("native", ["cse"]),
    ]


def test_list_passes_imports_neither_xdsl_nor_triton() -> None:
    code = ("import sys, io, contextlib; from xpu_passes.driver import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()): cli.run(['--list-passes'])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'triton', 'torch'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_installed_pass_listed_and_run_by_flag(plugin_env: dict[str, str], tmp_path: Path) -> None:
    listed = xpu_opt(["--list-passes"], plugin_env)
    assert "--test-count-ops" in listed.stdout and "installed: [xpu-test-plugin 0.3: xpu_test_plugin:CountOps]" in listed.stdout
    run = xpu_opt(["in.mlir", "-test-count-ops=prefix=counted"], plugin_env, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "counted: 5" in run.stderr and "tt.func @f" in run.stdout
    bad = xpu_opt(["in.mlir", "-test-count-ops=prefx=x"], plugin_env, tmp_path)
    assert bad.returncode == 1 and "pass 'test-count-ops': unknown option 'prefx' (options: prefix, fail)" in bad.stderr


def test_installed_pass_failure_names_pass_and_place(plugin_env: dict[str, str], tmp_path: Path) -> None:
    run = xpu_opt(["in.mlir", "--pass-pipeline=builtin.module(test-count-ops{fail=true})"], plugin_env, tmp_path)
    assert run.returncode == 1
    assert "in.mlir:1:1: error: [test-count-ops] internal error: RuntimeError: asked to fail" in run.stderr
    assert "Traceback" not in run.stderr


def test_installed_pass_in_pipeline_with_native_and_ours(plugin_env: dict[str, str], tmp_path: Path) -> None:
    pytest.importorskip("triton")
    pipeline = "builtin.module(canonicalize, test-count-ops{prefix=after-canon}, tritonintelgpu-remove-layout-conversions, cse)"
    run = xpu_opt(["in.mlir", f"-pass-pipeline={pipeline}"], plugin_env, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "after-canon: 3" in run.stderr  # canonicalize folded the add of zero (5 ops -> 3) before it ran
    assert "arith.addi" not in run.stdout and "tt.return %arg0 : i32" in run.stdout


def test_expectation_designators() -> None:
    from xpu_passes.driver.verify_diagnostics import Diagnostic, check, expectations

    text = textwrap.dedent("""\
        %a = op
        // expected-error@above {{a}}
        // expected-remark@below {{b}}
        // expected-note@below {{c}}
        %b = op // expected-warning {{d}}
        // expected-error@-5 {{e}}
        // expected-error-re@+1 {{value {{[0-9]+}} is bad}}
        %c = op
        // expected-error@unknown {{f}}
        """)
    got = [(e.kind, e.line, e.message) for e in expectations(text, line_offset=10)]
    assert got == [("error", 11, "a"), ("remark", 15, "b"), ("note", 15, "c"), ("warning", 15, "d"),
                   ("error", 11, "e"), ("error", 18, "value {{[0-9]+}} is bad"), ("error", 0, "f")]
    diags = [Diagnostic("f", 11, 1, "error", "a"), Diagnostic("f", 15, 1, "remark", "[p] b"),
             Diagnostic("f", 15, 1, "note", "c"), Diagnostic("f", 15, 1, "warning", "d"),
             Diagnostic("f", 11, 1, "error", "e"), Diagnostic("f", 18, 3, "error", "value 42 is bad"),
             Diagnostic("f", 0, 0, "error", "f")]
    assert check(text, 10, "f", diags) == []
    wrong = [d for d in diags if d.message != "value 42 is bad"] + [Diagnostic("f", 18, 3, "error", "value x is bad")]
    assert [str(p) for p in check(text, 10, "f", wrong)] == [
        'f:17:4: error: expected error "value {{[0-9]+}} is bad" was not produced',
        "f:18:3: error: unexpected error: value x is bad",
    ]


def test_native_only_run_does_not_import_xdsl(tmp_path: Path) -> None:
    pytest.importorskip("triton")
    (tmp_path / "in.mlir").write_text(MODULE)
    code = ("import sys, io, contextlib; from xpu_passes.driver import cli\n"
            "out = io.StringIO()\n"
            f"with contextlib.redirect_stdout(out): rc = cli.run([{str(tmp_path / 'in.mlir')!r}, '-canonicalize'])\n"
            "print(rc, 'arith.addi' in out.getvalue(), 'tt.return %arg0' in out.getvalue(), 'xdsl' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "False", "True", "False"]


def test_run_without_passes_imports_no_pass_machinery(tmp_path: Path) -> None:
    """Start-up: a module only read and printed does not import xDSL's pass module or our
    passes' base; a pass flag does import them (and runs)."""
    (tmp_path / "in.mlir").write_text(MODULE)
    code = ("import sys, io, contextlib; from xpu_passes.driver import cli\n"
            "out = io.StringIO()\n"
            f"with contextlib.redirect_stdout(out): rc = cli.run([{str(tmp_path / 'in.mlir')!r}] + sys.argv[1:])\n"
            "print(rc, 'arith.addi %arg0' in out.getvalue(),"
            " *(m in sys.modules for m in ('xdsl.passes', 'xpu_passes.transforms.base')))")
    bare = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert bare.split() == ["0", "True", "False", "False"]
    flag = "-tritonintelgpu-remove-layout-conversions"
    with_pass = subprocess.run([sys.executable, "-c", code, flag], capture_output=True, text=True, check=True).stdout
    assert with_pass.split() == ["0", "True", "True", "True"]


def test_pass_run_imports_no_entry_point_scan_nor_native_comparison(tmp_path: Path) -> None:
    """Start-up of a compile: one of our passes by flag scans no installed entry point
    (importlib.metadata) and, without never-worse-than-native, imports no ISA estimate."""
    (tmp_path / "in.mlir").write_text(MODULE)
    code = ("import sys, io, contextlib; from xpu_passes.driver import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    rc = cli.run([{str(tmp_path / 'in.mlir')!r}] + sys.argv[1:])\n"
            "print(rc, *(m in sys.modules for m in ('xpu_passes.transforms.base', 'importlib.metadata',"
            " 'xpu_passes.integration.never_worse', 'xpu_passes.integration.isa_estimate')))")
    out = subprocess.run([sys.executable, "-c", code, "-tritonintelgpu-remove-layout-conversions"],
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "True", "False", "False", "False"]
    pytest.importorskip("triton")
    flag = "-tritonintelgpu-remove-layout-conversions=never-worse-than-native=true"
    out = subprocess.run([sys.executable, "-c", code, flag], capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == "0" and out.split()[3:] == ["True", "True"]


def _intel_lit() -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "intel_lit.py"
    spec = importlib.util.spec_from_file_location("intel_lit", path)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["intel_lit"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_intel_lit_script_reads_run_lines_and_classifies(tmp_path: Path) -> None:
    """benchmarks/intel_lit.py: continued RUN lines, substitutions, accepted vs rejected command lines."""
    m = _intel_lit()
    text = "// RUN: env A=1 \\\n// RUN: triton-opt %s -split-input-file -cse | FileCheck %s --implicit-check-not=x\n"
    assert m.run_lines(text) == ["env A=1  triton-opt %s -split-input-file -cse | FileCheck %s --implicit-check-not=x"]
    cmd = m.command(m.run_lines(text)[0], "/t/f.mlir", "xpu-opt", "fc")
    assert cmd == "env A=1  xpu-opt /t/f.mlir -split-input-file -cse | fc /t/f.mlir --implicit-check-not=x"
    assert [c[1] for c in m.chunks("a\n// -----\nb\nc\n// -----\nd\n")] == [0, 2, 5]
    (tmp_path / "in.mlir").write_text(MODULE + "// CHECK: tt.func @f\n")
    xpu_opt = f"{sys.executable} -m xpu_passes.driver.cli"
    assert m.run_case(f"{xpu_opt} {tmp_path}/in.mlir -no-such-flag | filecheck {tmp_path}/in.mlir", 300)[:2] == (False, False)
    assert m.run_case(f"{xpu_opt} {tmp_path}/in.mlir | filecheck {tmp_path}/in.mlir", 300) == (True, True, "")
    # Intel's --implicit-check-not is kept and enforced (lit's FileCheck wrapper), not dropped.
    run = f"{xpu_opt} {tmp_path}/in.mlir | {m.FILECHECK} {tmp_path}/in.mlir"
    assert m.run_case(run + " --implicit-check-not=tt.func", 300) == (True, True, "")
    acc, ok, why = m.run_case(run + " --implicit-check-not=tt.return", 300)
    assert (acc, ok) == (True, False) and "excluded string found" in why


def test_native_pass_without_triton_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "triton" else real(n, *a))
    with pytest.raises(cli.UsageError, match=r"native pass 'cse' needs triton-xpu: pip install 'xpu-passes\[triton\]'"):
        cli.resolve([PassSpec("tritonintelgpu-materialize-block-pointer", {}), PassSpec("cse", {})])
    assert cli.resolve([PassSpec("tritonintelgpu-materialize-block-pointer", {})])[0][0] == "python"
