"""The layout of src/xpu_passes stays honest: no import cycle between packages, no import of
another package's private name, no import of a package from a higher layer (docs/architecture.md,
"Layers"); and no Python file over 450 lines, in the sources, the tests or the benchmarks.

A package is a directory right under xpu_passes/ (dialects, layouts, ...) or a top-level module
(registry.py, ...). Every import counts, also one inside a function (a lazy import is still a
dependency), except those under `if TYPE_CHECKING:` (annotations only).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "xpu_passes"
MAX_LINES = 450
# The folders whose Python files MAX_LINES covers (tests and benchmarks are code a newcomer reads too).
SIZED_FOLDERS = ("src", "tests", "benchmarks", "examples")

# Allowed exceptions, each with its reason. Empty them as the reasons go away.
LARGE_FILES: dict[str, str] = {  # path from the repository's root -> why
}
UPWARD_IMPORTS: dict[tuple[str, str], str] = {
}

PRIVATE_IMPORTS: dict[tuple[str, str], str] = {
}

# Imports of another distribution's private module or name (xDSL, triton, the standard library), by
# importing module: none but triton's C++ bindings, which have no public path (triton's own backends
# import `triton._C.libtriton` too); the value is the prefix allowed.
FOREIGN_PRIVATE_IMPORTS: dict[str, str] = {
    "driver.native": "triton._C",
    "integration.native_passes": "triton._C",
    "integration.oracle": "triton._C",
    "integration.pipeline": "triton._C",
}

def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(SRC.rglob("*.py")):
        parts = list(p.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, list[str], int]]:
    """(imported module, names imported from it, line) for every xpu_passes import in `path`."""
    tree = ast.parse(path.read_text(), str(path))
    skip = _type_checking_nodes(tree)
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            plain = [n for n in names if f"{target}.{n}" not in modules]
            if plain or len(plain) == len(names):  # (`from pkg import submodule` imports the submodule)
                out.append((target, plain, node.lineno))
            out += [(f"{target}.{n}", [], node.lineno) for n in names if f"{target}.{n}" in modules]
    return [(t, ns, line) for t, ns, line in out if t == "xpu_passes" or t.startswith("xpu_passes.")]


def _owner(target: str, modules: dict[str, Path]) -> str:
    while target not in modules and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "xpu_passes"


def _graph() -> list[tuple[str, str, list[str], int]]:
    """(importing module, imported module, names, line), modules relative to xpu_passes."""
    modules = _modules()
    edges = []
    for name, path in modules.items():
        for target, names, line in _imports(name, path, modules):
            owner = _owner(target, modules)
            if owner != name:
                edges.append((name, owner, names, line))
    return edges


def _short(module: str) -> str:
    return module.split(".", 1)[1] if "." in module else module


def layers() -> dict[str, int]:
    """Package -> layer, from docs/architecture.md's numbered list under "## Layers"."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    out = {}
    for m in re.finditer(r"^(\d+)\. (.*)$", section, re.M):
        for item in re.findall(r"`([\w/.]+)`", m.group(2)):
            if item.endswith("/") or item.endswith(".py"):
                name = item.removesuffix("/").removesuffix(".py").split("/")[0]
                out["xpu_passes" if name == "__init__" else name] = int(m.group(1))
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_cycle_between_packages() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    why: dict[tuple[str, str], str] = {}
    for a, b, _, line in _graph():
        pa, pb = package(a), package(b)
        if pa != pb and (_short(a), _short(b)) not in UPWARD_IMPORTS:
            graph[pa].add(pb)
            why.setdefault((pa, pb), f"{_short(a)}:{line} imports {_short(b)}")
    cycles = _cycles(graph)
    detail = [[why[(a, b)] for a in c for b in c if (a, b) in why] for c in cycles]
    assert not cycles, f"import cycles between packages: {cycles}\n{detail}"


def test_no_private_name_of_another_package() -> None:
    bad = [f"{_short(a)}:{line} imports {n} from {_short(b)}" for a, b, names, line in _graph()
           for n in names if n.startswith("_") and not n.startswith("__") and package(a) != package(b)
           and (_short(a), n) not in PRIVATE_IMPORTS]
    bad += [f"{_short(a)}:{line} imports the private module {_short(b)}" for a, b, _, line in _graph()
            if package(a) != package(b) and (_short(a), _short(b)) not in PRIVATE_IMPORTS
            and any(p.startswith("_") and not p.startswith("__") for p in b.split(".")[1:])]
    assert not bad, "\n".join(bad)


