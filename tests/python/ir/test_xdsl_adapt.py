"""ir/xdsl_adapt.py: nothing of xDSL (or of the standard library) is changed in a user's process;
our op classes read their declarative formats on first use; IsolatedFromAbove is skipped only
where the caller says it proved it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.irdl import IRDLOperation, operand_def
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import PyRDLOpDefinitionError, VerifyException

from xpu_passes.dialects import all_dialects, make_context, tt
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.ir.xdsl_adapt import IsolatedUnlessProven, format_program, isolation_unchecked, op_definition

ROOT = Path(__file__).resolve().parents[3]
KERNEL = """module {
  tt.func @f(%arg0: !tt.ptr<f32>, %arg1: i32) {
    %0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %1 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %2 = tt.addptr %0, %1 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %3 = arith.addi %arg1, %arg1 : i32
    tt.return
  }
}
"""

# In a fresh interpreter: every module of xDSL the run below loads (listed by a first run), the
# standard library modules xDSL's classes are made with, and every class defined in them, by
# the identity of each entry of their dictionaries; then the package is imported and used as a
# user would (front end, a pass, the triton plugin, xpu-opt's main), and compared: while
# xpu-opt runs (a pass of the pipeline looks) and after.
_SNAPSHOT = textwrap.dedent(
    """
    import builtins, dataclasses, importlib, sys, types
    LIST = sys.argv[1] == "list"
    if not LIST:
        for name in sys.argv[3].split(","):
            importlib.import_module(name)

    def modules():
        return [m for n, m in sorted(sys.modules.items())
                if n.split(".")[0] in ("xdsl", "dataclasses", "builtins", "typing", "functools") and m is not None]

    def classes(prefix, owner, out):  # (nested classes too: AttrParser._TensorLiteralElement)
        for k, v in list(vars(owner).items()):
            if isinstance(v, type) and v.__module__ == owner_module and v.__qualname__.endswith(k):
                if f"{prefix}.{k}" not in out:
                    out[f"{prefix}.{k}"] = {a: id(b) for a, b in vars(v).items()}
                    classes(f"{prefix}.{k}", v, out)

    def snapshot():
        global owner_module
        out = {}
        for m in modules():
            out[m.__name__] = {k: id(v) for k, v in vars(m).items() if not isinstance(v, types.ModuleType)}
            owner_module = m.__name__
            classes(m.__name__, m, out)
        return out, list(sys.meta_path)

    def compare(before, meta, after, meta_after):
        changed = sorted(f"{c}.{k}" for c in before for k in before[c].keys() | after[c].keys()
                         if after[c].get(k) != before[c].get(k))
        return f"CHANGED {changed} META {meta_after != meta}"

    before, meta = snapshot()
    kept = [vars(m) for m in modules()]  # (the dictionaries' objects stay alive: ids stay theirs)
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parse_module, print_module
    from xpu_passes.transforms import load_all
    import xpu_passes.triton_plugin
    from xpu_passes.driver import cli
    from xdsl.passes import ModulePass
    from xpu_passes import register_pass

    @register_pass
    class Snapshot(ModulePass):  # (what xpu-opt's run looks like while it runs)
        name = "test-snapshot"

        def apply(self, ctx, op):
            print("DURING", compare(before, meta, *snapshot()))

    text = open(sys.argv[2]).read()
    parsed = parse_module(make_context(), text, "m")
    load_all()["tritonintelgpu-remove-layout-conversions"]()().apply(make_context(), parsed.module)
    print_module(parsed.module, parsed.spelling, debuginfo=True)
    try:
        cli.main([sys.argv[2], "-tritonintelgpu-remove-layout-conversions", "-test-snapshot", "-o", "/dev/null"])
    except SystemExit as e:
        assert e.code == 0, e.code
    if LIST:
        print("MODULES", ",".join(m.__name__ for m in modules() if m.__name__.startswith("xdsl")))
        raise SystemExit(0)
    PATCH
    print("AFTER", compare(before, meta, *snapshot()))
    """
)


def _run(*args: str, patch: str = "") -> str:
    script = _SNAPSHOT.replace("PATCH", patch or "pass")
    out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def xdsl_modules() -> str:
    example = str(ROOT / "examples" / "gemm_add_tensor_ptr.ttgir")
    line = next(x for x in _run("list", example).splitlines() if x.startswith("MODULES "))
    return line.split(" ", 1)[1]


def test_importing_and_running_the_package_changes_nothing_of_xdsl_or_the_stdlib(xdsl_modules: str) -> None:
    example = str(ROOT / "examples" / "gemm_add_tensor_ptr.ttgir")
    assert "xdsl.dialects.builtin" in xdsl_modules and "xdsl.traits" in xdsl_modules
    out = _run("check", example, xdsl_modules)
    assert "DURING CHANGED [] META False" in out and "AFTER CHANGED [] META False" in out, out


@pytest.mark.parametrize("patch, seen", [
    ("import xdsl.dialects.builtin as b; b.DenseIntOrFPElementsAttr.is_splat = lambda self: True",
     "xdsl.dialects.builtin.DenseIntOrFPElementsAttr.is_splat"),
    ("import xdsl.ir.core as c; c._unknown_loc = lambda: None", "xdsl.ir.core._unknown_loc"),
    ("dataclasses.exec = exec", "dataclasses.exec"),
    ("import sys; sys.meta_path.append(object())", "META True"),
])
def test_the_check_sees_a_patch(xdsl_modules: str, patch: str, seen: str) -> None:
    """The comparison above fails on a replaced method or module function, a new module
    global, a new import hook."""
    example = str(ROOT / "examples" / "gemm_add_tensor_ptr.ttgir")
    out = _run("check", example, xdsl_modules, patch=patch)
    assert (f"AFTER CHANGED ['{seen}']" if "META" not in seen else f"AFTER CHANGED [] {seen}") in out, out


def test_xdsl_dialects_package_is_xdsls_own() -> None:
    # (importing our package first: the package's __init__ ran, its names are its own)
    code = ("import sys, xpu_passes.frontend, xpu_passes.driver.chunk\n"
            "p = sys.modules['xdsl.dialects']\n"
            "print('get_all_dialects' in vars(p), '__getattr__' in vars(p))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "True False\n"


def test_every_declarative_format_of_our_dialects_reads() -> None:
    # Formats are read on first use: a broken one must still be found, here.
    ours = 0
    for op in (op for d in all_dialects() for op in d.operations):  # (the lazy ones too)
        op_def = op.get_irdl_definition() if issubclass(op, IRDLOperation) else None
        if op_def is None or op_def.assembly_format is None:
            continue
        if getattr(op.print, "format_program", None) is None:
            assert op.print.__module__ == "xdsl.irdl.operations", op.name  # (xDSL's own op: read when defined)
        else:
            assert format_program(op) is not None, op.name
            ours += 1
    assert ours > 30  # (tt, ttg, ttig declare most of theirs)


def test_a_broken_format_is_upstreams_error_at_first_use() -> None:
    @op_definition
    class BrokenOp(IRDLOperation):  # (defining it does not read the format)
        name = "test.broken_format"
        x = operand_def(i32)
        assembly_format = "$x attr-dict : type($nothere)"

    assert BrokenOp.assembly_format == "$x attr-dict : type($nothere)"
    assert BrokenOp.get_irdl_definition().assembly_format == BrokenOp.assembly_format
    with pytest.raises(PyRDLOpDefinitionError, match="assembly format"):
        format_program(BrokenOp)


def test_format_read_on_first_use_prints_and_parses_as_before() -> None:
    parsed = parse_module(make_context(), KERNEL, "k")
    assert print_module(parsed.module) == KERNEL


def _func_using_an_outside_value() -> tuple[ModuleOp, IRDLOperation]:
    """A module whose tt.func uses a value defined outside it (not isolated from above)."""
    parsed = parse_module(make_context(), KERNEL, "k")
    func = next(op for op in parsed.module.walk() if isinstance(op, tt.FuncOp))
    outside = Block(arg_types=[i32])
    add = next(op for op in func.walk() if op.name == "arith.addi")
    add.operands = [outside.args[0], outside.args[0]]
    Region([outside])  # (keeps the block owned)
    return parsed.module, func


def test_isolation_is_checked_unless_the_caller_proved_it() -> None:
    module, func = _func_using_an_outside_value()
    assert func.has_trait(IsolatedFromAbove) and any(isinstance(t, IsolatedUnlessProven) for t in func.traits)
    with pytest.raises(VerifyException, match="IsolatedFromAbove"):
        func.verify(verify_nested_ops=False)
    with isolation_unchecked():
        func.verify(verify_nested_ops=False)  # (the caller's proof stands in for the walk)
    with pytest.raises(VerifyException, match="IsolatedFromAbove"):
        func.verify(verify_nested_ops=False)  # (only inside the block)


def test_isolation_unchecked_is_this_threads_only() -> None:
    import threading

    _, func = _func_using_an_outside_value()
    seen: list[str] = []

    def other() -> None:
        try:
            func.verify(verify_nested_ops=False)
            seen.append("skipped")
        except VerifyException:
            seen.append("checked")

    with isolation_unchecked():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == ["checked"]
