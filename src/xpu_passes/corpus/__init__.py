"""A corpus of real TTIR/TTGIR: our kernels compiled for PVC by triton-xpu, pass by pass.

`build()` compiles every kernel/config with the native pipeline one pass at a time
and writes the IR before each pass (plus the final TTGIR and static figures) into a
cache directory keyed by the triton version and this package's source.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

CONSTEXPRS = ("BM", "BN", "BK", "HEAD", "BLOCK")  # of the core kernels; `KernelSpec` asks the function
# Modules of kernels, each one family group: `KernelSpec.fn` looks a name up in them in order.
KERNEL_MODULES = ("kernels", "kernels_gemm", "kernels_norm", "kernels_act", "kernels_attn", "kernels_misc")


def kernel_function(name: str) -> Any:
    """The @triton.jit function `name` of the corpus' kernel modules."""
    import importlib

    for module in KERNEL_MODULES:
        mod = importlib.import_module(f"xpu_passes.corpus.{module}")
        if hasattr(mod, name):
            return getattr(mod, name)
    raise KeyError(f"no corpus kernel named '{name}'")


@dataclass(frozen=True)
class Config:
    constexprs: dict[str, int]
    num_warps: int
    num_stages: int = 3

    @property
    def name(self) -> str:
        tile = "x".join(str(v) for v in self.constexprs.values())
        return f"{tile}-w{self.num_warps}-s{self.num_stages}"


@dataclass(frozen=True)
class KernelSpec:
    name: str
    dtypes: dict[str, str]  # pointer arg -> element type (bf16, fp16, fp32, i8, i32, i64)
    floats: tuple[str, ...] = ()  # float scalar args
    configs: tuple[Config, ...] = field(default_factory=tuple)
    function: str = ""  # the kernel's function when several specs (dtypes) share it; default `name`

    @property
    def fn(self) -> Any:
        return kernel_function(self.function or self.name)

    def constexprs(self) -> list[str]:
        return [p.name for p in self.fn.params if p.is_constexpr]

    def signature(self) -> dict[str, str]:
        sig: dict[str, str] = {}
        constexprs = self.constexprs()
        for arg in self.fn.arg_names:
            if arg in constexprs:
                sig[arg] = "constexpr"
            elif arg in self.dtypes:
                sig[arg] = "*" + self.dtypes[arg]
            elif arg in self.floats:
                sig[arg] = "fp32"
            else:
                sig[arg] = "i32"
        return sig

    def attrs(self) -> dict[tuple[int, ...], list[list[Any]]]:
        """Pointers and strides divisible by 16, as Triton's JIT specializes them."""
        out = {}
        for i, arg in enumerate(self.fn.arg_names):
            if arg in self.dtypes or "stride" in arg:
                out[(i,)] = [["tt.divisibility", 16]]
        return out


def _gemm(bm: int, bn: int, bk: int, warps: int, stages: int = 3) -> Config:
    return Config({"BM": bm, "BN": bn, "BK": bk}, warps, stages)


BIG = _gemm(256, 256, 32, 32)
GEMM_CONFIGS = (BIG, _gemm(256, 256, 32, 32, 2), _gemm(256, 128, 32, 32), _gemm(64, 128, 32, 4), _gemm(8, 128, 64, 4))
_AB = {"a_ptr": "bf16", "b_ptr": "bf16", "c_ptr": "fp32"}

