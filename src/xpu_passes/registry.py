"""The pass registry: ours, triton-xpu's native passes, and passes other packages install.

Cheap to import (no xDSL, no triton): our passes are named here and imported when run,
native passes come from the static table in `native_table` (integration/native_passes.py runs them), installed passes from the
entry-point group `xpu_passes.passes` (`name = "module:Class"`), loaded only when used.
Pipeline text is MLIR's (`builtin.module(a, b{x=1 y=2}, c)`), read and written by pipeline_syntax.
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xpu_passes.native_table import NATIVE_BY_NAME, NATIVE_TABLE, NativeOption
from xpu_passes.pipeline_syntax import (  # re-exported: part of the registry's API
    PassSpec,
    PipelineError,
    PipelineSyntaxError,
    format_pipeline,
    parse_options_text,
    parse_pipeline,
)

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

ENTRY_POINT_GROUP = "xpu_passes.passes"

MBP = "tritonintelgpu-materialize-block-pointer"
RLC = "tritonintelgpu-remove-layout-conversions"
RTP = "tritonintelgpu-rewrite-tensor-pointer"
RAISE = "triton-raise-block-pointer"
OBIO = "tritonintelgpu-optimize-block-io-encoding"
LEGAL = "tritonintelgpu-legalize-block-io-encoding"
SLICE = "xpu-slice-epilogue"
ORL = "tritonintelgpu-optimize-reduction-locality"
SLICE_RED = "xpu-slice-reduction"
RVL = "tritonintelgpu-reduce-variable-liveness"
OSV = "xpu-order-store-values"
ESC = "xpu-early-slm-conversions"
NMD = "xpu-narrow-masked-dims"
SFD = "xpu-split-fma-dots"

# Ours: flag -> (module under xpu_passes.transforms, summary). Imported only when run.
OURS: dict[str, tuple[str, str]] = {
    MBP: ("materialize_block_pointer", "tag loads/stores 2D block I/O can serve (ttig.block_io)"),
    RLC: ("remove_layout_conversions", "remove layout conversions (remat / forward propagation)"),
    RTP: ("rewrite_tensor_pointer", "block pointers to tensors of pointers; the DPAS guard keeps 2D ones"),
    RAISE: ("raise_block_pointer", "raise pointer arithmetic to block pointers (TTIR)"),
    OBIO: ("optimize_block_io_encoding", "Subgroup2DBlock layouts for block-io loads feeding dots"),
    LEGAL: ("legalize_block_io_encoding", "fold Subgroup2DBlock layouts for triton-xpu 3.3"),
    SLICE: ("slice_epilogue", "GEMM epilogue that branches per element or gathers, in register slices, under a bounds guard"),
    ORL: ("optimize_reduction_locality", "reduce a DPAS tile's rows in registers first (Intel main's pass)"),
    SLICE_RED: ("slice_reduction", "a reduction along an axis held in registers computed row by row (scf.for)"),
    RVL: ("reduce_variable_liveness", "move loads of a loop's DPAS dot operands closer to their dot (Intel main's pass, and read order)"),
    OSV: ("order_store_values", "compute a block's stored values narrowest first"),
    ESC: ("early_slm_conversions", "make a conversion through SLM before the global loads it does not read"),
    NMD: ("narrow_masked_dims", "narrow a tile dimension whose indices past K every store masks off to K"),
    SFD: ("split_fma_dots", "a dot lowered to FMAs computed over K chunks of its SLM-staged operands"),
}
# Options of ours (MLIR name, type, default) for -list-passes without importing the passes;
# a test checks them against the passes' dataclass fields.
OUR_OPTIONS: dict[str, tuple[NativeOption, ...]] = {
    RLC: (NativeOption("max-backward-remat-iterations", int, 4),
          NativeOption("max-work-per-op", int, 100),
          NativeOption("never-worse-than-native", bool, False),  # (read by the round trip and xpu-opt)
          NativeOption("check-incremental", bool, False),  # (default: XPU_PASSES_RLC_CHECK when set)
          NativeOption("in-place", bool, True)),
    MBP: (NativeOption("max-work-per-op", int, 50),),  # (transforms.base.LINEAR_WORK_PER_OP)
    RTP: (NativeOption("guard", bool, True), NativeOption("max-work-per-op", int, 50)),
    OBIO: (NativeOption("max-work-per-op", int, 50),),
    ORL: (NativeOption("max-work-per-op", int, 50),),
    SLICE_RED: (NativeOption("min-registers", int, 64), NativeOption("chunk-registers", int, 64),
                NativeOption("max-work-per-op", int, 50)),
    RVL: (NativeOption("order-operand-reads", bool, True), NativeOption("min-live-grf", int, 128),
          NativeOption("reload-invariant-operands", bool, True), NativeOption("sink-straight-loads", bool, False),
          NativeOption("max-work-per-op", int, 50)),
    OSV: (NativeOption("max-work-per-op", int, 50),),
    ESC: (NativeOption("max-work-per-op", int, 50),),
    NMD: (NativeOption("max-work-per-op", int, 50),),
    SFD: (NativeOption("max-live-bytes", int, 320), NativeOption("max-work-per-op", int, 50)),
    RAISE: (NativeOption("ignore-masks", bool, False), NativeOption("version", bool, True),
            NativeOption("dot-only", bool, False), NativeOption("block-io-only", bool, False),
            NativeOption("skip-transposed-reuse", bool, True), NativeOption("wide-positions", bool, False),
            NativeOption("num-warps", int, 0), NativeOption("grf-mode", str, ""),
            NativeOption("never-worse-than-native", bool, False),  # (read by the pipeline)
            NativeOption("max-work-per-op", int, 50)),
    LEGAL: (NativeOption("fold-register-permutations", bool, True), NativeOption("max-work-per-op", int, 50)),
    SLICE: (NativeOption("slice-registers", int, 64), NativeOption("gather-slice-registers", int, 16),
            NativeOption("min-registers", int, 64), NativeOption("max-work-per-op", int, 50)),
}
# Old names of ours -> the canonical (Intel's) flag.
ALIASES: dict[str, str] = {"tritonintelgpu-raise-block-pointer": RAISE}

# A native pass that one of ours shadows is reachable with this prefix (`native-tritonintelgpu-...`).
NATIVE_PREFIX = "native-"

# Pass-order declarations of ours (other passes declare `requires` / `must_precede` / `followed_by`
# as class attributes): a pass -> passes that must run before it / must not run before it /
# one of which must run after it.
REQUIRES: dict[str, tuple[str, ...]] = {RTP: (MBP,), OBIO: (MBP,), LEGAL: (OBIO,)}
MUST_PRECEDE: dict[str, tuple[str, ...]] = {RAISE: ("convert-triton-to-tritongpu",)}
FOLLOWED_BY: dict[str, tuple[str, ...]] = {OBIO: (RLC,)}

__all__ = [
    "NativeOption", "PassSpec", "PipelineError", "PipelineSyntaxError", "check_order",
    "canonical_name", "format_pipeline", "is_native", "parse_options_text", "parse_pipeline",
    "python_pass", "python_passes", "register_pass", "unknown_pass_message",
]


class UnknownPassError(PipelineError):
    pass


class PassOptionError(PipelineError):
    pass


@dataclass(frozen=True)
class PassInfo:
    name: str
    kind: str  # "ours" | "native" | "installed" | "registered"
    summary: str = ""
    package: str = ""  # for installed passes: the distribution and its version
    target: str = ""  # for installed passes: "module:Class"


# ----------------------------------------------------------------- python passes

# The one registry of Python pass classes: ours (their modules register them when imported,
# `transforms.base.register` is this decorator) and those of `register_pass` users.
_REGISTERED: dict[str, type[ModulePass]] = {}


def register_pass(cls: type[ModulePass]) -> type[ModulePass]:
    """Class decorator: make an xDSL ModulePass available to xpu-opt and pipeline texts by its `name`."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"{cls.__qualname__} has no pass name (a class attribute `name`)")
    if name in OURS and cls.__module__ != _our_module(name):
        return cls  # ours' flags stay ours (as python_passes and list_passes rank them)
    _REGISTERED[name] = cls
    return cls


