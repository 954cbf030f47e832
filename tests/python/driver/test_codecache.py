"""Start-up savings that must not change behaviour: declarative formats read on first use
(xdsl_compat), dataclass methods compiled from a cache (xpu_passes/codecache: xpu-opt only)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def
from xdsl.dialects.builtin import i32
from xdsl.utils.exceptions import PyRDLOpDefinitionError

from xpu_passes.dialects import make_context
from xpu_passes.driver import codecache
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.ir.xdsl_adapt import format_program

XPU_OPT = str(Path(sys.executable).with_name("xpu-opt"))
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


def test_every_declarative_format_of_our_dialects_reads() -> None:
    # Formats are read on first use: a broken one must still be found, here. (A class
    # defined before the front end was imported had its format read then, by xDSL.)
    ctx = make_context()
    for name in list(ctx.registered_dialect_names):
        if name not in {d.name for d in ctx.loaded_dialects}:
            ctx.load_registered_dialect(name)
    checked = 0
    for op in ctx.loaded_ops:
        op_def = op.get_irdl_definition() if issubclass(op, IRDLOperation) else None
        if op_def is None or op_def.assembly_format is None:
            continue
        if getattr(op.print, "format_program", None) is None:
            assert op.print.__module__ == "xdsl.irdl.operations", op.name  # (read when defined)
        else:
            assert format_program(op) is not None, op.name
        checked += 1
    assert checked > 50  # (tt, ttg, ttig, arith, scf... declare most of theirs)


def test_a_broken_format_is_upstreams_error_at_first_use() -> None:
    @irdl_op_definition
    class BrokenOp(IRDLOperation):  # (defining it does not read the format any more)
        name = "test.broken_format"
        x = operand_def(i32)
        assembly_format = "$x attr-dict : type($nothere)"

    with pytest.raises(PyRDLOpDefinitionError, match="assembly format"):
        format_program(BrokenOp)


def test_format_read_on_first_use_prints_and_parses_as_before() -> None:
    ctx = make_context()
    parsed = parse_module(ctx, KERNEL, "k")
    assert print_module(parsed.module) == KERNEL


def test_dataclasses_built_through_the_cache_behave() -> None:
    with codecache.installed():
        assert vars(dataclasses).get("exec") is codecache._cached_exec

        @dataclasses.dataclass(frozen=True)
        class P:
            a: int
            b: str = "x"

    assert "exec" not in vars(dataclasses)

    p = P(1)
    assert repr(p) == "test_dataclasses_built_through_the_cache_behave.<locals>.P(a=1, b='x')"
    assert hash(p) == hash(P(1)) and p == P(1, "x") and p != P(2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.a = 2  # type: ignore[misc]


def _fresh(code: str) -> str:
    """stdout of `code` in a fresh interpreter (import order is what is tested)."""
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout


def test_the_library_leaves_dataclasses_alone_and_xpu_opt_skips_the_dialects_init() -> None:
    # Only xpu-opt's run routes dataclasses' exec through the cache: the plugin runs in users' processes.
    code = (
        "import dataclasses, xpu_passes.frontend, xpu_passes.dialects, xpu_passes.integration.plugin\n"
        "assert 'exec' not in vars(dataclasses) and 'xpu_passes.driver.codecache' not in __import__('sys').modules\n"
        "import xpu_passes.driver.chunk, xpu_passes.driver.cli, xpu_passes.driver.codecache as c\n"
        "assert 'exec' not in vars(dataclasses)\n"
        "with c.installed():\n"
        "    assert vars(dataclasses)['exec'] is c._cached_exec\n"
        "assert 'exec' not in vars(dataclasses)\n"
        "print('ok')\n"
    )
    out = _fresh(code)
    assert out == "ok\n"
    # xpu-opt's own import order (cli_chunk first) enters xdsl.dialects without its __init__ too
    code = "import sys, xpu_passes.driver.chunk\nprint('xdsl.utils.dialect_loader' in sys.modules)\n"
    out = _fresh(code)
    assert out == "False\n"


def _run(env: dict[str, str], path: Path) -> str:
    return subprocess.run([XPU_OPT, str(path)], env=env, check=True, capture_output=True, text=True).stdout


def test_code_cache_file_written_read_and_bad_file_ignored(tmp_path: Path) -> None:
    src = tmp_path / "k.mlir"
    src.write_text(KERNEL)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = _run(env, src)
    (cache,) = (tmp_path / "cache" / "xpu-passes").iterdir()
    size = cache.stat().st_size
    assert size > 10_000
    assert _run(env, src) == first == KERNEL  # (read from the file this time)
    cache.write_bytes(b"not marshal data")
    assert _run(env, src) == KERNEL
    assert cache.stat().st_size >= size  # (rewritten whole)
    off = {**env, "XDG_CACHE_HOME": str(tmp_path / "off"), "XPU_PASSES_CODE_CACHE": "0"}
    assert _run(off, src) == KERNEL
    assert not (tmp_path / "off").exists()


def test_dialects_package_entered_without_its_init_which_runs_on_first_use() -> None:
    # In a fresh process: reading and printing a kernel needs neither the package's
    # __init__ nor what it imports; its own names still work (and run it then).
    code = (
        "import sys\n"
        "from xpu_passes.dialects import make_context\n"
        "from xpu_passes.frontend import parse_module, print_module\n"
        f"p = parse_module(make_context(), {KERNEL!r}, 'k')\n"
        f"assert print_module(p.module) == {KERNEL!r}\n"
        "assert 'xdsl.utils.dialect_loader' not in sys.modules and 'importlib.abc' not in sys.modules\n"
        "from xdsl.dialects import scf\n"
        "import xdsl.dialects\n"
        "assert xdsl.dialects.scf is scf and 'xdsl.utils.dialect_loader' not in sys.modules\n"
        "from xdsl.dialects import get_all_dialects\n"
        "from xdsl.utils.dialect_loader import IRDLDialectFinder\n"
        "assert 'scf' in get_all_dialects() and any(isinstance(f, IRDLDialectFinder) for f in sys.meta_path)\n"
        "try:\n"
        "    xdsl.dialects.no_such_name\n"
        "except AttributeError:\n"
        "    print('ok')\n"
    )
    out = _fresh(code)
    assert out == "ok\n"
