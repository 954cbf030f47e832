"""dialects/lazy.py: constructs imported when first named, and what xpu-opt's start-up imports."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, Operation

from xpu_passes.dialects import LOADERS, all_dialects, make_context, register_dialects
from xpu_passes.dialects.lazy import LAZY, LAZY_MODULES, LazyContext, classes_of
from xpu_passes.frontend import parse_module, print_module

ROOT = Path(__file__).resolve().parents[3]
GEMM = ROOT / "examples" / "gemm_add_tensor_ptr.ttgir"

DESCRIPTORS = textwrap.dedent("""\
    module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
      tt.func public @f(%arg0: !tt.ptr<f16>, %arg1: i32, %arg2: i64) {
        %0 = tt.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %arg2] : <f16>, <1x32xf16>
        %1 = tt.descriptor_load %0[%arg1, %arg1] : !tt.tensordesc<1x32xf16> -> tensor<1x32xf16>
        tt.return
      }
    }
    """)


def _defined_in(module: str) -> set[str]:
    """Names of the op/attribute classes `module` itself defines (its own, not imported; or
    made by it and kept in a list, as foreign_layouts does)."""
    mod = importlib.import_module(module)
    out = set()
    for value in vars(mod).values():
        made = isinstance(value, list)
        for cls in value if made else (value,):
            if (isinstance(cls, type) and issubclass(cls, Operation | Attribute) and (made or cls.__module__ == module)
                    and isinstance(getattr(cls, "name", None), str) and not cls.__name__.startswith("_")):
                out.add(cls.name)
    return out


@pytest.mark.parametrize("module", sorted(LAZY_MODULES))
def test_the_table_names_exactly_the_modules_constructs(module: str) -> None:
    assert set(LAZY_MODULES[module]) == _defined_in(module)
    assert {cls.name for cls in classes_of(module)} == set(LAZY_MODULES[module])  # type: ignore[attr-defined]


def test_a_wrong_table_entry_is_an_error() -> None:
    module = "xpu_passes.dialects.tt.ops_main"
    saved = LAZY_MODULES[module]
    LAZY_MODULES[module] = (*saved, "tt.no_such_op")
    classes_of.cache_clear()
    try:
        with pytest.raises(LookupError, match=r"does not define \['tt.no_such_op'\]"):
            classes_of(module)
    finally:
        LAZY_MODULES[module] = saved
        classes_of.cache_clear()


def test_lazy_constructs_are_outside_their_dialect_and_in_all_dialects() -> None:
    bare = {cls.name for load in LOADERS.values() for d in [load()] for cls in (*d.operations, *d.attributes)}
    assert not bare & set(LAZY)
    every = [cls.name for d in all_dialects() for cls in (*d.operations, *d.attributes)]
    assert sorted(name for name in every if name in LAZY) == sorted(LAZY)  # (each once)


@pytest.mark.parametrize("allow_unregistered", [False, True])
def test_a_named_lazy_op_is_its_class(allow_unregistered: bool) -> None:
    ctx = make_context(allow_unregistered=allow_unregistered)
    assert isinstance(ctx, LazyContext) and "tt.descriptor_load" in ctx.pending
    parsed = parse_module(ctx, DESCRIPTORS, "d.mlir")
    loads = [op for op in parsed.module.walk() if op.name == "tt.descriptor_load"]
    assert len(loads) == 1 and not isinstance(loads[0], UnregisteredOp)
    assert type(loads[0]).__module__ == "xpu_passes.dialects.tt.descriptors"
    assert not set(LAZY_MODULES["xpu_passes.dialects.tt.descriptors"]) & set(ctx.pending)
    assert "ttg.warp_id" in ctx.pending  # (another module's: still not loaded in this context)
    text = print_module(parsed.module, parsed.spelling)
    again = parse_module(make_context(), text, "again.mlir")
    assert "tt.descriptor_load %0[%arg1, %arg1]" in text and print_module(again.module, again.spelling) == text


def test_an_unknown_op_is_still_an_error() -> None:
    ctx = make_context()
    assert ctx.get_optional_op("tt.descriptor_lod") is None
    assert ctx.get_optional_op("tt.descriptor_load") is not None


def test_clone_keeps_the_pending_constructs() -> None:
    ctx = make_context()
    ctx.get_optional_attr("ttg.amd_mfma")
    clone = ctx.clone()
    assert isinstance(clone, LazyContext) and clone.pending == ctx.pending and clone.pending is not ctx.pending
    assert clone.get_optional_op("ttg.warp_id") is not None and "ttg.warp_id" in ctx.pending
    assert clone.get_optional_attr("ttg.amd_mfma") is ctx.get_optional_attr("ttg.amd_mfma")


def test_a_plain_context_gets_the_lazy_constructs_with_their_dialect() -> None:
    ctx = Context()
    register_dialects(ctx)
    assert ctx.get_optional_op("ttg.warp_id") is not None
    assert ctx.get_optional_attr("ttg.nvidia_mma") is not None


def test_package_exports_lazy_names_on_first_use() -> None:
    from xpu_passes.dialects import tt, ttig

    assert tt.DescriptorLoadOp.name == "tt.descriptor_load"
    assert ttig.DescriptorGatherOp.name == "ttig.descriptor_gather"
    with pytest.raises(AttributeError):
        tt.NoSuchOp  # noqa: B018


_RUN = """\
import io, contextlib, sys
from xpu_passes.driver import cli
with contextlib.redirect_stdout(io.StringIO()):
    rc = cli.run(sys.argv[1:])
print(rc, *sorted(m for m in sys.modules if m.startswith(("xpu_passes.", "xdsl."))))
"""


def _imported_by_run(args: list[str]) -> tuple[str, set[str]]:
    out = subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True, check=True).stdout
    rc, *mods = out.split()
    return rc, set(mods)


def test_startup_imports_only_what_the_input_names(tmp_path: Path) -> None:
    """Start-up, without timing it: an empty module imports no dialect beyond builtin, a GEMM
    no lazy module; a module naming a descriptor op imports that module only."""
    empty = tmp_path / "empty.mlir"
    empty.write_text("module {\n}\n")
    rc, mods = _imported_by_run([str(empty)])
    assert rc == "0"
    dialect_packages = {"xpu_passes.dialects." + d for d in ("tt", "ttg", "ttig", "arith", "scf_gpu")}
    assert not mods & (dialect_packages | set(LAZY_MODULES) | {"xdsl.dialects.arith", "xdsl.dialects.scf"})
    rc, mods = _imported_by_run([str(GEMM)])
    assert rc == "0" and {"xpu_passes.dialects.tt", "xpu_passes.dialects.ttg"} <= mods
    assert not mods & set(LAZY_MODULES)
    desc = tmp_path / "desc.mlir"
    desc.write_text(DESCRIPTORS)
    rc, mods = _imported_by_run([str(desc)])
    assert rc == "0" and set(LAZY_MODULES) & mods == {"xpu_passes.dialects.tt.descriptors"}
