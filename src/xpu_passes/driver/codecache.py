"""Dataclass methods compiled once per machine, not at every `xpu-opt` start-up.

Used by `xpu-opt` alone, for the length of its run (`with installed():` in driver/cli.main;
importing this module changes nothing): the library, the triton plugin (users' processes)
and whatever runs after `xpu-opt`'s main in the same process see `dataclasses` as it is.
Inside that block `dataclasses` has a module global `exec` (shadowing the builtin); Python
3.11 offers no other hook into the compile of the method texts (no option of `dataclass`,
no audit event that can substitute the result). Without the cache, `xpu-opt` on an empty
module costs ~27% more CPU (268 -> 345 ms) and on a 50-op kernel ~32% (454 -> 600 ms).

CPython's `dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__`,
`__setattr__`... as source text and compiles it with `exec`, at every import: xDSL
defines hundreds of dataclasses (every attribute and op), so an `xpu-opt` start spent
about 0.1 s compiling ~1,000 such texts (~575 distinct). Here `exec` inside the
`dataclasses` module alone looks the text's code object up first: in this process, then
in a file under the user's cache directory (what `.pyc` files are for modules), keyed by
the exact text and the interpreter's cache tag. The code is what `exec` compiles from
the same text (same file name, the flags of `dataclasses`, which has no `__future__`
import), so the functions are the same. The file keeps each code marshalled apart and
only those a process asks for are read (it holds what every process wrote). CPython 3.13
reduces this cost itself (one `exec` per class, `dataclasses._FuncBuilder`); nothing
here changes xDSL.

XPU_PASSES_CODE_CACHE=0 turns the file off (the in-process table stays); a file that
cannot be read or written is ignored.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

_codes: dict[str, CodeType] = {}  # this process's
_stored: dict[str, bytes] = {}  # the file's, marshalled
_added: dict[str, bytes] = {}  # compiled by this process, not in the file
_file: list[str | None] = []  # the file to read before the first lookup, if not read yet
_MAX = 20_000  # texts kept in the file before it starts afresh (classes made at run time)


def _path() -> str | None:
    if os.environ.get("XPU_PASSES_CODE_CACHE", "1") == "0" or sys.implementation.cache_tag is None:
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "xpu-passes", f"dataclass-code-2.{sys.implementation.cache_tag}.marshal")


def _load(path: str) -> dict[str, bytes]:
    try:
        with open(path, "rb") as f:
            data = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def _cached_exec(source: Any, globals: Any = None, locals: Any = None) -> None:
    if source.__class__ is str:
        code = _codes.get(source)
        if code is None:
            if _file:
                path = _file.pop()
                if path is not None:
                    _stored.update(_load(path))
            stored = _stored.get(source)
            try:
                code = marshal.loads(stored) if stored is not None else None
            except (EOFError, ValueError, TypeError):
                code = None
            if code.__class__ is not CodeType:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                _added[source] = marshal.dumps(code)
            _codes[source] = code
        source = code
    builtins.exec(source, globals, locals)


def _save(path: str) -> None:
    if not _added:
        return
    try:
        merged = _load(path)  # (another process may have written meanwhile)
        if len(merged) + len(_added) > _MAX:
            merged = {}
        merged.update(_added)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(marshal.dumps(merged))
        os.replace(tmp, path)  # atomic: readers see the old file or the new one
    except (OSError, ValueError):
        pass


@contextmanager
def installed() -> Iterator[None]:
    """Route `dataclasses`' exec through the cache inside this block; on leaving it,
    `dataclasses` is as it was and what this process compiled is written to the file."""
    if "exec" in vars(dataclasses):  # (someone else's, or a block already open: leave it)
        yield
        return
    path = _path()
    _file[:] = [path]  # (read on the first text compiled: `--list-passes` compiles none)
    dataclasses.exec = _cached_exec  # type: ignore[attr-defined]  (a module global shadows the builtin)
    try:
        yield
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
        _file.clear()
        if path is not None:
            _save(path)
            _added.clear()
