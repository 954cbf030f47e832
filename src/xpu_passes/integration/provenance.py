"""Where our passes come from, for triton's cache key: the distributions providing them, their versions
and a hash of their sources (an edited pass changes the key without a new version)."""

from __future__ import annotations

from functools import cache

from xpu_passes import registry


@cache
def _distributions() -> dict[str, list[str]]:
    from importlib.metadata import packages_distributions

    return packages_distributions()


@cache
def source_hash(top: str) -> str:
    """8 hex digits of the sources of top-level module/package `top` (as triton hashes its own):
    an edit to a pass (an editable install, a script) changes the cache key without a new version."""
    import hashlib
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec(top)
    h = hashlib.sha256()
    if spec is not None and spec.origin and spec.origin not in ("built-in", "frozen"):
        origin = Path(spec.origin)
        files = sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
        for f in files:
            h.update(f.read_bytes())
    return h.hexdigest()[:8]


def providers(names: list[str]) -> dict[str, str]:
    """Distribution -> version+source hash of the packages that provide the passes `names` (for the cache key)."""
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str] = {}
    passes = registry.python_passes()
    for name in names:
        top = passes[name]().__module__.split(".")[0]
        if top not in _distributions():
            _distributions.cache_clear()  # installed since (sys.path changes): look again
        for dist in _distributions().get(top, [top]):
            try:
                v = version(dist)
            except PackageNotFoundError:  # a pass defined in a script: its source is all we know
                v = "unpackaged"
            out[dist] = f"{v}+{source_hash(top)}"
    return dict(sorted(out.items()))