SPECS: tuple[KernelSpec, ...] = (
    KernelSpec("gemm_block_ptr", _AB, configs=GEMM_CONFIGS),
    KernelSpec("gemm_add_block_ptr", {**_AB, "d_ptr": "fp32"}, configs=GEMM_CONFIGS),
    KernelSpec("gemm_add_tensor_ptr", {**_AB, "d_ptr": "fp32"}, configs=GEMM_CONFIGS),
    KernelSpec("gemm_gelu", _AB, configs=(BIG, _gemm(64, 128, 32, 4))),
    KernelSpec("gemm_exp_preop", _AB, configs=(BIG,)),
    KernelSpec("gemm_tensor_ptr", _AB, configs=(BIG, _gemm(64, 128, 32, 4))),
    KernelSpec("batched_gemm", _AB, configs=(BIG,)),
    KernelSpec(
        "flash_attention_fwd",
        {"q_ptr": "fp16", "k_ptr": "fp16", "v_ptr": "fp16", "o_ptr": "fp16"},
        floats=("sm_scale",),
        configs=(Config({"BM": 128, "BN": 64, "HEAD": 64}, 8, 3), Config({"BM": 64, "BN": 32, "HEAD": 64}, 4, 2)),
    ),
    KernelSpec(
        "softmax",
        {"out_ptr": "fp32", "in_ptr": "fp32"},
        configs=(Config({"BLOCK": 1024}, 4, 1), Config({"BLOCK": 4096}, 16, 1)),
    ),
    KernelSpec(
        "layer_norm_fwd",
        {"x_ptr": "fp32", "y_ptr": "fp32", "w_ptr": "fp32", "b_ptr": "fp32"},
        floats=("eps",),
        configs=(Config({"BLOCK": 1024}, 8, 1), Config({"BLOCK": 256}, 4, 1)),
    ),
)


from xpu_passes.corpus.workloads import WORKLOADS  # noqa: E402  (needs KernelSpec/Config)

ALL_SPECS: tuple[KernelSpec, ...] = SPECS + WORKLOADS
SETS: dict[str, tuple[KernelSpec, ...]] = {"core": SPECS, "workloads": WORKLOADS, "all": ALL_SPECS}


def find(kernel: str, config: str | None = None) -> tuple[KernelSpec, Config]:
    spec = next(s for s in ALL_SPECS if s.name == kernel)
    return spec, next(c for c in spec.configs if config is None or c.name == config)


# ------------------------------------------------------------ compiling


@dataclass
class Compiled:
    """One kernel/config: IR before every native step, final TTGIR, figures."""

    kernel: str
    config: str
    steps: list[tuple[str, str]]  # (stage/step name, IR before it)
    final_ttir: str
    final_ttgir: str
    figures: dict[str, Any]


def make_ttir_module(spec: KernelSpec, config: Config) -> tuple[Any, Any, Any]:
    """(module as the frontend builds it, options, backend)."""
    from triton.compiler.compiler import ASTSource

    from xpu_passes.integration import oracle

    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large"))
    src = ASTSource(spec.fn, spec.signature(), dict(config.constexprs), spec.attrs())
    mod = src.make_ir(opts, backend.get_codegen_implementation(opts), backend.get_module_map(), oracle.context())
    return mod, opts, backend


def compile_spec(spec: KernelSpec, config: Config) -> Compiled:
    from xpu_passes.integration import oracle

    mod, opts, backend = make_ttir_module(spec, config)
    steps: list[tuple[str, str]] = []
    oracle.run_steps(mod, oracle.native_ttir_steps(opts), lambda n, t: steps.append((f"ttir.{n}", t)))
    final_ttir = str(mod)
    steps.append(("ttgir.input", final_ttir))
    ttgir_steps = oracle.native_ttgir_steps(opts, backend.properties)
    oracle.run_steps(mod, ttgir_steps, lambda n, t: steps.append((f"ttgir.{n}", t)))
    final = str(mod)
    figures = oracle.lower(mod, opts, backend)
    return Compiled(spec.name, config.name, steps, final_ttir, final, asdict(figures))


# ---------------------------------------------------------------- cache


def _cache_key(here: Path = Path(__file__).parent) -> str:
    """Triton's version, the corpus sources' text and where they are: every dump's locations name
    the kernel's source file (read back by tests), so another checkout's dumps are not ours."""
    import triton

    h = hashlib.sha256(triton.__version__.encode())
    h.update(str(here.resolve()).encode())
    for p in sorted(here.glob("*.py")) + [here.parent / "integration" / "oracle" / "__init__.py"]:
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    root = os.environ.get("XPU_PASSES_CORPUS_DIR") or os.path.join(tempfile.gettempdir(), "xpu-passes-corpus")
    return Path(root) / _cache_key()


def _slug(name: str) -> str:
    return re.sub(r"[^\w.\-]", "_", name)


