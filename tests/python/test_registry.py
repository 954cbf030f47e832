"""The pass registry: pipeline text, options, order checks, installed passes, and the native table."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from xpu_passes import registry as r

PLUGIN = '''
from dataclasses import dataclass
from typing import ClassVar
from xdsl.passes import ModulePass

@dataclass(frozen=True)
class CountOps(ModulePass):
    name = "test-count-ops"
    requires: ClassVar[tuple[str, ...]] = ("tritonintelgpu-materialize-block-pointer",)
    prefix: str = "ops"
    limit: int = 3
    def apply(self, ctx, op):
        import sys
        print(f"{self.prefix}: {len(list(op.walk()))} limit={self.limit}", file=sys.stderr)
'''


def make_dist(root: Path, name: str = "test-count-ops", target: str = "xpu_test_plugin:CountOps") -> Path:
    """A minimal installed distribution (dist-info + module) declaring one pass entry point."""
    (root / "xpu_test_plugin.py").write_text(PLUGIN)
    info = root / "xpu_test_plugin-0.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: xpu-test-plugin\nVersion: 0.3\n")
    (info / "entry_points.txt").write_text(f"[xpu_passes.passes]\n{name} = {target}\n")
    return root


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_dist(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("xpu_test_plugin", None)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("builtin.module(a, b{x=1 y=2}, c)", "builtin.module(a,b{x=1 y=2},c)"),
        ("a,b{x=1}", "builtin.module(a,b{x=1})"),
        ("builtin.module(tt.func(cse), b{flag})", "builtin.module(cse,b{flag=true})"),
        ('p{s="a b" l={1,2}}', 'builtin.module(p{s="a b" l=1,2})'),
    ],
)
def test_pipeline_text_round_trip(text: str, expected: str) -> None:
    assert r.format_pipeline(r.parse_pipeline(text)) == expected
    assert r.parse_pipeline(r.format_pipeline(r.parse_pipeline(text))) == r.parse_pipeline(text)


@pytest.mark.parametrize(
    "text, column",
    [("a{x=1", 2), ("a,", 3), ("builtin.module(a", 17), ("a b", 3), ('a{s="x}', 5)],
)
def test_pipeline_syntax_errors_are_located(text: str, column: int) -> None:
    with pytest.raises(r.PipelineSyntaxError) as e:
        r.parse_pipeline(text)
    assert e.value.column == column


def test_unknown_pass_names_closest() -> None:
    msg = r.unknown_pass_message("tritonintelgpu-remove-layout-conversion")
    assert msg.startswith("unknown pass 'tritonintelgpu-remove-layout-conversion'; did you mean ")
    assert "'tritonintelgpu-remove-layout-conversions'" in msg
    assert "did you mean" not in r.unknown_pass_message("zzzzzzzz")


def test_kinds_and_aliases() -> None:
    assert r.is_native("canonicalize") and r.is_native("tritongpu-coalesce")
    assert not r.is_native(r.RLC)  # ours shadows Intel's
    assert r.is_native("native-" + r.RLC)
    assert r.canonical_name("tritonintelgpu-raise-block-pointer") == "triton-raise-block-pointer"
    kinds = {i.name: i.kind for i in r.list_passes()}
    assert kinds[r.MBP] == "ours" and kinds["cse"] == "native" and kinds["native-" + r.MBP] == "native"


def test_options_of_our_passes_kebab_and_typed() -> None:
    p = r.make_pass(r.PassSpec(r.LEGAL, {"fold-register-permutations": "false"}))
    assert p.fold_register_permutations is False  # type: ignore[attr-defined]
    with pytest.raises(r.PassOptionError, match="'tritonintelgpu-rewrite-tensor-pointer': unknown option 'gard'"):
        r.make_pass(r.PassSpec(r.RTP, {"gard": "false"}))
    with pytest.raises(r.PassOptionError, match="expected true or false"):
        r.make_pass(r.PassSpec(r.RTP, {"guard": "maybe"}))


def test_order_checks() -> None:
    r.check_order([r.MBP, r.OBIO, r.RLC, r.LEGAL])
    with pytest.raises(r.PipelineError, match="must run after"):
        r.check_order([r.OBIO, r.RLC])
    with pytest.raises(r.PipelineError, match="must be followed by"):
        r.check_order([r.MBP, r.OBIO])
    with pytest.raises(r.PipelineError, match="must run before 'convert-triton-to-tritongpu'"):
        r.check_order(["convert-triton-to-tritongpu", "tritonintelgpu-raise-block-pointer"])


def test_register_pass_decorator() -> None:
    from dataclasses import dataclass

    from xdsl.passes import ModulePass

    import xpu_passes

    @xpu_passes.register_pass
    @dataclass(frozen=True)
    class Mine(ModulePass):
        name = "test-registered-pass"
        level: int = 1

        def apply(self, ctx: object, op: object) -> None:
            pass

    try:
        assert r.make_pass(r.PassSpec("test-registered-pass", {"level": "4"})) == Mine(level=4)
        assert {i.name: i.kind for i in r.list_passes()}["test-registered-pass"] == "registered"
    finally:
        r._REGISTERED.pop("test-registered-pass")


def test_one_registry_transforms_passes_is_its_view_of_ours() -> None:
    """`transforms.base.register` is `register_pass` and `transforms.PASSES` a view of OURS: a pass class is
    found the same way from both; a class of another module named like one of ours does not shadow it."""
    from dataclasses import dataclass

    from xdsl.passes import ModulePass

    from xpu_passes import transforms

    assert transforms.register is r.register_pass and list(transforms.PASSES) == list(r.OURS)
    assert all(transforms.PASSES[n]() is r.pass_class(n) for n in r.OURS)
    assert all(r._REGISTERED[n] is r.pass_class(n) for n in r.OURS)

    @r.register_pass
    @dataclass(frozen=True)
    class Impostor(ModulePass):
        name = r.RLC

        def apply(self, ctx: object, op: object) -> None:
            pass

    assert r.pass_class(r.RLC) is not Impostor and {i.name: i.kind for i in r.list_passes()}[r.RLC] == "ours"


def test_entry_point_listed_lazily_and_loaded_when_used(installed: Path) -> None:
    info = {i.name: i for i in r.list_passes()}["test-count-ops"]
    assert (info.kind, info.package, info.target) == ("installed", "xpu-test-plugin 0.3", "xpu_test_plugin:CountOps")
    assert "xpu_test_plugin" not in sys.modules  # listing imports nothing
    p = r.make_pass(r.PassSpec("test-count-ops", {"prefix": "n", "limit": "7"}))
    assert (p.prefix, p.limit) == ("n", 7)  # type: ignore[attr-defined]
    with pytest.raises(r.PipelineError, match="must run after 'tritonintelgpu-materialize-block-pointer'"):
        r.check_order(["test-count-ops"])


def test_python_pass_is_python_passes_entry(installed: Path) -> None:
    passes = r.python_passes()
    for name in (r.RLC, "test-count-ops", "no-such-pass", "canonicalize"):
        one = r.python_pass(name)
        assert (one is None) == (name not in passes)
        assert one is None or one() is passes[name]()


def test_our_pass_by_flag_scans_no_entry_point() -> None:
    """Start-up: resolving one of ours does not import importlib.metadata (the scan); an
    unknown name does."""
    code = ("import sys, xpu_passes.registry as r\n"
            "print(r.python_pass(sys.argv[1]) is None, 'importlib.metadata' in sys.modules)")
    for name, expected in ((r.RLC, "False False"), ("no-such-pass", "True True")):
        out = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True, check=True).stdout
        assert out.strip() == expected, name


def test_broken_entry_point_names_the_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_dist(tmp_path, "test-broken", "xpu_test_plugin:Missing")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(r.UnknownPassError, match="pass 'test-broken' \\(xpu_test_plugin:Missing\\) cannot be loaded"):
        r.pass_class("test-broken")
    sys.modules.pop("xpu_test_plugin", None)


def test_importing_registry_is_cheap() -> None:
    code = "import sys, xpu_passes, xpu_passes.registry as r; r.list_passes(); " \
           "print(any(m.startswith(('xdsl', 'triton', 'xpu_passes.transforms')) for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_pipeline_specs_know_their_column() -> None:
    specs = r.parse_pipeline("builtin.module(cse, tritongpu-coalesc)")
    assert [s.column for s in specs] == [16, 21]
    assert r.unknown_pass_message(specs[1].name, specs[1].column).startswith(
        "unknown pass 'tritongpu-coalesc' at column 21 of the pipeline; did you mean 'tritongpu-coalesce'")


def test_listed_options_of_ours_are_their_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """-list-passes shows ours' options from a static table (no xDSL import): it must say what the
    dataclasses take, name for name, type for type, default for default (those an environment
    variable may set, as they are without it); a test-only hook is no option."""
    monkeypatch.delenv("XPU_PASSES_RLC_CHECK", raising=False)

    def default(f: dataclasses.Field) -> object:  # type: ignore[type-arg]
        return f.default_factory() if f.default is dataclasses.MISSING else f.default  # type: ignore[misc]

    for name in r.OURS:
        cls = r.pass_class(name)
        hints = typing.get_type_hints(cls)
        fields = [(f.name.replace("_", "-"), hints[f.name], default(f)) for f in r.option_fields(cls)]
        listed = [(o.name, o.kind, o.default) for o in r.OUR_OPTIONS.get(name, ())]
        assert listed == fields, name
    assert r.OUR_OPTIONS[r.RLC][0].name == "max-backward-remat-iterations"  # the table is not empty
    assert "trial_hook" not in [f.name for f in r.option_fields(r.pass_class(r.RLC))]


def test_bad_option_value_names_option_and_type() -> None:
    with pytest.raises(r.PassOptionError, match=r"option 'max-backward-remat-iterations=abc': expected an integer, got 'abc'$"):
        r.make_pass(r.PassSpec(r.RLC, {"max-backward-remat-iterations": "abc"}))
    assert r.make_pass(r.PassSpec(r.RLC, {"max-backward-remat-iterations": "0x3"})).max_backward_remat_iterations == 3
