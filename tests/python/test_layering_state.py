"""What src/xpu_passes reaches into beyond imports: xDSL's private attributes (only through the
adaptation modules, a budget per package that may only go down) and other modules' module-level
tables (only those listed in SHARED_STATE with why sharing them is safe; docs/architecture.md,
"State, options and concurrency"). test_layering.py checks the imports themselves.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "xpu_passes"

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