def write(compiled: Compiled, root: Path) -> Path:
    """`root/<kernel>-<config>/NN-before-<step>.mlir`, final.ttir/ttgir, index.json."""
    d = root / f"{compiled.kernel}-{compiled.config}"
    d.mkdir(parents=True, exist_ok=True)
    names = []
    for i, (name, text) in enumerate(compiled.steps):
        fname = f"{i:02d}-before-{_slug(name)}.mlir"
        (d / fname).write_text(text)
        names.append({"file": fname, "step": name})
    (d / "final.ttir").write_text(compiled.final_ttir)
    (d / "final.ttgir").write_text(compiled.final_ttgir)
    index = {"kernel": compiled.kernel, "config": compiled.config, "steps": names, "figures": compiled.figures}
    (d / "index.json.part").write_text(json.dumps(index, indent=1))
    os.replace(d / "index.json.part", d / "index.json")  # last and whole: its presence says the rest is there
    return d


def build(root: Path | None = None, only: str | None = None, specs: str = "core") -> Path:
    """Compile what is missing from the cache (the `specs` set of SETS); return the corpus directory.

    Processes sharing the directory (pytest-xdist's workers) build it one at a time: the
    others wait, then find it complete."""
    root = root or cache_dir()
    wanted = [(s, c) for s in SETS[specs] if not only or s.name == only for c in s.configs]

    def missing() -> list[tuple[KernelSpec, Config]]:
        return [(s, c) for s, c in wanted if not (root / f"{s.name}-{c.name}" / "index.json").exists()]

    if missing():
        with _locked(root):
            for spec, config in missing():
                write(compile_spec(spec, config), root)
    return root


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".build-lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def entries(root: Path | None = None, specs: str = "core") -> list[dict[str, Any]]:
    """index.json of every compiled kernel/config of the `specs` set, with its directory.

    "core": the GEMM/attention/softmax/layer-norm kernels the passes were built around;
    "workloads": the families of kernels people run (corpus/workloads.py); "all": both.
    """
    root = build(root, specs=specs)
    wanted = {f"{s.name}-{c.name}" for s in SETS[specs] for c in s.configs}
    out = []
    for index in sorted(root.glob("*/index.json")):
        if index.parent.name not in wanted:
            continue
        entry = json.loads(index.read_text())
        entry["dir"] = index.parent
        out.append(entry)
    return out


def corpus_dump_files(root: Path | None = None, unique: bool = True) -> list[Path]:
    """Every dump (TTIR and TTGIR); with `unique`, each distinct IR text once."""
    files: list[Path] = []
    seen: set[str] = set()
    for entry in entries(root):
        for p in [entry["dir"] / s["file"] for s in entry["steps"]] + [entry["dir"] / "final.ttgir"]:
            digest = hashlib.sha256(p.read_bytes()).hexdigest()
            if unique and digest in seen:
                continue
            seen.add(digest)
            files.append(p)
    return files


def dumps_before(step: str, root: Path | None = None) -> list[Path]:
    """The TTGIR right before the first run of native `step` in every kernel/config."""
    out = []
    for entry in entries(root):
        for s in entry["steps"]:
            if s["step"] == f"ttgir.{step}":
                out.append(entry["dir"] / s["file"])
                break
    return out


def resume_native(entry: dict[str, Any], step_file: str, text: str) -> Any:
    """Run the native TTGIR steps after `step_file`'s step on `text`, then lower.

    `text` replaces the IR before that step, with the step itself done by the
    caller (e.g. our pass instead of triton-xpu's); returns StaticFigures. With the
    `ttgir.input` file, `text` is the TTIR the stage starts from and every step runs.
    """
    from xpu_passes.integration import oracle

    spec, config = find(entry["kernel"], entry["config"])
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large"))
    ttgir = [s for s in entry["steps"] if s["step"].startswith("ttgir.")]  # ttgir.input first
    start = [s["file"] for s in ttgir].index(step_file)  # = index of the step after it among the real steps
    steps = oracle.native_ttgir_steps(opts, backend.properties)
    assert len(steps) == len(ttgir) - 1 and ttgir[0]["step"] == "ttgir.input"
    mod = oracle.parse(text)
    if start:
        opts.threads_per_warp = oracle.threads_per_warp(mod)  # as the skipped annotate step left it
    oracle.run_steps(mod, steps[start:])
    return oracle.lower(mod, opts, backend)
