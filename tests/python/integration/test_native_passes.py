"""integration/native_passes.py: triton-xpu's native passes by flag, their options and runs."""

from __future__ import annotations

import textwrap

import pytest

pytest.importorskip("triton")

from xpu_passes import registry as r  # noqa: E402
from xpu_passes.integration import native_passes, oracle  # noqa: E402


def test_native_options_from_text_then_compile_options_then_default() -> None:
    spec = r.PassSpec("convert-triton-to-tritongpu", {"num-warps": "8"})
    got = native_passes.native_options(spec, {"num_warps": 32, "threads_per_warp": 16, "target": "xpu"})
    assert got == {"target": "xpu", "num-warps": 8, "threads-per-warp": 16, "num-ctas": 1}
    annotate = native_passes.native_options(r.PassSpec("triton-annotate-module", {}), {"sub_group_sizes": [16, 32]})
    assert annotate["min-sg-size"] == 16 and annotate["target-arch"] == "spir64"
    with pytest.raises(r.PassOptionError, match="unknown option 'stages'"):
        native_passes.native_options(r.PassSpec("tritonintelgpu-pipeline", {"stages": "2"}))


def test_native_table_matches_the_wheel() -> None:
    """Every add_* the installed triton-xpu exposes is in the table, with as many options as arguments."""
    import re

    from triton._C import libtriton

    by_binding = {row.binding: row for row in native_passes.NATIVE_TABLE}
    seen = set()
    for root, mod in (("passes", libtriton.passes), ("intel.passes", libtriton.intel.passes)):
        for sub in (s for s in dir(mod) if not s.startswith("_")):
            for fn in (f for f in dir(getattr(mod, sub)) if f.startswith("add_")):
                path = f"{root}.{sub}.{fn}"
                seen.add(path)
                assert path in by_binding, f"{path} has no MLIR name in native_passes.NATIVE_TABLE"
                doc = getattr(getattr(mod, sub), fn).__doc__ or ""
                nargs = len(re.findall(r"arg\d+:", doc.splitlines()[0])) - 1  # minus the pass manager
                assert nargs == len(by_binding[path].options), path
    assert seen == set(by_binding), set(by_binding) - seen


def test_run_native_one_pass_manager_and_failure_message() -> None:

    text = textwrap.dedent("""\
        module {
          tt.func @f(%a: i32) -> i32 {
            %c = arith.constant 0 : i32
            %s = arith.addi %a, %c : i32
            %t = arith.addi %a, %c : i32
            %u = arith.muli %s, %t : i32
            tt.return %u : i32
          }
        }
        """)
    mod = oracle.parse(text)
    native_passes.run_native(mod, r.parse_pipeline("canonicalize,cse"), {})
    assert "arith.addi" not in str(mod) and str(mod).count("arith.muli") == 1
