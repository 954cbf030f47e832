"""triton-xpu's native passes, run on a triton module: each row of the static table
(`xpu_passes.native_table`) becomes a PassManager `add_*` call with its typed options.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xpu_passes.native_table import NATIVE_BY_NAME, NATIVE_TABLE, NativeOption, NativeRow
from xpu_passes.registry import (
    NATIVE_PREFIX,
    PassOptionError,
    PassSpec,
    UnknownPassError,
    canonical_name,
    convert_option,
    unknown_pass_message,
)

__all__ = ["NATIVE_BY_NAME", "NATIVE_TABLE", "NativeOption", "NativePass", "NativePassError", "NativeRow",
           "native_options", "native_passes", "run_native"]


class NativePassError(RuntimeError):
    """A native pass failed; the message is triton's diagnostic."""


@dataclass(frozen=True)
class NativePass:
    name: str
    add: Callable[[Any, dict[str, Any]], None]  # add(pm, options) adds it to a triton-xpu PassManager
    options: tuple[NativeOption, ...] = ()
    summary: str = ""


def native_passes() -> dict[str, NativePass]:
    """Every pass the triton-xpu wheel's bindings expose, by MLIR flag (triton imported when one is added)."""
    return dict(_native_table())


@functools.cache
def _native_table() -> dict[str, NativePass]:
    """Built once per process: every native round trip looks passes up here."""
    return {row.name: NativePass(row.name, _native_adder(row), row.options, row.summary) for row in NATIVE_TABLE}


def _binding(path: str) -> Callable[..., None]:
    from triton._C import libtriton

    obj: Any = libtriton
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _native_adder(row: NativeRow) -> Callable[[Any, dict[str, Any]], None]:
    def add(pm: Any, options: dict[str, Any]) -> None:
        args = [options.get(o.name, o.default) for o in row.options]
        _binding(row.binding)(pm, *args)

    return add


def native_options(spec: PassSpec, compile_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Typed options of a native pass: from the text, else from the compile options, else the default."""
    row = NATIVE_BY_NAME[_native_key(spec.name)]
    by_name = {o.name: o for o in row.options}
    for key in spec.options:
        if key not in by_name:
            have = ", ".join(by_name) or "none"
            raise PassOptionError(f"pass '{spec.name}': unknown option '{key}' (options: {have})")
    compile_options = compile_options or {}
    out: dict[str, Any] = {}
    for opt in row.options:
        if opt.name in spec.options:
            try:
                out[opt.name] = convert_option(opt.kind, spec.options[opt.name])
            except ValueError as e:
                raise PassOptionError(f"pass '{spec.name}': option '{opt.name}={spec.options[opt.name]}': {e}") from None
        elif opt.compile_key == "min_sg_size" and "sub_group_sizes" in compile_options:
            out[opt.name] = min(compile_options["sub_group_sizes"])
        elif opt.compile_key is not None and opt.compile_key in compile_options:
            out[opt.name] = compile_options[opt.compile_key]
        else:
            out[opt.name] = opt.default
    return out


def _native_key(name: str) -> str:
    if name.startswith(NATIVE_PREFIX) and name[len(NATIVE_PREFIX):] in NATIVE_BY_NAME:
        return name[len(NATIVE_PREFIX):]
    return canonical_name(name)


def run_native(module: Any, specs: list[PassSpec], compile_options: dict[str, Any], capture: bool = True) -> None:
    """Run consecutive native passes on a triton module in ONE pass manager; NativePassError on failure.

    `capture=False` leaves triton's diagnostics on fd 2 (xpu-opt's forked child collects them there).
    """
    import contextlib

    from triton._C.libtriton import ir

    from xpu_passes.integration.oracle import captured_stderr

    table = _native_table()
    pm = ir.pass_manager(module.context)
    pm.enable_debug()
    for spec in specs:
        key = _native_key(spec.name)
        if key not in table:
            raise UnknownPassError(unknown_pass_message(spec.name))
        table[key].add(pm, native_options(spec, compile_options))
    err = [""]
    with captured_stderr() if capture else contextlib.nullcontext(err) as err:  # type: ignore[attr-defined]
        try:
            pm.run(module)
            failed = ""
        except RuntimeError as e:
            failed = str(e) or "failed"
    if failed:
        names = ", ".join(s.name for s in specs)
        raise NativePassError(err[0].strip() or f"native pass(es) {names} failed: {failed}")
