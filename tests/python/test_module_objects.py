"""No module-level object of a mutable class of ours: what a pass run keeps is the run's.

Raising kept its polynomial leaves' order in one module-level `_Order()` that every run reset:
two runs in two threads cleared each other's (another TTGIR than a serial compile). Per-run
state lives in the run (its own objects, or a ContextVar it scopes: transforms/base.py, poly.py);
process-wide tables are id tables or dicts, which test_layering_state.py and docs/architecture.md's
memo table account for. This finds the other kind: `NAME = OurClass(...)` at a module's top level,
where OurClass is neither frozen (a frozen dataclass, an xDSL attribute, an enum...) nor listed below.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "xpu_passes"

# Module-level objects of mutable classes of ours, each with why sharing it is safe.
ALLOWED: dict[tuple[str, str], str] = {
    ("registry", "OUR_PASSES"): "a read-only Mapping view of OURS: it holds nothing",
}
# Bases whose instances do not change (xDSL attributes, enums, tuples) or that are tables
# test_layering_state.py accounts for.
_FROZEN_BASES = {"ParametrizedAttribute", "Data", "TypeAttribute", "Enum", "IntEnum", "StrEnum", "NamedTuple",
                 "Exception", "OpTrait"}
_TABLES = {"IdTable"}


def _frozen(node: ast.ClassDef) -> bool:
    for d in node.decorator_list:
        if isinstance(d, ast.Call) and any(k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value
                                           for k in d.keywords):
            return True
    return any(ast.unparse(b).split(".")[-1].split("[")[0] in _FROZEN_BASES for b in node.bases)


def module_objects(root: Path = SRC) -> set[tuple[str, str, str]]:
    """(module, name, class) for each top-level `name = Class(...)` (or `Class.factory(...)`) whose
    Class is a mutable class of ours."""
    trees = {p: ast.parse(p.read_text(), str(p)) for p in sorted(root.rglob("*.py"))}
    mutable, frozen = set(), set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                (frozen if _frozen(node) or node.name in _TABLES else mutable).add(node.name)
    mutable -= frozen  # (a name defined both ways: not judged)
    out = set()
    for p, tree in trees.items():
        module = ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if not isinstance(value, ast.Call):
                continue
            cls = next((part for part in ast.unparse(value.func).split(".") if part in mutable), None)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[union-attr]
            for t in targets:
                if cls is not None and isinstance(t, ast.Name):
                    out.add((module, t.id, cls))
    return out


def test_no_module_level_object_of_a_mutable_class_of_ours() -> None:
    found = {(m, n): c for m, n, c in module_objects()}
    bad = sorted(f"{m}.{n} = {c}(...)" for (m, n), c in found.items() if (m, n) not in ALLOWED)
    assert not bad, ("module-level objects of mutable classes (per-run state belongs to the run; list a shared "
                     "one in ALLOWED with why it is safe):\n" + "\n".join(bad))
    assert not set(ALLOWED) - set(found), f"ALLOWED lists objects that are gone: {set(ALLOWED) - set(found)}"


def test_the_finder_finds_a_planted_object(tmp_path: Path) -> None:
    """The check can fail: a module-level order object (as raising's was) is found; a frozen one,
    an attribute, an id table and a factory's result of a frozen class are not."""
    (tmp_path / "m.py").write_text(
        "from dataclasses import dataclass\n"
        "class _Order:\n    def __init__(self):\n        self.index = {}\n"
        "@dataclass(frozen=True)\nclass Lin:\n    terms: tuple = ()\n    @staticmethod\n    def const(c): return Lin()\n"
        "class Tok(ParametrizedAttribute):\n    pass\n"
        "class IdTable(dict):\n    pass\n"
        "_ORDER = _Order()\nZERO = Lin()\nONE = Lin.const(1)\nT = Tok()\nK = IdTable()\n")
    assert module_objects(tmp_path) == {("m", "_ORDER", "_Order")}


def _memo_section() -> str:
    text = (SRC.parents[1] / "docs" / "architecture.md").read_text()
    start = text.index("### Process-wide memos")
    end = text.find("\n## ", start)
    return text[start:end if end >= 0 else None]


def test_every_module_level_table_is_in_the_memo_table() -> None:
    """docs/architecture.md's "Process-wide memos" names every module-level table (with why sharing it
    is safe): one added without is found here."""
    from test_layering_state import module_level_mutables

    section = _memo_section()
    missing = sorted(f"{m}.{n}" for m, names in module_level_mutables().items() for n in names
                     if f"`{n}`" not in section and f"{n}/" not in section and f"/{n}`" not in section
                     and f".{n}`" not in section and f".{n}/" not in section)
    assert not missing, "module-level tables not in docs/architecture.md's memo table:\n" + "\n".join(missing)
