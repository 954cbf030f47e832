"""The layout of src/xpu_passes stays honest: no import cycle between packages, no import of
another package's private name, no import of a package from a higher layer (docs/architecture.md,
"Layers"), no file over 450 lines.

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

# Allowed exceptions, each with its reason. Empty them as the reasons go away.
LARGE_FILES: dict[str, str] = {
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

# Reads and writes of xDSL's private attributes (`op._operands`, `parser._current_token`, ...)
# outside the adaptation modules, per package: they may only go down (an xDSL upgrade should
# touch ir/xdsl_adapt.py and ir/xdsl_text.py alone). Most left are hot paths that inline
# xDSL's use lists and lexer state for speed (ir/journal.py, the fast parser, RLC's slices).
XDSL_ADAPTATION = {"ir/xdsl_adapt.py", "ir/xdsl_text.py"}
XDSL_PRIVATE_BUDGET: dict[str, int] = {  # (before s13: 261; s13: 250; s14: 206, the fast parser's cursor through ir/xdsl_text)
    "frontend": 58,  # the printer's and parser's subclass hooks (overrides), op and block links
    "ir": 78,  # journal.py, clone.py, journal_check.py: use lists and op links, inlined
    "layouts": 12,
    "transforms": 58,  # RemoveLayoutConversions' slices and materialization
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


def xdsl_private_names() -> set[str]:
    """Private names xDSL's own classes define (methods, fields, `self._x = ...`)."""
    import xdsl

    names: set[str] = set()
    for p in Path(xdsl.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(), str(p))):
            if isinstance(node, ast.ClassDef):
                for st in node.body:
                    if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        names.add(st.name)
                    elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                        names.add(st.target.id)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id == "self"):
                names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def xdsl_private_uses(names: set[str], root: Path = SRC) -> dict[str, list[str]]:
    """Package -> `file:line name` for each attribute access `x._name` with `_name` xDSL's,
    outside XDSL_ADAPTATION (a private name of ours that xDSL also defines counts too)."""
    out: dict[str, list[str]] = defaultdict(list)
    for p in sorted(root.rglob("*.py")):
        rel = str(p.relative_to(root))
        if rel in XDSL_ADAPTATION:
            continue
        for node in ast.walk(ast.parse(p.read_text(), str(p))):
            if isinstance(node, ast.Attribute) and node.attr in names:
                pkg = rel.split("/")[0].removesuffix(".py")
                out[pkg].append(f"{rel}:{node.lineno} {node.attr}")
    return out


def test_xdsl_private_attributes_stay_behind_the_adaptation_modules() -> None:
    uses = xdsl_private_uses(xdsl_private_names())
    counts = {pkg: len(v) for pkg, v in uses.items()}
    grown = {pkg: (n, XDSL_PRIVATE_BUDGET.get(pkg, 0)) for pkg, n in counts.items() if n > XDSL_PRIVATE_BUDGET.get(pkg, 0)}
    assert not grown, (f"more reads of xDSL's private attributes than XDSL_PRIVATE_BUDGET allows (now, budget): "
                       f"{grown}; use or add an accessor in ir/xdsl_adapt.py\n" + "\n".join(
                           u for pkg in grown for u in uses[pkg]))
    fewer = {pkg: (counts.get(pkg, 0), b) for pkg, b in XDSL_PRIVATE_BUDGET.items() if counts.get(pkg, 0) < b}
    assert not fewer, f"fewer reads of xDSL's private attributes than budgeted (now, budget): lower XDSL_PRIVATE_BUDGET: {fewer}"


def test_xdsl_private_attribute_finder(tmp_path: Path) -> None:
    """The count can fail: planted reads are found, public ones and the adaptation module's are not."""
    names = xdsl_private_names()
    assert {"_operands", "_current_token", "_next_use"} <= names and "operands" not in names
    (tmp_path / "ir").mkdir()
    (tmp_path / "frontend").mkdir()
    (tmp_path / "frontend" / "m.py").write_text("op._operands\nop.operands\nparser._current_token.text\nself._mine\n")
    (tmp_path / "ir" / "xdsl_adapt.py").write_text("op._operands\n")
    assert xdsl_private_uses(names, tmp_path) == {"frontend": ["frontend/m.py:1 _operands", "frontend/m.py:3 _current_token"]}


def test_no_file_over_450_lines() -> None:
    sizes = {str(p.relative_to(SRC)): len(p.read_text().splitlines()) for p in SRC.rglob("*.py")}
    bad = [f"{p}: {n} lines" for p, n in sorted(sizes.items()) if n > MAX_LINES and p not in LARGE_FILES]
    assert not bad, "\n".join(bad)
    stale = [p for p in LARGE_FILES if sizes.get(p, 0) <= MAX_LINES]
    assert not stale, f"no longer over {MAX_LINES} lines, drop from LARGE_FILES: {stale}"


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