def foreign_private_imports(root: Path = SRC) -> list[tuple[str, str, int]]:
    """(importing module, private module or name imported, line) for every import from outside
    xpu_passes of a name or module path part that starts with one underscore."""
    out = []
    for p in sorted(root.rglob("*.py")):
        module = ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(p.read_text(), str(p))):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                if target.split(".")[0] != "xpu_passes" and any(
                        part.startswith("_") and not part.startswith("__") for part in target.split(".")):
                    out.append((module, target, node.lineno))
                    break
    return out


def test_no_private_name_of_another_distribution() -> None:
    bad = [f"{m}:{line} imports {t}" for m, t, line in foreign_private_imports()
           if not t.startswith(FOREIGN_PRIVATE_IMPORTS.get(m, "\0"))]
    assert not bad, "\n".join(bad)


def test_foreign_private_import_finder(tmp_path: Path) -> None:
    """The check can fail: planted private imports are found, public ones are not."""
    (tmp_path / "m.py").write_text("from xdsl.parser import _x\nimport triton._C\nfrom xdsl.ir import Block\n"
                                   "from xpu_passes.ir import _y\n")
    assert foreign_private_imports(tmp_path) == [("m", "xdsl.parser._x", 1), ("m", "triton._C", 2)]


def test_imports_go_down_the_layers() -> None:
    order = layers()
    packages = {package(m) for m in _modules()}
    assert not packages - set(order), f"packages without a layer in docs/architecture.md: {packages - set(order)}"
    bad = []
    for a, b, _, line in _graph():
        pa, pb = package(a), package(b)
        if order[pb] > order[pa] and (_short(a), _short(b)) not in UPWARD_IMPORTS:
            bad.append(f"{_short(a)}:{line} (layer {order[pa]}) imports {_short(b)} (layer {order[pb]})")
    assert not bad, "\n".join(bad)


def oversized(root: Path = ROOT, folders: tuple[str, ...] = SIZED_FOLDERS) -> dict[str, int]:
    """Python files under `folders` of `root` with more than MAX_LINES lines: path from `root` -> lines."""
    out = {}
    for folder in folders:
        for p in sorted((root / folder).rglob("*.py")) if (root / folder).is_dir() else ():
            if (n := len(p.read_text().splitlines())) > MAX_LINES:
                out[p.relative_to(root).as_posix()] = n
    return out


def test_no_file_over_450_lines() -> None:
    big = oversized()
    bad = [f"{p}: {n} lines" for p, n in sorted(big.items()) if p not in LARGE_FILES]
    assert not bad, "\n".join(bad)
    stale = [p for p in LARGE_FILES if p not in big]
    assert not stale, f"no longer over {MAX_LINES} lines, drop from LARGE_FILES: {stale}"


def test_size_finder(tmp_path: Path) -> None:
    """The check can fail: 451 lines is over in any of the folders, 450 is not, other folders are not read."""
    for rel, lines in (("tests/python/test_big.py", 451), ("benchmarks/big.py", 451), ("src/pkg/sub/big.py", 451),
                       ("examples/ok.py", 450), ("tests/ok.py", 450), ("docs/big.py", 451)):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n" * lines)
    assert oversized(tmp_path) == {"src/pkg/sub/big.py": 451, "tests/python/test_big.py": 451,
                                   "benchmarks/big.py": 451}
    assert set(SIZED_FOLDERS) >= {"src", "tests", "benchmarks"}


def test_upward_exceptions_are_still_needed() -> None:
    edges = {(_short(a), _short(b)) for a, b, _, _ in _graph()}
    stale = [e for e in UPWARD_IMPORTS if e not in edges]
    assert not stale, f"these imports are gone, drop them from UPWARD_IMPORTS: {stale}"


@pytest.mark.parametrize("text, cycles", [
    ("a b\nb c\nc a\nc d", [["a", "b", "c"]]),
    ("a b\nb c\nc d", []),
])
def test_cycle_finder(text: str, cycles: list[list[str]]) -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for line in text.splitlines():
        a, b = line.split()
        graph[a].add(b)
    assert _cycles(graph) == cycles


def test_layers_read_from_the_doc() -> None:
    order = layers()
    assert order["ir"] < order["dialects"] < order["layouts"] < order["frontend"] < order["transforms"]
    assert order["registry"] == order["ir"]