def _our_module(name: str) -> str:
    return f"xpu_passes.transforms.{OURS[name][0]}"


def _our_factory(name: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        importlib.import_module(_our_module(name))
        if name in _REGISTERED:
            return _REGISTERED[name]
        raise UnknownPassError(f"{_our_module(name)} does not define pass '{name}'")

    return load


class OurPasses(Mapping[str, "Callable[[], type[ModulePass]]"]):
    """Ours by flag -> a factory importing the pass's module: a view of OURS and the registry."""

    def __getitem__(self, name: str) -> Callable[[], type[ModulePass]]:
        if name not in OURS:
            raise KeyError(name)
        return _our_factory(name)

    def __iter__(self) -> Iterator[str]:
        return iter(OURS)

    def __len__(self) -> int:
        return len(OURS)


OUR_PASSES = OurPasses()


_EP_CACHE: dict[tuple[str, ...], list[Any]] = {}


def _entry_points() -> list[Any]:
    """The group's entry points; scanned once per sys.path (a scan reads every installed dist-info)."""
    import sys
    from importlib.metadata import entry_points

    key = tuple(sys.path)
    if key not in _EP_CACHE:
        _EP_CACHE[key] = list(entry_points(group=ENTRY_POINT_GROUP))
    return _EP_CACHE[key]


def refresh_entry_points() -> None:
    """Forget scanned entry points (after installing a pass package into the running process's path)."""
    _EP_CACHE.clear()


def _ep_factory(ep: Any) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        try:
            cls = ep.load()
        except Exception as e:
            raise UnknownPassError(f"pass '{ep.name}' ({ep.value}) cannot be loaded: {type(e).__name__}: {e}") from None
        if getattr(cls, "name", None) != ep.name:
            raise UnknownPassError(f"pass '{ep.name}': {ep.value} is named '{getattr(cls, 'name', None)}'")
        return cls

    return load


def python_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every Python pass by flag: ours, then installed (entry points), then register_pass; loaded lazily."""
    out: dict[str, Callable[[], type[ModulePass]]] = {}
    for ep in _entry_points():
        out.setdefault(ep.name, _ep_factory(ep))
    for name, cls in _REGISTERED.items():
        out[name] = (lambda c: lambda: c)(cls)
    for name in OURS:
        out[name] = _our_factory(name)
    return out


def python_pass(name: str) -> Callable[[], type[ModulePass]] | None:
    """`python_passes().get(name)`; installed passes' entry points are scanned only for a name
    neither ours nor registered (the scan imports importlib.metadata and reads every dist-info)."""
    if name in OURS:
        return _our_factory(name)
    if name in _REGISTERED:
        cls = _REGISTERED[name]
        return lambda: cls
    for ep in _entry_points():  # (the first of a name, as python_passes takes it)
        if ep.name == name:
            return _ep_factory(ep)
    return None


def list_passes() -> list[PassInfo]:
    """Every pass with its kind, without importing any pass package."""
    infos: dict[str, PassInfo] = {}
    for row in NATIVE_TABLE:
        infos[row.name] = PassInfo(row.name, "native", row.summary)
    for ep in _entry_points():
        dist = getattr(ep, "dist", None)
        pkg = f"{dist.name} {dist.version}" if dist is not None else ""
        infos.setdefault(ep.name, PassInfo(ep.name, "installed", "", pkg, ep.value))
    for name, cls in _REGISTERED.items():
        infos[name] = PassInfo(name, "registered", getattr(cls, "summary", "") or "", cls.__module__)
    for name, (_, summary) in OURS.items():
        if name in NATIVE_BY_NAME:
            n = NATIVE_PREFIX + name
            infos[n] = PassInfo(n, "native", NATIVE_BY_NAME[name].summary)
        infos[name] = PassInfo(name, "ours", summary)
    for alias, name in ALIASES.items():
        infos[alias] = PassInfo(alias, "ours", f"alias of {name}")
    return sorted(infos.values(), key=lambda i: i.name)


def canonical_name(name: str) -> str:
    return ALIASES.get(name, name)


def is_native(name: str) -> bool:
    """True when `name` runs a triton-xpu pass (ours shadow native passes of the same name)."""
    if name.startswith(NATIVE_PREFIX) and name[len(NATIVE_PREFIX):] in NATIVE_BY_NAME:
        return True
    name = canonical_name(name)
    return name in NATIVE_BY_NAME and python_pass(name) is None


def native_name(name: str) -> str:
    """The flag that runs triton-xpu's pass `name` even where one of ours has that name."""
    return NATIVE_PREFIX + name if name in OURS else name


def all_names() -> list[str]:
    return [i.name for i in list_passes()]


def unknown_pass_message(name: str, column: int = 0) -> str:
    import difflib  # (only for an unknown pass: not imported at start-up)

    close = difflib.get_close_matches(name, all_names(), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else " (xpu-opt --list-passes lists them)"
    where = f" at column {column} of the pipeline" if column else ""
    return f"unknown pass '{name}'{where}{hint}"


def pass_class(name: str) -> type[ModulePass]:
    factory = python_pass(canonical_name(name))
    if factory is None:
        raise UnknownPassError(unknown_pass_message(name))
    return factory()


# ------------------------------------------------------------------- options


def _to_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("", "true", "1", "on", "yes"):
        return True
    if low in ("false", "0", "off", "no"):
        return False
    raise ValueError(f"expected true or false, got '{text}'")


def convert_option(kind: Any, text: str) -> Any:
    origin = typing.get_origin(kind)
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)) and len(args) == 1:
        return convert_option(args[0], text)
    if kind is bool:
        return _to_bool(text)
    if kind in (int, float):
        try:
            return int(text, 0) if kind is int else float(text)
        except ValueError:
            raise ValueError(f"expected {'an integer' if kind is int else 'a number'}, got '{text}'") from None
    if kind is str:
        return text
    if kind is list or origin in (list, tuple):
        item = args[0] if args else str
        items = [convert_option(item, t.strip()) for t in text.strip("{}[]").split(",") if t.strip()]
        return tuple(items) if origin is tuple else items
    raise ValueError(f"unsupported option type {kind}")