# Module-level mutable objects (dicts, lists, sets, id tables, ... bound at a module's top level)
# that another module reads, each with why that is safe (docs/architecture.md, "State, options and
# concurrency"): anything else mutable stays its own module's, so no module-level switch or memo is
# shared by accident.
SHARED_STATE: dict[tuple[str, str], str] = {
    ("frontend.verifier", "VERIFIED"): "the signatures the parser verified, reused by RLC's checks; an IdTable",
    ("frontend.fast.printer", "_known"): "the canonical attribute by id, read by the alias printer in its hot path; "
                                         "an IdTable",
    ("frontend.fast.ops_attrs", "FORMS"): "fast op forms, filled at import, read-only after",
    ("frontend.fast.ops_mem", "FORMS"): "fast op forms, filled at import, read-only after",
    ("frontend.fast.ops_more", "FORMS"): "fast op forms, filled at import, read-only after",
    ("frontend.upstream_forms", "FORMS"): "upstream ops' fast forms, filled at import, read-only after",
    ("interp.core", "HANDLERS"): "the interpreter's op handlers, registered at import, read-only after",
}
_CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque"}
_TABLES = {"IdTable", "WeakKeyDictionary", "WeakValueDictionary", "WeakSet"}  # (made to be written)
_MUTATORS = {"append", "add", "setdefault", "update", "pop", "popitem", "clear", "extend", "insert", "remove",
             "discard", "put"}


def _mutated_names(tree: ast.AST) -> set[str]:
    """Names (`x` of `x[k] = v`, `x.append(v)`, `m.x.clear()`, `del x[k]`...) whose object is changed."""
    out = set()
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            target = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            target = node.func.value
        if isinstance(target, ast.Name):
            out.add(target.id)
        elif isinstance(target, ast.Attribute):
            out.add(target.attr)
    return out


def module_level_mutables(root: Path = SRC) -> dict[str, set[str]]:
    """Module (relative to xpu_passes) -> names its top level binds to a table (an IdTable, a weak
    dictionary...) or to a container some module changes (a constant dict is not counted)."""
    out: dict[str, set[str]] = defaultdict(set)
    trees = {p: ast.parse(p.read_text(), str(p)) for p in sorted(root.rglob("*.py"))}
    changed = set().union(*map(_mutated_names, trees.values()))
    for p, tree in trees.items():
        module = ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            call = ast.unparse(value.func).split(".")[-1] if isinstance(value, ast.Call) else ""
            container = call in _CONTAINERS or isinstance(
                value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp))
            for t in targets:
                if isinstance(t, ast.Name) and (call in _TABLES or (container and t.id in changed)):
                    out[module].add(t.id)
    return out


def shared_mutables(root: Path = SRC) -> set[tuple[str, str, str]]:
    """(owner module, name, reading module) for every module that imports another's module-level
    mutable (`from m import NAME`) or reads it through the module (`m.NAME`, `import a.m as m`)."""
    owned = module_level_mutables(root)
    out = set()
    for p in sorted(root.rglob("*.py")):
        module = ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(p.read_text(), str(p))
        aliases: dict[str, str] = {}  # local name -> our module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("xpu_passes"):
                base = node.module.removeprefix("xpu_passes").lstrip(".")
                for a in node.names:
                    sub = f"{base}.{a.name}".lstrip(".")
                    if sub in owned or (root / sub.replace(".", "/")).is_dir():
                        aliases[a.asname or a.name] = sub
                    elif base in owned and a.name in owned[base] and base != module:
                        out.add((base, a.name, module))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("xpu_passes.") and a.asname:
                        aliases[a.asname] = a.name.removeprefix("xpu_passes.")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                owner = aliases[node.value.id]
                if owner != module and node.attr in owned.get(owner, ()):
                    out.add((owner, node.attr, module))
    return out


def test_module_level_mutables_stay_their_modules() -> None:
    bad = sorted(f"{reader} reads {owner}.{name}" for owner, name, reader in shared_mutables()
                 if (owner, name) not in SHARED_STATE)
    assert not bad, "module-level mutable state read by another module (list it in SHARED_STATE with why):\n" + \
        "\n".join(bad)
    stale = set(SHARED_STATE) - {(o, n) for o, n, _ in shared_mutables()}
    assert not stale, f"SHARED_STATE lists state no other module reads: {stale}"


def test_shared_mutable_finder(tmp_path: Path) -> None:
    """The check can fail: a planted read of another module's table is found, a constant is not."""
    (tmp_path / "a.py").write_text("T: dict[str, int] = {}\nK = {1: 2}\nS = set()\nS.add(1)\n")
    (tmp_path / "b.py").write_text("from xpu_passes.a import T, K\nfrom xpu_passes import a\nx = a.S\ny = a.K\n"
                                   "T['x'] = 1\n")
    assert shared_mutables(tmp_path) == {("a", "T", "b"), ("a", "S", "b")}
