"""Capture Triton launches at the JIT layer instead of running them (there is no Intel GPU).

Inside `capturing()`, `JITFunction.run` binds the arguments as triton-xpu would for a PVC
device (its own binder and the XPU backend's argument specialization: signature, pointer and
integer divisibility, constexprs) and records the launch instead of compiling and launching it;
`Autotuner.run` launches every config of the kernel's autotune list (its own pruning when that
works on the CPU) instead of timing them. Nothing is patched outside the context.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

# Options of the launch that are compile options (the rest of triton.compile's options keep their defaults).
OPTION_NAMES = ("num_warps", "num_stages", "num_ctas", "grf_mode", "threads_per_warp", "enable_fp_fusion",
                "supported_fp8_dtypes", "advanced_path")


@dataclass
class Launch:
    """One specialization of one kernel as its library launches it: what `triton.compile` needs."""

    lib: str
    fn: Any  # the JITFunction
    signature: dict[str, str]
    constexprs: dict[tuple[int, ...], Any]
    attrs: dict[tuple[int, ...], list[list[Any]]]
    options: dict[str, Any]
    origin: str = ""  # the library call that launched it
    key: str = ""

    @property
    def kernel(self) -> str:
        return self.fn.__name__ if hasattr(self.fn, "__name__") else self.fn._fn_name

    @property
    def config(self) -> str:
        """Constexprs (ints and bools, as the autotune keys would name them), warps, stages, grf mode."""
        names = self.fn.arg_names
        consts = [f"{names[p[0]]}={_short(v)}" for p, v in sorted(self.constexprs.items()) if len(p) == 1]
        opts = f"w{self.options.get('num_warps', 4)}-s{self.options.get('num_stages', 2)}"
        if self.options.get("grf_mode") not in (None, "default"):
            opts += f"-{self.options['grf_mode']}"
        return ",".join(consts) + "/" + opts

    @property
    def dtypes(self) -> str:
        """The element types of the pointer arguments (what tells a bf16 launch from an fp32 one)."""
        return ",".join(sorted({v[1:] for v in self.signature.values() if v.startswith("*")}))

    @property
    def name(self) -> str:
        return f"{self.lib}.{self.kernel}({self.dtypes})[{self.config}]"


def _short(v: Any) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (int, float, str)) or v is None:
        return str(v)
    return type(v).__name__ if not hasattr(v, "name") else str(v.name)


@dataclass
class Recorder:
    lib: str = ""
    origin: str = ""
    launches: list[Launch] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    max_configs: int = 0  # per autotuned launch; 0: all
    # Launch options a wrapper sets only when its tensors are on an XPU (`x.device.type == "xpu"`), which
    # CPU tensors cannot be: per kernel name, as the library's source sets them.
    xpu_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (library call, why it did not run on the CPU)

    def add(self, launch: Launch) -> None:
        key = f"{launch.fn.fn.__module__}.{launch.kernel}:{launch.signature}{launch.constexprs}{launch.attrs}" \
              f"{sorted(launch.options.items())}"
        if key not in self.seen:
            self.seen.add(key)
            launch.key = key
            self.launches.append(launch)


def _binder(jit: Any, backend: Any) -> Callable[..., Any]:
    from triton.runtime.jit import create_function_from_signature

    cache = jit.__dict__.setdefault("_xpu_passes_binder", {})
    if id(backend) not in cache:
        cache[id(backend)] = create_function_from_signature(jit.signature, jit.params, backend)
    return cache[id(backend)]


def bind(jit: Any, backend: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[dict, dict, dict, dict]:
    """(signature, constexprs, attrs, options) as `JITFunction.run` computes them before `triton.compile`."""
    from triton.runtime.jit import find_paths_if, get_iterable_path

    bound_args, specialization, _ = _binder(jit, backend)(*args, **kwargs)
    sigvals = [x[0] for x in specialization]
    signature = dict(zip((p.name for p in jit.params), sigvals))
    paths = find_paths_if(sigvals, lambda _, val: val == "constexpr")
    constexprs = {p: get_iterable_path(list(bound_args.values()), p) for p in paths}
    attrvals = [x[1] for x in specialization]
    paths = find_paths_if(attrvals, lambda _, x: isinstance(x, str))
    attrs = {p: backend.parse_attr(get_iterable_path(attrvals, p)) for p in paths}
    options = {k: v for k, v in kwargs.items() if k in OPTION_NAMES}
    return signature, constexprs, attrs, options


class _Handle:
    """What a captured launch returns in place of the compiled kernel (some wrappers read it)."""

    n_regs = 0
    n_spills = 0

    def __init__(self) -> None:
        self.metadata = type("Metadata", (), {"shared": 0, "num_warps": 4})()


@contextlib.contextmanager
def capturing(recorder: Recorder) -> Iterator[Recorder]:
    """Launches of @triton.jit / @triton.autotune kernels are recorded in `recorder`, not run."""
    from triton.runtime import autotuner, jit

    from xpu_passes.integration import oracle

    backend = oracle.pvc_backend()
    saved = (jit.JITFunction.run, autotuner.Autotuner.run)

    def run(self: Any, *args: Any, grid: Any = None, warmup: bool = False, **kwargs: Any) -> Any:
        kwargs.update(recorder.xpu_options.get(self.fn.__name__, {}))
        signature, constexprs, attrs, options = bind(self, backend, args, kwargs)
        recorder.add(Launch(recorder.lib, self, signature, constexprs, attrs, options, recorder.origin))
        return _Handle()

    def tune(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.nargs = dict(zip(self.arg_names, args))
        try:
            configs = self.prune_configs(kwargs)
        except Exception:  # noqa: BLE001 - a pruning model that needs a GPU: every config
            configs = self.configs
        if recorder.max_configs:
            configs = spread(list(configs), recorder.max_configs)
        for config in configs:
            self.fn.run(*args, **kwargs, **config.all_kwargs())
        self.nargs = None
        self.best_config = list(configs)[-1] if configs else self.configs[0]  # what wrappers read after a run
        return _Handle()

    # Libraries' own autotuners (subclasses overriding `run`) are launched the same way.
    tuners = [c for c in _subclasses(autotuner.Autotuner) if "run" in c.__dict__]
    saved_tuners = [(c, c.__dict__["run"]) for c in tuners]
    jit.JITFunction.run, autotuner.Autotuner.run = run, tune
    for c in tuners:
        c.run = tune
    try:
        yield recorder
    finally:
        jit.JITFunction.run, autotuner.Autotuner.run = saved
        for c, r in saved_tuners:
            c.run = r


def _subclasses(cls: type) -> list[type]:
    out = []
    for c in cls.__subclasses__():
        out += [c, *_subclasses(c)]
    return out


def spread(items: list[Any], n: int) -> list[Any]:
    """`n` items evenly spread over `items` (first and last included): a bounded sample of a config list."""
    if len(items) <= n:
        return items
    if n == 1:
        return items[:1]
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]