def option_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """A pass's options: its init fields, but those marked internal (test-only hooks, not text)."""
    return [f for f in dataclasses.fields(cls) if f.init and not f.metadata.get("internal")]  # type: ignore[arg-type]


def make_pass(spec: PassSpec) -> ModulePass:
    """An instance of the Python pass `spec.name` with its options (MLIR kebab-case or field names)."""
    cls = pass_class(spec.name)
    if not dataclasses.is_dataclass(cls):
        if spec.options:
            raise PassOptionError(f"pass '{spec.name}' takes no options")
        return cls()
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in option_fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, text in spec.options.items():
        field = key.replace("-", "_")
        if field not in fields:
            have = ", ".join(f.replace("_", "-") for f in fields) or "none"
            raise PassOptionError(f"pass '{spec.name}': unknown option '{key}' (options: {have})")
        try:
            kwargs[field] = convert_option(hints.get(field, str), text)
        except ValueError as e:
            raise PassOptionError(f"pass '{spec.name}': option '{key}={text}': {e}") from None
    return cls(**kwargs)


# --------------------------------------------------------------------- order


def _declared(name: str, attr: str, ours: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    if name in ours or name in OURS or is_native(name):
        return ours.get(name, ())
    factory = python_pass(name)
    if factory is None:
        return ()
    return tuple(canonical_name(n) for n in getattr(factory(), attr, ()) or ())


def check_order(names: list[str], complete: bool = True) -> None:
    """Refuse pipelines that run a pass before what it requires, or after what it must precede.

    `complete=False` (xpu-opt, whose input may already have been through earlier passes): a
    required pass only has to come first when it is in the pipeline at all.
    """
    names = [canonical_name(n) for n in names]
    for i, name in enumerate(names):
        for dep in _declared(name, "requires", REQUIRES):
            if dep not in names[:i] and (complete or dep in names[i + 1 :]):
                raise PipelineError(f"'{name}' must run after '{dep}' (it relies on its results)")
        for later in _declared(name, "must_precede", MUST_PRECEDE):
            if later in names[:i]:
                raise PipelineError(f"'{name}' must run before '{later}'")
        follow = _declared(name, "followed_by", FOLLOWED_BY)
        if complete and follow and not any(f in names[i + 1 :] for f in follow):
            raise PipelineError(f"'{name}' must be followed by '{follow[0]}'")
